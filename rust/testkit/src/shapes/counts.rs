//! The most of one kind of declaration the limits allow.

use prost_types::field_descriptor_proto::Type;
use prost_types::{EnumDescriptorProto, EnumValueDescriptorProto, OneofDescriptorProto};
use protocompat::Limits;

use super::{field, file, message, schema};

pub(super) fn field_limit(v: usize) -> Vec<u8> {
    let limits = Limits::DEFAULT;
    let messages = ((limits.max_fields - 10) / 11).min(limits.max_messages - 2);
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    for m in 0..messages {
        order.field.push(field(
            &format!("m{m}"),
            m + 1,
            Type::Message,
            Some(&format!(".shop.M{m}")),
        ));
    }
    root.message_type.push(order);
    for m in 0..messages {
        let mut holder = message(&format!("M{m}"));
        for f in 1..=10 {
            holder
                .field
                .push(field(&format!("f{f}"), f, Type::Int32, None));
        }
        root.message_type.push(holder);
    }
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

pub(super) fn enum_values(v: usize) -> Vec<u8> {
    let limits = Limits::DEFAULT;
    let mut root = file("order.proto", "shop", "proto3");
    root.enum_type.push(EnumDescriptorProto {
        name: Some("E".into()),
        value: (0..limits.max_enum_values - 1)
            .map(|n| EnumValueDescriptorProto {
                name: Some(format!("V{n}")),
                number: Some(n as i32),
                options: None,
            })
            .collect(),
        ..Default::default()
    });
    let mut order = message("Order");
    order.field.push(field("e", 1, Type::Enum, Some(".shop.E")));
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

pub(super) fn oneofs(v: usize) -> Vec<u8> {
    let limits = Limits::DEFAULT;
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    order.oneof_decl = (0..limits.max_declarations - 10)
        .map(|i| OneofDescriptorProto {
            name: Some(format!("o{i}")),
            options: None,
        })
        .collect();
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

/// A large schema for histories: about `bytes` of schema data in fields with long names and
/// nothing else unusual, so that a history of them is what outgrows the caches, not the cost
/// of one.
pub fn large_version(bytes: usize, v: usize) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    let padding = "p".repeat(Limits::DEFAULT.max_name_length - 16);
    // About 1,030 bytes of descriptor per field, 4/3 of it as base64.
    for i in 1..=(bytes * 3 / 4 / 1030).max(1) {
        order
            .field
            .push(field(&format!("f{i}_{padding}"), i, Type::Int64, None));
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}
