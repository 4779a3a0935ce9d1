//! What the writer wrote against what the reader read, field by field, matched by number:
//! numbers by value (bool as 0/1, enums by number, NaN equal to NaN, `-0.0` equal to `0.0`),
//! strings and bytes by bytes, messages field by field. A misread is
//! - a value read as another one, or lost (its field left at the default);
//! - a repeated field of two or more elements read by a singular field (Java keeps the last
//!   scalar, merges messages);
//! - a list read with another number of elements, a map read with a key lost or merged;
//! - an unset singular field whose default the reader does not share (the writer meant its
//!   own default, the reader sees another value).
//!
//! Values the reader keeps as unknown fields and parse failures are found by `wire::read`.

use std::collections::HashMap;

use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, MapKey, ReflectMessage, Value};

use crate::wire::map_key_value;

#[derive(Debug, Clone)]
pub struct Misread {
    pub path: String,
    /// A short class, for the figures: `value`, `default`, `lost: …`, `parse failure`, …
    pub kind: String,
    pub what: String,
}

enum Norm<'a> {
    Int(i128),
    Float(f64),
    Bytes(&'a [u8]),
    Message,
    Other,
}

fn norm(v: &Value) -> Norm<'_> {
    match v {
        Value::Bool(b) => Norm::Int(i128::from(*b)),
        Value::I32(x) | Value::EnumNumber(x) => Norm::Int(i128::from(*x)),
        Value::I64(x) => Norm::Int(i128::from(*x)),
        Value::U32(x) => Norm::Int(i128::from(*x)),
        Value::U64(x) => Norm::Int(i128::from(*x)),
        Value::F32(x) => Norm::Float(f64::from(*x)),
        Value::F64(x) => Norm::Float(*x),
        Value::String(s) => Norm::Bytes(s.as_bytes()),
        Value::Bytes(b) => Norm::Bytes(b),
        Value::Message(_) => Norm::Message,
        Value::List(_) | Value::Map(_) => Norm::Other,
    }
}

fn same_scalar(a: &Norm, b: &Norm) -> bool {
    match (a, b) {
        (Norm::Int(x), Norm::Int(y)) => x == y,
        (Norm::Float(x), Norm::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Norm::Int(x), Norm::Float(y)) | (Norm::Float(y), Norm::Int(x)) => (*x as f64) == *y,
        (Norm::Bytes(x), Norm::Bytes(y)) => x == y,
        _ => false,
    }
}

fn is_zero(a: &Norm) -> bool {
    match a {
        Norm::Int(x) => *x == 0,
        Norm::Float(x) => *x == 0.0,
        Norm::Bytes(x) => x.is_empty(),
        _ => false,
    }
}

fn short(v: &Value) -> String {
    let mut s = match v {
        Value::Message(m) => format!("{{{}}}", m.to_text_format()),
        Value::Bytes(b) => format!("b{:?}", String::from_utf8_lossy(b)),
        // Never a message through Debug: it prints the message's descriptor, endlessly for a
        // recursive one (a stack overflow found replaying derived inputs in CI).
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(short).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{k:?}: {}", short(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => format!("{other:?}"),
    };
    if s.len() > 120 {
        let mut end = 117;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
    s
}

fn singular_scalar(f: &FieldDescriptor) -> bool {
    !f.is_list() && !matches!(f.kind(), Kind::Message(_))
}

/// Whether a writer's singular field is on the wire (Java: presence, or not zero).
fn on_wire(message: &DynamicMessage, field: &FieldDescriptor, value: &Value) -> bool {
    match value {
        Value::List(l) => !l.is_empty(),
        Value::Map(m) => !m.is_empty(),
        _ if field.supports_presence() => message.has_field(field),
        Value::F32(x) => x.to_bits() != 0,
        Value::F64(x) => x.to_bits() != 0,
        _ => !is_zero(&norm(value)),
    }
}

/// One element the writer wrote: a value, or a map entry.
enum Elem {
    Value(Value),
    Entry(Value, Value),
}

fn elements(value: Value) -> Vec<Elem> {
    match value {
        Value::List(list) => list.into_iter().map(Elem::Value).collect(),
        Value::Map(map) => {
            let mut entries: Vec<(MapKey, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            entries
                .into_iter()
                .map(|(k, v)| Elem::Entry(map_key_value(&k), v))
                .collect()
        }
        v => vec![Elem::Value(v)],
    }
}

struct Out<'o> {
    found: &'o mut Vec<Misread>,
}

impl Out<'_> {
    fn push(&mut self, path: &str, kind: &str, what: String) {
        self.found.push(Misread {
            path: path.to_owned(),
            kind: kind.to_owned(),
            what,
        });
    }
}

/// Appends to `found` every misread of writer message `w` read as reader message `r`.
pub fn compare(w: &DynamicMessage, r: &DynamicMessage, path: &str, found: &mut Vec<Misread>) {
    message(w, r, path, &mut Out { found });
}

fn message(w: &DynamicMessage, r: &DynamicMessage, path: &str, out: &mut Out) {
    for wf in w.descriptor().fields() {
        let Some(rf) = r.descriptor().get_field(wf.number()) else {
            continue;
        };
        let fpath = format!("{path}.{}", rf.name());
        let wv = w.get_field(&wf).into_owned();
        let rv = r.get_field(&rf).into_owned();
        if !on_wire(w, &wf, &wv) {
            if singular_scalar(&wf) && singular_scalar(&rf) {
                let (a, b) = (norm(&wv), norm(&rv));
                if !(same_scalar(&a, &b) || (is_zero(&a) && is_zero(&b))) {
                    out.push(
                        &fpath,
                        "default",
                        format!("writer's unset {} read as {}", short(&wv), short(&rv)),
                    );
                }
            }
            continue;
        }
        let written = elements(wv);
        if rf.is_map() {
            let Value::Map(map) = rv else { unreachable!() };
            read_map(written, map, &fpath, out);
        } else if rf.is_list() {
            let Value::List(list) = rv else {
                unreachable!()
            };
            if list.len() != written.len() {
                out.push(
                    &fpath,
                    "element count",
                    format!("{} elements written, {} read", written.len(), list.len()),
                );
                continue;
            }
            for (a, b) in written.into_iter().zip(list) {
                element(a, &b, &fpath, out);
            }
        } else if written.len() >= 2 {
            out.push(
                &fpath,
                "repeated read as singular",
                format!("{} elements read as one: {}", written.len(), short(&rv)),
            );
        } else {
            let a = written.into_iter().next().unwrap();
            element(a, &rv, &fpath, out);
        }
    }
}

fn element(written: Elem, read: &Value, path: &str, out: &mut Out) {
    match (written, read) {
        (Elem::Value(Value::Message(wm)), Value::Message(rm)) => message(&wm, rm, path, out),
        (Elem::Value(wv), rv) => {
            if !same_scalar(&norm(&wv), &norm(rv)) {
                out.push(
                    path,
                    "value",
                    format!("{} read as {}", short(&wv), short(rv)),
                );
            }
        }
        (Elem::Entry(k, v), Value::Message(rm)) => {
            for (number, written) in [(1, k), (2, v)] {
                let Some(rf) = rm.descriptor().get_field(number) else {
                    out.push(
                        path,
                        "entry field lost",
                        format!("field {number} of an entry"),
                    );
                    continue;
                };
                let read = rm.get_field(&rf).into_owned();
                element(
                    Elem::Value(written),
                    &read,
                    &format!("{path}.{}", rf.name()),
                    out,
                );
            }
        }
        (Elem::Entry(k, v), rv) => out.push(
            path,
            "value",
            format!("entry {}: {} read as {}", short(&k), short(&v), short(rv)),
        ),
    }
}

/// The writer's elements read by a reader's map: Java keeps the last value of each key.
fn read_map(written: Vec<Elem>, map: HashMap<MapKey, Value>, path: &str, out: &mut Out) {
    let mut pairs: Vec<(Value, Option<Value>)> = vec![];
    for e in written {
        match e {
            Elem::Entry(k, v) => pairs.push((k, Some(v))),
            Elem::Value(Value::Message(m)) => {
                // A plain message read as an entry: its fields 1 and 2, or their defaults.
                let key = m
                    .descriptor()
                    .get_field(1)
                    .map(|f| m.get_field(&f).into_owned());
                let value = m
                    .descriptor()
                    .get_field(2)
                    .map(|f| m.get_field(&f).into_owned());
                match key {
                    Some(k) => pairs.push((k, value)),
                    None => out.push(
                        path,
                        "entry field lost",
                        "an element without field 1".into(),
                    ),
                }
            }
            Elem::Value(v) => {
                out.push(path, "value", format!("{} read as a map entry", short(&v)));
                return;
            }
        }
    }
    let read: Vec<(Value, Value)> = map
        .into_iter()
        .map(|(k, v)| (map_key_value(&k), v))
        .collect();
    for (i, (k, _)) in pairs.iter().enumerate() {
        if pairs[..i]
            .iter()
            .any(|(p, _)| same_scalar(&norm(p), &norm(k)))
        {
            out.push(
                path,
                "map key merged",
                format!("key {} written twice", short(k)),
            );
            return;
        }
    }
    if read.len() != pairs.len() {
        out.push(
            path,
            "element count",
            format!("{} entries written, {} read", pairs.len(), read.len()),
        );
        return;
    }
    for (k, v) in pairs {
        let Some((_, rv)) = read
            .iter()
            .find(|(rk, _)| same_scalar(&norm(rk), &norm(&k)))
        else {
            out.push(
                path,
                "value",
                format!("key {} read as another key", short(&k)),
            );
            continue;
        };
        match v {
            Some(v) => element(Elem::Value(v), rv, &format!("{path}[{}]", short(&k)), out),
            None => out.push(
                path,
                "entry field lost",
                "an element without field 2".into(),
            ),
        }
    }
}
