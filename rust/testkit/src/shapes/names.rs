//! Relative type names resolved through deep scopes: a 512-part package, dotted names, names
//! that resolve far out or not at all.

use prost_types::field_descriptor_proto::Type;
use prost_types::{FileDescriptorProto, MethodDescriptorProto, ServiceDescriptorProto};
use protocompat::Limits;

use super::{field, file, fitting, message, schema};

/// The deepest package the name limit allows: 512 components `a`.
fn deep_package() -> String {
    vec!["a"; Limits::DEFAULT.max_name_length / 2].join(".")
}

/// `types.proto`: `package b; message T {}` (with an extension range), and a message named
/// after the variant so that every variant's bytes differ.
pub(super) fn types_b(v: usize) -> FileDescriptorProto {
    let mut types = file("types.proto", "b", "proto2");
    let mut t = message("T");
    t.extension_range
        .push(prost_types::descriptor_proto::ExtensionRange {
            start: Some(1),
            end: Some(536_870_911),
            options: None,
        });
    types.message_type.push(t);
    types.message_type.push(message(&format!("V{v}")));
    types
}

/// The root file in the deep package, importing `types.proto`, with a root message `Order`.
fn deep_root(syntax: &str) -> (FileDescriptorProto, String) {
    let package = deep_package();
    let mut root = file("order.proto", &package, syntax);
    root.dependency.push("types.proto".into());
    (root, package)
}

pub(super) fn methods(v: usize) -> Vec<u8> {
    let (mut root, package) = deep_root("proto3");
    root.message_type.push(message("Order"));
    let count = fitting(package.len() + 2, 6, 4096);
    let service = ServiceDescriptorProto {
        name: Some("S".into()),
        method: (0..count)
            .map(|i| MethodDescriptorProto {
                name: Some(format!("m{i}")),
                input_type: Some("b.T".into()),
                output_type: Some("b.T".into()),
                ..Default::default()
            })
            .collect(),
        options: None,
    };
    root.service.push(service);
    schema(
        vec![types_b(v), root],
        &format!("{package}.Order"),
        "order.proto",
    )
}

pub(super) fn extensions(v: usize) -> Vec<u8> {
    let (mut root, package) = deep_root("proto2");
    root.message_type.push(message("Order"));
    let count = fitting(package.len(), 6, 4096);
    for i in 0..count {
        let mut extension = field(&format!("x{i}"), i + 1, Type::Message, Some("b.T"));
        extension.extendee = Some("b.T".into());
        root.extension.push(extension);
    }
    schema(
        vec![types_b(v), root],
        &format!("{package}.Order"),
        "order.proto",
    )
}

pub(super) fn fields(v: usize) -> Vec<u8> {
    let (mut root, package) = deep_root("proto3");
    let mut order = message("Order");
    let count = fitting(package.len() + 6, 6, 4096);
    for i in 1..=count {
        order
            .field
            .push(field(&format!("f{i}"), i, Type::Message, Some("b.T")));
    }
    root.message_type.push(order);
    schema(
        vec![types_b(v), root],
        &format!("{package}.Order"),
        "order.proto",
    )
}

pub(super) fn nested(v: usize) -> Vec<u8> {
    const DEPTH: usize = 90;
    let (mut root, package) = deep_root("proto3");
    let scope_len = package.len() + 6 + 2 * DEPTH;
    let mut inner = message("N");
    for i in 1..=fitting(scope_len, 6, 1 << 20) {
        inner
            .field
            .push(field(&format!("f{i}"), i, Type::Message, Some("b.T")));
    }
    for _ in 1..DEPTH {
        let mut outer = message("N");
        outer.field.push(field("n", 1, Type::Message, Some("N")));
        outer.nested_type.push(inner);
        inner = outer;
    }
    let mut order = message("Order");
    order.field.push(field("n", 1, Type::Message, Some("N")));
    order.nested_type.push(inner);
    root.message_type.push(order);
    schema(
        vec![types_b(v), root],
        &format!("{package}.Order"),
        "order.proto",
    )
}

pub(super) fn one_part(v: usize) -> Vec<u8> {
    let (mut root, package) = deep_root("proto3");
    let mut types = file("types.proto", "", "proto3");
    types.message_type.push(message("T"));
    types.message_type.push(message(&format!("V{v}")));
    let mut order = message("Order");
    for i in 1..=fitting(package.len() + 6, 6, 4096) {
        order
            .field
            .push(field(&format!("f{i}"), i, Type::Message, Some("T")));
    }
    root.message_type.push(order);
    schema(
        vec![types, root],
        &format!("{package}.Order"),
        "order.proto",
    )
}

/// Every enclosing scope has a child `a` (the next package component), so a lookup that
/// descends from each scope by the name's parts walks the depth times the parts.
pub(super) fn deep_dotted(v: usize) -> Vec<u8> {
    let (mut root, package) = deep_root("proto3");
    let reference = format!("{}.T", vec!["a"; 255].join("."));
    // `a.a.….T` (255 parts) declared once, in a file of its own package.
    let mut types = file("types.proto", &vec!["a"; 255].join("."), "proto3");
    types.message_type.push(message("T"));
    types.message_type.push(message(&format!("V{v}")));
    let mut order = message("Order");
    // Base64 takes 4/3 of the set, the JSON a little more.
    let count = (Limits::DEFAULT.max_schema_bytes / 4 * 3 - (64 << 10)) / (reference.len() + 32);
    let count = count.min(fitting(package.len() + 6, 6, 1 << 20));
    for i in 1..=count {
        order
            .field
            .push(field(&format!("f{i}"), i, Type::Message, Some(&reference)));
    }
    root.message_type.push(order);
    schema(
        vec![types, root],
        &format!("{package}.Order"),
        "order.proto",
    )
}

pub(super) fn deep_distinct(v: usize) -> Vec<u8> {
    deep_names(v, true)
}

pub(super) fn deep_unresolved(v: usize) -> Vec<u8> {
    deep_names(v, false)
}

/// Fields of the root under a 512-part package typed `a.a.….T<i>` (256 parts), each name
/// distinct: with `declared`, each `T<i>` is declared where its name says (the full-name limit
/// then bounds how many); without, at the root, so that every part is a known name but no name
/// names anything.
fn deep_names(v: usize, declared: bool) -> Vec<u8> {
    let (mut root, package) = deep_root("proto3");
    let scope = vec!["a"; 255].join(".");
    let mut types = file("types.proto", if declared { &scope } else { "" }, "proto3");
    let mut order = message("Order");
    let count = if declared {
        // Each field's full name holds the package, each message's the 255 parts.
        fitting(package.len() + scope.len() + 8, 6, 1 << 20)
    } else {
        let fit = (Limits::DEFAULT.max_schema_bytes / 4 * 3 - (64 << 10)) / (scope.len() + 48);
        fit.min(fitting(package.len() + 6, 6, 1 << 20))
    };
    for i in 1..=count {
        types.message_type.push(message(&format!("T{i}")));
        order.field.push(field(
            &format!("f{i}"),
            i,
            Type::Message,
            Some(&format!("{scope}.T{i}")),
        ));
    }
    types.message_type.push(message(&format!("V{v}")));
    root.message_type.push(order);
    schema(
        vec![types, root],
        &format!("{package}.Order"),
        "order.proto",
    )
}
