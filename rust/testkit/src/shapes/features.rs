//! Maps and Editions features: declarations whose meaning the model works out from options
//! (map entries, features inherited from file to message to field).

use prost::encoding::{encode_key, encode_varint, WireType};
use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FileDescriptorSet, MessageOptions};

use super::{field, file, message, Shape};
use protocompat::model::SchemaData;

pub(super) const MAPS: Shape = Shape::pair(
    "maps",
    "33,000 map<string, int32> fields of the root, their values int64 in the next variant",
    maps,
);

pub(super) const EDITIONS: Shape = Shape::pair(
    "editions",
    "an Edition 2023 file of 45,000 fields, each with features of its own (presence, UTF-8 validation, repeated encoding) that the next variant flips",
    editions,
);

fn maps(v: usize) -> Vec<u8> {
    let value = if v % 2 == 0 { Type::Int32 } else { Type::Int64 };
    let mut root = file("order.proto", "shop", "proto3");
    let mut order = message("Order");
    for i in 1..=33_000 {
        let entry_name = format!("M{i}Entry");
        let mut entry = DescriptorProto {
            name: Some(entry_name.clone()),
            options: Some(MessageOptions {
                map_entry: Some(true),
                ..Default::default()
            }),
            ..Default::default()
        };
        entry.field.push(field("key", 1, Type::String, None));
        entry.field.push(field("value", 2, value, None));
        order.nested_type.push(entry);
        let mut map = field(
            &format!("m{i}"),
            i,
            Type::Message,
            Some(&format!(".shop.Order.{entry_name}")),
        );
        map.label = Some(Label::Repeated as i32);
        order.field.push(map);
    }
    root.message_type.push(order);
    root.message_type.push(message(&format!("V{v}")));
    super::schema(vec![root], "shop.Order", "order.proto")
}

/// `FeatureSet` field numbers and values (descriptor.proto).
mod feature {
    pub const FIELD_PRESENCE: u32 = 1;
    pub const REPEATED_FIELD_ENCODING: u32 = 3;
    pub const UTF8_VALIDATION: u32 = 4;
    pub const EXPLICIT: u64 = 1;
    pub const IMPLICIT: u64 = 2;
    pub const PACKED: u64 = 1;
    pub const EXPANDED: u64 = 2;
    pub const VERIFY: u64 = 2;
    pub const NONE: u64 = 3;
}

/// A length-delimited field `number` holding `bytes`.
fn len_field(number: u32, bytes: &[u8], out: &mut Vec<u8>) {
    encode_key(number, WireType::LengthDelimited, out);
    encode_varint(bytes.len() as u64, out);
    out.extend_from_slice(bytes);
}

fn varint_field(number: u32, value: u64, out: &mut Vec<u8>) {
    encode_key(number, WireType::Varint, out);
    encode_varint(value, out);
}

/// Options whose `features` (field `features_at`) set one feature.
fn with_feature(features_at: u32, feature: u32, value: u64) -> Vec<u8> {
    let mut features = Vec::new();
    varint_field(feature, value, &mut features);
    let mut options = Vec::new();
    len_field(features_at, &features, &mut options);
    options
}

/// prost-types has no Editions fields, so the file is put together on the wire: a proto2-free
/// file record (`syntax = "editions"`, `edition = EDITION_2023`), its message and fields each
/// with the features of their own.
fn editions(v: usize) -> Vec<u8> {
    const FIELD_OPTIONS: u32 = 8;
    const FIELD_FEATURES: u32 = 21;
    const MESSAGE_FIELD: u32 = 2;
    const MESSAGE_OPTIONS: u32 = 7;
    const MESSAGE_FEATURES: u32 = 12;
    const FILE_MESSAGE_TYPE: u32 = 4;
    const FILE_EDITION: u32 = 14;
    const EDITION_2023: u64 = 1000;
    let k = v % 2 == 1;
    let mut order = message("Order").encode_to_vec();
    // The message's own features, inherited by every field that sets none of its own.
    len_field(
        MESSAGE_OPTIONS,
        &with_feature(MESSAGE_FEATURES, feature::UTF8_VALIDATION, feature::VERIFY),
        &mut order,
    );
    for i in 1..=45_000usize {
        let (ty, label, options) = match i % 3 {
            0 => (
                Type::String,
                Label::Optional,
                with_feature(
                    FIELD_FEATURES,
                    feature::UTF8_VALIDATION,
                    if k { feature::NONE } else { feature::VERIFY },
                ),
            ),
            1 => (
                Type::Int32,
                Label::Repeated,
                with_feature(
                    FIELD_FEATURES,
                    feature::REPEATED_FIELD_ENCODING,
                    if k {
                        feature::EXPANDED
                    } else {
                        feature::PACKED
                    },
                ),
            ),
            _ => (
                Type::Int64,
                Label::Optional,
                with_feature(
                    FIELD_FEATURES,
                    feature::FIELD_PRESENCE,
                    if k {
                        feature::IMPLICIT
                    } else {
                        feature::EXPLICIT
                    },
                ),
            ),
        };
        let mut f = field(&format!("f{i}"), i, ty, None);
        f.label = Some(label as i32);
        let mut bytes = f.encode_to_vec();
        len_field(FIELD_OPTIONS, &options, &mut bytes);
        len_field(MESSAGE_FIELD, &bytes, &mut order);
    }
    let mut root = file("order.proto", "shop", "editions").encode_to_vec();
    len_field(FILE_MESSAGE_TYPE, &order, &mut root);
    len_field(
        FILE_MESSAGE_TYPE,
        &message(&format!("V{v}")).encode_to_vec(),
        &mut root,
    );
    varint_field(FILE_EDITION, EDITION_2023, &mut root);
    let mut set = Vec::new();
    len_field(1, &root, &mut set);
    debug_assert!(FileDescriptorSet::decode(set.as_slice()).is_ok());
    SchemaData {
        descriptor_set: set,
        root_message: "shop.Order".into(),
        root_file: "order.proto".into(),
    }
    .to_json()
    .into_bytes()
}
