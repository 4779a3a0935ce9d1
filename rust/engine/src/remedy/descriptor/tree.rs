//! A lossless tree of a serialized `FileDescriptorSet`: every message's fields in wire order,
//! the descriptor messages parsed recursively, everything else (unknown fields, custom options,
//! source info) kept as the bytes it was. prost's types drop what they do not know (Editions
//! features, extensions); this keeps it, so that an edited set encodes with all of it.

use super::wire::{
    put_key, put_varint, Reader, END_GROUP, FIXED32, FIXED64, LEN, START_GROUP, VARINT,
};

/// Messages nested deeper than this are refused, as protobuf's own parser refuses them.
pub const MAX_DEPTH: usize = 100;

/// Which descriptor.proto message a [`Message`] is: what its length-delimited fields hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Set,
    File,
    Message,
    Field,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
    ExtensionRange,
    /// A message's or an enum's reserved range.
    ReservedRange,
    FileOptions,
    MessageOptions,
    FieldOptions,
    OneofOptions,
    EnumOptions,
    EnumValueOptions,
    ServiceOptions,
    MethodOptions,
    ExtensionRangeOptions,
    FeatureSet,
}

impl Kind {
    /// The kind of the message field `number` holds, where it is a descriptor message.
    pub fn child(self, number: u32) -> Option<Kind> {
        use Kind::*;
        Some(match (self, number) {
            (Set, 1) => File,
            (File, 4) | (Message, 3) => Message,
            (File, 5) | (Message, 4) => Enum,
            (File, 6) => Service,
            (File, 7) | (Message, 2) | (Message, 6) => Field,
            (File, 8) => FileOptions,
            (Message, 5) => ExtensionRange,
            (Message, 7) => MessageOptions,
            (Message, 8) => Oneof,
            (Message, 9) | (Enum, 4) => ReservedRange,
            (Field, 8) => FieldOptions,
            (Oneof, 2) => OneofOptions,
            (Enum, 2) => EnumValue,
            (Enum, 3) => EnumOptions,
            (EnumValue, 3) => EnumValueOptions,
            (Service, 2) => Method,
            (Service, 3) => ServiceOptions,
            (Method, 4) => MethodOptions,
            (ExtensionRange, 3) => ExtensionRangeOptions,
            (FileOptions, 50)
            | (MessageOptions, 12)
            | (FieldOptions, 21)
            | (OneofOptions, 1)
            | (EnumOptions, 7)
            | (EnumValueOptions, 2)
            | (ServiceOptions, 34)
            | (MethodOptions, 35)
            | (ExtensionRangeOptions, 50) => FeatureSet,
            _ => return None,
        })
    }
}

/// A field's value as the wire has it; a descriptor message parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Varint(u64),
    Fixed64(u64),
    Fixed32(u32),
    Bytes(Vec<u8>),
    Message(Message),
    /// A group's body, between its start and end keys, as it was.
    Group(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub number: u32,
    pub value: Value,
}

/// One message: its fields in wire order, repeated ones as one entry each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub kind: Kind,
    pub fields: Vec<Field>,
}

/// A whole `FileDescriptorSet`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    pub set: Message,
}

impl Tree {
    /// Parses a serialized `FileDescriptorSet`. Malformed bytes, or a descriptor message that
    /// does not parse as one, are an error, never a panic.
    pub fn parse(bytes: &[u8]) -> Result<Tree, String> {
        Ok(Tree {
            set: Message::parse(Kind::Set, bytes, 0)?,
        })
    }

    /// The set serialized: the bytes it was parsed from, where nothing was changed and they
    /// were written canonically (every compiler does: no overlong varint).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.set.encoded_len());
        self.set.encode_into(&mut out);
        out
    }

    pub fn files(&self) -> impl Iterator<Item = &Message> {
        self.set.messages(1)
    }

    pub fn file(&self, index: usize) -> Option<&Message> {
        self.set.messages(1).nth(index)
    }

    pub fn file_mut(&mut self, index: usize) -> Option<&mut Message> {
        self.set.messages_mut(1).nth(index)
    }

    /// The file named `name` (`shop/order.proto`).
    pub fn file_named(&self, name: &str) -> Option<&Message> {
        self.files().find(|f| f.name() == Some(name))
    }
}

impl Message {
    pub fn new(kind: Kind) -> Message {
        Message {
            kind,
            fields: Vec::new(),
        }
    }

    fn parse(kind: Kind, bytes: &[u8], depth: usize) -> Result<Message, String> {
        if depth >= MAX_DEPTH {
            return Err(format!("descriptors nested deeper than {MAX_DEPTH}"));
        }
        let mut reader = Reader::new(bytes);
        let mut fields = Vec::new();
        while !reader.is_done() {
            let (number, wire_type) = reader.key()?;
            let value = match wire_type {
                VARINT => Value::Varint(reader.varint()?),
                FIXED64 => {
                    let b = reader.take(8)?;
                    let mut word = [0u8; 8];
                    word.copy_from_slice(b);
                    Value::Fixed64(u64::from_le_bytes(word))
                }
                FIXED32 => {
                    let b = reader.take(4)?;
                    let mut word = [0u8; 4];
                    word.copy_from_slice(b);
                    Value::Fixed32(u32::from_le_bytes(word))
                }
                LEN => {
                    let len = reader.varint()?;
                    let body = reader.take(len)?;
                    match kind.child(number) {
                        Some(child) => Value::Message(Message::parse(child, body, depth + 1)?),
                        None => Value::Bytes(body.to_vec()),
                    }
                }
                START_GROUP => Value::Group(reader.group(number)?.to_vec()),
                _ => return Err("a field of an invalid wire type".into()),
            };
            fields.push(Field { number, value });
        }
        Ok(Message { kind, fields })
    }

    /// Bytes of the message's serialized fields.
    pub fn encoded_len(&self) -> usize {
        self.fields.iter().map(Field::encoded_len).sum()
    }

    pub fn encode_into(&self, out: &mut Vec<u8>) {
        for field in &self.fields {
            field.encode_into(out);
        }
    }

    /// Serialized, alone.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len());
        self.encode_into(&mut out);
        out
    }

    /// The value of the singular field `number`: the last on the wire, as protobuf reads it.
    pub fn get(&self, number: u32) -> Option<&Value> {
        self.fields
            .iter()
            .rev()
            .find(|f| f.number == number)
            .map(|f| &f.value)
    }

    pub fn has(&self, number: u32) -> bool {
        self.fields.iter().any(|f| f.number == number)
    }

    pub fn string(&self, number: u32) -> Option<&str> {
        match self.get(number)? {
            Value::Bytes(b) => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }

    /// Every string of the repeated field `number`, in order.
    pub fn strings(&self, number: u32) -> impl Iterator<Item = &str> {
        self.fields
            .iter()
            .filter(move |f| f.number == number)
            .filter_map(|f| match &f.value {
                Value::Bytes(b) => std::str::from_utf8(b).ok(),
                _ => None,
            })
    }

    pub fn varint(&self, number: u32) -> Option<u64> {
        match self.get(number)? {
            Value::Varint(v) => Some(*v),
            _ => None,
        }
    }

    /// An `int32` or enum field: protobuf keeps the low 32 bits.
    pub fn int32(&self, number: u32) -> Option<i32> {
        self.varint(number).map(|v| v as i32)
    }

    pub fn bool(&self, number: u32) -> Option<bool> {
        self.varint(number).map(|v| v != 0)
    }

    /// The message of the singular field `number`.
    pub fn message(&self, number: u32) -> Option<&Message> {
        match self.get(number)? {
            Value::Message(m) => Some(m),
            _ => None,
        }
    }

    /// Every message of the repeated field `number`, in order.
    pub fn messages(&self, number: u32) -> impl Iterator<Item = &Message> {
        self.fields
            .iter()
            .filter(move |f| f.number == number)
            .filter_map(|f| match &f.value {
                Value::Message(m) => Some(m),
                _ => None,
            })
    }

    pub fn messages_mut(&mut self, number: u32) -> impl Iterator<Item = &mut Message> {
        self.fields
            .iter_mut()
            .filter(move |f| f.number == number)
            .filter_map(|f| match &mut f.value {
                Value::Message(m) => Some(m),
                _ => None,
            })
    }

    /// The declaration's name (field 1 of every named descriptor message).
    pub fn name(&self) -> Option<&str> {
        self.string(1)
    }

    /// Where a new entry of field `number` goes: after every entry of a number not above it,
    /// so that a set in field-number order (as compilers write it) stays so.
    fn slot(&self, number: u32) -> usize {
        self.fields
            .iter()
            .rposition(|f| f.number <= number)
            .map_or(0, |i| i + 1)
    }

    /// Adds an entry of the repeated field `number` after its others.
    pub fn push(&mut self, number: u32, value: Value) {
        let at = self.slot(number);
        self.fields.insert(at, Field { number, value });
    }

    /// Sets the singular field `number`: its one entry, where the last one was.
    pub fn set(&mut self, number: u32, value: Value) {
        match self.fields.iter().rposition(|f| f.number == number) {
            Some(at) => {
                self.fields[at].value = value;
                let mut i = 0;
                self.fields.retain(|f| {
                    i += 1;
                    f.number != number || i - 1 == at
                });
            }
            None => self.push(number, value),
        }
    }

    pub fn set_string(&mut self, number: u32, text: &str) {
        self.set(number, Value::Bytes(text.as_bytes().to_vec()));
    }

    pub fn set_varint(&mut self, number: u32, value: u64) {
        self.set(number, Value::Varint(value));
    }

    /// Removes every entry of field `number`.
    pub fn remove(&mut self, number: u32) {
        self.fields.retain(|f| f.number != number);
    }

    /// The message of the singular field `number`, made empty if there is none. Several
    /// entries of a message field are one message merged; they are merged here first, since
    /// the field's later entries would otherwise override what is set in the last.
    pub fn message_mut_or_new(&mut self, number: u32) -> Option<&mut Message> {
        let kind = self.kind.child(number)?;
        let mut merged = Message::new(kind);
        let mut found = false;
        for field in self.fields.iter().filter(|f| f.number == number) {
            match &field.value {
                Value::Message(m) => merged.fields.extend(m.fields.iter().cloned()),
                _ => return None,
            }
            found = true;
        }
        if !found || self.fields.iter().filter(|f| f.number == number).count() > 1 {
            self.set(number, Value::Message(merged));
        }
        match self.fields.iter_mut().rev().find(|f| f.number == number) {
            Some(Field {
                value: Value::Message(m),
                ..
            }) => Some(m),
            _ => None,
        }
    }
}

impl Field {
    fn encoded_len(&self) -> usize {
        let key = varint_len(u64::from(self.number) << 3);
        key + match &self.value {
            Value::Varint(v) => varint_len(*v),
            Value::Fixed64(_) => 8,
            Value::Fixed32(_) => 4,
            Value::Bytes(b) => varint_len(b.len() as u64) + b.len(),
            Value::Message(m) => {
                let len = m.encoded_len();
                varint_len(len as u64) + len
            }
            Value::Group(body) => body.len() + key,
        }
    }

    fn encode_into(&self, out: &mut Vec<u8>) {
        match &self.value {
            Value::Varint(v) => {
                put_key(out, self.number, VARINT);
                put_varint(out, *v);
            }
            Value::Fixed64(v) => {
                put_key(out, self.number, FIXED64);
                out.extend_from_slice(&v.to_le_bytes());
            }
            Value::Fixed32(v) => {
                put_key(out, self.number, FIXED32);
                out.extend_from_slice(&v.to_le_bytes());
            }
            Value::Bytes(b) => {
                put_key(out, self.number, LEN);
                put_varint(out, b.len() as u64);
                out.extend_from_slice(b);
            }
            Value::Message(m) => {
                put_key(out, self.number, LEN);
                put_varint(out, m.encoded_len() as u64);
                m.encode_into(out);
            }
            Value::Group(body) => {
                put_key(out, self.number, START_GROUP);
                out.extend_from_slice(body);
                put_key(out, self.number, END_GROUP);
            }
        }
    }
}

fn varint_len(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}
