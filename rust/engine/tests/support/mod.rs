//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

pub mod cases;
pub mod collide;
pub mod sets;
pub mod shapes;

use std::path::{Path, PathBuf};

use prost::Message;
use protocompat::model::SchemaData;
use protocompat::{Finding, SchemaRef, SchemaSource};

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Compiles `root_file` (relative to `dir`, which is the import root) into Pulsar schema data.
pub fn schema_data(dir: &Path, root_file: &str, root_message: &str) -> Vec<u8> {
    wrap(&compile(dir, root_file), root_file, root_message)
}

/// [`schema_data`] without source info, as a Java client uploads it (a generated class's
/// descriptor has none).
pub fn schema_data_without_source_info(dir: &Path, root_file: &str, root_message: &str) -> Vec<u8> {
    let mut set = compile(dir, root_file);
    for file in &mut set.file {
        file.source_code_info = None;
    }
    wrap(&set, root_file, root_message)
}

fn compile(dir: &Path, root_file: &str) -> prost_types::FileDescriptorSet {
    protox::compile([root_file], [dir])
        .unwrap_or_else(|e| panic!("{}: {e:?}", dir.join(root_file).display()))
}

fn wrap(set: &prost_types::FileDescriptorSet, root_file: &str, root_message: &str) -> Vec<u8> {
    SchemaData {
        descriptor_set: set.encode_to_vec(),
        root_message: root_message.to_owned(),
        root_file: root_file.to_owned(),
    }
    .to_json()
    .into_bytes()
}

/// Compiles one .proto text (file `order.proto`) into schema data.
pub fn schema_from_text(proto: &str, root_message: &str) -> Vec<u8> {
    let dir = tempdir();
    std::fs::write(dir.join("order.proto"), proto).unwrap();
    let data = schema_data(&dir, "order.proto", root_message);
    std::fs::remove_dir_all(&dir).unwrap();
    data
}

/// Compiles one .proto text (file `order.proto`) into a serialized FileDescriptorSet, as small
/// as it can be (no source info, no JSON names).
pub fn descriptor_set_from_text(proto: &str) -> Vec<u8> {
    let dir = tempdir();
    std::fs::write(dir.join("order.proto"), proto).unwrap();
    let mut set = compile(&dir, "order.proto");
    std::fs::remove_dir_all(&dir).unwrap();
    for file in &mut set.file {
        file.source_code_info = None;
    }
    for message in set.file.iter_mut().flat_map(|f| f.message_type.iter_mut()) {
        for field in &mut message.field {
            field.json_name = None;
        }
    }
    set.encode_to_vec()
}

/// A fresh, uniquely named directory under the system temp dir.
pub fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "protocompat-test-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `"RULE_ID path"`, the form expectations use.
pub fn key(finding: &Finding) -> String {
    format!("{} {}", finding.rule, finding.path)
}

pub fn sorted_keys(findings: &[Finding]) -> Vec<String> {
    let mut keys: Vec<String> = findings.iter().map(key).collect();
    keys.sort();
    keys
}

/// Appends field `tag` holding `payload`, length-delimited, to `out`. Large test inputs are
/// built as bytes: building millions of prost structs would cost what the test measures.
pub fn put_len(tag: u32, payload: &[u8], out: &mut Vec<u8>) {
    prost::encoding::encode_key(tag, prost::encoding::WireType::LengthDelimited, out);
    prost::encoding::encode_varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

/// Schema data whose descriptor set holds `files` (serialized FileDescriptorProtos), in order,
/// with root message `shop.Order` in `order.proto`.
pub fn schema_of_files(files: &[&[u8]]) -> Vec<u8> {
    let mut set = Vec::with_capacity(files.iter().map(|f| f.len() + 10).sum());
    for file in files {
        put_len(1, file, &mut set);
    }
    SchemaData {
        descriptor_set: set,
        root_message: "shop.Order".into(),
        root_file: "order.proto".into(),
    }
    .to_json()
    .into_bytes()
}

/// `order.proto`: `syntax = "proto3"; package shop; message Order { int64 id = 1; }`.
pub fn tiny_root_file() -> Vec<u8> {
    root_file_with(&[], &[])
}

/// `order.proto` whose message `shop.Order` (one field, `id`) also carries `extra`, raw records
/// of DescriptorProto; the file itself carries `file_extra`.
pub fn root_file_with(extra: &[u8], file_extra: &[u8]) -> Vec<u8> {
    use prost::Message;
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

/// Slices that count how often a check copies one out (it decodes only what it copies).
pub struct Counting<'a> {
    pub existing: &'a [&'a [u8]],
    pub proposed: &'a [u8],
    pub copies: usize,
}

impl SchemaSource for Counting<'_> {
    fn existing(&self) -> usize {
        self.existing.len()
    }

    fn inspect<R>(&mut self, which: SchemaRef, f: impl FnOnce(&[u8]) -> R) -> Result<R, String> {
        Ok(f(match which {
            SchemaRef::New => self.proposed,
            SchemaRef::Existing(i) => self.existing[i],
        }))
    }

    fn copy(&mut self, which: SchemaRef) -> Result<Vec<u8>, String> {
        self.copies += 1;
        self.inspect(which, <[u8]>::to_vec)
    }
}
