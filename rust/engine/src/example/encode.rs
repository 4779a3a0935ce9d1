//! The writer's bytes: a message encoded as protobuf-java serializes it (fields in number
//! order, repeated fields packed where the writer packs them, groups between their tags).

use super::budget::{Meter, VALUE};
use super::value::{weight, Msg, Val};
use crate::model::{FieldRef, Kind, Scalar};

const VARINT: u32 = 0;
const FIXED64: u32 = 1;
const LEN: u32 = 2;
const START_GROUP: u32 = 3;
const END_GROUP: u32 = 4;
const FIXED32: u32 = 5;

/// The message's bytes, each value written charged to `meter`; incomplete once it ran out.
pub(crate) fn encode(message: &Msg<'_>, meter: &Meter) -> Vec<u8> {
    let mut out = Vec::new();
    write_message(&mut out, message, meter);
    out
}

fn write_message(out: &mut Vec<u8>, message: &Msg<'_>, meter: &Meter) {
    for (field, values) in &message.fields {
        // A message's own values are charged as they are written.
        if !meter.spend(VALUE * values.iter().map(weight).sum::<usize>()) {
            return;
        }
        let number = field.number();
        if field.is_repeated() && field.is_packed() && !values.is_empty() {
            let mut body = Vec::new();
            for value in values {
                write_value(&mut body, *field, value, meter);
            }
            tag(out, number, LEN);
            varint(out, body.len() as u64);
            out.extend(body);
            continue;
        }
        for value in values {
            if field.is_delimited() {
                tag(out, number, START_GROUP);
                write_value(out, *field, value, meter);
                tag(out, number, END_GROUP);
            } else {
                tag(out, number, wire_type(*field));
                write_value(out, *field, value, meter);
            }
        }
    }
}

/// The wire type of one unpacked value of the field.
pub(crate) fn wire_type(field: FieldRef<'_>) -> u32 {
    match field.kind() {
        Kind::Enum(_) => VARINT,
        Kind::Message(_) | Kind::Group(_) if field.is_delimited() => START_GROUP,
        Kind::Message(_) | Kind::Group(_) => LEN,
        Kind::Scalar(s) => match s {
            Scalar::Double | Scalar::Fixed64 | Scalar::Sfixed64 => FIXED64,
            Scalar::Float | Scalar::Fixed32 | Scalar::Sfixed32 => FIXED32,
            Scalar::String | Scalar::Bytes => LEN,
            _ => VARINT,
        },
    }
}

fn write_value(out: &mut Vec<u8>, field: FieldRef<'_>, value: &Val<'_>, meter: &Meter) {
    match value {
        Val::Msg(m) if field.is_delimited() => write_message(out, m, meter),
        Val::Msg(m) => {
            let mut body = Vec::new();
            write_message(&mut body, m, meter);
            varint(out, body.len() as u64);
            out.extend(body);
        }
        Val::Str(b) | Val::Bytes(b) => {
            varint(out, b.len() as u64);
            out.extend_from_slice(b);
        }
        // Java writes an enum as an int32: a negative one takes ten bytes.
        Val::Enum(n) => varint(out, i64::from(*n) as u64),
        Val::Bool(b) => varint(out, u64::from(*b)),
        Val::F32(x) => out.extend_from_slice(&x.to_le_bytes()),
        Val::F64(x) => out.extend_from_slice(&x.to_le_bytes()),
        Val::Int(n) => {
            let Kind::Scalar(scalar) = field.kind() else {
                return varint(out, *n as u64);
            };
            match scalar {
                Scalar::Int32 => varint(out, i64::from(*n as i32) as u64),
                Scalar::Sint32 => {
                    let n = *n as i32;
                    varint(out, u64::from(((n << 1) ^ (n >> 31)) as u32))
                }
                Scalar::Sint64 => {
                    let n = *n as i64;
                    varint(out, ((n << 1) ^ (n >> 63)) as u64)
                }
                Scalar::Fixed32 | Scalar::Sfixed32 => {
                    out.extend_from_slice(&(*n as u32).to_le_bytes())
                }
                Scalar::Fixed64 | Scalar::Sfixed64 => {
                    out.extend_from_slice(&(*n as u64).to_le_bytes())
                }
                _ => varint(out, *n as u64),
            }
        }
    }
}

fn tag(out: &mut Vec<u8>, number: u32, wire: u32) {
    varint(out, u64::from(number << 3 | wire));
}

fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}
