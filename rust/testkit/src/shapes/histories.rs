//! Long FULL_TRANSITIVE histories: thousands of tiny versions, which cost next to nothing to
//! upload one by one, each compared with the new schema, and new schemas whose size every pair
//! would pay for if what one schema holds were worked out per pair.

use prost_types::descriptor_proto::ExtensionRange;
use prost_types::field_descriptor_proto::Type;

use super::findings::tiny;
use super::{field, file, message, schema, Shape};

pub(super) const REACHABLE: Shape = Shape {
    name: "reachable-history",
    about: "a new schema of 45,000 messages with extension ranges, all reachable from the root through 300 holders (UNSUPPORTED_FEATURE for each), FULL_TRANSITIVE against 1,000 tiny versions",
    build: tiny,
    new: Some(extension_ranges),
    history: 1_000,
};

pub(super) const TINY: Shape = Shape {
    name: "tiny-history",
    about: "FULL_TRANSITIVE against 10,000 tiny versions (156 bytes each), the new one tiny too",
    build: tiny,
    new: None,
    history: 10_000,
};

pub(super) const LONG_DEFAULT: Shape = Shape {
    name: "long-default-history",
    about: "a new schema whose string field has a 10 MB default, FULL_TRANSITIVE against 100 tiny versions whose same field defaults to \"a\"",
    build: short_default,
    new: Some(long_default),
    history: 100,
};

/// The root holds 300 messages, each holding 150 messages with extension ranges: what the new
/// schema shares with a tiny version is the root's one field, so a pair costs next to nothing
/// but for what the root reaches.
fn extension_ranges(v: usize) -> Vec<u8> {
    const HOLDERS: usize = 300;
    const HELD: usize = 150;
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    order.field.push(field("id", 1, Type::Int32, None));
    for h in 0..HOLDERS {
        order.field.push(field(
            &format!("h{h}"),
            h + 2,
            Type::Message,
            Some(&format!(".shop.H{h}")),
        ));
        let mut holder = message(&format!("H{h}"));
        for i in 0..HELD {
            let leaf = format!("L{h}x{i}");
            holder.field.push(field(
                &format!("l{i}"),
                i + 1,
                Type::Message,
                Some(&format!(".shop.{leaf}")),
            ));
            let mut held = message(&leaf);
            held.extension_range.push(ExtensionRange {
                start: Some(100),
                end: Some(200),
                options: None,
            });
            root.message_type.push(held);
        }
        root.message_type.push(holder);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

fn with_default(v: usize, default: String) -> Vec<u8> {
    let mut root = file("order.proto", "shop", "proto2");
    let mut order = message("Order");
    let mut s = field("s", 1, Type::String, None);
    s.default_value = Some(default);
    order.field.push(s);
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    schema(vec![root], "shop.Order", "order.proto")
}

fn short_default(v: usize) -> Vec<u8> {
    with_default(v, "a".to_owned())
}

fn long_default(v: usize) -> Vec<u8> {
    with_default(v, "a".repeat(10 << 20))
}
