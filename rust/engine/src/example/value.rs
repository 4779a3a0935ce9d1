//! Values of an example, on either side, and how they are written in protobuf text format.

use super::budget::VALUE;
use crate::model::{FieldRef, Kind, MessageRef, Scalar};

/// One value of a field, as the side holding it types it.
#[derive(Clone)]
pub(crate) enum Val<'a> {
    /// Every integer type, signed or not.
    Int(i128),
    Bool(bool),
    F32(f32),
    F64(f64),
    /// A string's bytes (UTF-8, unless a writer that does not validate wrote otherwise).
    Str(Vec<u8>),
    Bytes(Vec<u8>),
    /// An enum value by number.
    Enum(i32),
    Msg(Msg<'a>),
}

/// A message: its set fields in field-number order, each with its values (one for a singular
/// field), and the numbers the reader kept only as unknown fields.
#[derive(Clone)]
pub(crate) struct Msg<'a> {
    pub ty: MessageRef<'a>,
    pub fields: Vec<(FieldRef<'a>, Vec<Val<'a>>)>,
    pub unknown: Vec<u32>,
}

impl<'a> Msg<'a> {
    pub(crate) fn new(ty: MessageRef<'a>) -> Msg<'a> {
        Msg {
            ty,
            fields: Vec::new(),
            unknown: Vec::new(),
        }
    }

    pub(crate) fn get(&self, number: u32) -> Option<&Vec<Val<'a>>> {
        self.fields
            .iter()
            .find(|(f, _)| f.number() == number)
            .map(|(_, v)| v)
    }

    /// Sets (or replaces) a field, keeping field-number order.
    pub(crate) fn put(&mut self, field: FieldRef<'a>, values: Vec<Val<'a>>) {
        match self
            .fields
            .binary_search_by_key(&field.number(), |(f, _)| f.number())
        {
            Ok(at) => self.fields[at].1 = values,
            Err(at) => self.fields.insert(at, (field, values)),
        }
    }

    /// Values in the message, as [`size`] counts them: what copying, encoding or comparing it
    /// visits.
    pub(crate) fn size(&self) -> usize {
        self.fields.iter().map(|(_, values)| size(values)).sum()
    }

    /// The message in text format, without braces: `a: 1 b { c: 2 }`.
    pub(crate) fn text(&self) -> String {
        let mut parts = Vec::new();
        for (field, values) in &self.fields {
            let name = text_name(*field);
            for value in values {
                match value {
                    Val::Msg(m) => parts.push(format!("{name} {}", braced(&m.text()))),
                    other => parts.push(format!("{name}: {}", render(*field, other))),
                }
            }
        }
        parts.join(" ")
    }
}

/// Values in `values`, those of messages inside included, each as [`weight`] counts it.
pub(crate) fn size(values: &[Val<'_>]) -> usize {
    values
        .iter()
        .map(|value| match value {
            Val::Msg(m) => weight(value) + m.size(),
            _ => weight(value),
        })
        .sum()
}

/// One value, not counting what a message holds: a string or bytes count once more for each
/// [`VALUE`] bytes they hold (a declared default may be long).
pub(crate) fn weight(value: &Val<'_>) -> usize {
    match value {
        Val::Str(b) | Val::Bytes(b) => 1 + b.len() / VALUE,
        _ => 1,
    }
}

/// `{ body }`, or `{ }` for an empty message.
pub(crate) fn braced(body: &str) -> String {
    if body.is_empty() {
        "{ }".to_owned()
    } else {
        format!("{{ {body} }}")
    }
}

/// How text format names a field: a group-like one by its type's name, as protobuf-java prints
/// and parses it (`isGroupLike`: delimited, named as its type in lower case, the type declared
/// in the same file, nested in the message holding the field).
fn text_name(field: FieldRef<'_>) -> String {
    if field.is_delimited() {
        if let Some(ty) = field.kind().message() {
            let holder = field.message();
            let group_like = ty.name().to_ascii_lowercase() == field.name()
                && ty.file().name() == holder.file().name()
                && ty
                    .full_name()
                    .strip_suffix(ty.name())
                    .and_then(|parent| parent.strip_suffix('.'))
                    == Some(holder.full_name());
            if group_like {
                return ty.name().to_owned();
            }
        }
    }
    field.name().to_owned()
}

/// One value in text format, as `field` types it.
pub(crate) fn render(field: FieldRef<'_>, value: &Val<'_>) -> String {
    match value {
        Val::Int(n) => n.to_string(),
        Val::Bool(b) => b.to_string(),
        Val::F32(x) => float(f64::from(*x), x.to_string()),
        Val::F64(x) => float(*x, x.to_string()),
        Val::Str(b) | Val::Bytes(b) => format!("\"{}\"", escape_bytes(b)),
        Val::Enum(n) => match field.kind() {
            Kind::Enum(e) => e
                .value_named_by(*n)
                .map_or_else(|| n.to_string(), str::to_owned),
            _ => n.to_string(),
        },
        Val::Msg(m) => braced(&m.text()),
    }
}

fn float(x: f64, shown: String) -> String {
    if x.is_nan() {
        "nan".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        shown
    }
}

/// The values of a field, as text: one value alone, several (or none, for a repeated field) as
/// `[a, b]`.
pub(crate) fn render_all(field: FieldRef<'_>, values: &[Val<'_>]) -> String {
    if values.len() == 1 && !field.is_repeated() {
        return render(field, &values[0]);
    }
    let shown: Vec<String> = values.iter().map(|v| render(field, v)).collect();
    format!("[{}]", shown.join(", "))
}

/// Bytes as protobuf-java's `TextFormat.escapeBytes` writes them.
pub(crate) fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x0b => out.push_str("\\v"),
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\'"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{:03o}", b)),
        }
    }
    out
}

/// What a value is, whichever side's type holds it: values of different types that mean the
/// same (an `int32` 7 and an `int64` 7, a string and bytes of the same bytes) are equal.
#[derive(Debug, PartialEq)]
enum Meaning<'v> {
    Number(i128),
    /// A float's bits as a double: `-0` is not `0`.
    Float(u64),
    Text(&'v [u8]),
    Name(String),
    Fields(Vec<(u32, Vec<Meaning<'v>>)>),
}

fn meaning<'v>(field: FieldRef<'_>, value: &'v Val<'_>, by_name: bool) -> Meaning<'v> {
    match value {
        Val::Int(n) => Meaning::Number(*n),
        Val::Bool(b) => Meaning::Number(i128::from(*b)),
        Val::F32(x) => Meaning::Float(f64::from(*x).to_bits()),
        Val::F64(x) => Meaning::Float(x.to_bits()),
        Val::Str(b) | Val::Bytes(b) => Meaning::Text(b),
        Val::Enum(n) => match (by_name, field.kind()) {
            (true, Kind::Enum(e)) => match e.value_named_by(*n) {
                Some(name) => Meaning::Name(name.to_owned()),
                None => Meaning::Number(i128::from(*n)),
            },
            _ => Meaning::Number(i128::from(*n)),
        },
        Val::Msg(m) => Meaning::Fields(
            m.fields
                .iter()
                .map(|(f, vs)| {
                    (
                        f.number(),
                        vs.iter().map(|v| meaning(*f, v, by_name)).collect(),
                    )
                })
                .collect(),
        ),
    }
}

/// Whether the reader's values mean what the writer's did. Enums compare by value name where both
/// sides are enums (a number read as another value's name is another value), else by number;
/// `by_name` off compares enums by number alone, as defaults are
/// (docs/rules.md#default_value_changed).
pub(crate) fn same(
    writer: FieldRef<'_>,
    written: &[Val<'_>],
    reader: FieldRef<'_>,
    read: &[Val<'_>],
    by_name: bool,
) -> bool {
    let both_enums = matches!(
        (writer.kind(), reader.kind()),
        (Kind::Enum(_), Kind::Enum(_))
    );
    let by_name = by_name && both_enums;
    written.len() == read.len()
        && written
            .iter()
            .zip(read)
            .all(|(w, r)| meaning(writer, w, by_name) == meaning(reader, r, by_name))
}

/// Whether two fields' values can be compared when neither was written: both numbers (enums
/// and bools included), or both text; a number's default against a string's is no finding of
/// data (docs/rules.md#default_value_changed).
pub(crate) fn comparable_defaults(writer: FieldRef<'_>, reader: FieldRef<'_>) -> bool {
    fn family(field: FieldRef<'_>) -> Option<bool> {
        match field.kind() {
            Kind::Scalar(Scalar::String | Scalar::Bytes) => Some(true),
            Kind::Scalar(_) | Kind::Enum(_) => Some(false),
            Kind::Message(_) | Kind::Group(_) => None,
        }
    }
    family(writer).is_some() && family(writer) == family(reader)
}
