//! The one printer of what a remedy writes: identifiers, type names, literals, option lists,
//! field and enum value declarations. Names and values come from schemas an uploader chose, so
//! every identifier is checked to be one (a name that is not cannot be written, and its remedy
//! is refused) and every string or bytes value is escaped: what is printed parses back, in
//! protoc and in protox, to exactly the value it was made from, and to nothing else.

use std::fmt;

use super::edit::{Edit, FieldType, NewField, Value};
use crate::model::Syntax;
use crate::text::bound;

/// Why a remedy cannot be written: a name from a schema that is not an identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unprintable {
    /// What the text was to be: `a field name`, `an enum value's name`.
    pub what: &'static str,
    /// The text, bounded and escaped for one line.
    pub text: String,
}

impl fmt::Display for Unprintable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} `{}` is not an identifier a .proto file can write",
            self.what, self.text
        )
    }
}

fn unprintable(what: &'static str, text: &str) -> Unprintable {
    Unprintable {
        what,
        text: bound(&text.escape_default().to_string(), 80),
    }
}

/// `name` if it is an identifier (`[A-Za-z_][A-Za-z0-9_]*`), as protoc's tokenizer reads one.
pub fn identifier<'n>(name: &'n str, what: &'static str) -> Result<&'n str, Unprintable> {
    let mut bytes = name.bytes();
    let first = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
    if first && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        Ok(name)
    } else {
        Err(unprintable(what, name))
    }
}

/// A full name (`shop.Money`) written fully qualified: `.shop.Money`, each part an identifier.
pub fn type_name(full: &str) -> Result<String, Unprintable> {
    let mut out = String::with_capacity(full.len() + 1);
    for part in full.split('.') {
        identifier(part, "a type name").map_err(|_| unprintable("a type name", full))?;
        out.push('.');
        out.push_str(part);
    }
    Ok(out)
}

/// A field's type as a declaration writes it.
pub fn field_type(ty: &FieldType) -> Result<String, Unprintable> {
    Ok(match ty {
        FieldType::Scalar(s) => s.name().to_owned(),
        FieldType::Message(full) | FieldType::Enum(full) => type_name(full)?,
        FieldType::Map { key, value } => format!("map<{}, {}>", key.name(), field_type(value)?),
    })
}

/// A value as a literal: `true`, `-3`, `1e+300`, `inf`, `"a\"b\012"`, `EUR`.
pub fn literal(value: &Value) -> Result<String, Unprintable> {
    Ok(match value {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Float(f) => float(*f),
        Value::String(s) => quoted(s.as_bytes()),
        Value::Bytes(b) => quoted(b),
        Value::Ident(name) => identifier(name, "an enum value's name")?.to_owned(),
    })
}

/// A float as a literal both compilers read back to the same `f64`: `inf`, `-inf` and `nan` by
/// name, else Rust's shortest round-trip digits (`0.1`, `1e300`, `-0.0`, `5e-324`), which the
/// tokenizer takes and which never overflow or underflow when read. `-0.0` keeps its sign; a
/// NaN's sign and payload no compiler keeps (protoc stores `-nan` as `nan`). A `float` field's
/// default protoc narrows as it compiles and protox keeps as a double: the same f32 but at
/// ±(2^128 - 2^103), a tie IEEE rounds to infinity and protoc to `f32::MAX`, whatever the text.
fn float(f: f64) -> String {
    if f.is_nan() {
        "nan".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        format!("{f:?}")
    }
}

/// A string literal of `bytes`: printable ASCII as it is, but for `"` and `\`, and every other
/// byte as a three-digit octal escape, so that no newline, quote or control character of a
/// value can end the literal, and a non-UTF-8 byte of a bytes value survives.
fn quoted(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
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

/// The text descriptor.proto keeps for a default, as an applied edit holds it: the value protoc
/// stores for the literal [`literal`] prints (a string as it is, bytes C-escaped, an enum value
/// by name), though not always its text (protoc writes `1e+300`, and a float field's as an f32).
pub fn descriptor_default(value: &Value) -> Result<String, Unprintable> {
    Ok(match value {
        Value::String(s) => s.clone(),
        Value::Bytes(b) => c_escaped(b),
        other => literal(other)?,
    })
}

/// protoc's `CEscape`: what a bytes default is stored as.
fn c_escaped(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

/// ` [a = b, c = d]`, or nothing.
fn options<'o>(
    options: impl IntoIterator<Item = (&'o str, &'o Value)>,
) -> Result<String, Unprintable> {
    let listed = options
        .into_iter()
        .map(|(name, value)| Ok(format!("{name} = {}", literal(value)?)))
        .collect::<Result<Vec<String>, Unprintable>>()?;
    Ok(if listed.is_empty() {
        String::new()
    } else {
        format!(" [{}]", listed.join(", "))
    })
}

/// `name = value` of one option.
pub fn option(name: &str, value: &Value) -> Result<String, Unprintable> {
    Ok(format!("{name} = {}", literal(value)?))
}

/// A field declaration: `repeated int32 counts = 4 [packed = true];`.
pub fn field(field: &NewField) -> Result<String, Unprintable> {
    let label = field
        .label
        .map(|l| format!("{} ", l.keyword()))
        .unwrap_or_default();
    Ok(format!(
        "{label}{} {} = {}{};",
        field_type(&field.ty)?,
        identifier(&field.name, "a field name")?,
        field.number,
        options(field.options.iter().map(|(o, v)| (o.name(), v)))?
    ))
}

/// An enum value declaration: `EUR = 1;`. Not for a value named `option` or `reserved`: in an
/// enum, protoc and protox read either word first in a statement as an option or a reserved
/// statement, never as a value's name, so no declaration of such a value compiles.
pub fn enum_value(name: &str, number: i32) -> Result<String, Unprintable> {
    let what = "an enum value's name";
    match identifier(name, what)? {
        "option" | "reserved" => Err(unprintable(what, name)),
        name => Ok(format!("{name} = {number};")),
    }
}

/// A statement `option NAME = VALUE;`.
pub fn option_statement(name: &str, value: &Value) -> Result<String, Unprintable> {
    Ok(format!("option {};", option(name, value)?))
}

/// The edit said as the declaration to write, for a reader without the source:
/// `in shop.Order: give field note number 5`. Every name and value printed as above.
pub fn edit(edit: &Edit) -> Result<String, Unprintable> {
    let in_message = |message: &str| -> Result<String, Unprintable> {
        Ok(type_name(message)?.trim_start_matches('.').to_owned())
    };
    let field = |name: &str| identifier(name, "a field name").map(str::to_owned);
    Ok(match edit {
        Edit::SetNumber {
            message,
            field: f,
            number,
        } => format!(
            "in {}: give field {} number {number}",
            in_message(message)?,
            field(f)?
        ),
        Edit::SetName {
            message,
            field: f,
            name,
        } => format!(
            "in {}: rename field {} to {}",
            in_message(message)?,
            field(f)?,
            field(name)?
        ),
        Edit::SetLabel {
            message,
            field: f,
            label,
        } => format!(
            "in {}: declare field {} `{}`",
            in_message(message)?,
            field(f)?,
            label.keyword()
        ),
        Edit::SetOption {
            message,
            field: f,
            option: o,
            value,
        } => format!(
            "in {}: give field {} `[{}]`",
            in_message(message)?,
            field(f)?,
            option(o.name(), value)?
        ),
        Edit::AddField {
            message,
            oneof,
            field: declared,
        } => match oneof {
            Some(oneof) => format!(
                "in {}: add `{}` to oneof {}",
                in_message(message)?,
                self::field(declared)?,
                identifier(oneof, "a oneof name")?
            ),
            None => format!(
                "in {}: add `{}`",
                in_message(message)?,
                self::field(declared)?
            ),
        },
        Edit::AddEnumValue {
            enum_name,
            name,
            number,
        } => format!(
            "in enum {}: add `{}`",
            in_message(enum_name)?,
            enum_value(name, *number)?
        ),
        Edit::SetEnumOption {
            enum_name,
            option,
            value,
        } => format!(
            "in enum {}: write `{}`",
            in_message(enum_name)?,
            option_statement(option.name(), value)?
        ),
        Edit::SetEnumNumber {
            enum_name,
            value,
            number,
        } => format!(
            "in enum {}: give {} number {number}",
            in_message(enum_name)?,
            identifier(value, "an enum value's name")?
        ),
        Edit::MoveOutOfOneof {
            message, field: f, ..
        } => format!(
            "in {}: move field {} out of its oneof",
            in_message(message)?,
            field(f)?
        ),
        Edit::MoveIntoOneof {
            message,
            field: f,
            oneof,
        } => format!(
            "in {}: move field {} into oneof {}",
            in_message(message)?,
            field(f)?,
            identifier(oneof, "a oneof name")?
        ),
        Edit::RenameType { type_name: t, name } => format!(
            "rename {} to {}, and every reference to it",
            in_message(t)?,
            identifier(name, "a type name")?
        ),
        Edit::SetFileOption {
            message,
            option,
            value,
        } => format!(
            "in the file declaring {}: write `{}`",
            in_message(message)?,
            option_statement(option.name(), value)?
        ),
        Edit::SetEdition { message, edition } => format!(
            "in the file declaring {}: write `{}`",
            in_message(message)?,
            edition_statement(*edition)?
        ),
    })
}

/// `edition = "2024";`, the statement that opens an Editions file.
pub fn edition_statement(edition: Syntax) -> Result<String, Unprintable> {
    match edition.edition() {
        Some((_, year)) => Ok(format!("edition = \"{year}\";")),
        None => Err(unprintable("an edition", edition.name())),
    }
}

/// Every edit printable: the names and values of a remedy, checked before it is tried.
pub fn check(edits: &[Edit]) -> Result<(), Unprintable> {
    edits.iter().try_for_each(|e| edit(e).map(drop))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Scalar;

    #[test]
    fn a_literal_escapes_what_would_end_it() {
        let planted = "\"]; option java_package = \"x\";\nmessage Injected {}";
        let printed = literal(&Value::String(planted.into())).unwrap();
        assert_eq!(
            printed,
            r#""\"]; option java_package = \"x\";\012message Injected {}""#
        );
        assert_eq!(
            literal(&Value::Bytes(b"a\"b\\c\n\xc3\xa9\xff".to_vec())).unwrap(),
            r#""a\"b\\c\012\303\251\377""#
        );
    }

    #[test]
    fn floats_by_name_or_shortest_digits() {
        assert_eq!(literal(&Value::Float(f64::NAN)).unwrap(), "nan");
        assert_eq!(literal(&Value::Float(f64::NEG_INFINITY)).unwrap(), "-inf");
        assert_eq!(literal(&Value::Float(0.1)).unwrap(), "0.1");
        assert_eq!(literal(&Value::Float(1e300)).unwrap(), "1e300");
        assert_eq!(literal(&Value::Float(-0.0)).unwrap(), "-0.0");
    }

    #[test]
    fn names_that_are_not_identifiers_are_refused() {
        assert!(identifier("note_v2", "a field name").is_ok());
        for bad in ["", "1a", "a b", "a;", "a\nb", "é", "a.b"] {
            assert!(identifier(bad, "a field name").is_err(), "{bad:?}");
        }
        assert_eq!(type_name("shop.Money").unwrap(), ".shop.Money");
        assert!(type_name("shop.Money { }").is_err());
        assert!(literal(&Value::Ident("EUR; }".into())).is_err());
        assert!(enum_value("option", 1).is_err() && enum_value("reserved", 1).is_err());
    }

    #[test]
    fn a_field_is_one_declaration() {
        let declared = NewField {
            label: None,
            ty: FieldType::Map {
                key: Scalar::String,
                value: Box::new(FieldType::Message("shop.Item".into())),
            },
            name: "items".into(),
            number: 4,
            options: vec![(
                super::super::edit::FieldOption::Deprecated,
                Value::Bool(true),
            )],
        };
        assert_eq!(
            field(&declared).unwrap(),
            "map<string, .shop.Item> items = 4 [deprecated = true];"
        );
    }

    #[test]
    fn a_bytes_default_is_stored_c_escaped() {
        assert_eq!(
            descriptor_default(&Value::Bytes(b"a\n\"\x01".to_vec())).unwrap(),
            r#"a\n\"\001"#
        );
    }
}
