//! How an existing field is written again in the new schema's syntax: label, type, options.

use crate::model::{Cardinality, FieldRef, Kind, Scalar, Syntax};

/// The type as a `.proto` file writes it: `int64`, `.shop.Money` (fully qualified, so it reads
/// the same from any package), `map<string, .shop.Item>`. `None` for a group, which cannot be
/// written as one declaration.
pub(crate) fn type_text(field: FieldRef<'_>) -> Option<String> {
    Some(match field.kind() {
        Kind::Scalar(s) => s.name().to_owned(),
        Kind::Enum(e) => format!(".{}", e.full_name()),
        Kind::Message(m) if field.is_map() => {
            let key = m.field(1)?;
            let value = m.field(2)?;
            format!("map<{}, {}>", type_text(key)?, type_text(value)?)
        }
        Kind::Message(m) => format!(".{}", m.full_name()),
        Kind::Group(_) => return None,
    })
}

/// `old` declared as `name = number` in a message of `syntax`, with `extra` options after its
/// own: the label and options that keep what the old field meant (packing, presence, default,
/// encoding), where the syntax can say them.
pub(crate) fn declaration(
    old: FieldRef<'_>,
    syntax: Syntax,
    name: &str,
    number: u32,
    extra: &[(&str, String)],
) -> Option<String> {
    let ty = type_text(old)?;
    let mut options: Vec<(String, String)> = Vec::new();
    let editions = matches!(syntax, Syntax::Edition2023 | Syntax::Edition2024);
    let label = match old.cardinality() {
        Cardinality::Repeated if old.is_map() => "",
        Cardinality::Repeated => "repeated ",
        Cardinality::Required if editions => {
            options.push(("features.field_presence".into(), "LEGACY_REQUIRED".into()));
            ""
        }
        // proto3 cannot say required: a remedy that needs it gives advice instead.
        Cardinality::Required if syntax == Syntax::Proto3 => return None,
        Cardinality::Required => "required ",
        Cardinality::Optional => match syntax {
            Syntax::Proto2 => "optional ",
            Syntax::Proto3 if old.has_presence() && old.kind().message().is_none() => "optional ",
            Syntax::Proto3 => "",
            _ => {
                if old.kind().message().is_none() {
                    let presence = if old.has_presence() {
                        "EXPLICIT"
                    } else {
                        "IMPLICIT"
                    };
                    options.push(("features.field_presence".into(), presence.into()));
                }
                ""
            }
        },
    };
    if old.is_repeated() && packable(old) {
        options.push(packing(old.is_packed(), syntax));
    }
    if let Some(default) = default_literal(old) {
        if syntax != Syntax::Proto3 && old.declares_default() {
            options.push(("default".into(), default));
        }
    }
    if editions && old.is_delimited() && matches!(old.kind(), Kind::Message(_)) {
        options.push(("features.message_encoding".into(), "DELIMITED".into()));
    }
    options.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
    let options = if options.is_empty() {
        String::new()
    } else {
        let listed: Vec<String> = options.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        format!(" [{}]", listed.join(", "))
    };
    Some(format!("{label}{ty} {name} = {number}{options};"))
}

/// `old` declared again as it was, under its own name and number, `[deprecated = true]`: the
/// old field a remedy keeps beside a new one.
pub(crate) fn kept_deprecated(old: FieldRef<'_>, syntax: Syntax) -> Option<String> {
    declaration(
        old,
        syntax,
        old.name(),
        old.number(),
        &[("deprecated", "true".to_owned())],
    )
}

/// Whether the field's type can be packed.
pub(crate) fn packable(field: FieldRef<'_>) -> bool {
    match field.kind() {
        Kind::Scalar(s) => s.is_packable(),
        Kind::Enum(_) => true,
        _ => false,
    }
}

/// The option that says `packed` in `syntax`.
pub(crate) fn packing(packed: bool, syntax: Syntax) -> (String, String) {
    match syntax {
        Syntax::Proto2 | Syntax::Proto3 => ("packed".into(), packed.to_string()),
        _ => (
            "features.repeated_field_encoding".into(),
            if packed { "PACKED" } else { "EXPANDED" }.into(),
        ),
    }
}

/// The field's default as a `.proto` literal: the declared one, else its type's (zero, false,
/// empty, or the enum's first value). `None` for a message.
pub(crate) fn default_literal(field: FieldRef<'_>) -> Option<String> {
    let kind = field.kind();
    if let Some(text) = field.declared_default() {
        return Some(match kind {
            Kind::Scalar(Scalar::String) => quote(text.as_bytes()),
            // The descriptor keeps bytes C-escaped, as a literal writes them.
            Kind::Scalar(Scalar::Bytes) => format!("\"{text}\""),
            _ => text.to_owned(),
        });
    }
    Some(match kind {
        Kind::Scalar(Scalar::Bool) => "false".into(),
        Kind::Scalar(Scalar::String | Scalar::Bytes) => "\"\"".into(),
        Kind::Scalar(_) => "0".into(),
        Kind::Enum(e) => e.value_named_by(e.first_number())?.to_owned(),
        Kind::Message(_) | Kind::Group(_) => return None,
    })
}

/// A string literal of `bytes`: printable ASCII as is, the rest as octal escapes.
fn quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn a_string_literal_escapes_what_a_proto_file_cannot_hold() {
        assert_eq!(quote(b"a\"b\\c\n\xc3\xa9"), r#""a\"b\\c\012\303\251""#);
    }
}
