//! Default values: `[default = …]` as descriptor.proto stores it (text), parsed the way
//! protobuf parses it, once, when the model is built ([`Declared`]), and the implicit default
//! of a field that declares none.

use std::borrow::Cow;

use super::tables::{FieldRef, Kind, Scalar, Str};
use crate::text::bound;

/// A field's default, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum DefaultValue {
    Bool(bool),
    I32(i32),
    I64(i64),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    String(String),
    Bytes(Vec<u8>),
    /// An enum value, by number.
    Enum(i32),
}

/// A declared default as the model keeps it: its text, and once the field's type is known, its
/// value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DefaultRow {
    pub text: Str,
    pub parsed: Option<Declared>,
}

impl DefaultRow {
    /// The heap its value holds beyond itself.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.parsed.as_ref().map_or(0, Declared::heap_bytes)
    }
}

/// A declared default's value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Declared {
    pub value: DefaultValue,
    /// A float's declared text read as a double: `float 0.1` and `double 0.1` declare the same
    /// default, which the `f32` nearest to 0.1 does not show.
    pub as_double: Option<f64>,
}

impl Declared {
    pub(crate) fn parse(text: &str, kind: &Kind<'_>) -> Result<Declared, String> {
        let value = parse(text, kind)?;
        let as_double = match value {
            DefaultValue::F32(v) => Some(text.trim().parse::<f64>().unwrap_or(f64::from(v))),
            _ => None,
        };
        Ok(Declared { value, as_double })
    }

    /// The heap its value holds beyond itself.
    pub(crate) fn heap_bytes(&self) -> usize {
        match &self.value {
            DefaultValue::String(s) => s.capacity(),
            DefaultValue::Bytes(b) => b.capacity(),
            _ => 0,
        }
    }
}

/// Parses a declared default for a field of `kind`. Integers are read as protobuf's
/// `strtol(…, 0)` reads them (decimal, `0x` hex, leading-zero octal), floats with `inf`,
/// `-inf` and `nan`, bytes C-unescaped, enums by value name.
pub(crate) fn parse(text: &str, kind: &Kind<'_>) -> Result<DefaultValue, String> {
    let bad = || {
        format!(
            "invalid default value '{}' for type '{}'",
            bound(text, 60),
            type_name(kind)
        )
    };
    match kind {
        Kind::Scalar(scalar) => scalar_default(text, *scalar).ok_or_else(bad),
        Kind::Enum(e) => e.number_named(text).map(DefaultValue::Enum).ok_or_else(|| {
            format!(
                "enum `{}` has no value named '{}' for the default",
                bound(e.full_name(), 120),
                bound(text, 60)
            )
        }),
        Kind::Message(_) | Kind::Group(_) => Err("message fields cannot have defaults".to_owned()),
    }
}

fn type_name(kind: &Kind<'_>) -> String {
    match kind {
        Kind::Scalar(s) => s.name().to_owned(),
        other => other.to_string(),
    }
}

fn scalar_default(text: &str, scalar: Scalar) -> Option<DefaultValue> {
    use Scalar::*;
    Some(match scalar {
        Int32 | Sint32 | Sfixed32 => DefaultValue::I32(i32::try_from(integer(text)?).ok()?),
        Int64 | Sint64 | Sfixed64 => DefaultValue::I64(i64::try_from(integer(text)?).ok()?),
        Uint32 | Fixed32 => DefaultValue::U32(u32::try_from(integer(text)?).ok()?),
        Uint64 | Fixed64 => DefaultValue::U64(u64::try_from(integer(text)?).ok()?),
        Float => DefaultValue::F32(float(text)? as f32),
        Double => DefaultValue::F64(float(text)?),
        Bool => match text {
            "true" => DefaultValue::Bool(true),
            "false" => DefaultValue::Bool(false),
            _ => return None,
        },
        String => DefaultValue::String(text.to_owned()),
        Bytes => DefaultValue::Bytes(unescape(text)?),
    })
}

pub(crate) fn integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (radix, digits) = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::from_str_radix(digits, radix).ok()?;
    Some(if negative { -magnitude } else { magnitude })
}

pub(crate) fn float(text: &str) -> Option<f64> {
    match text {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ if text
            .chars()
            .all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) =>
        {
            text.parse().ok()
        }
        _ => None,
    }
}

/// protoc stores a bytes default C-escaped (`CEscape`); this reverses it.
pub(crate) fn unescape(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let escaped = *bytes.get(i + 1)?;
        i += 2;
        out.push(match escaped {
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'a' => 0x07,
            b'b' => 0x08,
            b'f' => 0x0c,
            b'v' => 0x0b,
            b'\\' | b'\'' | b'"' | b'?' => escaped,
            b'0'..=b'7' => {
                let mut value = u32::from(escaped - b'0');
                for _ in 0..2 {
                    match bytes.get(i) {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                u8::try_from(value).ok()?
            }
            b'x' | b'X' => {
                let mut value = 0u32;
                let mut digits = 0;
                while digits < 2 {
                    match bytes.get(i).and_then(|d| (*d as char).to_digit(16)) {
                        Some(d) => {
                            value = value * 16 + d;
                            i += 1;
                            digits += 1;
                        }
                        None => break,
                    }
                }
                if digits == 0 {
                    return None;
                }
                value as u8
            }
            _ => return None,
        });
    }
    Some(out)
}

/// The default of a field that declares none: the type's zero, or the enum's first value.
pub(crate) fn zero(kind: &Kind<'_>) -> Option<DefaultValue> {
    use Scalar::*;
    Some(match kind {
        Kind::Scalar(Int32 | Sint32 | Sfixed32) => DefaultValue::I32(0),
        Kind::Scalar(Int64 | Sint64 | Sfixed64) => DefaultValue::I64(0),
        Kind::Scalar(Uint32 | Fixed32) => DefaultValue::U32(0),
        Kind::Scalar(Uint64 | Fixed64) => DefaultValue::U64(0),
        Kind::Scalar(Float) => DefaultValue::F32(0.0),
        Kind::Scalar(Double) => DefaultValue::F64(0.0),
        Kind::Scalar(Bool) => DefaultValue::Bool(false),
        Kind::Scalar(String) => DefaultValue::String(std::string::String::new()),
        Kind::Scalar(Bytes) => DefaultValue::Bytes(Vec::new()),
        Kind::Enum(e) => DefaultValue::Enum(e.first_number()),
        Kind::Message(_) | Kind::Group(_) => return None,
    })
}

impl<'a> FieldRef<'a> {
    /// What a reader sees for the field when it is unset: the declared default where the
    /// field may declare one (parsed when the model was built), else the type's zero or the
    /// enum's first value. `None` for repeated and message fields.
    pub fn default_value(&self) -> Option<Cow<'a, DefaultValue>> {
        if self.is_repeated() {
            return None;
        }
        match self.declared() {
            Some(declared) => Some(Cow::Borrowed(&declared.value)),
            None => zero(&self.kind()).map(Cow::Owned),
        }
    }

    /// A float field's declared default read as a double ([`Declared::as_double`]).
    pub(crate) fn declared_as_double(&self) -> Option<f64> {
        self.declared().and_then(|d| d.as_double)
    }

    fn declared(&self) -> Option<&'a Declared> {
        self.declared_row()?.parsed.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_read_as_strtol_base_zero() {
        assert_eq!(integer("-12"), Some(-12));
        assert_eq!(integer("0x1F"), Some(31));
        assert_eq!(integer("017"), Some(15));
        assert_eq!(integer("0"), Some(0));
        assert_eq!(integer("twelve"), None);
        assert_eq!(integer("1e3"), None);
    }

    #[test]
    fn bytes_are_c_unescaped() {
        assert_eq!(unescape(r"a\n\001\x41\\").unwrap(), b"a\n\x01A\\");
        assert_eq!(unescape(r"\q"), None);
        assert_eq!(unescape("\\"), None);
    }

    #[test]
    fn floats_take_protobufs_spellings() {
        assert_eq!(float("inf"), Some(f64::INFINITY));
        assert!(float("nan").unwrap().is_nan());
        assert_eq!(float("1.5e3"), Some(1500.0));
        assert_eq!(float("infinity"), None);
    }
}
