//! The schemas `evolve` plays with: one file (`evolve.proto`, package `evo`), proto2 or proto3,
//! a root message `evo.M0` with nested and sibling messages, enums, scalar fields of every
//! type, repeated fields (packed or expanded), oneofs, maps (or the same entries as a repeated
//! message), proto2 required fields and defaults, proto3 optional fields. Built from the fuzz
//! input, evolved by random steps, checked for what protoc would refuse ([`Schema::valid`]),
//! and written out as a `FileDescriptorProto` or as `.proto` text (for reports).

mod generate;
mod render;
mod steps;

pub use steps::Step;

pub const PACKAGE: &str = "evo";
pub const FILE: &str = "evolve.proto";
pub const ROOT: &str = "evo.M0";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Syntax {
    Proto2,
    Proto3,
}

pub use crate::scalar::{Scalar, SCALARS};

use Scalar as S;

/// The types a map key may have.
pub const KEY_SCALARS: [Scalar; 12] = [
    S::Int32,
    S::Int64,
    S::Uint32,
    S::Uint64,
    S::Sint32,
    S::Sint64,
    S::Fixed32,
    S::Fixed64,
    S::Sfixed32,
    S::Sfixed64,
    S::Bool,
    S::String,
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    Scalar(Scalar),
    /// Index into [`Schema::enums`].
    Enum(usize),
    /// Index into [`Schema::messages`].
    Message(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Label {
    /// proto3 singular without `optional` (implicit presence; messages always have presence).
    Implicit,
    /// proto2 `optional`, proto3 `optional`, or a oneof member.
    Optional,
    /// proto2 only.
    Required,
    Repeated,
}

/// A map field: `map<key, ty>`, or with `as_entries` the same entries declared as
/// `repeated <Field>Entry` with a plain message (same wire format, no map semantics).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MapShape {
    pub key: Scalar,
    pub as_entries: bool,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: std::string::String,
    pub number: i32,
    pub label: Label,
    /// The type, or a map's value type.
    pub ty: Ty,
    pub map: Option<MapShape>,
    /// The uid of a real oneof of the message.
    pub oneof: Option<u32>,
    /// A proto2 `[default = …]`, as written in a descriptor.
    pub default: Option<std::string::String>,
    pub packed: Option<bool>,
}

#[derive(Clone, Debug)]
pub struct Message {
    pub name: std::string::String,
    pub parent: Option<usize>,
    pub fields: Vec<Field>,
    /// Uids of the real oneofs (named `o<uid>`); one without members is not written.
    pub oneofs: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Enum {
    pub name: std::string::String,
    pub parent: Option<usize>,
    pub values: Vec<(std::string::String, i32)>,
}

#[derive(Clone, Debug)]
pub struct Schema {
    pub syntax: Syntax,
    /// `messages[0]` is the root, `evo.M0`.
    pub messages: Vec<Message>,
    pub enums: Vec<Enum>,
    /// Names every new field, oneof and enum value uniquely.
    pub next_uid: u32,
}

fn ints_for(scalar: Scalar) -> &'static [&'static str] {
    match scalar {
        S::Int32 | S::Sint32 | S::Sfixed32 => &["0", "1", "-1", "7", "2147483647", "-2147483648"],
        S::Int64 | S::Sint64 | S::Sfixed64 => &[
            "0",
            "1",
            "-1",
            "7",
            "4294967296",
            "9223372036854775807",
            "-9223372036854775808",
        ],
        S::Uint32 | S::Fixed32 => &["0", "1", "7", "4294967295"],
        S::Uint64 | S::Fixed64 => &["0", "1", "7", "18446744073709551615"],
        S::Double | S::Float => &["0", "-0", "1.5", "0.1", "-2", "inf", "-inf", "nan", "7"],
        S::Bool => &["true", "false"],
        S::String => &["", "abc", "7", "x y"],
        // C-escaped, as in a descriptor.
        S::Bytes => &["", "abc", "\\001\\377", "7"],
    }
}
impl Schema {
    pub fn full_name(&self, mut id: usize) -> std::string::String {
        let mut parts = vec![self.messages[id].name.clone()];
        while let Some(parent) = self.messages[id].parent {
            parts.push(self.messages[parent].name.clone());
            id = parent;
        }
        parts.push(PACKAGE.to_owned());
        parts.reverse();
        parts.join(".")
    }

    pub fn enum_full_name(&self, id: usize) -> std::string::String {
        match self.enums[id].parent {
            Some(parent) => format!("{}.{}", self.full_name(parent), self.enums[id].name),
            None => format!("{PACKAGE}.{}", self.enums[id].name),
        }
    }

    fn uid(&mut self) -> u32 {
        self.next_uid += 1;
        self.next_uid
    }
}

/// The entry message of map field `name`: protoc's `<CamelCase name>Entry`.
pub fn entry_name(field: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in field.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out + "Entry"
}

impl Field {
    pub fn packable(&self) -> bool {
        self.map.is_none()
            && match self.ty {
                Ty::Scalar(s) => s.packable(),
                Ty::Enum(_) => true,
                Ty::Message(_) => false,
            }
    }

    fn defaultable(&self) -> bool {
        matches!(self.label, Label::Optional | Label::Required)
            && self.map.is_none()
            && !matches!(self.ty, Ty::Message(_))
    }

    fn oneof_eligible(&self) -> bool {
        self.oneof.is_none()
            && self.map.is_none()
            && matches!(self.label, Label::Implicit | Label::Optional)
    }
}
