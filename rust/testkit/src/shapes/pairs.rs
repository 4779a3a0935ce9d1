//! Types met by many others: every pair of large enums, many small messages paired by
//! structure with one large one, and every pair of messages or enums whose text (defaults,
//! value names) the rules compare byte for byte.

use prost_types::field_descriptor_proto::Type;
use prost_types::{EnumDescriptorProto, EnumValueDescriptorProto};

use super::{field, file, message, schema, Shape};

/// The writer's field `i` holds enum `i / 99`, the reader's `i % 99`: every (writer, reader)
/// pair of enums is reached once. Variants rename every enum and value, so an odd and an even
/// variant differ in every name, which `conservative` does not look at.
pub(super) fn enum_pairs(v: usize) -> Vec<u8> {
    let prefix = format!("E{v}x");
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    for i in 0..99 * 99 {
        let e = if v % 2 == 0 { i / 99 } else { i % 99 };
        order.field.push(field(
            &format!("f{}", i + 1),
            i + 1,
            Type::Enum,
            Some(&format!(".shop.{prefix}{e}")),
        ));
    }
    root.message_type.push(order);
    for e in 0..99 {
        root.enum_type.push(EnumDescriptorProto {
            name: Some(format!("{prefix}{e}")),
            value: (0..1000)
                .map(|n| EnumValueDescriptorProto {
                    name: Some(format!("{prefix}{e}_V{n}")),
                    number: Some(n),
                    options: None,
                })
                .collect(),
            ..Default::default()
        });
    }
    schema(vec![root], "shop.Order", "order.proto")
}

pub(super) fn structure_pairs(v: usize) -> Vec<u8> {
    const HOLDERS: usize = 245;
    const LARGE: usize = 99_000;
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    if v % 2 == 0 {
        for i in 1..=HOLDERS {
            order.field.push(field(
                &format!("f{i}"),
                i,
                Type::Message,
                Some(&format!(".shop.W{i}")),
            ));
            let mut small = message(&format!("W{i}"));
            small.field.push(field("x", 1, Type::Int64, None));
            root.message_type.push(small);
        }
    } else {
        for i in 1..=HOLDERS {
            order
                .field
                .push(field(&format!("f{i}"), i, Type::Message, Some(".shop.R")));
        }
        let mut large = message("R");
        for f in 1..=LARGE {
            large
                .field
                .push(field(&format!("x{f}"), f, Type::Int64, None));
        }
        root.message_type.push(large);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

pub(super) const SPARSE_NUMBERS: Shape = Shape {
    name: "sparse-numbers",
    about: "a new root of 99,000 fields numbered 20,000 + 2i, against 1,000 versions of 1,000 fields numbered 20,001 + 2i: no number matches, and no field sits where its number would put it",
    build: sparse_version,
    new: Some(sparse_new),
    history: 1_000,
};

/// `Order` with `count` int32 fields numbered `first`, `first + 2`, … (past the reserved
/// 19000-19999, so `field` leaves them as they are but for its step over those).
fn sparse(v: usize, count: usize, first: usize) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    for i in 0..count {
        order
            .field
            .push(field(&format!("f{i}"), first + 2 * i, Type::Int32, None));
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

fn sparse_version(v: usize) -> Vec<u8> {
    sparse(v, 1_000, 20_001)
}

fn sparse_new(v: usize) -> Vec<u8> {
    sparse(v, 99_000, 20_000)
}

/// Messages or enums on each side of [`text_pairs`] and [`value_name_pairs`]: the writer's
/// field `i` holds type `i / SIDE`, the reader's `i % SIDE`, so `conservative` pairs every
/// writer type with every reader type by structure.
const SIDE: usize = 300;

/// Each of the 300 messages on a side holds one string field whose declared default is the
/// same 28 KB on both sides: whether two fields are declared alike compares them, in each of
/// the 90,000 pairs.
pub(super) fn text_pairs(v: usize) -> Vec<u8> {
    let default = "d".repeat(28 << 10);
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    for i in 0..SIDE * SIDE {
        let m = if v % 2 == 0 { i / SIDE } else { i % SIDE };
        order.field.push(field(
            &format!("f{}", i + 1),
            i + 1,
            Type::Message,
            Some(&format!(".shop.M{v}x{m}")),
        ));
    }
    root.message_type.push(order);
    for m in 0..SIDE {
        let mut held = message(&format!("M{v}x{m}"));
        let mut s = field("s", 1, Type::String, None);
        s.default_value = Some(default.clone());
        held.field.push(s);
        root.message_type.push(held);
    }
    schema(vec![root], "shop.Order", "order.proto")
}

/// Each of the 300 enums on a side holds 28 values named with a kilobyte that all but its last
/// bytes share: the enum rules merge them by name in each of the 90,000 pairs.
pub(super) fn value_name_pairs(v: usize) -> Vec<u8> {
    let prefix = "v".repeat(1_000);
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    for i in 0..SIDE * SIDE {
        let e = if v % 2 == 0 { i / SIDE } else { i % SIDE };
        order.field.push(field(
            &format!("f{}", i + 1),
            i + 1,
            Type::Enum,
            Some(&format!(".shop.E{v}x{e}")),
        ));
    }
    root.message_type.push(order);
    for e in 0..SIDE {
        root.enum_type.push(EnumDescriptorProto {
            name: Some(format!("E{v}x{e}")),
            value: (0..28)
                .map(|n| EnumValueDescriptorProto {
                    name: Some(format!("E{v}x{e}_{prefix}{n:02}")),
                    number: Some(n),
                    options: None,
                })
                .collect(),
            ..Default::default()
        });
    }
    schema(vec![root], "shop.Order", "order.proto")
}
