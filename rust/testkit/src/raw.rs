//! Descriptors built as bytes. Large test inputs are built so: building millions of prost
//! structs would cost what the test measures. So are the records prost-types cannot express.

use prost::Message;

/// Appends field `tag` holding `payload`, length-delimited, to `out`.
pub fn put_len(tag: u32, payload: &[u8], out: &mut Vec<u8>) {
    prost::encoding::encode_key(tag, prost::encoding::WireType::LengthDelimited, out);
    prost::encoding::encode_varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

/// `order.proto`: `syntax = "proto3"; package shop; message Order { int64 id = 1; }`.
pub fn tiny_root_file() -> Vec<u8> {
    root_file_with(&[], &[])
}

/// `order.proto` whose message `shop.Order` (one field, `id`) also carries `extra`, raw records
/// of DescriptorProto; the file itself carries `file_extra`.
pub fn root_file_with(extra: &[u8], file_extra: &[u8]) -> Vec<u8> {
    use prost_types::field_descriptor_proto::{Label, Type};
    use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
    let mut order = DescriptorProto {
        name: Some("Order".into()),
        field: vec![FieldDescriptorProto {
            name: Some("id".into()),
            number: Some(1),
            label: Some(Label::Optional as i32),
            r#type: Some(Type::Int64 as i32),
            json_name: Some("id".into()),
            ..Default::default()
        }],
        ..Default::default()
    }
    .encode_to_vec();
    order.extend_from_slice(extra);
    let mut file = FileDescriptorProto {
        name: Some("order.proto".into()),
        package: Some("shop".into()),
        syntax: Some("proto3".into()),
        ..Default::default()
    }
    .encode_to_vec();
    put_len(4, &order, &mut file);
    file.extend_from_slice(file_extra);
    file
}

/// `junk.proto`, which nothing imports: `messages` messages `M<i>` with `fields_each` int64
/// fields `f<j> = j` each. With no fields, each message is the two bytes `0x22 0x00`.
pub fn unimported_file(messages: usize, fields_each: usize) -> Vec<u8> {
    use prost_types::field_descriptor_proto::{Label, Type};
    use prost_types::FieldDescriptorProto;
    let fields: Vec<u8> = (1..=fields_each)
        .flat_map(|j| {
            let field = FieldDescriptorProto {
                name: Some(format!("f{j}")),
                number: Some(j as i32),
                label: Some(Label::Optional as i32),
                r#type: Some(Type::Int64 as i32),
                ..Default::default()
            }
            .encode_to_vec();
            let mut out = Vec::new();
            put_len(2, &field, &mut out);
            out
        })
        .collect();
    let mut file = Vec::with_capacity(messages * (fields.len() + 12) + 32);
    put_len(1, b"junk.proto", &mut file);
    put_len(2, b"junk", &mut file);
    let mut message = Vec::new();
    for i in 0..messages {
        message.clear();
        if fields_each > 0 {
            put_len(1, format!("M{i}").as_bytes(), &mut message);
            message.extend_from_slice(&fields);
        }
        put_len(4, &message, &mut file);
    }
    file
}

/// [`tiny_root_file`] plus `enum Big { V0 = 0; V1 = 1; … }` with `values` values.
pub fn root_file_with_enum_values(values: u64) -> Vec<u8> {
    let mut big = Vec::new();
    put_len(1, b"Big", &mut big);
    let mut value = Vec::new();
    for i in 0..values {
        value.clear();
        // Hex keeps the names short, so 800,000 values fit under maxSchemaBytes.
        put_len(1, format!("V{i:x}").as_bytes(), &mut value);
        prost::encoding::encode_key(2, prost::encoding::WireType::Varint, &mut value);
        prost::encoding::encode_varint(i, &mut value);
        put_len(2, &value, &mut big);
    }
    let mut root = tiny_root_file();
    put_len(5, &big, &mut root);
    root
}

/// `file` serialized with `edition` (FileDescriptorProto field 14: 1000 is 2023, 1001 is 2024)
/// and `extra` appended: prost-types 0.14 has no field for the edition.
pub fn edition_file(file: prost_types::FileDescriptorProto, edition: u64, extra: &[u8]) -> Vec<u8> {
    let mut bytes = file.encode_to_vec();
    prost::encoding::encode_key(14, prost::encoding::WireType::Varint, &mut bytes);
    prost::encoding::encode_varint(edition, &mut bytes);
    bytes.extend_from_slice(extra);
    bytes
}

/// `options { features { … } }` of a file, FileOptions field 50 holding `feature_set`: records
/// to append to a serialized FileDescriptorProto.
pub fn file_features(feature_set: &[u8]) -> Vec<u8> {
    let mut options = Vec::new();
    put_len(50, feature_set, &mut options);
    let mut bytes = Vec::new();
    put_len(8, &options, &mut bytes);
    bytes
}
