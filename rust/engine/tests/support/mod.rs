//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

pub mod collide;

use std::path::{Path, PathBuf};

use prost::Message;
use protocompat::schema::SchemaData;
use protocompat::Finding;

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// Compiles `root_file` (relative to `dir`, which is the import root) into Pulsar schema data.
pub fn schema_data(dir: &Path, root_file: &str, root_message: &str) -> Vec<u8> {
    let set = protox::compile([root_file], [dir])
        .unwrap_or_else(|e| panic!("{}: {e:?}", dir.join(root_file).display()));
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
    let mut set = protox::compile(["order.proto"], [&dir]).unwrap();
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
