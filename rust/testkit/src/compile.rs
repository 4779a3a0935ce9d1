//! Schema data compiled from `.proto` text with protox, as the tests' fixtures are.

use std::path::Path;

use prost::Message;

use crate::paths::tempdir;
use crate::schema_data::schema_of_bytes;

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
    schema_of_bytes(set.encode_to_vec(), root_message, root_file)
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
