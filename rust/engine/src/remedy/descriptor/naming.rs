//! Names protoc makes up: a field's JSON name, a map field's entry message, a proto3
//! `optional` field's synthetic oneof. A compiled set has them as protoc made them from the
//! source, so an edited set must make them the same way.

use std::collections::HashSet;

/// protoc's `ToJsonName`: each `_` dropped and the letter after it upper-cased.
pub fn json_name(name: &str) -> String {
    camel(name, false)
}

/// protoc's `MapEntryName`: `tag_counts` → `TagCountsEntry`.
pub fn map_entry(field: &str) -> String {
    let mut out = camel(field, true);
    out.push_str("Entry");
    out
}

/// `name` with each `_` dropped and the letter after it upper-cased (and the first letter,
/// with `first_upper`), as both of protoc's derived names write it.
fn camel(name: &str, first_upper: bool) -> String {
    let mut out = String::with_capacity(name.len() + 5);
    let mut capitalize = first_upper;
    for c in name.chars() {
        if c == '_' {
            capitalize = true;
        } else if capitalize {
            out.push(c.to_ascii_uppercase());
            capitalize = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The synthetic oneofs protoc's parser gives a message's proto3 `optional` fields, in their
/// order: `_name`, with `X` prepended until it clashes with no field, oneof or earlier
/// synthetic oneof (a name that already starts with `_` gets no second one).
pub fn synthetic_oneofs<'n>(
    fields: impl IntoIterator<Item = &'n str>,
    oneofs: impl IntoIterator<Item = &'n str>,
    optional: impl IntoIterator<Item = &'n str>,
) -> Vec<String> {
    let mut taken: HashSet<String> = fields.into_iter().map(str::to_owned).collect();
    taken.extend(oneofs.into_iter().map(str::to_owned));
    let mut made = Vec::new();
    for field in optional {
        let mut name = if field.starts_with('_') {
            field.to_owned()
        } else {
            format!("_{field}")
        };
        while taken.contains(&name) {
            name.insert(0, 'X');
        }
        taken.insert(name.clone());
        made.push(name);
    }
    made
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_protoc_makes_them() {
        assert_eq!(json_name("unit_price_v2"), "unitPriceV2");
        assert_eq!(json_name("_x__y"), "XY");
        assert_eq!(map_entry("tag_counts"), "TagCountsEntry");
        assert_eq!(map_entry("tags"), "TagsEntry");
        assert_eq!(
            synthetic_oneofs(["a", "_b", "_a"], [], ["a", "_b"]),
            ["X_a", "X_b"]
        );
        assert_eq!(synthetic_oneofs(["note"], ["pick"], ["note"]), ["_note"]);
    }
}
