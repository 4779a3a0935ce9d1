//! DEFAULT_VALUE_CHANGED (proto2 and Editions): a singular scalar or enum field whose effective
//! default differs. "Effective" means the declared `[default = …]`, else the type's zero or the
//! enum's first value: a reader fills in its own default for a field the writer left unset, so
//! a change of either kind changes what the reader sees.
//!
//! DEFAULT_CHANGED (`conservative`) is the same comparison for every syntax, on fields that
//! keep their type (a type change is TYPE_CHANGED), with enums by number whatever they are
//! called, and floating-point defaults exactly: NaN equals NaN, +0 differs from -0.

use std::borrow::Cow;

use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::model::{DefaultValue, FieldRef, Kind, Scalar};
use crate::remedy;
use crate::text::bound;

pub(crate) const DEFAULT_VALUE_CHANGED: Spec = Spec {
    id: RuleId::DefaultValueChanged,
    description:
        "a matched singular scalar or enum field's effective default changed (proto2, Editions)",
    hint: "declare the old default on the field",
    scope: Scope::Proto2AndEditions,
    check: Some(Check::Fields(default_value_changed)),
    plan: remedy::keep::default_changed,
};

pub(crate) const DEFAULT_CHANGED: Spec = Spec {
    id: RuleId::DefaultChanged,
    description: "a matched singular scalar or enum field's effective default changed",
    hint: "declare the old default on the field",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(default_changed)),
    plan: remedy::keep::default_changed,
};

pub(crate) fn default_value_changed(pair: &FieldPair) -> Option<Violation> {
    let comparable = match (&pair.writer_type, &pair.reader_type) {
        (Kind::Enum(_), Kind::Enum(_)) => pair.writer_type == pair.reader_type,
        (Kind::Scalar(_), Kind::Scalar(_)) => true,
        _ => false,
    };
    if !comparable {
        return None;
    }
    differing(pair, |a, b| a.same_as(b))
}

pub(crate) fn default_changed(pair: &FieldPair) -> Option<Violation> {
    let same_type = match (&pair.writer_type, &pair.reader_type) {
        (Kind::Enum(_), Kind::Enum(_)) => true,
        (Kind::Scalar(w), Kind::Scalar(r)) => w == r,
        _ => false,
    };
    if !same_type {
        return None;
    }
    differing(pair, |a, b| a.identical_to(b))
}

/// The finding when the two effective defaults are not `same`. Most pairs declare no default
/// on either side, or the same text, and keep their type: those are settled without working
/// out (or describing) a value. A repeated field has no default (`FieldRef::default_value`),
/// so a pair with one is never a finding.
fn differing(pair: &FieldPair, same: fn(&Comparable, &Comparable) -> bool) -> Option<Violation> {
    // Whether a default is declared is one look; its text is only read when one is.
    let none_declared = !pair.writer.declares_default() && !pair.reader.declares_default();
    let settled = match (&pair.writer_type, &pair.reader_type) {
        (Kind::Scalar(w), Kind::Scalar(r)) => {
            w == r
                && (none_declared
                    || pair.writer.declared_default() == pair.reader.declared_default())
        }
        (Kind::Enum(w), Kind::Enum(r)) => none_declared && w.first_number() == r.first_number(),
        _ => false,
    };
    if settled {
        return None;
    }
    let writer = EffectiveDefault::value(pair.writer)?;
    let reader = EffectiveDefault::value(pair.reader)?;
    (!same(&writer, &reader)).then(|| {
        Violation::on_fields(
            pair,
            format!("default {}", EffectiveDefault::shown(pair.writer, &writer)),
            format!("default {}", EffectiveDefault::shown(pair.reader, &reader)),
        )
    })
}

#[derive(Debug)]
enum Comparable<'a> {
    Integer(i128),
    Float(f64),
    Text(&'a [u8]),
    EnumNumber(i32),
}

impl Comparable<'_> {
    /// Numbers compare by value across types (`int32 7` = `int64 7`, `float 0.1` =
    /// `double 0.1`); a number and a text are not compared, the type change is the finding.
    fn same_as(&self, other: &Comparable) -> bool {
        use Comparable::*;
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

impl Comparable<'_> {
    /// Values of one type: floats by their bits but for NaN (every NaN the same default).
    fn identical_to(&self, other: &Comparable) -> bool {
        match (self, other) {
            (Comparable::Float(a), Comparable::Float(b)) => {
                (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
            }
            _ => self.same_as(other),
        }
    }
}

fn integral_equals(f: f64, i: i128) -> bool {
    f.is_finite() && f.fract() == 0.0 && f.abs() < 1e38 && f as i128 == i
}

/// Bytes of a default a finding shows.
const SHOWN: usize = 60;

/// A field's effective default: its value, and how a finding shows it.
struct EffectiveDefault;

impl EffectiveDefault {
    /// Borrowed from the model, which parsed it once: comparing a long default costs no copy.
    fn value<'a>(field: FieldRef<'a>) -> Option<Comparable<'a>> {
        let value = field.default_value()?;
        let zero;
        let value = match value {
            Cow::Borrowed(declared) => declared,
            Cow::Owned(implicit) => {
                zero = implicit;
                // An implicit default holds no text: nothing of it is borrowed.
                return Some(Self::number(&zero, None).unwrap_or(Comparable::Text(&[])));
            }
        };
        Some(match value {
            DefaultValue::String(v) => Comparable::Text(v.as_bytes()),
            DefaultValue::Bytes(v) => Comparable::Text(v),
            number => Self::number(number, field.declared_as_double())?,
        })
    }

    /// A default that is a number, as compared; `None` for text. A float as declared, so that
    /// `float 0.1` and `double 0.1` are the same default.
    fn number(value: &DefaultValue, as_double: Option<f64>) -> Option<Comparable<'static>> {
        Some(match *value {
            DefaultValue::F32(v) => Comparable::Float(as_double.unwrap_or(f64::from(v))),
            DefaultValue::F64(v) => Comparable::Float(v),
            DefaultValue::I32(v) => Comparable::Integer(v.into()),
            DefaultValue::I64(v) => Comparable::Integer(v.into()),
            DefaultValue::U32(v) => Comparable::Integer(v.into()),
            DefaultValue::U64(v) => Comparable::Integer(v.into()),
            DefaultValue::Bool(v) => Comparable::Integer(v.into()),
            DefaultValue::Enum(v) => Comparable::EnumNumber(v),
            DefaultValue::String(_) | DefaultValue::Bytes(_) => return None,
        })
    }

    fn shown(field: FieldRef<'_>, value: &Comparable) -> String {
        let declared = field.declared_default();
        let kind = field.kind();
        let mut shown = match (value, kind) {
            (Comparable::EnumNumber(n), Kind::Enum(e)) => match e.value_named_by(*n) {
                Some(name) => format!("{name} = {n}"),
                None => n.to_string(),
            },
            // Only the start is read: a default may be megabytes long, and escaping never
            // makes text shorter, so what is cut here is past what is shown anyway.
            (Comparable::Text(bytes), _) => format!(
                "\"{}\"",
                bound(
                    &String::from_utf8_lossy(&bytes[..bytes.len().min(4 * SHOWN)])
                        .escape_debug()
                        .to_string(),
                    SHOWN
                )
            ),
            (_, _) => match declared {
                Some(text) => bound(text, SHOWN),
                None if matches!(kind, Kind::Scalar(Scalar::Bool)) => "false".to_owned(),
                None => "0".to_owned(),
            },
        };
        if declared.is_none() {
            shown.push_str(" (implicit)");
        }
        shown
    }
}
