//! A `default_value` read as the value it stands for, for its field's type: compilers write
//! the same default differently (protoc `1e+300`, protox `1000…0`, a hand-made set `1e300`),
//! and an edit writes it as the printer does. The rules are those of the model's reading of
//! defaults (`model/defaults.rs`), which the remedy module cannot reach.

/// A default's value. Floats keep their bits (a float field's as an `f32`'s), with every NaN
/// one, so that equal values compare equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    Int(i128),
    Float(u64),
    Bool(bool),
    Text(String),
    Bytes(Vec<u8>),
    /// An enum value, by name.
    Enum(String),
}

/// `text` as a default of a field of `FieldDescriptorProto.Type` `ty`; `None` where it is not
/// one (or the type takes no default).
pub fn parse(text: &str, ty: u64) -> Option<Parsed> {
    Some(match ty {
        // int64, uint64, int32, fixed64, fixed32, uint32, sfixed32, sfixed64, sint32, sint64
        3..=7 | 13 | 15..=18 => Parsed::Int(integer(text)?),
        1 => Parsed::Float(bits(float(text)?)),
        2 => Parsed::Float(bits(f64::from(float(text)? as f32))),
        8 => match text {
            "true" => Parsed::Bool(true),
            "false" => Parsed::Bool(false),
            _ => return None,
        },
        9 => Parsed::Text(text.to_owned()),
        12 => Parsed::Bytes(unescape(text)?),
        14 => Parsed::Enum(text.to_owned()),
        _ => return None,
    })
}

fn bits(f: f64) -> u64 {
    if f.is_nan() {
        f64::NAN.to_bits()
    } else {
        f.to_bits()
    }
}

/// As `strtol(…, 0)`: decimal, `0x` hex, leading-zero octal, an optional `-`.
fn integer(text: &str) -> Option<i128> {
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
    if digits.is_empty() || digits.len() > 40 || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::from_str_radix(digits, radix).ok()?;
    Some(if negative { -magnitude } else { magnitude })
}

fn float(text: &str) -> Option<f64> {
    match text {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" | "-nan" => Some(f64::NAN),
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
fn unescape(text: &str) -> Option<Vec<u8>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_however_written() {
        assert_eq!(parse("1e+300", 1), parse("1e300", 1));
        assert_ne!(parse("1e300", 1), parse("1e299", 1));
        assert_eq!(parse("0.1", 2), parse("0.10000000149011612", 2));
        assert_eq!(parse("nan", 1), parse("-nan", 1));
        assert_eq!(parse("0x1F", 5), parse("31", 5));
        assert_eq!(parse("017", 5), Some(Parsed::Int(15)));
        assert_eq!(parse(r"a\n\001", 12), parse(r"a\012\x01", 12));
        assert_eq!(parse("maybe", 8), None);
        assert_eq!(parse("x", 11), None);
    }
}
