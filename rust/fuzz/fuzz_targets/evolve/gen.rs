//! Random messages a protobuf-java writer could produce with a schema, built as prost-reflect
//! dynamic messages of the schema's decoding pool (strings as bytes, see `wire::raw_pool`).
//! What Java lets a writer do decides what is generated:
//! - required fields are always set (`build()` throws otherwise), at most one member of a oneof;
//! - a closed (proto2) enum field only holds declared values; an open (proto3) one may hold any
//!   number (`setFooValue(int)`);
//! - proto3 strings are valid UTF-8 (`setFooBytes` checks); proto2 strings may be any bytes
//!   (`setFooBytes` does not check), except map keys and values (Java Strings, so UTF-8);
//! - map keys are unique.

use std::collections::HashMap;

use arbitrary::{Result, Unstructured};
use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor, Value};

use crate::wire::Pools;

/// Messages deeper than this leave their message fields unset (none is required here).
const MAX_DEPTH: usize = 3;

pub fn message(
    u: &mut Unstructured,
    desc: &MessageDescriptor,
    pools: &Pools,
    depth: usize,
) -> Result<DynamicMessage> {
    let mut message = DynamicMessage::new(desc.clone());
    let mut chosen: HashMap<String, Option<u32>> = HashMap::new();
    for oneof in desc.oneofs().filter(|o| !o.is_synthetic()) {
        let members: Vec<u32> = oneof.fields().map(|f| f.number()).collect();
        let pick = if u.arbitrary()? {
            Some(*u.choose(&members)?)
        } else {
            None
        };
        chosen.insert(oneof.name().to_owned(), pick);
    }
    for field in desc.fields() {
        let nested = matches!(field.kind(), Kind::Message(_));
        if nested && depth >= MAX_DEPTH {
            continue;
        }
        let set = match field.containing_oneof().filter(|o| !o.is_synthetic()) {
            Some(oneof) => chosen[oneof.name()] == Some(field.number()),
            None => field.is_required() || u.arbitrary()?,
        };
        if !set {
            continue;
        }
        let value = if field.is_map() {
            let entry = field.kind();
            let entry = entry.as_message().unwrap();
            let (key, value) = (entry.get_field(1).unwrap(), entry.get_field(2).unwrap());
            let mut map = HashMap::new();
            for _ in 0..u.int_in_range(0..=3)? {
                let k = map_key(u, &key.kind())?;
                let v = scalar_or_message(u, &value, pools, depth)?;
                map.insert(k, v);
            }
            Value::Map(map)
        } else if field.is_list() {
            let mut list = vec![];
            for _ in 0..u.int_in_range(0..=3)? {
                list.push(scalar_or_message(u, &field, pools, depth)?);
            }
            Value::List(list)
        } else {
            scalar_or_message(u, &field, pools, depth)?
        };
        message.set_field(&field, value);
    }
    Ok(message)
}

fn map_key(u: &mut Unstructured, kind: &Kind) -> Result<MapKey> {
    Ok(match int(u, kind)? {
        Value::Bool(v) => MapKey::Bool(v),
        Value::I32(v) => MapKey::I32(v),
        Value::I64(v) => MapKey::I64(v),
        Value::U32(v) => MapKey::U32(v),
        Value::U64(v) => MapKey::U64(v),
        _ => MapKey::String(text(u)?),
    })
}

fn text(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0..=5)? {
        0 => String::new(),
        1 => "abc".into(),
        2 => "é日".into(),
        3 => "7".into(),
        _ => u.arbitrary::<&str>()?.chars().take(6).collect(),
    })
}

/// Integers, floats and bools; anything else is `Value::String`, a signal to the caller.
fn int(u: &mut Unstructured, kind: &Kind) -> Result<Value> {
    let pick = u.int_in_range(0..=3)?;
    Ok(match kind {
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Value::I32(match pick {
            0 => *u.choose(&[0, 1, -1, 7, 150, i32::MAX, i32::MIN])?,
            _ => u.arbitrary()?,
        }),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Value::I64(match pick {
            0 => *u.choose(&[0, 1, -1, 7, 1 << 32, i64::MAX, i64::MIN])?,
            _ => u.arbitrary()?,
        }),
        Kind::Uint32 | Kind::Fixed32 => Value::U32(match pick {
            0 => *u.choose(&[0, 1, 7, 1 << 31, u32::MAX])?,
            _ => u.arbitrary()?,
        }),
        Kind::Uint64 | Kind::Fixed64 => Value::U64(match pick {
            0 => *u.choose(&[0, 1, 7, 1 << 63, u64::MAX])?,
            _ => u.arbitrary()?,
        }),
        Kind::Float => Value::F32(match pick {
            0 => *u.choose(&[0.0, -0.0, 1.5, 0.1, f32::NAN, f32::INFINITY, 7.0])?,
            _ => u.arbitrary()?,
        }),
        Kind::Double => Value::F64(match pick {
            0 => *u.choose(&[0.0, -0.0, 1.5, 0.1, f64::NAN, f64::NEG_INFINITY, 7.0])?,
            _ => u.arbitrary()?,
        }),
        Kind::Bool => Value::Bool(u.arbitrary()?),
        _ => Value::String(String::new()),
    })
}

fn scalar_or_message(
    u: &mut Unstructured,
    field: &FieldDescriptor,
    pools: &Pools,
    depth: usize,
) -> Result<Value> {
    Ok(match field.kind() {
        Kind::Message(m) => Value::Message(message(u, &m, pools, depth + 1)?),
        Kind::Enum(e) => {
            let declared: Vec<i32> = e.values().map(|v| v.number()).collect();
            if !pools.proto3 || u.ratio(3, 4)? {
                Value::EnumNumber(*u.choose(&declared)?)
            } else {
                Value::EnumNumber(*u.choose(&[-1, 0, 1, 2, 5, 11, 100, i32::MAX])?)
            }
        }
        Kind::String => Value::String(text(u)?),
        Kind::Bytes if pools.is_string(field) => {
            // A map's string values are Java Strings: always UTF-8.
            if !pools.proto3 && !field.parent_message().is_map_entry() && u.ratio(1, 4)? {
                Value::Bytes(
                    u.choose(&[&b"\xff"[..], b"a\xc3", b"\xed\xa0\x80"])?
                        .to_vec()
                        .into(),
                )
            } else {
                Value::Bytes(text(u)?.into_bytes().into())
            }
        }
        Kind::Bytes => Value::Bytes(match u.int_in_range(0..=3)? {
            0 => u
                .choose(&[&b""[..], b"\xff", b"\x08\x01", b"\x08\x96\x01"])?
                .to_vec()
                .into(),
            _ => {
                let n = u.int_in_range(0..=4)?;
                u.bytes(n)?.to_vec().into()
            }
        }),
        kind => int(u, &kind)?,
    })
}
