//! How an existing field is declared again in the new schema's syntax: label, type, options,
//! as values ([`NewField`]); [`super::print`] writes them.

use crate::model::{Cardinality, DefaultValue, FieldRef, Kind, Syntax};

use super::edit::{FieldOption, FieldType, Label, NewField, Value};

/// The field's type as a declaration names it. `None` for a group, which cannot be written as
/// one declaration.
pub(crate) fn field_type(field: FieldRef<'_>) -> Option<FieldType> {
    Some(match field.kind() {
        Kind::Scalar(s) => FieldType::Scalar(s),
        Kind::Enum(e) => FieldType::Enum(e.full_name().to_owned()),
        Kind::Message(m) if field.is_map() => {
            let key = match m.field(1)?.kind() {
                Kind::Scalar(s) => s,
                _ => return None,
            };
            FieldType::Map {
                key,
                value: Box::new(field_type(m.field(2)?)?),
            }
        }
        Kind::Message(m) => FieldType::Message(m.full_name().to_owned()),
        Kind::Group(_) => return None,
    })
}

/// Whether two fields are declared with the same type (a group never is).
pub(crate) fn same_type(a: FieldRef<'_>, b: FieldRef<'_>) -> bool {
    field_type(a).is_some() && field_type(a) == field_type(b)
}

/// Whether two fields are declared with the same type and cardinality.
pub(crate) fn same_shape(a: FieldRef<'_>, b: FieldRef<'_>) -> bool {
    same_type(a, b) && a.cardinality() == b.cardinality()
}

/// `old` declared as `name = number` in a message of `syntax`, with `extra` options after its
/// own: the label and options that keep what the old field meant (packing, presence, default,
/// encoding), where the syntax can say them. `None` where it cannot: a group, or `required`
/// in proto3.
pub(crate) fn declaration(
    old: FieldRef<'_>,
    syntax: Syntax,
    name: &str,
    number: u32,
    extra: &[(FieldOption, Value)],
) -> Option<NewField> {
    let ty = field_type(old)?;
    let mut options: Vec<(FieldOption, Value)> = Vec::new();
    let editions = syntax.is_edition();
    let label = match old.cardinality() {
        Cardinality::Repeated if old.is_map() => None,
        Cardinality::Repeated => Some(Label::Repeated),
        Cardinality::Required if editions => {
            options.push((FieldOption::FieldPresence, ident("LEGACY_REQUIRED")));
            None
        }
        Cardinality::Required if syntax == Syntax::Proto3 => return None,
        Cardinality::Required => Some(Label::Required),
        Cardinality::Optional => match syntax {
            Syntax::Proto2 => Some(Label::Optional),
            Syntax::Proto3 if old.has_presence() && old.kind().message().is_none() => {
                Some(Label::Optional)
            }
            Syntax::Proto3 => None,
            _ => {
                if old.kind().message().is_none() {
                    let presence = if old.has_presence() {
                        "EXPLICIT"
                    } else {
                        "IMPLICIT"
                    };
                    options.push((FieldOption::FieldPresence, ident(presence)));
                }
                None
            }
        },
    };
    if old.is_repeated() && packable(old) {
        options.push(packing(old.is_packed(), syntax));
    }
    if syntax != Syntax::Proto3 && old.declares_default() {
        options.push((FieldOption::Default, default_value(old)?));
    }
    if editions && old.is_delimited() && matches!(old.kind(), Kind::Message(_)) {
        options.push((FieldOption::MessageEncoding, ident("DELIMITED")));
    }
    options.extend(extra.iter().cloned());
    Some(NewField {
        label,
        ty,
        name: name.to_owned(),
        number,
        options,
    })
}

/// `old` declared again as it was, under its own name and number, `[deprecated = true]`: the
/// old field a remedy keeps beside a new one.
pub(crate) fn kept_deprecated(old: FieldRef<'_>, syntax: Syntax) -> Option<NewField> {
    declaration(
        old,
        syntax,
        old.name(),
        old.number(),
        &[(FieldOption::Deprecated, Value::Bool(true))],
    )
}

pub(crate) fn ident(name: &str) -> Value {
    Value::Ident(name.to_owned())
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
pub(crate) fn packing(packed: bool, syntax: Syntax) -> (FieldOption, Value) {
    if syntax.is_edition() {
        let encoding = if packed { "PACKED" } else { "EXPANDED" };
        (FieldOption::RepeatedFieldEncoding, ident(encoding))
    } else {
        (FieldOption::Packed, Value::Bool(packed))
    }
}

/// The field's default as a value: the declared one (as the model parsed it), else its type's
/// (zero, false, empty, or the enum's first value). `None` for a message or a repeated field.
pub(crate) fn default_value(field: FieldRef<'_>) -> Option<Value> {
    let value = field.default_value()?;
    Some(match value.as_ref() {
        DefaultValue::Bool(b) => Value::Bool(*b),
        DefaultValue::I32(i) => Value::Int(i64::from(*i)),
        DefaultValue::I64(i) => Value::Int(*i),
        DefaultValue::U32(u) => Value::Uint(u64::from(*u)),
        DefaultValue::U64(u) => Value::Uint(*u),
        // A float's default as declared, read as a double: `0.1` stays `0.1`.
        DefaultValue::F32(f) => Value::Float(field.declared_as_double().unwrap_or(f64::from(*f))),
        DefaultValue::F64(f) => Value::Float(*f),
        DefaultValue::String(s) => Value::String(s.clone()),
        DefaultValue::Bytes(b) => Value::Bytes(b.clone()),
        DefaultValue::Enum(number) => match field.kind() {
            Kind::Enum(e) => ident(e.value_named_by(*number)?),
            _ => return None,
        },
    })
}
