//! The engine's examples (docs/rules.md#examples), checked against the schemas they were made
//! from, for every finding that carries one (checkers built `.with_examples(true)`; findings
//! without an example are not looked at, so this check is idle until the engine makes them):
//! - the writer text parses with the writer schema (prost-reflect text format);
//! - encoded as protobuf-java would (`wire::encode`), it gives exactly the example's bytes
//!   (a map entry may lack its key or value, as DynamicMessage writes it, and entries may come
//!   in another order: then the bytes must decode to the same message), at most
//!   `EXAMPLE_BYTES` of them;
//! - the bytes read with the reader schema (`wire::read`, the Java model) do not contradict the
//!   outcome: a parse failure is one, a missing required field is one, a value kept as unknown
//!   is unknown (or lands in a number the reader lacks), merged elements were a list the reader
//!   reads as one field, and a value read as another reads as the `read` text where that text
//!   is a scalar this check can parse (a number, a bool, an enum name, a quoted string).

use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, ReflectMessage, Value};
use protocompat::example::EXAMPLE_BYTES;
use protocompat::{Example, Outcome};
use protocompat_testkit::evolve::ROOT;

use crate::wire::{self, Pools, ReadError};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// `Err` says how the example contradicts the schemas.
pub fn check(example: &Example, writer: &Pools, reader: &Pools) -> Result<(), String> {
    let desc = writer.raw.get_message_by_name(ROOT).unwrap();
    let message = DynamicMessage::parse_text_format(desc.clone(), &example.writer)
        .map_err(|e| format!("the writer text does not parse with the writer schema: {e}"))?;
    let mut bytes = wire::encode(&message);
    if hex(&bytes) != example.bytes {
        // A map entry DynamicMessage built from text without a key or value leaves it out
        // (generated code writes both, as `wire::encode` does), and entries may come in another
        // order: then the example's bytes must decode to the writer's message (compared by
        // encoding both the same way, so that a NaN equals itself), and they are what is read.
        let theirs = unhex(&example.bytes).ok_or("the example's bytes are not hex")?;
        let same = DynamicMessage::decode(desc, theirs.as_slice())
            .is_ok_and(|m| wire::encode(&m) == bytes);
        if !same {
            return Err(format!(
                "the writer text encodes to {} (protobuf-java's order and rules), not {}",
                hex(&bytes),
                example.bytes
            ));
        }
        bytes = theirs;
    }
    if bytes.len() > EXAMPLE_BYTES {
        return Err(format!("{} bytes, over {EXAMPLE_BYTES}", bytes.len()));
    }
    let read = wire::read(&bytes, reader, ROOT);
    match (&example.outcome, &read) {
        (Outcome::ParseFailure { .. }, Err(ReadError::Parse(_))) => Ok(()),
        (Outcome::MissingRequired { path }, Err(ReadError::MissingRequired(missing))) => {
            // Java names list elements walked through (`items[0].sku`); the model does not.
            let mut unindexed = String::new();
            let mut skipping = false;
            for c in path.chars() {
                match c {
                    '[' => skipping = true,
                    ']' => skipping = false,
                    c if !skipping => unindexed.push(c),
                    _ => {}
                }
            }
            if missing.contains(&unindexed) {
                Ok(())
            } else {
                Err(format!(
                    "said to lack required {path}, but Java misses {}",
                    missing.join(", ")
                ))
            }
        }
        (_, Err(e)) => Err(format!("protobuf-java would throw ({e})")),
        (Outcome::ParseFailure { why }, Ok(_)) => {
            Err(format!("said to fail to parse ({why}), but Java parses it"))
        }
        (Outcome::MissingRequired { path }, Ok(_)) => {
            Err(format!("said to lack required {path}, but Java parses it"))
        }
        (Outcome::Unknown { path, number }, Ok(read)) => {
            // A field the reader has, whose value Java kept as unknown; or a number the
            // reader's message at the path lacks.
            let holder = path.rsplit_once('.').map_or("", |(h, _)| h);
            let kept_unknown = read
                .lost
                .iter()
                .any(|l| l.number == *number && l.path == *path)
                || read.unknown.iter().any(|(h, n)| n == number && h == holder);
            if kept_unknown {
                Ok(())
            } else {
                Err(format!(
                    "said to keep {path} (field {number}) as unknown, but Java does not"
                ))
            }
        }
        (Outcome::Merged { path, elements, .. }, Ok(read)) => {
            let Some((field, _)) = resolve(&read.message, path) else {
                return Ok(()); // Not a path through singular messages: nothing to say.
            };
            if field.is_list() {
                return Err(format!(
                    "said to merge {elements} elements at {path}, a repeated field of the reader"
                ));
            }
            match resolve_numbers(&message, &read.message, path) {
                Some((_, Value::List(list))) if list.len() != *elements => Err(format!(
                    "said to merge {elements} elements at {path}, the writer wrote {}",
                    list.len()
                )),
                Some((_, Value::List(_))) | None => Ok(()),
                Some(_) => Err(format!(
                    "said to merge elements at {path}, the writer's field is singular"
                )),
            }
        }
        (
            Outcome::Value {
                path,
                written,
                read: text,
            },
            Ok(read),
        ) => {
            if let Some((field, value)) = resolve(&read.message, path) {
                if scalar_matches(text, &value, &field, reader) == Some(false) {
                    return Err(format!(
                        "said to read {text} at {path}, Java reads {value:?}"
                    ));
                }
            }
            if let Some((field, value)) = resolve_numbers(&message, &read.message, path) {
                if scalar_matches(written, &value, &field, writer) == Some(false) {
                    return Err(format!(
                        "said the writer wrote {written} at {path}, it wrote {value:?}"
                    ));
                }
            }
            Ok(())
        }
    }
}

/// The field and value at `path` (`evo.M0.a.b`, reader names) through singular messages.
fn resolve(message: &DynamicMessage, path: &str) -> Option<(FieldDescriptor, Value)> {
    let rest = path.strip_prefix(ROOT)?.strip_prefix('.')?;
    let mut current = message.clone();
    let names: Vec<&str> = rest.split('.').collect();
    for (i, name) in names.iter().enumerate() {
        let field = current.descriptor().get_field_by_name(name)?;
        let value = current.get_field(&field).into_owned();
        if i + 1 == names.len() {
            return Some((field, value));
        }
        match value {
            Value::Message(m) if !field.is_list() => current = m,
            _ => return None,
        }
    }
    None
}

/// The writer's field and value at the numbers of the reader's `path`.
fn resolve_numbers(
    writer: &DynamicMessage,
    reader: &DynamicMessage,
    path: &str,
) -> Option<(FieldDescriptor, Value)> {
    let rest = path.strip_prefix(ROOT)?.strip_prefix('.')?;
    let (mut w, mut r) = (writer.clone(), reader.clone());
    let names: Vec<&str> = rest.split('.').collect();
    for (i, name) in names.iter().enumerate() {
        let rf = r.descriptor().get_field_by_name(name)?;
        let wf = w.descriptor().get_field(rf.number())?;
        let wv = w.get_field(&wf).into_owned();
        if i + 1 == names.len() {
            return Some((wf, wv));
        }
        match (wv, r.get_field(&rf).into_owned()) {
            (Value::Message(a), Value::Message(b)) => (w, r) = (a, b),
            _ => return None,
        }
    }
    None
}

fn unescape(quoted: &str) -> Option<Vec<u8>> {
    let inner = quoted
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .or_else(|| quoted.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))?;
    let mut out = vec![];
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *bytes.get(i)?;
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'x' => {
                let end = (i..bytes.len().min(i + 2))
                    .take_while(|j| bytes[*j].is_ascii_hexdigit())
                    .last()?
                    + 1;
                out.push(u8::from_str_radix(std::str::from_utf8(&bytes[i..end]).ok()?, 16).ok()?);
                i = end;
            }
            b'0'..=b'7' => {
                let start = i - 1;
                let end = (start..bytes.len().min(start + 3))
                    .take_while(|j| (b'0'..=b'7').contains(&bytes[*j]))
                    .last()?
                    + 1;
                out.push(
                    u8::from_str_radix(std::str::from_utf8(&bytes[start..end]).ok()?, 8).ok()?,
                );
                i = end;
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// Whether text-format `text` means `value` of `field`; `None` when this check cannot tell (a
/// message, a list, a text it does not parse). A `string` field's bytes may be shown as they
/// are or as Java's String of them (invalid UTF-8 replaced by U+FFFD).
fn scalar_matches(
    text: &str,
    value: &Value,
    field: &FieldDescriptor,
    pools: &Pools,
) -> Option<bool> {
    let text = text.trim();
    let number: Option<f64> = match value {
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::I32(x) | Value::EnumNumber(x) => Some(f64::from(*x)),
        Value::I64(x) => Some(*x as f64),
        Value::U32(x) => Some(f64::from(*x)),
        Value::U64(x) => Some(*x as f64),
        Value::F32(x) => {
            // Compared as a float: `0.1` means 0.1f.
            let said = text.parse::<f32>().ok()?;
            return Some(said == *x || (said.is_nan() && x.is_nan()));
        }
        Value::F64(x) => Some(*x),
        Value::Bytes(b) => {
            let said = unescape(text)?;
            let lossy = pools.is_string(field) && said == String::from_utf8_lossy(b).as_bytes();
            return Some(said == b.as_ref() || lossy);
        }
        Value::String(s) => return unescape(text).map(|t| t == s.as_bytes()),
        _ => None,
    };
    let number = number?;
    let said: f64 = match text {
        "true" => 1.0,
        "false" => 0.0,
        _ => match text.parse::<f64>() {
            Ok(x) => x,
            Err(_) => match (field.kind(), text.parse::<i128>()) {
                (_, Ok(x)) => x as f64,
                (Kind::Enum(e), _) => f64::from(e.get_value_by_name(text)?.number()),
                _ => return None,
            },
        },
    };
    Some(said == number || (said.is_nan() && number.is_nan()))
}
