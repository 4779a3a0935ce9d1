//! DEFAULT_VALUE_CHANGED (proto2 and Editions): a singular scalar or enum field whose effective
//! default differs. "Effective" means the declared `[default = …]`, else the type's zero or the
//! enum's first value: a reader fills in its own default for a field the writer left unset, so
//! a change of either kind changes what the reader sees.
//!
//! DEFAULT_CHANGED (`conservative`) is the same comparison for every syntax, on fields that
//! keep their type (a type change is TYPE_CHANGED), with enums by number whatever they are
//! called, and floating-point defaults exactly: NaN equals NaN, +0 differs from -0.

use std::borrow::Cow;

use super::{FieldPair, Violation};
use crate::model::{DefaultValue, FieldRef, Kind, Scalar};
use crate::text::bound;

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

/// The bytes of a finding's text that show a default.
const SHOWN: usize = 60;

/// The bytes of a text default converted and escaped to show it: of these, every character
/// that is whole in this head (all but the last three bytes at most) converts and escapes as
/// in the whole default, to a byte or more each, so the first `SHOWN + 1` bytes shown, all
/// that [`bound`] reads, are those of the whole default.
const SHOWN_HEAD: usize = 4 * (SHOWN + 2);

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
            (Comparable::Text(bytes), _) => shown_text(bytes),
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

/// A text default as a finding shows it: quoted, escaped, cut. Only its head is converted (see
/// [`SHOWN_HEAD`]), since a finding is made for every pair of a history the default is in.
fn shown_text(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(SHOWN_HEAD)];
    let text = String::from_utf8_lossy(head).escape_debug().to_string();
    format!("\"{}\"", bound(&text, SHOWN))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The head shows what the whole default would: around the head's end, with characters of
    /// every width, broken sequences, and escapes that grow a byte into several.
    #[test]
    fn the_head_of_a_text_default_shows_as_the_whole_would() {
        let whole = |bytes: &[u8]| {
            let text = String::from_utf8_lossy(bytes).escape_debug().to_string();
            format!("\"{}\"", bound(&text, SHOWN))
        };
        let pieces: [&[u8]; 7] = [
            b"a",
            "\u{e9}".as_bytes(),
            "\u{20ac}".as_bytes(),
            "\u{1f600}".as_bytes(),
            b"\xe2\x82",
            b"\xff",
            b"\x01\n\"",
        ];
        for first in pieces {
            for second in pieces {
                for len in SHOWN_HEAD - 8..SHOWN_HEAD + 8 {
                    let mut bytes = first.repeat(len / first.len());
                    bytes.extend_from_slice(second);
                    bytes.extend_from_slice(&second.repeat(8));
                    assert_eq!(shown_text(&bytes), whole(&bytes), "{bytes:?}");
                }
            }
        }
    }
}
