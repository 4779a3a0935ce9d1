//! Which messages the search tries, smallest first, made one at a time as it asks for them:
//! values to try come from the two fields' types alone, not from the rule. Everything made is
//! charged to the search's [`Meter`], and a candidate made after it ran out is never tried.

use super::budget::{Meter, LOOK, VALUE};
use super::search::Subject;
use super::value::{Msg, Val};
use crate::model::DefaultValue;
use crate::model::{EnumRef, FieldRef, Kind, MessageRef, Scalar};

/// Deepest path an example is built along: protobuf-java refuses a message nested past 100.
pub(super) const DEEPEST: usize = 90;
/// Most fields one minimal message may fill for the writer's required fields.
pub(super) const FILLED: usize = 64;
/// Most enum values tried for one field.
const ENUM_VALUES: usize = 16;
/// Looking at a pair of oneof members, which may not be set together: the pairs of a oneof
/// the writer keeps are passed over a few nanoseconds each.
const PAIR: usize = 3 * LOOK;

/// One way to fill the compared message: the writer's fields and their values; an empty list
/// for a field that stays unset (so that the reader's default shows).
pub(super) type Candidate<'a> = Vec<(FieldRef<'a>, Vec<Val<'a>>)>;

/// The candidates for the subject of a finding in the (writer, reader) message pair, in the
/// order they are tried. Two fields of a oneof are made pair by pair as the search asks, never
/// all at once: a oneof of thousands of members has millions of pairs.
pub(super) fn candidates<'a: 'm, 'm>(
    writer: MessageRef<'a>,
    reader: MessageRef<'a>,
    subject: &Subject,
    meter: &'m Meter,
) -> Box<dyn Iterator<Item = Candidate<'a>> + 'm> {
    let name = subject.name.as_deref();
    let field = match subject.number {
        Some(n) => writer.field(n),
        None => name.and_then(|name| writer.field_named(name)),
    };
    if let Some(f) = field {
        return of_field(f, writer, reader, meter);
    }
    // A reader's oneof named by the finding: two writer fields it joins.
    let mut members: Vec<FieldRef<'a>> = Vec::new();
    if let Some(name) = name {
        for r in reader.fields() {
            if !meter.spend(LOOK) {
                break;
            }
            if r.oneof() == Some(name) {
                members.extend(writer.field(r.number()));
            }
        }
    }
    let n = members.len();
    let pairs = (0..n)
        .flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
        .map_while(move |(i, j)| {
            meter
                .spend(PAIR)
                .then(|| joined(members[i], members[j], meter))
        })
        .flatten();
    Box::new(std::iter::once(Vec::new()).chain(pairs))
}

/// The candidates for one writer field `f`: each of its values, then `f` set beside each other
/// member of the reader's oneof that holds it, then `f` unset.
fn of_field<'a: 'm, 'm>(
    f: FieldRef<'a>,
    writer: MessageRef<'a>,
    reader: MessageRef<'a>,
    meter: &'m Meter,
) -> Box<dyn Iterator<Item = Candidate<'a>> + 'm> {
    let counterpart = reader.field(f.number());
    let each = values(f, counterpart, meter)
        .into_iter()
        .map(move |values| vec![(f, values)]);
    let beside = counterpart
        .and_then(|r| r.oneof_id())
        .into_iter()
        .flat_map(move |oneof| {
            reader
                .fields()
                .map_while(move |g| meter.spend(LOOK).then_some(g))
                .filter(move |g| g.oneof_id() == Some(oneof))
                .filter_map(move |g| writer.field(g.number()).filter(|w| w.id() != f.id()))
                .filter_map(move |w| joined(f, w, meter))
        });
    // Last, the field unset, for the reader's default or its required field: written values
    // are tried first, being what the finding is most often about.
    let unset = (!f.is_required()).then(|| vec![(f, Vec::new())]);
    Box::new(each.chain(beside).chain(unset))
}

/// Two writer fields set together, if the writer can hold both (not members of one oneof).
fn joined<'a>(f: FieldRef<'a>, g: FieldRef<'a>, meter: &Meter) -> Option<Candidate<'a>> {
    if f.oneof_id().is_some() && f.oneof_id() == g.oneof_id() {
        return None;
    }
    let one = |field: FieldRef<'a>| {
        singles(field, None, meter)
            .into_iter()
            .next()
            .map(|v| vec![v])
    };
    let mut pair = vec![(f, one(f)?), (g, one(g)?)];
    pair.sort_by_key(|(field, _)| field.number());
    Some(pair)
}

/// The values to try in `field`, smallest first: each single value, then (for a repeated
/// field) two different ones.
fn values<'a>(
    field: FieldRef<'a>,
    reader: Option<FieldRef<'a>>,
    meter: &Meter,
) -> Vec<Vec<Val<'a>>> {
    let singles = singles(field, reader, meter);
    let mut out: Vec<Vec<Val<'a>>> = singles.iter().map(|v| vec![v.clone()]).collect();
    if let Some(pair) = two(field, meter) {
        out.push(pair);
    }
    out
}

/// Two different values of the field's type, for a list the reader may read as one.
fn two<'a>(field: FieldRef<'a>, meter: &Meter) -> Option<Vec<Val<'a>>> {
    if !field.is_repeated() {
        return None;
    }
    match field.kind() {
        Kind::Message(m) | Kind::Group(m) => Some(vec![
            Val::Msg(marked(m, 1, meter)?),
            Val::Msg(marked(m, 2, meter)?),
        ]),
        _ => {
            let singles = singles(field, None, meter);
            let first = singles.first()?.clone();
            let second = singles.get(1).cloned().unwrap_or_else(|| first.clone());
            Some(vec![first, second])
        }
    }
}

/// Single values of the field's type worth trying: extremes where the type has them, a
/// string that is not ASCII and one that is not UTF-8 (which a writer that does not check
/// may write), every enum value the reader may not know first. Empty once the meter ran out.
fn singles<'a>(field: FieldRef<'a>, reader: Option<FieldRef<'a>>, meter: &Meter) -> Vec<Val<'a>> {
    let mut out = match field.kind() {
        Kind::Scalar(s) => {
            // Bytes that are not UTF-8 only where the reader would refuse them and the writer
            // does not: protobuf-java reads them with replacement characters under any schema
            // that does not check, a change or not.
            let refused = !field.validates_utf8() && reader.is_some_and(|r| r.validates_utf8());
            scalar_values(s, refused)
        }
        Kind::Enum(e) => {
            let reader_enum = match reader.map(|r| r.kind()) {
                Some(Kind::Enum(r)) => Some(r),
                _ => None,
            };
            let Some(mut numbers) = enum_numbers(e, reader_enum, meter) else {
                return Vec::new();
            };
            // An open enum holds numbers it does not name, which a writer may write (even
            // where protobuf-java reads the field as closed, C++ and Go write them).
            if !e.is_closed() {
                if !meter.spend(LOOK * e.values().len()) {
                    return Vec::new();
                }
                let top = e.values().map(|(_, n)| n).max().unwrap_or(0);
                if let Some(next) = top.checked_add(1) {
                    numbers.push(next);
                }
            }
            numbers.into_iter().map(Val::Enum).collect()
        }
        Kind::Message(m) | Kind::Group(m) => {
            if field.is_map() {
                entries(m, reader.and_then(|r| r.kind().message()), meter)
            } else {
                let mut v: Vec<Val<'a>> = minimal(m, 0, &mut 0, meter)
                    .map(Val::Msg)
                    .into_iter()
                    .collect();
                v.extend(marked(m, 1, meter).map(Val::Msg));
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
            if !meter.spend(LOOK * r.values().len()) {
                return Vec::new();
            }
            let top = r.values().map(|(_, n)| n).max().unwrap_or(0);
            out.insert(0, Val::Int(i128::from(top) + 1));
        }
    }
    if !meter.spend(VALUE * out.len()) {
        return Vec::new();
    }
    out
}

/// The first [`ENUM_VALUES`] distinct numbers of `e` in the order they are worth trying: those
/// the reader's enum does not name first, its first value (the default) after the others, each
/// group in declaration order; a number repeated by an alias declared next to it once. Worked
/// out in one pass over the values (after one over both enums sorted by number, for the
/// numbers the reader lacks), not by sorting them: an enum may have a hundred thousand values.
/// `None` once the meter ran out.
fn enum_numbers(e: EnumRef<'_>, reader: Option<EnumRef<'_>>, meter: &Meter) -> Option<Vec<i32>> {
    let mut unknown: Vec<i32> = Vec::new();
    if let Some(r) = reader {
        if !meter.spend(LOOK * (e.values().len() + r.values().len())) {
            return None;
        }
        let mut theirs = r.values_by_number().map(|(_, n)| n).peekable();
        for (_, n) in e.values_by_number() {
            while theirs.next_if(|&m| m < n).is_some() {}
            if theirs.peek() != Some(&n) && unknown.last() != Some(&n) {
                unknown.push(n);
            }
        }
    }
    let per_value = if unknown.is_empty() { LOOK } else { 2 * LOOK };
    // Unknown, not the default; unknown, the default; known, not the default; known, the
    // default. Equal numbers fall in one group, so each group drops its own repeats.
    let mut groups: [Vec<i32>; 4] = Default::default();
    // The group that, once full, holds every number to try: no number goes before it.
    let lead = if unknown.is_empty() { 2 } else { 0 };
    let first = e.first_number();
    for (_, n) in e.values() {
        if !meter.spend(per_value) {
            return None;
        }
        let known = unknown.binary_search(&n).is_err();
        let group = &mut groups[usize::from(known) * 2 + usize::from(n == first)];
        if group.len() < ENUM_VALUES && group.last() != Some(&n) {
            group.push(n);
        }
        if groups[lead].len() == ENUM_VALUES {
            break;
        }
    }
    Some(groups.into_iter().flatten().take(ENUM_VALUES).collect())
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
            let count = e.values().len();
            if count == 0 {
                return None;
            }
            // `k` is 1 or 2: a step or two into the values, however many there are.
            let (_, n) = e.values().nth(k as usize % count)?;
            Val::Enum(n)
        }
        Kind::Message(_) | Kind::Group(_) => return None,
    })
}

/// The smallest message of type `m` the writer can produce: its required fields set to their
/// defaults (messages filled the same way). `None` past [`FILLED`] fields, too deep, or once
/// the meter ran out.
pub(super) fn minimal<'a>(
    m: MessageRef<'a>,
    depth: usize,
    filled: &mut usize,
    meter: &Meter,
) -> Option<Msg<'a>> {
    if depth > DEEPEST {
        return None;
    }
    // Finding the required fields reads every field of the message.
    if !meter.spend(LOOK * m.fields().len() + VALUE) {
        return None;
    }
    let mut message = Msg::new(m);
    for field in m.fields().filter(|f| f.is_required()) {
        *filled += 1;
        if *filled > FILLED || !meter.spend(VALUE) {
            return None;
        }
        let value = match field.kind() {
            Kind::Message(inner) | Kind::Group(inner) => {
                Val::Msg(minimal(inner, depth + 1, filled, meter)?)
            }
            _ => default_of(field, meter)?,
        };
        message.put(field, vec![value]);
    }
    Some(message)
}

/// [`minimal`] with its first optional scalar field set to a value told apart by `k`.
fn marked<'a>(m: MessageRef<'a>, k: i32, meter: &Meter) -> Option<Msg<'a>> {
    let mut message = minimal(m, 0, &mut 0, meter)?;
    let field = m
        .fields()
        .map_while(|f| meter.spend(LOOK).then_some(f))
        .find(|f| !f.is_required() && !f.is_repeated() && f.kind().message().is_none())?;
    message.put(field, vec![small(field, k)?]);
    Some(message)
}

/// Map entries worth trying: one of small values, then the key's and the value's own
/// candidates (extremes, text that is not ASCII, …) beside a small other half.
fn entries<'a>(m: MessageRef<'a>, reader: Option<MessageRef<'a>>, meter: &Meter) -> Vec<Val<'a>> {
    let mut out: Vec<Val<'a>> = entry(m, meter).map(Val::Msg).into_iter().collect();
    let Some(base) = entry(m, meter) else {
        return out;
    };
    for field in m.fields() {
        if field.kind().message().is_some() {
            continue;
        }
        let counterpart = reader.and_then(|r| r.field(field.number()));
        for value in singles(field, counterpart, meter) {
            if !meter.spend(VALUE * (1 + base.size())) {
                return out;
            }
            let mut varied = base.clone();
            varied.put(field, vec![value]);
            out.push(Val::Msg(varied));
        }
    }
    out
}

/// One map entry with a key and a value that are not their defaults.
fn entry<'a>(m: MessageRef<'a>, meter: &Meter) -> Option<Msg<'a>> {
    let mut message = Msg::new(m);
    for field in m.fields() {
        if !meter.spend(VALUE) {
            return None;
        }
        let value = match field.kind() {
            Kind::Message(inner) | Kind::Group(inner) => {
                Val::Msg(minimal(inner, 0, &mut 0, meter)?)
            }
            Kind::Enum(e) => {
                let mut nonzero = 0;
                for (_, n) in e.values() {
                    if !meter.spend(LOOK) {
                        return None;
                    }
                    if n != 0 {
                        nonzero = n;
                        break;
                    }
                }
                Val::Enum(nonzero)
            }
            _ => small(field, 1)?,
        };
        message.put(field, vec![value]);
    }
    Some(message)
}

/// The field's default as a value: what a reader's getter returns when it is unset. A declared
/// default is read from its text, which may be as long as the schema: a [`LOOK`] a byte. `None`
/// also once the meter ran out.
pub(super) fn default_of<'a>(field: FieldRef<'a>, meter: &Meter) -> Option<Val<'a>> {
    let text = field.declared_default().map_or(0, str::len);
    if !meter.spend(VALUE + LOOK * text) {
        return None;
    }
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
