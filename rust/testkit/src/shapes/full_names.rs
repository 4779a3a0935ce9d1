//! Full names far longer than the schema that declares them: each nested message's full name
//! holds every enclosing one's, so 31 messages named with a kilobyte each, one inside the next,
//! give the message inside them all a 31 KB full name from 31 KB of names. A thousand fields
//! typed by it, each naming it in a byte, made every field pair of every pair of schemas compare
//! that name byte for byte (found by the security review, 2026-12-06).

use prost_types::field_descriptor_proto::Type;

use super::{field, file, message, schema, Shape};

pub(super) const LONG_FULL_NAMES: Shape = Shape {
    name: "long-full-names",
    about: "31 messages named with 1,000 bytes each nested in a chain, the root inside them holding 1,000 fields typed by itself (a 31 KB full name named in a byte), FULL_TRANSITIVE against 400 versions of the same",
    build: long_full_names,
    new: None,
    history: 400,
};

pub(super) const LONG_FULL_NAMES_HISTORY: Shape = Shape {
    name: "long-full-names-history",
    about: "as long-full-names, against 2,000 versions",
    build: long_full_names,
    new: None,
    history: 2_000,
};

/// Messages around the root, each named with [`NAME_BYTES`].
const DEPTH: usize = 31;
const NAME_BYTES: usize = 1_000;
const FIELDS: usize = 1_000;

fn long_full_names(v: usize) -> Vec<u8> {
    nested_long_names(v, FIELDS)
}

/// `package n; message N01xxx… { message N02xxx… { … message T { T f1 = 1; … } } }` with
/// `fields` fields, and a message named after the variant so that every variant's bytes
/// differ. Each field names its type `T`, the root itself, which resolves in the root's own
/// scope.
pub fn nested_long_names(v: usize, fields: usize) -> Vec<u8> {
    let mut root = message("T");
    for i in 1..=fields {
        root.field
            .push(field(&format!("f{i}"), i, Type::Message, Some("T")));
    }
    let mut scope = Vec::new();
    let mut inner = root;
    for level in (1..=DEPTH).rev() {
        let name = format!("N{level:02}{}", "x".repeat(NAME_BYTES - 3));
        let mut outer = message(&name);
        outer.nested_type.push(inner);
        inner = outer;
        scope.push(name);
    }
    scope.reverse();
    let mut order = file("order.proto", "n", "proto3");
    order.message_type.push(inner);
    order.message_type.push(message(&format!("V{v}")));
    schema(
        vec![order],
        &format!("n.{}.T", scope.join(".")),
        "order.proto",
    )
}
