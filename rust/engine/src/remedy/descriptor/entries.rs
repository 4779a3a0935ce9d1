//! Comparing what no name keys: a message's entries by field number, in the order the wire
//! has them within a number (which is all that protobuf gives meaning to), sub-messages the
//! same way; and the names options and features have, to say which one differs.

use std::collections::BTreeMap;

use super::tree::{Kind, Message, Value};

/// `m` with its entries in field-number order (stable within a number), all the way down.
pub(super) fn canonical(m: &Message) -> Message {
    let mut fields = m.fields.clone();
    fields.sort_by_key(|f| f.number);
    for f in &mut fields {
        if let Value::Message(inner) = &f.value {
            f.value = Value::Message(canonical(inner));
        }
    }
    Message {
        kind: m.kind,
        fields,
    }
}

/// The entries of `m` by field number, leaving out `skip`.
pub(super) fn by_number<'m>(m: &'m Message, skip: &[u32]) -> BTreeMap<u32, Vec<&'m Value>> {
    let mut out: BTreeMap<u32, Vec<&Value>> = BTreeMap::new();
    for f in &m.fields {
        if !skip.contains(&f.number) {
            out.entry(f.number).or_default().push(&f.value);
        }
    }
    out
}

fn same(a: &[&Value], b: &[&Value]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Value::Message(x), Value::Message(y)) => canonical(x) == canonical(y),
            _ => x == y,
        })
}

/// How an entry differs: `(number, there intended, there compiled)` for each number whose
/// entries are not the same, leaving out `skip`.
pub(super) fn differing(a: &Message, b: &Message, skip: &[u32]) -> Vec<(u32, bool, bool)> {
    let (x, y) = (by_number(a, skip), by_number(b, skip));
    let mut numbers: Vec<u32> = x.keys().chain(y.keys()).copied().collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
        .into_iter()
        .filter_map(|n| {
            let (p, q) = (x.get(&n), y.get(&n));
            let equal = match (p, q) {
                (Some(p), Some(q)) => same(p, q),
                _ => false,
            };
            (!equal).then_some((n, p.is_some(), q.is_some()))
        })
        .collect()
}

/// Differences between two option messages, each said as `option NAME is there, but no fix
/// adds it` / `is missing` / `differs`; a feature set's features one by one.
pub(super) fn options(a: Option<&Message>, b: Option<&Message>, kind: Kind) -> Vec<String> {
    let empty = Message::new(kind);
    let (a, b) = (a.unwrap_or(&empty), b.unwrap_or(&empty));
    let mut out = Vec::new();
    for (n, here, there) in differing(a, b, &[]) {
        let sub = kind.child(n);
        if let (Some(sub @ Kind::FeatureSet), true, true) = (sub, here, there) {
            for line in options(a.message(n), b.message(n), sub) {
                out.push(line.replacen("option ", "option features.", 1));
            }
            continue;
        }
        out.push(format!(
            "option {} {}",
            option_name(kind, n),
            presence(here, there)
        ));
    }
    out
}

/// How an entry stands: only compiled, only intended, or both but different.
pub(super) fn presence(intended: bool, compiled: bool) -> &'static str {
    match (intended, compiled) {
        (false, true) => "is there, but no fix adds it",
        (true, false) => "is missing",
        _ => "differs",
    }
}

/// An option's name as a `.proto` file writes it; a custom one by number.
pub(super) fn option_name(kind: Kind, number: u32) -> String {
    use Kind::*;
    let known = match (kind, number) {
        (_, 999) => "uninterpreted_option",
        (FileOptions, 1) => "java_package",
        (FileOptions, 8) => "java_outer_classname",
        (FileOptions, 9) => "optimize_for",
        (FileOptions, 10) => "java_multiple_files",
        (FileOptions, 11) => "go_package",
        (FileOptions, 16) => "cc_generic_services",
        (FileOptions, 17) => "java_generic_services",
        (FileOptions, 18) => "py_generic_services",
        (FileOptions, 20) => "java_generate_equals_and_hash",
        (FileOptions, 23) => "deprecated",
        (FileOptions, 27) => "java_string_check_utf8",
        (FileOptions, 31) => "cc_enable_arenas",
        (FileOptions, 36) => "objc_class_prefix",
        (FileOptions, 37) => "csharp_namespace",
        (FileOptions, 39) => "swift_prefix",
        (FileOptions, 40) => "php_class_prefix",
        (FileOptions, 41) => "php_namespace",
        (FileOptions, 44) => "php_metadata_namespace",
        (FileOptions, 45) => "ruby_package",
        (MessageOptions, 1) => "message_set_wire_format",
        (MessageOptions, 2) => "no_standard_descriptor_accessor",
        (MessageOptions, 3) | (FieldOptions, 3) | (EnumOptions, 3) => "deprecated",
        (EnumValueOptions, 1) | (ServiceOptions, 33) | (MethodOptions, 33) => "deprecated",
        (MessageOptions, 7) => "map_entry",
        (MessageOptions, 11) | (EnumOptions, 6) => "deprecated_legacy_json_field_conflicts",
        (FieldOptions, 1) => "ctype",
        (FieldOptions, 2) => "packed",
        (FieldOptions, 5) => "lazy",
        (FieldOptions, 6) => "jstype",
        (FieldOptions, 10) => "weak",
        (FieldOptions, 15) => "unverified_lazy",
        (FieldOptions, 16) | (EnumValueOptions, 3) => "debug_redact",
        (FieldOptions, 17) => "retention",
        (FieldOptions, 19) => "targets",
        (FieldOptions, 20) => "edition_defaults",
        (FieldOptions, 22) | (EnumValueOptions, 4) => "feature_support",
        (EnumOptions, 2) => "allow_alias",
        (MethodOptions, 34) => "idempotency_level",
        (FeatureSet, 1) => "field_presence",
        (FeatureSet, 2) => "enum_type",
        (FeatureSet, 3) => "repeated_field_encoding",
        (FeatureSet, 4) => "utf8_validation",
        (FeatureSet, 5) => "message_encoding",
        (FeatureSet, 6) => "json_format",
        (FeatureSet, 7) => "enforce_naming_style",
        (FeatureSet, 8) => "default_symbol_visibility",
        (kind, n) if kind.child(n) == Some(Kind::FeatureSet) => "features",
        _ => return format!("({number})"),
    };
    known.to_owned()
}
