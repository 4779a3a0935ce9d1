//! What protobuf-java does with bytes under the reader's schema: `DynamicMessage.parseFrom`,
//! step by step as `MessageReflection.mergeFieldFrom` takes them. A field whose wire type is
//! not its own (nor packed, for a packable repeated field) is kept as an unknown field; a
//! closed enum's unknown number likewise; a singular field read again keeps the last value, a
//! message merges; a oneof keeps its last member; a string Java checks must be UTF-8; and a
//! message lacking a required field is refused once parsed.

use super::budget::{Meter, LOOK, VALUE};
use super::encode::wire_type;
use super::value::{Msg, Val};
use crate::model::{FieldRef, Kind, MessageRef, Scalar};

/// Java refuses deeper messages ("too many levels of nesting").
const RECURSION_LIMIT: usize = 100;

/// Why parsing throws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// A string field Java checks holds bytes that are not UTF-8, at this path.
    Utf8(String),
    /// The bytes are not a message of the reader's type: why.
    Malformed(String),
    /// A required field is missing: its path as Java names it (`items[0].price`).
    Missing(String),
}

/// The message `bytes` hold under the reader's `root`, each value read and each field looked
/// at charged to `meter`; what it gives once the meter ran out is incomplete.
pub(crate) fn parse<'a>(
    bytes: &[u8],
    root: MessageRef<'a>,
    meter: &Meter,
) -> Result<Msg<'a>, Failure> {
    let mut input = Input { bytes, at: 0 };
    let message = fields(&mut input, root, None, 0, &At::Root(root), meter)?;
    if let Some(path) = missing(&message, meter) {
        return Err(Failure::Missing(path));
    }
    Ok(message)
}

/// Where a value is read, written out only when parsing fails there: a path through long
/// names, built at every field, would cost more than the reading.
#[derive(Clone, Copy)]
enum At<'p, 'a> {
    Root(MessageRef<'a>),
    Field(&'p At<'p, 'a>, FieldRef<'a>),
}

impl At<'_, '_> {
    /// `pkg.Order.items.name`.
    fn path(&self) -> String {
        let mut names = Vec::new();
        let mut at = self;
        let root = loop {
            match at {
                At::Root(root) => break root.full_name(),
                At::Field(parent, field) => {
                    names.push(field.name());
                    at = parent;
                }
            }
        };
        let mut path = root.to_owned();
        for name in names.iter().rev() {
            path.push('.');
            path.push_str(name);
        }
        path
    }
}

struct Input<'b> {
    bytes: &'b [u8],
    at: usize,
}

fn truncated() -> Failure {
    Failure::Malformed(
        "the input ended unexpectedly in the middle of a field (truncated message)".to_owned(),
    )
}

impl Input<'_> {
    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn varint(&mut self) -> Result<u64, Failure> {
        let mut n = 0u64;
        for i in 0..10 {
            let b = *self.bytes.get(self.at).ok_or_else(truncated)?;
            self.at += 1;
            n |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err(Failure::Malformed("malformed varint".to_owned()))
    }

    fn take(&mut self, n: usize) -> Result<&[u8], Failure> {
        let end = self.at.checked_add(n).ok_or_else(truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or_else(truncated)?;
        self.at = end;
        Ok(slice)
    }

    fn fixed32(&mut self) -> Result<u32, Failure> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }

    fn fixed64(&mut self) -> Result<u64, Failure> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }

    fn length(&mut self) -> Result<usize, Failure> {
        let n = self.varint()?;
        if n > i32::MAX as u64 {
            return Err(Failure::Malformed("negative size".to_owned()));
        }
        Ok(n as usize)
    }
}

/// Fields up to the end of the input, or up to the end-group tag of `group`.
fn fields<'a>(
    input: &mut Input<'_>,
    ty: MessageRef<'a>,
    group: Option<u32>,
    depth: usize,
    path: &At<'_, 'a>,
    meter: &Meter,
) -> Result<Msg<'a>, Failure> {
    if depth > RECURSION_LIMIT {
        return Err(Failure::Malformed("too many levels of nesting".to_owned()));
    }
    let mut message = Msg::new(ty);
    loop {
        if input.done() || !meter.spend(VALUE) {
            return match group {
                Some(_) => Err(truncated()),
                None => Ok(message),
            };
        }
        let tag = input.varint()? as u32;
        let (number, wire) = (tag >> 3, tag & 7);
        if number == 0 {
            return Err(Failure::Malformed("invalid tag (zero)".to_owned()));
        }
        if wire == 4 {
            return match group {
                Some(n) if n == number => Ok(message),
                _ => Err(Failure::Malformed(
                    "end-group tag did not match expected tag".to_owned(),
                )),
            };
        }
        if wire > 5 {
            return Err(Failure::Malformed("invalid wire type".to_owned()));
        }
        let field = ty.field(number);
        let packed = match field {
            Some(f) if wire == wire_type(f) => false,
            Some(f) if f.is_repeated() && packable(f) && wire == 2 => true,
            _ => {
                skip(input, number, wire, depth)?;
                unknown(&mut message, number);
                continue;
            }
        };
        let field = field.expect("matched above");
        let here = At::Field(path, field);
        if packed {
            let len = input.length()?;
            let mut body = Input {
                bytes: input.take(len)?,
                at: 0,
            };
            while !body.done() && meter.spend(VALUE) {
                match value(&mut body, field, depth, &here, meter)? {
                    Some(v) => add(&mut message, field, v, meter),
                    None => unknown(&mut message, number),
                }
            }
            continue;
        }
        match value(input, field, depth, &here, meter)? {
            Some(v) => add(&mut message, field, v, meter),
            None => unknown(&mut message, number),
        }
    }
}

fn packable(field: FieldRef<'_>) -> bool {
    match field.kind() {
        Kind::Scalar(s) => s.is_packable(),
        Kind::Enum(_) => true,
        Kind::Message(_) | Kind::Group(_) => false,
    }
}

fn unknown(message: &mut Msg<'_>, number: u32) {
    if !message.unknown.contains(&number) {
        message.unknown.push(number);
    }
}

/// One value of `field`; `None` for a closed enum's unknown number, which Java keeps as an
/// unknown field.
fn value<'a>(
    input: &mut Input<'_>,
    field: FieldRef<'a>,
    depth: usize,
    path: &At<'_, 'a>,
    meter: &Meter,
) -> Result<Option<Val<'a>>, Failure> {
    Ok(Some(match field.kind() {
        Kind::Message(m) | Kind::Group(m) if field.is_delimited() => Val::Msg(fields(
            input,
            m,
            Some(field.number()),
            depth + 1,
            path,
            meter,
        )?),
        Kind::Message(m) | Kind::Group(m) => {
            let len = input.length()?;
            let mut body = Input {
                bytes: input.take(len)?,
                at: 0,
            };
            Val::Msg(fields(&mut body, m, None, depth + 1, path, meter)?)
        }
        Kind::Enum(e) => {
            let n = input.varint()? as u32 as i32;
            if field.java_treats_enum_as_closed() && e.value_named_by(n).is_none() {
                return Ok(None);
            }
            Val::Enum(n)
        }
        Kind::Scalar(s) => match s {
            Scalar::Int32 => Val::Int(i128::from(input.varint()? as u32 as i32)),
            Scalar::Int64 => Val::Int(i128::from(input.varint()? as i64)),
            Scalar::Uint32 => Val::Int(i128::from(input.varint()? as u32)),
            Scalar::Uint64 => Val::Int(i128::from(input.varint()?)),
            Scalar::Sint32 => {
                let n = input.varint()? as u32;
                Val::Int(i128::from((n >> 1) as i32 ^ -((n & 1) as i32)))
            }
            Scalar::Sint64 => {
                let n = input.varint()?;
                Val::Int(i128::from((n >> 1) as i64 ^ -((n & 1) as i64)))
            }
            Scalar::Bool => Val::Bool(input.varint()? != 0),
            Scalar::Fixed32 => Val::Int(i128::from(input.fixed32()?)),
            Scalar::Sfixed32 => Val::Int(i128::from(input.fixed32()? as i32)),
            Scalar::Fixed64 => Val::Int(i128::from(input.fixed64()?)),
            Scalar::Sfixed64 => Val::Int(i128::from(input.fixed64()? as i64)),
            Scalar::Float => Val::F32(f32::from_bits(input.fixed32()?)),
            Scalar::Double => Val::F64(f64::from_bits(input.fixed64()?)),
            Scalar::Bytes => {
                let len = input.length()?;
                Val::Bytes(input.take(len)?.to_vec())
            }
            Scalar::String => {
                let len = input.length()?;
                let bytes = input.take(len)?;
                match std::str::from_utf8(bytes) {
                    Ok(_) => Val::Str(bytes.to_vec()),
                    Err(_) if field.validates_utf8() => return Err(Failure::Utf8(path.path())),
                    // Java decodes it into a String, each bad sequence replaced.
                    Err(_) => Val::Str(String::from_utf8_lossy(bytes).into_owned().into_bytes()),
                }
            }
        },
    }))
}

/// A value read for `field`: appended to a repeated field; a message merged into one already
/// read; anything else replacing what was read; a oneof keeping only this member.
fn add<'a>(message: &mut Msg<'a>, field: FieldRef<'a>, value: Val<'a>, meter: &Meter) {
    if field.is_repeated() {
        match message
            .fields
            .iter_mut()
            .find(|(f, _)| f.id() == field.id())
        {
            Some((_, values)) => values.push(value),
            None => message.put(field, vec![value]),
        }
        return;
    }
    if let Some(oneof) = field.oneof_id() {
        message
            .fields
            .retain(|(f, _)| f.id() == field.id() || f.oneof_id() != Some(oneof));
    }
    let merged = match (message.get(field.number()).and_then(|v| v.first()), value) {
        (Some(Val::Msg(old)), Val::Msg(new)) => {
            // Merging copies what was read before. Past the budget the search drops what the
            // parse gives, so the charge need not stop it here.
            meter.spend(VALUE * (1 + old.size()));
            Val::Msg(merge(old.clone(), new, meter))
        }
        (_, value) => value,
    };
    message.put(field, vec![merged]);
}

/// `new` merged into `old`, as `Message.Builder.mergeFrom` does.
fn merge<'a>(mut old: Msg<'a>, new: Msg<'a>, meter: &Meter) -> Msg<'a> {
    for (field, values) in new.fields {
        for value in values {
            add(&mut old, field, value, meter);
        }
    }
    for number in new.unknown {
        unknown(&mut old, number);
    }
    old
}

/// Skips an unknown field's value, as `UnknownFieldSet.mergeFieldFrom` reads it.
fn skip(input: &mut Input<'_>, number: u32, wire: u32, depth: usize) -> Result<(), Failure> {
    match wire {
        0 => input.varint().map(drop),
        1 => input.take(8).map(drop),
        2 => {
            let len = input.length()?;
            input.take(len).map(drop)
        }
        5 => input.take(4).map(drop),
        3 => {
            if depth + 1 > RECURSION_LIMIT {
                return Err(Failure::Malformed("too many levels of nesting".to_owned()));
            }
            loop {
                if input.done() {
                    return Err(truncated());
                }
                let tag = input.varint()? as u32;
                let (inner, inner_wire) = (tag >> 3, tag & 7);
                if inner == 0 {
                    return Err(Failure::Malformed("invalid tag (zero)".to_owned()));
                }
                if inner_wire == 4 {
                    if inner == number {
                        return Ok(());
                    }
                    return Err(Failure::Malformed(
                        "end-group tag did not match expected tag".to_owned(),
                    ));
                }
                if inner_wire > 5 {
                    return Err(Failure::Malformed("invalid wire type".to_owned()));
                }
                skip(input, inner, inner_wire, depth + 1)?;
            }
        }
        _ => Err(Failure::Malformed("invalid wire type".to_owned())),
    }
}

/// The first required field missing, named as Java's `findMissingFields` names it
/// (`items[0].price`); `None` also once the meter ran out. The name is written out only once
/// found, from the field up.
fn missing(message: &Msg<'_>, meter: &Meter) -> Option<String> {
    if !meter.spend(LOOK * message.ty.fields().len()) {
        return None;
    }
    for field in message.ty.fields() {
        if field.is_required() && message.get(field.number()).is_none() {
            return Some(field.name().to_owned());
        }
    }
    for (field, values) in &message.fields {
        for (i, value) in values.iter().enumerate() {
            if let Val::Msg(m) = value {
                if let Some(rest) = missing(m, meter) {
                    return Some(if field.is_repeated() {
                        format!("{}[{i}].{rest}", field.name())
                    } else {
                        format!("{}.{rest}", field.name())
                    });
                }
            }
        }
    }
    None
}
