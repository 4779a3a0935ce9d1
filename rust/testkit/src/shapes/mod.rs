//! The costliest shapes of schema data known inside the default limits, built as descriptor
//! sets: what an attacker with upload rights would send. Shared by the engine's
//! `examples/worst_inputs.rs`, which prints the CPU each costs and the work it is charged, and the tests that hold their
//! verdicts.
//!
//! Each shape is a function of a variant number, so that a history of distinct versions (each
//! a new upload that no cache has seen) can be built from it. By what they stress:
//! - `names`: relative names resolved in deep scopes;
//! - `counts`: the most of one kind of declaration the limits allow;
//! - `pairs`: types met by many others (enum pairs, pairing by structure);
//! - `findings`: one finding per field, required fields, defaults;
//! - `features`: maps, Editions features;
//! - `histories`: long FULL_TRANSITIVE histories, of tiny versions or against a large new one;
//! - `full_names`: full names far longer than the schema, named by every field of a history.
mod counts;
mod features;
mod findings;
mod full_names;
mod histories;
mod names;
mod pairs;

use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use protocompat::{Limits, Strategy};

use crate::schema_of_protos as schema;

pub use counts::large_version;
pub use full_names::nested_long_names;

/// A shape: its name, what it is, and how one check of it is made.
pub struct Shape {
    pub name: &'static str,
    pub about: &'static str,
    /// Existing version `v`; also the new schema (as the next variant) unless `new` is given.
    pub build: fn(usize) -> Vec<u8>,
    /// The new schema of variant `v`, for shapes whose new schema differs from its history.
    pub new: Option<fn(usize) -> Vec<u8>>,
    /// How many existing versions one check compares with: FULL for one, FULL_TRANSITIVE for
    /// more.
    pub history: usize,
}

impl Shape {
    const fn pair(name: &'static str, about: &'static str, build: fn(usize) -> Vec<u8>) -> Shape {
        Shape {
            name,
            about,
            build,
            new: None,
            history: 1,
        }
    }

    /// The existing versions of a check against `versions` of them, oldest first.
    pub fn existing(&self, versions: usize) -> Vec<Vec<u8>> {
        (0..versions).map(self.build).collect()
    }

    /// The new schema of a check against `versions` existing ones: a variant none of them is.
    pub fn proposed(&self, versions: usize) -> Vec<u8> {
        (self.new.unwrap_or(self.build))(versions)
    }

    pub fn strategy(&self, versions: usize) -> Strategy {
        if versions > 1 {
            Strategy::FullTransitive
        } else {
            Strategy::Full
        }
    }
}

pub const SHAPES: &[Shape] = &[
    Shape::pair(
        "methods",
        "a 512-part package, one service whose methods all take and return the dotted relative name `b.T` of an imported file",
        names::methods,
    ),
    Shape::pair(
        "extensions",
        "a 512-part package, extensions whose extendee and type are the dotted relative name `b.T`",
        names::extensions,
    ),
    Shape::pair(
        "fields",
        "a 512-part package, fields of the root typed with the dotted relative name `b.T`",
        names::fields,
    ),
    Shape::pair(
        "nested",
        "a 512-part package, fields typed `b.T` in a message nested 90 deep",
        names::nested,
    ),
    Shape::pair(
        "one-part",
        "a 512-part package, fields typed with the one-part name `T` of an imported file without a package",
        names::one_part,
    ),
    Shape::pair(
        "deep-dotted",
        "a 512-part package of `a`, fields typed with 255-part names `a.a.….T` that resolve at the root",
        names::deep_dotted,
    ),
    Shape::pair(
        "deep-distinct",
        "as deep-dotted, but every name distinct (`a.a.….T17`), each declared once",
        names::deep_distinct,
    ),
    Shape::pair(
        "deep-unresolved",
        "distinct 256-part names `a.a.….T17` whose parts are all declared somewhere (`T17` at the root) but which name nothing",
        names::deep_unresolved,
    ),
    Shape::pair(
        "field-limit",
        "the most fields allowed, in messages of 10, each held by the root (walked both ways)",
        counts::field_limit,
    ),
    Shape::pair(
        "enum-values",
        "the most enum values allowed, in one enum the root holds",
        counts::enum_values,
    ),
    Shape::pair(
        "enum-pairs",
        "99 closed enums of 1,000 values, every pair reached through a field of its own (conservative pairs them by structure)",
        pairs::enum_pairs,
    ),
    Shape::pair(
        "structure-pairs",
        "one side's 245 fields hold 245 small message types, the other's all hold one message of 99,000 fields: conservative pairs each small type with the large one",
        pairs::structure_pairs,
    ),
    Shape::pair(
        "text-pairs",
        "300 messages a side, each holding a string field with the same 28 KB default, every writer message paired with every reader message through a field of its own (conservative pairs by structure)",
        pairs::text_pairs,
    ),
    Shape::pair(
        "value-name-pairs",
        "300 enums a side of 28 values named with a kilobyte, every writer enum paired with every reader enum through a field of its own (conservative pairs by structure)",
        pairs::value_name_pairs,
    ),
    Shape::pair(
        "oneofs",
        "the most oneofs allowed, named, in the root message",
        counts::oneofs,
    ),
    pairs::SPARSE_NUMBERS,
    findings::REQUIRED_ADDED,
    findings::REQUIRED_ADDED_HISTORY,
    findings::REQUIRED_LONG_NAMES,
    findings::LOOKED_UP_LONG_NAMES,
    findings::RETYPED,
    findings::ONEOF_MEMBERS,
    findings::ENUM_DEFAULTS,
    findings::DEFAULTS,
    features::MAPS,
    features::EDITIONS,
    histories::REACHABLE,
    histories::TINY,
    histories::LONG_DEFAULT,
    full_names::LONG_FULL_NAMES,
    full_names::LONG_FULL_NAMES_HISTORY,
];

/// How many declarations named `name_len` bytes fit in `scope_len`-byte scopes under the
/// full-name limit, leaving `room` for the rest.
fn fitting(scope_len: usize, name_len: usize, room: usize) -> usize {
    (Limits::DEFAULT.max_full_name_bytes - room) / (scope_len + name_len + 2)
}

fn message(name: &str) -> DescriptorProto {
    DescriptorProto {
        name: Some(name.into()),
        ..Default::default()
    }
}

fn field(name: &str, number: usize, ty: Type, type_name: Option<&str>) -> FieldDescriptorProto {
    FieldDescriptorProto {
        name: Some(name.into()),
        number: Some(field_number(number)),
        label: Some(Label::Optional as i32),
        r#type: Some(ty as i32),
        type_name: type_name.map(Into::into),
        ..Default::default()
    }
}

/// Field number `i`, stepping over the 19000-19999 protobuf reserves.
fn field_number(i: usize) -> i32 {
    (if i >= 19_000 { i + 1_000 } else { i }) as i32
}

fn file(name: &str, package: &str, syntax: &str) -> FileDescriptorProto {
    FileDescriptorProto {
        name: Some(name.into()),
        package: (!package.is_empty()).then(|| package.into()),
        syntax: Some(syntax.into()),
        ..Default::default()
    }
}
