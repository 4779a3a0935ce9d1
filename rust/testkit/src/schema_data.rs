//! Pulsar schema data (the JSON a broker stores) around a descriptor set, however the set was
//! built: from prost structs, or as bytes where prost-types cannot say what a test needs.

use prost::Message;
use prost_types::{FileDescriptorProto, FileDescriptorSet};
use protocompat::model::SchemaData;

use crate::raw::put_len;

/// Schema data holding `descriptor_set` as given, valid or not.
pub fn schema_of_bytes(descriptor_set: Vec<u8>, root_message: &str, root_file: &str) -> Vec<u8> {
    SchemaData {
        descriptor_set,
        root_message: root_message.into(),
        root_file: root_file.into(),
    }
    .to_json()
    .into_bytes()
}

/// Schema data whose descriptor set holds `files`.
pub fn schema_of_protos(
    files: Vec<FileDescriptorProto>,
    root_message: &str,
    root_file: &str,
) -> Vec<u8> {
    schema_of_bytes(
        FileDescriptorSet { file: files }.encode_to_vec(),
        root_message,
        root_file,
    )
}

/// Schema data whose descriptor set holds `files` (serialized FileDescriptorProtos), in order.
pub fn schema_of_raw_files<F: AsRef<[u8]>>(
    files: &[F],
    root_message: &str,
    root_file: &str,
) -> Vec<u8> {
    let files = files.iter().map(AsRef::as_ref);
    let mut set = Vec::with_capacity(files.clone().map(|f| f.len() + 10).sum());
    for file in files {
        put_len(1, file, &mut set);
    }
    schema_of_bytes(set, root_message, root_file)
}

/// [`schema_of_raw_files`] with root message `shop.Order` in `order.proto`.
pub fn schema_of_files(files: &[&[u8]]) -> Vec<u8> {
    schema_of_raw_files(files, "shop.Order", "order.proto")
}
