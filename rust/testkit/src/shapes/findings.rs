//! A finding, or a default to read, for every field of a large message: what a rule builds for
//! each field it reports, and what the default rules parse.

use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto};
use protocompat::Limits;

use super::{field, file, message, schema, Shape};

pub(super) const REQUIRED_ADDED: Shape = Shape {
    name: "required-added",
    about: "a new root adding 99,000 `required` int32 fields, against one tiny version (pip246: REQUIRED_FIELD_ADDED for each, and the guard's REQUIRED_FIELD_NOT_GUARANTEED stays silent at each)",
    build: tiny,
    new: Some(required_added),
    history: 1,
};

pub(super) const REQUIRED_ADDED_HISTORY: Shape = Shape {
    name: "required-added-history",
    about: "as required-added, FULL_TRANSITIVE against 10 tiny versions",
    build: tiny,
    new: Some(required_added),
    history: 10,
};

pub(super) const REQUIRED_LONG_NAMES: Shape = Shape {
    name: "required-long-names",
    about: "as required-added-history, but 9,000 `required` fixed32 fields named with 1,000 bytes each, against 300 tiny versions (found by the cost fuzz target: each finding copies and hashes its field's name)",
    build: tiny,
    new: Some(required_long_names),
    history: 300,
};

pub(super) const LOOKED_UP_LONG_NAMES: Shape = Shape {
    name: "looked-up-long-names",
    about: "9,000 message fields renamed to 1,000-byte names and `id` retyped, against 300 versions with the short names: where the profile found something, each field's name is looked up for the guard",
    build: short_names,
    new: Some(long_names),
    history: 300,
};

pub(super) const RETYPED: Shape = Shape::pair(
    "retyped",
    "99,000 fields of the root, int32 in one variant and string in the next: a failure for every field, both ways",
    retyped,
);

pub(super) const ONEOF_MEMBERS: Shape = Shape::pair(
    "oneof-members",
    "8,000 string fields of the root, moved into one oneof in the next variant (ONEOF_CONFLICT: the example search once made every pair of members up front)",
    oneof_members,
);

pub(super) const ENUM_DEFAULTS: Shape = Shape::pair(
    "enum-defaults",
    "50,000 proto2 fields of an enum of 50,000 values, each `[default = <the last value>]`",
    enum_defaults,
);

pub(super) const DEFAULTS: Shape = Shape::pair(
    "defaults",
    "90,000 proto2 fields of every scalar type and an enum, each with a declared default that the next variant changes",
    defaults,
);

/// A proto2 `shop.Order { optional int32 id = 1; }`, and a message named after the variant:
/// the smallest version a history can hold.
pub(super) fn tiny(v: usize) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    order.field.push(field("id", 1, Type::Int32, None));
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

fn required_added(v: usize) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    order.field.push(field("id", 1, Type::Int32, None));
    for i in 2..=99_001 {
        let mut required = field(&format!("r{i}"), i, Type::Int32, None);
        required.label = Some(Label::Required as i32);
        order.field.push(required);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

/// A 1,000-byte field name, distinct for each `i`.
fn long_name(i: usize) -> String {
    format!("{:x<1000}", format!("f{i}_"))
}

fn required_long_names(v: usize) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    order.field.push(field("id", 1, Type::Int32, None));
    for i in 2..=9_001 {
        let mut required = field(&long_name(i), i, Type::Fixed32, None);
        required.label = Some(Label::Required as i32);
        order.field.push(required);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

/// `Order { int32 id = 1; M m2 = 2; … M m9001 = 9001; }`, the fields named by `name`.
fn held_messages(v: usize, id: Type, name: fn(usize) -> String) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    order.field.push(field("id", 1, id, None));
    for i in 2..=9_001 {
        order
            .field
            .push(field(&name(i), i, Type::Message, Some(".shop.M")));
    }
    root.message_type.push(order);
    root.message_type.push(message("M"));
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

fn short_names(v: usize) -> Vec<u8> {
    held_messages(v, Type::Int32, |i| format!("m{i}"))
}

fn long_names(v: usize) -> Vec<u8> {
    held_messages(v, Type::String, long_name)
}

fn retyped(v: usize) -> Vec<u8> {
    let ty = if v % 2 == 0 {
        Type::Int32
    } else {
        Type::String
    };
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    for i in 1..=99_000 {
        order.field.push(field(&format!("f{i}"), i, ty, None));
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

fn oneof_members(v: usize) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    if v % 2 == 1 {
        order.oneof_decl.push(prost_types::OneofDescriptorProto {
            name: Some("contact".into()),
            options: None,
        });
    }
    for i in 1..=8_000 {
        let mut member = field(&format!("f{i}"), i, Type::String, None);
        if v % 2 == 1 {
            member.oneof_index = Some(0);
        }
        order.field.push(member);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

fn enum_defaults(v: usize) -> Vec<u8> {
    const COUNT: usize = 50_000;
    let mut root = file("order.proto", "shop", "proto2");
    root.enum_type.push(EnumDescriptorProto {
        name: Some("E".into()),
        value: (0..COUNT)
            .map(|n| EnumValueDescriptorProto {
                name: Some(format!("V{n}")),
                number: Some(n as i32),
                options: None,
            })
            .collect(),
        ..Default::default()
    });
    let mut order = message("Order");
    for i in 1..=COUNT {
        let mut f = field(&format!("f{i}"), i, Type::Enum, Some(".shop.E"));
        f.default_value = Some(format!("V{}", COUNT - 1));
        order.field.push(f);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("W{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

/// Field `i`'s type and its default in variant `v`: every scalar type and an enum in turn.
fn typed_default(i: usize, v: usize) -> (Type, Option<&'static str>, String) {
    let k = v % 2;
    match i % 16 {
        0 => (Type::Int32, None, format!("-{}", 2_000_000_000 + k)),
        1 => (
            Type::Int64,
            None,
            format!("0x{:x}", 0x7fff_0000_0000_0000u64 + k as u64),
        ),
        2 => (Type::Uint32, None, format!("0{}", 7_654_321 + k)),
        3 => (Type::Uint64, None, format!("{}", u64::MAX - k as u64)),
        4 => (Type::Sint32, None, format!("{}", -7 - k as i32)),
        5 => (Type::Sint64, None, format!("{}", i64::MIN + k as i64)),
        6 => (
            Type::Fixed32,
            None,
            format!("{}", 4_000_000_000u32 + k as u32),
        ),
        7 => (Type::Fixed64, None, format!("{}", 1u64 << (40 + k))),
        8 => (Type::Sfixed32, None, format!("{}", -1 - k as i32)),
        9 => (Type::Sfixed64, None, format!("{}", -(1i64 << (50 + k)))),
        10 => (Type::Float, None, ["1.5e38", "-inf"][k].to_owned()),
        11 => (Type::Double, None, ["nan", "2.25e-300"][k].to_owned()),
        12 => (Type::Bool, None, ["true", "false"][k].to_owned()),
        13 => (Type::String, None, format!("s\u{e9}{k}")),
        14 => (Type::Bytes, None, format!("\\377\\x41\\n{k}")),
        _ => (Type::Enum, Some(".shop.E"), format!("E{k}")),
    }
}

fn defaults(v: usize) -> Vec<u8> {
    let count = Limits::DEFAULT.max_fields - 10_000;
    let mut root = file("order.proto", "shop", "proto2");
    root.enum_type.push(EnumDescriptorProto {
        name: Some("E".into()),
        value: (0..2)
            .map(|n| EnumValueDescriptorProto {
                name: Some(format!("E{n}")),
                number: Some(n),
                options: None,
            })
            .collect(),
        ..Default::default()
    });
    let mut order = message("Order");
    for i in 1..=count {
        let (ty, type_name, default) = typed_default(i, v);
        let mut f: FieldDescriptorProto = field(&format!("f{i}"), i, ty, type_name);
        f.default_value = Some(default);
        order.field.push(f);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("W{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}
