//! Bytes as protobuf-java writes them, and what protobuf-java makes of bytes under a reader
//! schema. prost-reflect builds, decodes and prints the messages; where it differs from
//! protobuf-java (the project's reference runtime) this module stands in for Java:
//!
//! - Writing ([`encode`]): Java writes the fields of a message in field-number order, a
//!   singular field without presence only when it is not its zero (for floats: when its bits
//!   are not zero, so `-0.0` is written), and every map entry with both its key and its value
//!   even when they are zero (generated code, `MapEntryLite.writeTo`; a `DynamicMessage` entry
//!   built without a key leaves it out, which the example check allows); prost-reflect leaves
//!   a zero key or value out of a proto3 map entry. Map entries go in key order here (Java keeps insertion order;
//!   any order is a valid writer).
//! - Reading ([`read`]): the bytes first pass through [`sanitize`], which does what Java's
//!   parser does that prost-reflect does not, and hands prost-reflect only what Java would put
//!   into the reader's fields:
//!   - a field of a known number with a wire type the reader's field does not accept is kept
//!     by Java as an unknown field (prost-reflect fails the whole decode); a packable repeated
//!     field accepts both packed and expanded elements, as in both runtimes;
//!   - a value a closed enum (proto2) of the reader does not declare is kept by Java as an
//!     unknown field, element by element in a repeated field, in the entry for a map value
//!     (prost-reflect treats every enum as open and keeps the number);
//!   - map entries are read as `DynamicMessage` reads them (the project's Java tests parse
//!     with it), see [`sanitize_entry`];
//!   - Java validates UTF-8 only in proto3 strings and in the string keys and values of map
//!     entries (prost-reflect in every string, so the schemas are decoded with `string` turned
//!     into `bytes`, see [`raw_pool`], and Java's strings are validated here); a failure is
//!     InvalidProtocolBufferException;
//!   - a missing required field makes Java's `parseFrom` throw (prost-reflect does not check);
//!   - malformed data (a bad tag, wire type 6 or 7, an unmatched end-group, a truncated value)
//!     throws, as in prost-reflect.
//!
//!   What is kept as unknown is reported as [`Lost`]: a value of a field the reader has, not
//!   read into it.

use prost::Message;
use prost_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor,
    ReflectMessage, Value,
};
use prost_types::field_descriptor_proto::Type as PbType;
use prost_types::{DescriptorProto, FileDescriptorProto, FileDescriptorSet};

/// The decoding pool of a schema: the same schema with every `string` field turned into
/// `bytes` (same wire format, no UTF-8 check: Java validates some strings only, done in
/// [`sanitize`]), except map keys (a map key cannot be `bytes`; Java validates them, so
/// [`sanitize`] lets no invalid one through, and writers only write valid ones). Defaults of string fields stay as they are: the generator's defaults need no
/// escaping, so they mean the same bytes.
pub fn raw_pool(file: &FileDescriptorProto) -> Result<DescriptorPool, String> {
    fn visit(m: &mut DescriptorProto) {
        let entry = m.options.as_ref().is_some_and(|o| o.map_entry());
        for f in &mut m.field {
            if f.r#type() == PbType::String && !(entry && f.number() == 1) {
                f.set_type(PbType::Bytes);
            }
        }
        m.nested_type.iter_mut().for_each(visit);
    }
    let mut file = file.clone();
    file.message_type.iter_mut().for_each(visit);
    let set = FileDescriptorSet { file: vec![file] };
    DescriptorPool::decode(set.encode_to_vec().as_slice()).map_err(|e| e.to_string())
}

const VARINT: u32 = 0;
const I64: u32 = 1;
const LEN: u32 = 2;
const START_GROUP: u32 = 3;
const END_GROUP: u32 = 4;
const I32: u32 = 5;

pub fn wire_type(kind: &Kind) -> u32 {
    match kind {
        Kind::Double | Kind::Fixed64 | Kind::Sfixed64 => I64,
        Kind::Float | Kind::Fixed32 | Kind::Sfixed32 => I32,
        Kind::String | Kind::Bytes | Kind::Message(_) => LEN,
        _ => VARINT,
    }
}

pub fn packable(kind: &Kind) -> bool {
    !matches!(kind, Kind::String | Kind::Bytes | Kind::Message(_))
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_tag(out: &mut Vec<u8>, number: u32, wire: u32) {
    put_varint(out, (u64::from(number) << 3) | u64::from(wire));
}

fn put_len(out: &mut Vec<u8>, number: u32, body: &[u8]) {
    put_tag(out, number, LEN);
    put_varint(out, body.len() as u64);
    out.extend_from_slice(body);
}

/// Whether Java writes a singular field without presence holding `value`.
fn java_nonzero(value: &Value) -> bool {
    match value {
        Value::Bool(v) => *v,
        Value::I32(v) | Value::EnumNumber(v) => *v != 0,
        Value::I64(v) => *v != 0,
        Value::U32(v) => *v != 0,
        Value::U64(v) => *v != 0,
        Value::F32(v) => v.to_bits() != 0,
        Value::F64(v) => v.to_bits() != 0,
        Value::String(v) => !v.is_empty(),
        Value::Bytes(v) => !v.is_empty(),
        Value::Message(_) | Value::List(_) | Value::Map(_) => true,
    }
}

pub fn map_key_value(key: &MapKey) -> Value {
    match key {
        MapKey::Bool(v) => Value::Bool(*v),
        MapKey::I32(v) => Value::I32(*v),
        MapKey::I64(v) => Value::I64(*v),
        MapKey::U32(v) => Value::U32(*v),
        MapKey::U64(v) => Value::U64(*v),
        MapKey::String(v) => Value::String(v.clone()),
    }
}

/// A scalar's payload, without its tag.
fn put_scalar(out: &mut Vec<u8>, kind: &Kind, value: &Value) {
    match (kind, value) {
        (Kind::Int32 | Kind::Enum(_), Value::I32(v) | Value::EnumNumber(v)) => {
            put_varint(out, *v as i64 as u64)
        }
        (Kind::Sint32, Value::I32(v)) => put_varint(out, u64::from(((v << 1) ^ (v >> 31)) as u32)),
        (Kind::Sfixed32, Value::I32(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Kind::Int64, Value::I64(v)) => put_varint(out, *v as u64),
        (Kind::Sint64, Value::I64(v)) => put_varint(out, ((v << 1) ^ (v >> 63)) as u64),
        (Kind::Sfixed64, Value::I64(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Kind::Uint32, Value::U32(v)) => put_varint(out, u64::from(*v)),
        (Kind::Fixed32, Value::U32(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Kind::Uint64, Value::U64(v)) => put_varint(out, *v),
        (Kind::Fixed64, Value::U64(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Kind::Float, Value::F32(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Kind::Double, Value::F64(v)) => out.extend_from_slice(&v.to_le_bytes()),
        (Kind::Bool, Value::Bool(v)) => put_varint(out, u64::from(*v)),
        (kind, value) => panic!("evolve: no scalar encoding of {value:?} as {kind:?}"),
    }
}

/// One field record: tag and payload.
fn put_value(out: &mut Vec<u8>, field: &FieldDescriptor, value: &Value) {
    let number = field.number();
    match (field.kind(), value) {
        (Kind::Message(_), Value::Message(m)) => put_len(out, number, &encode(m)),
        (Kind::String | Kind::Bytes, Value::String(s)) => put_len(out, number, s.as_bytes()),
        (Kind::String | Kind::Bytes, Value::Bytes(b)) => put_len(out, number, b),
        (kind, value) => {
            put_tag(out, number, wire_type(&kind));
            put_scalar(out, &kind, value);
        }
    }
}

/// `message` as protobuf-java serializes it.
pub fn encode(message: &DynamicMessage) -> Vec<u8> {
    let mut out = vec![];
    let mut fields: Vec<FieldDescriptor> = message.descriptor().fields().collect();
    fields.sort_by_key(|f| f.number());
    for field in fields {
        let value = message.get_field(&field);
        match value.as_ref() {
            Value::Map(map) => {
                let entry = field.kind();
                let entry = entry.as_message().expect("map entry");
                let (key_field, value_field) =
                    (entry.get_field(1).unwrap(), entry.get_field(2).unwrap());
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                for (k, v) in entries {
                    let mut body = vec![];
                    put_value(&mut body, &key_field, &map_key_value(k));
                    put_value(&mut body, &value_field, v);
                    put_len(&mut out, field.number(), &body);
                }
            }
            Value::List(list) if list.is_empty() => {}
            Value::List(list) if field.is_packed() => {
                let mut body = vec![];
                for v in list {
                    put_scalar(&mut body, &field.kind(), v);
                }
                put_len(&mut out, field.number(), &body);
            }
            Value::List(list) => list.iter().for_each(|v| put_value(&mut out, &field, v)),
            v => {
                let present = if field.supports_presence() {
                    message.has_field(&field)
                } else {
                    java_nonzero(v)
                };
                if present {
                    put_value(&mut out, &field, v);
                }
            }
        }
    }
    out
}

/// A value the writer wrote into a field the reader has, which Java keeps as an unknown field.
#[derive(Debug, Clone)]
pub struct Lost {
    pub path: String,
    pub number: u32,
    pub why: &'static str,
}

#[derive(Debug, Clone)]
pub enum ReadError {
    /// InvalidProtocolBufferException while parsing.
    Parse(String),
    /// InvalidProtocolBufferException (UninitializedMessageException) after parsing: the
    /// reader requires these paths, which the bytes lack.
    MissingRequired(Vec<String>),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Parse(why) => write!(f, "parse failure: {why}"),
            ReadError::MissingRequired(paths) => write!(f, "missing required {}", paths.join(", ")),
        }
    }
}

/// What one schema needs for reading: its pool as declared, its decoding pool
/// ([`raw_pool`]), and its syntax (one file: every enum is closed in proto2, open in proto3,
/// and only proto3 strings are validated).
pub struct Pools<'a> {
    pub pool: &'a DescriptorPool,
    pub raw: &'a DescriptorPool,
    pub proto3: bool,
}

impl Pools<'_> {
    /// Whether `field` (of the decoding pool) is declared `string`.
    pub fn is_string(&self, field: &FieldDescriptor) -> bool {
        self.pool
            .get_message_by_name(field.parent_message().full_name())
            .and_then(|m| m.get_field(field.number()))
            .is_some_and(|f| f.kind() == Kind::String)
    }

    /// Whether Java checks that `field` holds UTF-8 when it parses it: a proto3 string, and
    /// a string key or value of a map entry in any syntax (`MapEntryLite.parseField` reads
    /// them with `readPrimitiveField(…, checkUtf8 = true)`; `needsUtf8Check` is true for map
    /// entry fields).
    pub fn validates_utf8(&self, field: &FieldDescriptor) -> bool {
        self.is_string(field) && (self.proto3 || field.parent_message().is_map_entry())
    }
}

pub struct Read {
    /// The reader's message (decoding pool: strings as bytes).
    pub message: DynamicMessage,
    pub lost: Vec<Lost>,
    /// Fields the writer wrote whose numbers the reader does not have (path of the message
    /// that holds them, number): unknown fields too, but nothing to compare them with.
    pub unknown: Vec<(String, u32)>,
}

/// What [`sanitize`] finds on its way.
#[derive(Default)]
pub struct Found {
    pub lost: Vec<Lost>,
    pub unknown: Vec<(String, u32)>,
    /// Required fields missing in map values (checked where the entry is read).
    pub missing: Vec<String>,
}

/// What protobuf-java's `DynamicMessage.parseFrom` (the project's reference reader) does with
/// `bytes` under the reader's root message.
pub fn read(bytes: &[u8], pools: &Pools, root: &str) -> Result<Read, ReadError> {
    let desc = pools.raw.get_message_by_name(root).expect("root message");
    let mut found = Found::default();
    let clean = sanitize(bytes, &desc, pools, root, &mut found, 0).map_err(ReadError::Parse)?;
    let message = DynamicMessage::decode(desc, clean.as_slice())
        .map_err(|e| ReadError::Parse(format!("prost-reflect after sanitizing: {e}")))?;
    let mut missing = found.missing;
    check_required(&message, root, &mut missing);
    if !missing.is_empty() {
        return Err(ReadError::MissingRequired(missing));
    }
    Ok(Read {
        message,
        lost: found.lost,
        unknown: found.unknown,
    })
}

enum Raw<'b> {
    Varint(u64),
    Fixed64(u64),
    Fixed32(u32),
    Len(&'b [u8]),
    Group,
}

fn get_varint(b: &mut &[u8]) -> Result<u64, String> {
    let mut v = 0u64;
    for i in 0..10 {
        let Some((&byte, rest)) = b.split_first() else {
            return Err("truncated varint".into());
        };
        *b = rest;
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err("malformed varint".into())
}

fn get_bytes<'b>(b: &mut &'b [u8], n: usize) -> Result<&'b [u8], String> {
    if b.len() < n {
        return Err("truncated message".into());
    }
    let (head, rest) = b.split_at(n);
    *b = rest;
    Ok(head)
}

/// Java's readTag: a varint, of which the low 32 bits count; zero is an invalid tag.
fn get_tag(b: &mut &[u8]) -> Result<(u32, u32), String> {
    let tag = get_varint(b)? as u32;
    if tag >> 3 == 0 {
        return Err("invalid tag (zero)".into());
    }
    Ok((tag >> 3, tag & 7))
}

fn get_raw<'b>(b: &mut &'b [u8], wire: u32, number: u32) -> Result<Raw<'b>, String> {
    Ok(match wire {
        VARINT => Raw::Varint(get_varint(b)?),
        I64 => Raw::Fixed64(u64::from_le_bytes(get_bytes(b, 8)?.try_into().unwrap())),
        I32 => Raw::Fixed32(u32::from_le_bytes(get_bytes(b, 4)?.try_into().unwrap())),
        LEN => {
            let n = get_varint(b)? as u32;
            if n > i32::MAX as u32 {
                return Err("negative size".into());
            }
            Raw::Len(get_bytes(b, n as usize)?)
        }
        START_GROUP => {
            loop {
                let (n, w) = get_tag(b)?;
                if w == END_GROUP {
                    if n == number {
                        break;
                    }
                    return Err("end-group tag did not match expected tag".into());
                }
                get_raw(b, w, n)?;
            }
            Raw::Group
        }
        END_GROUP => return Err("end-group tag did not match expected tag".into()),
        _ => return Err("invalid wire type".into()),
    })
}

fn put_raw(out: &mut Vec<u8>, number: u32, raw: &Raw) {
    match raw {
        Raw::Varint(v) => {
            put_tag(out, number, VARINT);
            put_varint(out, *v);
        }
        Raw::Fixed64(v) => {
            put_tag(out, number, I64);
            out.extend_from_slice(&v.to_le_bytes());
        }
        Raw::Fixed32(v) => {
            put_tag(out, number, I32);
            out.extend_from_slice(&v.to_le_bytes());
        }
        Raw::Len(body) => put_len(out, number, body),
        Raw::Group => {}
    }
}

/// Whether Java keeps a scalar `raw` in `field`: `Ok(None)` when Java keeps it as an unknown
/// field instead (pushed onto `lost`), `Err` when Java throws.
fn accept<'b>(
    field: &FieldDescriptor,
    raw: Raw<'b>,
    pools: &Pools,
    path: &str,
    found: &mut Found,
) -> Result<Option<Raw<'b>>, String> {
    match (field.kind(), &raw) {
        (Kind::Enum(e), Raw::Varint(v)) if !pools.proto3 && e.get_value(*v as i32).is_none() => {
            found.lost.push(Lost {
                path: path.to_owned(),
                number: field.number(),
                why: "closed enum value unknown to the reader",
            });
            Ok(None)
        }
        (Kind::String | Kind::Bytes, Raw::Len(body))
            if pools.validates_utf8(field) && std::str::from_utf8(body).is_err() =>
        {
            Err(format!("invalid UTF-8 in string {path}"))
        }
        _ => Ok(Some(raw)),
    }
}

/// `buf` as a message of `desc`, keeping only what Java reads into the reader's fields (see
/// the module comment); values of numbers the reader lacks are left out (Java keeps them as
/// unknown fields, which nothing compares).
pub fn sanitize(
    mut buf: &[u8],
    desc: &MessageDescriptor,
    pools: &Pools,
    path: &str,
    found: &mut Found,
    depth: usize,
) -> Result<Vec<u8>, String> {
    if depth > 64 {
        return Err("message nested too deeply".into());
    }
    let mut out = vec![];
    while !buf.is_empty() {
        let (number, wire) = get_tag(&mut buf)?;
        let raw = get_raw(&mut buf, wire, number)?;
        let Some(field) = desc.get_field(number) else {
            found.unknown.push((path.to_owned(), number));
            continue;
        };
        let fpath = format!("{path}.{}", field.name());
        let kind = field.kind();
        let expected = wire_type(&kind);
        if field.is_list() && packable(&kind) && wire == LEN {
            let Raw::Len(mut body) = raw else {
                unreachable!()
            };
            while !body.is_empty() {
                let element = get_raw(&mut body, expected, number)?;
                if let Some(element) = accept(&field, element, pools, &fpath, found)? {
                    put_raw(&mut out, number, &element);
                }
            }
            continue;
        }
        if wire != expected {
            found.lost.push(Lost {
                path: fpath,
                number,
                why: "wire type the reader's field does not accept",
            });
            continue;
        }
        match (&kind, raw) {
            (Kind::Message(entry), Raw::Len(body)) if field.is_map() => {
                let body = sanitize_entry(body, entry, pools, &fpath, found, depth)?;
                put_len(&mut out, number, &body);
            }
            (Kind::Message(m), Raw::Len(body)) => {
                let body = sanitize(body, m, pools, &fpath, found, depth + 1)?;
                put_len(&mut out, number, &body);
            }
            (_, raw) => {
                if let Some(raw) = accept(&field, raw, pools, &fpath, found)? {
                    put_raw(&mut out, number, &raw);
                }
            }
        }
    }
    Ok(out)
}

/// A map entry as `DynamicMessage` reads it: as a message of the entry type, so a key or value
/// of the wrong wire type, or a value a closed enum does not declare, is kept as an unknown
/// field of the entry, and the entry stays in the map with that key or value unset (generated
/// code, `MapEntryLite.parseEntry`, skips the first and keeps the whole entry as an unknown
/// field of the holder for the second: a misread either way). A message value present in the
/// entry must be initialized (DynamicMessage checks the entry's fields that are set; generated
/// code would check the default instance of a missing value too).
fn sanitize_entry(
    mut buf: &[u8],
    entry: &MessageDescriptor,
    pools: &Pools,
    path: &str,
    found: &mut Found,
    depth: usize,
) -> Result<Vec<u8>, String> {
    let mut key: Option<Vec<u8>> = None;
    let mut value: Option<Vec<u8>> = None;
    while !buf.is_empty() {
        let (number, wire) = get_tag(&mut buf)?;
        let raw = get_raw(&mut buf, wire, number)?;
        let Some(field) = entry.get_field(number) else {
            continue;
        };
        let fpath = format!("{path}.{}", field.name());
        if wire != wire_type(&field.kind()) {
            found.lost.push(Lost {
                path: fpath,
                number,
                why: "wire type the reader's map entry does not accept",
            });
            continue;
        }
        let mut record = vec![];
        match (field.kind(), raw) {
            (Kind::Message(m), Raw::Len(body)) => {
                let body = sanitize(body, &m, pools, &fpath, found, depth + 1)?;
                // Java merges a repeated message value; so does prost-reflect, given both.
                if number == 2 {
                    record = value.take().unwrap_or_default();
                }
                put_len(&mut record, number, &body);
            }
            (_, raw) => match accept(&field, raw, pools, &fpath, found)? {
                Some(raw) => put_raw(&mut record, number, &raw),
                None => continue,
            },
        }
        if number == 1 {
            key = Some(record);
        } else {
            value = Some(record);
        }
    }
    if let (Some(body), Kind::Message(m)) = (&value, entry.get_field(2).unwrap().kind()) {
        // The value's records, merged, as the entry holds them.
        let mut merged = DynamicMessage::new(m);
        let mut rest = body.as_slice();
        while !rest.is_empty() {
            let (_, wire) = get_tag(&mut rest)?;
            let Raw::Len(payload) = get_raw(&mut rest, wire, 2)? else {
                unreachable!()
            };
            merged
                .merge(payload)
                .map_err(|e| format!("prost-reflect after sanitizing: {e}"))?;
        }
        check_required(&merged, &format!("{path}.value"), &mut found.missing);
    }
    let mut out = key.unwrap_or_default();
    out.extend(value.unwrap_or_default());
    Ok(out)
}

/// Java's `isInitialized`: every required field set, in every message present (map values are
/// checked by [`sanitize_entry`]); the paths of those missing go to `missing`.
pub fn check_required(message: &DynamicMessage, path: &str, missing: &mut Vec<String>) {
    for field in message.descriptor().fields() {
        let fpath = format!("{path}.{}", field.name());
        if field.is_required() && !message.has_field(&field) {
            missing.push(fpath);
            continue;
        }
        if !message.has_field(&field) || field.is_map() {
            continue;
        }
        match message.get_field(&field).as_ref() {
            Value::Message(m) => check_required(m, &fpath, missing),
            Value::List(list) => {
                for v in list {
                    if let Value::Message(m) = v {
                        check_required(m, &fpath, missing);
                    }
                }
            }
            _ => {}
        }
    }
}
