//! The costliest shapes of schema data known inside the default limits, built as descriptor
//! sets: what an attacker with upload rights would send. Shared by `examples/worst_inputs.rs`,
//! which prints the CPU each costs, and the tests that hold their verdicts.
//!
//! Each shape is a function of a variant number, so that a history of distinct versions (each
//! a new upload that no cache has seen) can be built from it.
#![allow(dead_code)]

use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
    FileDescriptorProto, FileDescriptorSet, MethodDescriptorProto, OneofDescriptorProto,
    ServiceDescriptorProto,
};
use protocompat::model::SchemaData;
use protocompat::Limits;

/// A shape: its name, what it is, and the schema data of variant `v`.
pub struct Shape {
    pub name: &'static str,
    pub about: &'static str,
    pub build: fn(usize) -> Vec<u8>,
}

pub const SHAPES: &[Shape] = &[
    Shape {
        name: "methods",
        about: "a 512-part package, one service whose methods all take and return the dotted relative name `b.T` of an imported file",
        build: methods,
    },
    Shape {
        name: "extensions",
        about: "a 512-part package, extensions whose extendee and type are the dotted relative name `b.T`",
        build: extensions,
    },
    Shape {
        name: "fields",
        about: "a 512-part package, fields of the root typed with the dotted relative name `b.T`",
        build: fields,
    },
    Shape {
        name: "nested",
        about: "a 512-part package, fields typed `b.T` in a message nested 90 deep",
        build: nested,
    },
    Shape {
        name: "one-part",
        about: "a 512-part package, fields typed with the one-part name `T` of an imported file without a package",
        build: one_part,
    },
    Shape {
        name: "deep-dotted",
        about: "a 512-part package of `a`, fields typed with 255-part names `a.a.….T` that resolve at the root",
        build: deep_dotted,
    },
    Shape {
        name: "deep-distinct",
        about: "as deep-dotted, but every name distinct (`a.a.….T17`), each declared once",
        build: deep_distinct,
    },
    Shape {
        name: "deep-unresolved",
        about: "distinct 256-part names `a.a.….T17` whose parts are all declared somewhere (`T17` at the root) but which name nothing",
        build: deep_unresolved,
    },
    Shape {
        name: "field-limit",
        about: "the most fields allowed, in messages of 10, each held by the root (walked both ways)",
        build: field_limit,
    },
    Shape {
        name: "enum-values",
        about: "the most enum values allowed, in one enum the root holds",
        build: enum_values,
    },
    Shape {
        name: "enum-pairs",
        about: "99 closed enums of 1,000 values, every pair reached through a field of its own (conservative pairs them by structure)",
        build: enum_pairs,
    },
    Shape {
        name: "structure-pairs",
        about: "one side's 245 fields hold 245 small message types, the other's all hold one message of 99,000 fields: conservative pairs each small type with the large one",
        build: structure_pairs,
    },
    Shape {
        name: "oneofs",
        about: "the most oneofs allowed, named, in the root message",
        build: oneofs,
    },
];

/// The deepest package the name limit allows: 512 components `a`.
fn deep_package() -> String {
    vec!["a"; Limits::DEFAULT.max_name_length / 2].join(".")
}

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

/// `types.proto`: `package b; message T {}` (with an extension range), and a message named
/// after the variant so that every variant's bytes differ.
fn types_b(v: usize) -> FileDescriptorProto {
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

fn schema(files: Vec<FileDescriptorProto>, root_message: &str, root_file: &str) -> Vec<u8> {
    SchemaData {
        descriptor_set: FileDescriptorSet { file: files }.encode_to_vec(),
        root_message: root_message.into(),
        root_file: root_file.into(),
    }
    .to_json()
    .into_bytes()
}

/// The root file in the deep package, importing `types.proto`, with a root message `Order`.
fn deep_root(syntax: &str) -> (FileDescriptorProto, String) {
    let package = deep_package();
    let mut root = file("order.proto", &package, syntax);
    root.dependency.push("types.proto".into());
    (root, package)
}

fn methods(v: usize) -> Vec<u8> {
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

fn extensions(v: usize) -> Vec<u8> {
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

fn fields(v: usize) -> Vec<u8> {
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

fn nested(v: usize) -> Vec<u8> {
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

fn one_part(v: usize) -> Vec<u8> {
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
fn deep_dotted(v: usize) -> Vec<u8> {
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

fn deep_distinct(v: usize) -> Vec<u8> {
    deep_names(v, true)
}

fn deep_unresolved(v: usize) -> Vec<u8> {
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

fn field_limit(v: usize) -> Vec<u8> {
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

fn enum_values(v: usize) -> Vec<u8> {
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

/// The writer's field `i` holds enum `i / 99`, the reader's `i % 99`: every (writer, reader)
/// pair of enums is reached once. Variants rename every enum and value, so an odd and an even
/// variant differ in every name, which `conservative` does not look at.
fn enum_pairs(v: usize) -> Vec<u8> {
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

fn structure_pairs(v: usize) -> Vec<u8> {
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

fn oneofs(v: usize) -> Vec<u8> {
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
