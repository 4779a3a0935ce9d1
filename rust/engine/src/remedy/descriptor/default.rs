//! A `default_value` read as the value it stands for, for its field's type: compilers write
//! the same default differently (protoc `1e+300`, protox `1000…0`, a hand-made set `1e300`),
//! and an edit writes it as the printer does. The text is read by the model's own reading of
//! defaults (`model/defaults.rs`), keyed here by the descriptor's type number.

use crate::model::default_text::{float, integer, unescape};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_however_written() {
        assert_eq!(parse("1e+300", 1), parse("1e300", 1));
        assert_ne!(parse("1e300", 1), parse("1e299", 1));
        assert_eq!(parse("0.1", 2), parse("0.10000000149011612", 2));
        assert_eq!(parse("0x1F", 5), parse("31", 5));
        assert_eq!(parse("017", 5), Some(Parsed::Int(15)));
        assert_eq!(parse(r"a\n\001", 12), parse(r"a\012\x01", 12));
        assert_eq!(parse("maybe", 8), None);
        assert_eq!(parse("x", 11), None);
    }
}
