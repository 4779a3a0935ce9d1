//! DEFAULT_VALUE_CHANGED (proto2): a singular scalar or enum field whose effective default
//! differs. "Effective" means the declared `[default = …]`, else the type's zero or the enum's
//! first value: a reader fills in its own default for a field the writer left unset, so a
//! change of either kind changes what the reader sees.

use prost_reflect::{Cardinality, FieldDescriptor, Kind, Value};

use super::describe::TypeRef;
use super::{FieldPair, Violation};
use crate::schema::truncate;

pub(crate) fn default_value_changed(pair: &FieldPair) -> Option<Violation> {
    let singular = |f: &FieldDescriptor| f.cardinality() != Cardinality::Repeated;
    if !singular(pair.writer) || !singular(pair.reader) {
        return None;
    }
    let comparable = match (&pair.writer_type, &pair.reader_type) {
        (TypeRef::Enum(_), TypeRef::Enum(_)) => pair.writer_type == pair.reader_type,
        (TypeRef::Scalar(_), TypeRef::Scalar(_)) => true,
        _ => false,
    };
    if !comparable {
        return None;
    }
    let writer = EffectiveDefault::of(pair.writer)?;
    let reader = EffectiveDefault::of(pair.reader)?;
    (!writer.value.same_as(&reader.value)).then(|| {
        Violation::on_fields(
            pair,
            format!("default {}", writer.shown),
            format!("default {}", reader.shown),
        )
    })
}

#[derive(Debug)]
enum DefaultValue {
    Integer(i128),
    Float(f64),
    Text(Vec<u8>),
    EnumNumber(i32),
}

impl DefaultValue {
    /// Numbers compare by value across types (`int32 7` = `int64 7`, `float 0.1` =
    /// `double 0.1`); a number and a text are not compared, the type change is the finding.
    fn same_as(&self, other: &DefaultValue) -> bool {
        use DefaultValue::*;
        match (self, other) {
            (Integer(a), Integer(b)) => a == b,
            (Float(a), Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            (Integer(i), Float(f)) | (Float(f), Integer(i)) => integral_equals(*f, *i),
            (Text(a), Text(b)) => a == b,
            (EnumNumber(a), EnumNumber(b)) => a == b,
            _ => true,
        }
    }
}

fn integral_equals(f: f64, i: i128) -> bool {
    f.is_finite() && f.fract() == 0.0 && f.abs() < 1e38 && f as i128 == i
}

struct EffectiveDefault {
    value: DefaultValue,
    shown: String,
}

impl EffectiveDefault {
    fn of(field: &FieldDescriptor) -> Option<EffectiveDefault> {
        let declared = field.field_descriptor_proto().default_value.as_deref();
        let value = match (field.kind(), field.default_value()) {
            (Kind::Float | Kind::Double, fallback) => DefaultValue::Float(
                declared
                    .and_then(|text| text.trim().parse::<f64>().ok())
                    .or_else(|| fallback.as_f64().or(fallback.as_f32().map(f64::from)))
                    .unwrap_or(0.0),
            ),
            (_, Value::I32(v)) => DefaultValue::Integer(v.into()),
            (_, Value::I64(v)) => DefaultValue::Integer(v.into()),
            (_, Value::U32(v)) => DefaultValue::Integer(v.into()),
            (_, Value::U64(v)) => DefaultValue::Integer(v.into()),
            (_, Value::Bool(v)) => DefaultValue::Integer(v.into()),
            (_, Value::String(v)) => DefaultValue::Text(v.into_bytes()),
            (_, Value::Bytes(v)) => DefaultValue::Text(v.to_vec()),
            (_, Value::EnumNumber(v)) => DefaultValue::EnumNumber(v),
            _ => return None,
        };
        let mut shown = match (&value, field.kind()) {
            (DefaultValue::EnumNumber(n), Kind::Enum(e)) => match e.get_value(*n) {
                Some(v) => format!("{} = {n}", v.name()),
                None => n.to_string(),
            },
            (DefaultValue::Text(bytes), _) => format!(
                "\"{}\"",
                truncate(
                    &String::from_utf8_lossy(bytes).escape_debug().to_string(),
                    60
                )
            ),
            (_, _) => match declared {
                Some(text) => truncate(text, 60),
                None if field.kind() == Kind::Bool => "false".to_owned(),
                None => "0".to_owned(),
            },
        };
        if declared.is_none() {
            shown.push_str(" (implicit)");
        }
        Some(EffectiveDefault { value, shown })
    }
}
