//! The search for an example: messages the writer schema can produce along the finding's path,
//! smallest first, each encoded and read back as protobuf-java would, until one is read
//! differently. Which values to try comes from the two fields' types alone, not from the rule.

use super::encode::encode;
use super::read::{parse, Failure};
use super::value::{braced, comparable_defaults, render_all, same, Msg, Val};
use super::{Example, Outcome, EXAMPLE_BYTES};
use crate::model::DefaultValue;
use crate::model::{FieldRef, Kind, MessageRef, Scalar};

/// Deepest path an example is built along: protobuf-java refuses a message nested past 100.
const DEEPEST: usize = 90;
/// Most fields one minimal message may fill for the writer's required fields.
const FILLED: usize = 64;
/// Most enum values tried for one field.
const ENUM_VALUES: usize = 16;

/// What the finding is about in the compared message pair, as its rule named it.
pub(crate) struct Subject {
    /// The field's name (the writer's or the reader's), or a oneof's.
    pub name: Option<String>,
    pub number: Option<u32>,
}

impl Subject {
    pub(crate) fn of(violation: &crate::rules::Violation) -> Subject {
        Subject {
            name: violation.field.clone(),
            number: violation.number,
        }
    }
}

/// The pair where the finding is, reached from the roots through `trail`, the (writer, reader)
/// fields matched by number at each step.
pub(crate) fn search<'a>(
    roots: (MessageRef<'a>, MessageRef<'a>),
    trail: &[(FieldRef<'a>, FieldRef<'a>)],
    subject: &Subject,
) -> Result<Example, String> {
    if trail.len() > DEEPEST {
        return Err(format!(
            "the path is {} fields deep; protobuf-java reads at most 100 levels",
            trail.len()
        ));
    }
    let (writer, reader) = match trail.last() {
        Some((w, r)) => (w.kind().message(), r.kind().message()),
        None => (Some(roots.0), Some(roots.1)),
    };
    let (Some(writer), Some(reader)) = (writer, reader) else {
        return Err("the path does not lead to a message on both sides".to_owned());
    };
    let mut reader_path = roots.1.full_name().to_owned();
    for (_, r) in trail {
        reader_path.push('.');
        reader_path.push_str(r.name());
    }
    let mut failure = None;
    // Why candidates were passed over, for the reason given when none is an example.
    let (mut unfillable, mut too_large) = (false, false);
    for mut candidate in candidates(writer, reader, subject) {
        // What a writer puts on the wire is what it holds: a field without presence set to
        // its default is not written (the unset candidate comes last), and messages inside
        // are compared as protobuf-java writes them.
        if candidate.iter().any(|(f, values)| unwritten(*f, values)) {
            continue;
        }
        for (_, values) in &mut candidate {
            for value in values {
                if let Val::Msg(inner) = value {
                    as_java_writes(inner);
                }
            }
        }
        let Some(message) = assemble(roots.0, trail, writer, &candidate) else {
            unfillable = true;
            continue;
        };
        let bytes = encode(&message);
        if bytes.len() > EXAMPLE_BYTES {
            too_large = true;
            continue;
        }
        match parse(&bytes, roots.1) {
            Err(why) => {
                let outcome = failed(roots.1, why);
                // A failure about this very field is the example; another (a field required
                // elsewhere) stands only if nothing about this one is found.
                if about(&outcome, &reader_path, subject) {
                    return Ok(example(&message, bytes, outcome));
                }
                if failure.is_none() {
                    failure = Some(example(&message, bytes, outcome));
                }
            }
            Ok(read) => {
                let compared = compare(&read, &message, trail, reader, &candidate, &reader_path);
                if let Some(outcome) = compared {
                    return Ok(example(&message, bytes, outcome));
                }
            }
        }
    }
    if let Some(example) = failure {
        return Ok(example);
    }
    Err(if too_large {
        format!("the smallest message along this path takes more than {EXAMPLE_BYTES} bytes")
    } else if unfillable {
        format!(
            "the writer's required fields along this path need more than {FILLED} values, or \
             nest deeper than {DEEPEST}"
        )
    } else {
        "every message tried along this path reads the same under both schemas".to_owned()
    })
}

fn example(message: &Msg<'_>, bytes: Vec<u8>, outcome: Outcome) -> Example {
    Example {
        writer: message.text(),
        bytes: bytes.iter().map(|b| format!("{b:02x}")).collect(),
        reader: outcome.sentence(),
        outcome,
    }
}

fn failed(reader_root: MessageRef<'_>, why: Failure) -> Outcome {
    match why {
        Failure::Utf8(path) => Outcome::ParseFailure {
            why: format!("invalid UTF-8 in {path}, a string protobuf-java checks"),
        },
        Failure::Malformed(why) => Outcome::ParseFailure { why },
        Failure::Missing(path) => Outcome::MissingRequired {
            path: format!("{}.{path}", reader_root.full_name()),
        },
    }
}

/// Whether a failure is about the subject's field.
fn about(outcome: &Outcome, pair_path: &str, subject: &Subject) -> bool {
    let Some(name) = subject.name.as_deref() else {
        return false;
    };
    let field = format!("{pair_path}.{name}");
    match outcome {
        Outcome::ParseFailure { why } => why.contains(&field),
        Outcome::MissingRequired { path } => {
            // Java names repeated elements `items[0]`; the finding's path does not.
            let mut plain = String::with_capacity(path.len());
            let mut index = false;
            for c in path.chars() {
                match c {
                    '[' => index = true,
                    ']' => index = false,
                    c if !index => plain.push(c),
                    _ => {}
                }
            }
            plain == field
        }
        _ => false,
    }
}

/// One way to fill the compared message: the writer's fields and their values; an empty list
/// for a field that stays unset (so that the reader's default shows).
type Candidate<'a> = Vec<(FieldRef<'a>, Vec<Val<'a>>)>;

fn candidates<'a>(
    writer: MessageRef<'a>,
    reader: MessageRef<'a>,
    subject: &Subject,
) -> Vec<Candidate<'a>> {
    let mut out: Vec<Candidate<'a>> = Vec::new();
    let name = subject.name.as_deref();
    let field = match subject.number {
        Some(n) => writer.field(n),
        None => name.and_then(|name| writer.field_named(name)),
    };
    // A reader's oneof named by the finding: two writer fields it joins.
    let oneof_members: Vec<FieldRef<'a>> = match name {
        Some(name) if field.is_none() => reader
            .fields()
            .filter(|f| f.oneof() == Some(name))
            .filter_map(|f| writer.field(f.number()))
            .collect(),
        _ => Vec::new(),
    };
    match field {
        Some(f) => {
            let counterpart = reader.field(f.number());
            for values in values(f, counterpart) {
                out.push(vec![(f, values)]);
            }
            if let Some(r) = counterpart.filter(|r| r.oneof_id().is_some()) {
                for g in reader.fields().filter(|g| g.oneof_id() == r.oneof_id()) {
                    if let Some(w) = writer.field(g.number()).filter(|w| w.id() != f.id()) {
                        if let Some(pair) = joined(f, w) {
                            out.push(pair);
                        }
                    }
                }
            }
            // Last, the field unset, for the reader's default or its required field: written
            // values are tried first, being what the finding is most often about.
            if !f.is_required() {
                out.push(vec![(f, Vec::new())]);
            }
        }
        None => {
            out.push(Vec::new());
            for (i, &f) in oneof_members.iter().enumerate() {
                for &g in &oneof_members[i + 1..] {
                    if let Some(pair) = joined(f, g) {
                        out.push(pair);
                    }
                }
            }
        }
    }
    out
}

/// Two writer fields set together, if the writer can hold both (not members of one oneof).
fn joined<'a>(f: FieldRef<'a>, g: FieldRef<'a>) -> Option<Candidate<'a>> {
    if f.oneof_id().is_some() && f.oneof_id() == g.oneof_id() {
        return None;
    }
    let one = |field: FieldRef<'a>| singles(field, None).into_iter().next().map(|v| vec![v]);
    let mut pair = vec![(f, one(f)?), (g, one(g)?)];
    pair.sort_by_key(|(field, _)| field.number());
    Some(pair)
}

/// The values to try in `field`, smallest first: each single value, then (for a repeated
/// field) two different ones.
fn values<'a>(field: FieldRef<'a>, reader: Option<FieldRef<'a>>) -> Vec<Vec<Val<'a>>> {
    let singles = singles(field, reader);
    let mut out: Vec<Vec<Val<'a>>> = singles.iter().map(|v| vec![v.clone()]).collect();
    if let Some(pair) = two(field) {
        out.push(pair);
    }
    out
}

/// Two different values of the field's type, for a list the reader may read as one.
fn two<'a>(field: FieldRef<'a>) -> Option<Vec<Val<'a>>> {
    if !field.is_repeated() {
        return None;
    }
    match field.kind() {
        Kind::Message(m) | Kind::Group(m) => {
            Some(vec![Val::Msg(marked(m, 1)?), Val::Msg(marked(m, 2)?)])
        }
        _ => {
            let singles = singles(field, None);
            let first = singles.first()?.clone();
            let second = singles.get(1).cloned().unwrap_or_else(|| first.clone());
            Some(vec![first, second])
        }
    }
}

/// Single values of the field's type worth trying: extremes where the type has them, a
/// string that is not ASCII and one that is not UTF-8 (which a writer that does not check
/// may write), every enum value the reader may not know first.
fn singles<'a>(field: FieldRef<'a>, reader: Option<FieldRef<'a>>) -> Vec<Val<'a>> {
    let mut out = match field.kind() {
        Kind::Scalar(s) => {
            // Bytes that are not UTF-8 only where the reader would refuse them and the writer
            // does not: protobuf-java reads them with replacement characters under any schema
            // that does not check, a change or not.
            let refused = !field.validates_utf8() && reader.is_some_and(|r| r.validates_utf8());
            scalar_values(s, refused)
        }
        Kind::Enum(e) => {
            let known = |n: i32| match reader.map(|r| r.kind()) {
                Some(Kind::Enum(r)) => r.value_named_by(n).is_some(),
                _ => true,
            };
            let mut numbers: Vec<i32> = e.values().map(|(_, n)| n).collect();
            numbers.sort_by_key(|&n| (known(n), n == e.first_number()));
            numbers.dedup();
            numbers.truncate(ENUM_VALUES);
            // An open enum holds numbers it does not name, which a writer may write (even
            // where protobuf-java reads the field as closed, C++ and Go write them).
            if !e.is_closed() {
                let top = e.values().map(|(_, n)| n).max().unwrap_or(0);
                if let Some(next) = top.checked_add(1) {
                    numbers.push(next);
                }
            }
            numbers.into_iter().map(Val::Enum).collect()
        }
        Kind::Message(m) | Kind::Group(m) => {
            if field.is_map() {
                entries(m, reader.and_then(|r| r.kind().message()))
            } else {
                let mut v: Vec<Val<'a>> = minimal(m, 0, &mut 0).map(Val::Msg).into_iter().collect();
                v.extend(marked(m, 1).map(Val::Msg));
                v
            }
        }
    };
    // A number the reader's enum does not have, for an integer read as an enum.
    if let (Kind::Scalar(s), Some(Kind::Enum(r))) = (field.kind(), reader.map(|r| r.kind())) {
        if !matches!(
            s,
            Scalar::String | Scalar::Bytes | Scalar::Float | Scalar::Double | Scalar::Bool
        ) {
            let top = r.values().map(|(_, n)| n).max().unwrap_or(0);
            out.insert(0, Val::Int(i128::from(top) + 1));
        }
    }
    out
}

fn scalar_values<'a>(scalar: Scalar, not_utf8: bool) -> Vec<Val<'a>> {
    use Scalar::*;
    let ints = |list: &[i128]| list.iter().map(|&n| Val::Int(n)).collect::<Vec<_>>();
    match scalar {
        Int32 | Sint32 | Sfixed32 => ints(&[1, -1, i32::MAX as i128, i32::MIN as i128]),
        Int64 | Sint64 | Sfixed64 => ints(&[1, -1, 1 << 32, i64::MAX as i128, i64::MIN as i128]),
        Uint32 | Fixed32 => ints(&[1, u32::MAX as i128]),
        Uint64 | Fixed64 => ints(&[1, 1 << 32, u64::MAX as i128]),
        Bool => vec![Val::Bool(true)],
        Float => vec![Val::F32(0.5), Val::F32(-1.5)],
        Double => vec![Val::F64(0.1), Val::F64(1e300)],
        String => {
            let mut v = vec![
                Val::Str(b"a".to_vec()),
                Val::Str("\u{e9}".as_bytes().to_vec()),
            ];
            if not_utf8 {
                v.push(Val::Str(vec![0xff]));
            }
            v
        }
        Bytes => vec![Val::Bytes(b"a".to_vec()), Val::Bytes(vec![0xff])],
    }
}

/// A small value of a scalar or enum field, different for each `k` ≥ 1.
fn small<'a>(field: FieldRef<'a>, k: i32) -> Option<Val<'a>> {
    Some(match field.kind() {
        Kind::Scalar(s) => match s {
            Scalar::Bool => Val::Bool(k % 2 == 1),
            Scalar::Float => Val::F32(k as f32),
            Scalar::Double => Val::F64(f64::from(k)),
            Scalar::String => Val::Str(k.to_string().into_bytes()),
            Scalar::Bytes => Val::Bytes(k.to_string().into_bytes()),
            _ => Val::Int(i128::from(k)),
        },
        Kind::Enum(e) => {
            let numbers: Vec<i32> = e.values().map(|(_, n)| n).collect();
            Val::Enum(*numbers.get(k as usize % numbers.len())?)
        }
        Kind::Message(_) | Kind::Group(_) => return None,
    })
}

/// The smallest message of type `m` the writer can produce: its required fields set to their
/// defaults (messages filled the same way). `None` past [`FILLED`] fields or too deep.
fn minimal<'a>(m: MessageRef<'a>, depth: usize, filled: &mut usize) -> Option<Msg<'a>> {
    if depth > DEEPEST {
        return None;
    }
    let mut message = Msg::new(m);
    for field in m.fields().filter(|f| f.is_required()) {
        *filled += 1;
        if *filled > FILLED {
            return None;
        }
        let value = match field.kind() {
            Kind::Message(inner) | Kind::Group(inner) => {
                Val::Msg(minimal(inner, depth + 1, filled)?)
            }
            _ => default_of(field)?,
        };
        message.put(field, vec![value]);
    }
    Some(message)
}

/// [`minimal`] with its first optional scalar field set to a value told apart by `k`.
fn marked<'a>(m: MessageRef<'a>, k: i32) -> Option<Msg<'a>> {
    let mut message = minimal(m, 0, &mut 0)?;
    let field = m
        .fields()
        .find(|f| !f.is_required() && !f.is_repeated() && f.kind().message().is_none())?;
    message.put(field, vec![small(field, k)?]);
    Some(message)
}

/// Map entries worth trying: one of small values, then the key's and the value's own
/// candidates (extremes, text that is not ASCII, …) beside a small other half.
fn entries<'a>(m: MessageRef<'a>, reader: Option<MessageRef<'a>>) -> Vec<Val<'a>> {
    let mut out: Vec<Val<'a>> = entry(m).map(Val::Msg).into_iter().collect();
    let Some(base) = entry(m) else {
        return out;
    };
    for field in m.fields() {
        if field.kind().message().is_some() {
            continue;
        }
        let counterpart = reader.and_then(|r| r.field(field.number()));
        for value in singles(field, counterpart) {
            let mut varied = base.clone();
            varied.put(field, vec![value]);
            out.push(Val::Msg(varied));
        }
    }
    out
}

/// One map entry with a key and a value that are not their defaults.
fn entry<'a>(m: MessageRef<'a>) -> Option<Msg<'a>> {
    let mut message = Msg::new(m);
    for field in m.fields() {
        let value = match field.kind() {
            Kind::Message(inner) | Kind::Group(inner) => Val::Msg(minimal(inner, 0, &mut 0)?),
            Kind::Enum(e) => {
                let n = e.values().map(|(_, n)| n).find(|&n| n != 0).unwrap_or(0);
                Val::Enum(n)
            }
            _ => small(field, 1)?,
        };
        message.put(field, vec![value]);
    }
    Some(message)
}

/// The field's default as a value: what a reader's getter returns when it is unset.
pub(crate) fn default_of<'a>(field: FieldRef<'a>) -> Option<Val<'a>> {
    Some(match field.default_value()?.into_owned() {
        DefaultValue::Bool(b) => Val::Bool(b),
        DefaultValue::I32(n) => Val::Int(i128::from(n)),
        DefaultValue::I64(n) => Val::Int(i128::from(n)),
        DefaultValue::U32(n) => Val::Int(i128::from(n)),
        DefaultValue::U64(n) => Val::Int(i128::from(n)),
        DefaultValue::F32(x) => Val::F32(x),
        DefaultValue::F64(x) => Val::F64(x),
        DefaultValue::String(s) => Val::Str(s.into_bytes()),
        DefaultValue::Bytes(b) => Val::Bytes(b),
        DefaultValue::Enum(n) => Val::Enum(n),
    })
}

/// The writer's whole message: the candidate's fields in the compared message (with its
/// required fields), nested in the smallest messages along the trail.
fn assemble<'a>(
    root: MessageRef<'a>,
    trail: &[(FieldRef<'a>, FieldRef<'a>)],
    at: MessageRef<'a>,
    candidate: &Candidate<'a>,
) -> Option<Msg<'a>> {
    let mut filled = 0;
    let mut message = minimal(at, trail.len(), &mut filled)?;
    for (field, values) in candidate {
        if values.is_empty() {
            message.fields.retain(|(f, _)| f.id() != field.id());
        } else {
            message.put(*field, values.clone());
        }
    }
    for (i, (field, _)) in trail.iter().enumerate().rev() {
        let holder = if i == 0 { root } else { field.message() };
        let mut parent = minimal(holder, i, &mut filled)?;
        parent.put(*field, vec![Val::Msg(message)]);
        message = parent;
    }
    as_java_writes(&mut message);
    Some(message)
}

/// Whether a field's values are nothing on the wire: one value, its default, in a field
/// without presence.
fn unwritten(field: FieldRef<'_>, values: &[Val<'_>]) -> bool {
    !field.is_repeated()
        && !field.has_presence()
        && values.len() == 1
        && default_of(field).is_some_and(|d| same(field, values, field, &[d], false))
}

/// The message as protobuf-java puts it on the wire, and so as its text format reads back: a
/// field without presence that holds its default (proto3's zero, an Editions IMPLICIT field's)
/// is not written; a map entry always has its key and its value, defaults included.
fn as_java_writes(message: &mut Msg<'_>) {
    if message.ty.is_map_entry() {
        for field in message.ty.fields() {
            if message.get(field.number()).is_none() {
                let value = match field.kind().message() {
                    Some(inner) => Val::Msg(Msg::new(inner)),
                    None => match default_of(field) {
                        Some(value) => value,
                        None => continue,
                    },
                };
                message.put(field, vec![value]);
            }
        }
    } else {
        message
            .fields
            .retain(|(field, values)| !unwritten(*field, values));
    }
    for (_, values) in &mut message.fields {
        for value in values {
            if let Val::Msg(inner) = value {
                as_java_writes(inner);
            }
        }
    }
}

/// What the reader got, compared with what the writer meant (`written`, the whole message),
/// along the trail and then in the compared message; `None` when every value reads the same.
fn compare<'a>(
    read: &Msg<'a>,
    written: &Msg<'a>,
    trail: &[(FieldRef<'a>, FieldRef<'a>)],
    reader: MessageRef<'a>,
    candidate: &Candidate<'a>,
    pair_path: &str,
) -> Option<Outcome> {
    let mut at = read;
    let mut wrote = Some(written);
    let mut path = read.ty.full_name().to_owned();
    for (w, r) in trail {
        path.push('.');
        path.push_str(r.name());
        let values = wrote.and_then(|m| m.get(w.number()));
        wrote = match values.and_then(|v| v.last()) {
            Some(Val::Msg(inner)) => Some(inner),
            _ => None,
        };
        let Some(Val::Msg(next)) = at.get(r.number()).and_then(|v| v.last()) else {
            if at.unknown.contains(&r.number()) {
                return Some(Outcome::Unknown {
                    path,
                    number: r.number(),
                });
            }
            // Read, then dropped: a later member of the reader's oneof cleared it, as
            // protobuf-java keeps only the last member it reads.
            return Some(Outcome::Value {
                path,
                written: values.map_or_else(|| braced(""), |v| render_all(*w, v)),
                read: braced(""),
            });
        };
        at = next;
    }
    debug_assert_eq!(path, pair_path);
    for (field, written) in candidate {
        let number = field.number();
        let Some(r) = reader.field(number) else {
            if written.is_empty() {
                continue;
            }
            return Some(Outcome::Unknown {
                path: format!("{path}.{}", field.name()),
                number,
            });
        };
        let here = format!("{path}.{}", r.name());
        let got = at.get(number).cloned().unwrap_or_default();
        if got.is_empty() && !written.is_empty() && at.unknown.contains(&number) {
            return Some(Outcome::Unknown { path: here, number });
        }
        let view = |f: FieldRef<'a>, values: &[Val<'a>]| -> Vec<Val<'a>> {
            if values.is_empty() && !f.is_repeated() {
                default_of(f).into_iter().collect()
            } else {
                values.to_vec()
            }
        };
        let (meant, seen) = (view(*field, written), view(r, &got));
        if written.is_empty() {
            if meant.is_empty()
                || seen.is_empty()
                || !comparable_defaults(*field, r)
                || same(*field, &meant, r, &seen, true)
            {
                continue;
            }
        } else if same(*field, &meant, r, &seen, true) {
            continue;
        }
        let read = if seen.is_empty() && r.kind().message().is_some() && !r.is_repeated() {
            braced("")
        } else {
            render_all(r, &seen)
        };
        if meant.len() >= 2 && !r.is_repeated() && r.kind().message().is_some() {
            return Some(Outcome::Merged {
                path: here,
                elements: meant.len(),
                read,
            });
        }
        return Some(Outcome::Value {
            path: here,
            written: render_all(*field, &meant),
            read,
        });
    }
    None
}
