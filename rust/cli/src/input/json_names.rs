//! JSON names as generated code carries them. protoc and protox write a `json_name` for every
//! field of the descriptor sets they output, but the descriptors protoc's Java generator embeds
//! in a class keep only the ones the source sets with `[json_name = "…"]`. The Pulsar Java
//! client uploads those embedded descriptors, and the broker finds a stored version by its exact
//! bytes: schema data that keeps protoc's JSON names is another version to it, which a producer
//! on a topic whose schemas may not be updated automatically is refused for.

use std::collections::{HashMap, HashSet};

use prost_types::FileDescriptorSet;
use protocompat::remedy::descriptor::{Kind, Message, Tree};

/// `FileDescriptorProto.message_type`, `.extension`; `DescriptorProto.field`, `.nested_type`,
/// `.extension`; `FieldDescriptorProto.json_name`.
const FILE_MESSAGE_TYPE: i32 = 4;
const FILE_EXTENSION: i32 = 7;
const MESSAGE_FIELD: i32 = 2;
const MESSAGE_NESTED_TYPE: i32 = 3;
const MESSAGE_EXTENSION: i32 = 6;
const FIELD_JSON_NAME: i32 = 10;

/// `set` with the JSON names that `sources` (the same files compiled with source info) does not
/// show written in the source left out: the set the generated classes' descriptors make.
pub fn as_generated(set: &[u8], sources: &FileDescriptorSet) -> Result<Vec<u8>, String> {
    let written: HashMap<&str, HashSet<&[i32]>> = sources
        .file
        .iter()
        .map(|file| {
            let paths = file
                .source_code_info
                .iter()
                .flat_map(|info| &info.location)
                .map(|location| location.path.as_slice())
                .filter(|path| path.last() == Some(&FIELD_JSON_NAME))
                .collect();
            (file.name(), paths)
        })
        .collect();
    let mut tree = Tree::parse(set)?;
    let none = HashSet::new();
    for file in tree.set.messages_mut(1) {
        let keep = file
            .name()
            .and_then(|name| written.get(name))
            .unwrap_or(&none);
        let mut path = Vec::new();
        for (i, extension) in file.messages_mut(FILE_EXTENSION as u32).enumerate() {
            path.extend([FILE_EXTENSION, i as i32]);
            strip(extension, &mut path, keep);
            path.clear();
        }
        for (i, message) in file.messages_mut(FILE_MESSAGE_TYPE as u32).enumerate() {
            path.extend([FILE_MESSAGE_TYPE, i as i32]);
            strip_message(message, &mut path, keep);
            path.clear();
        }
    }
    Ok(tree.encode())
}

fn strip_message(message: &mut Message, path: &mut Vec<i32>, keep: &HashSet<&[i32]>) {
    for list in [MESSAGE_FIELD, MESSAGE_EXTENSION] {
        for (i, field) in message.messages_mut(list as u32).enumerate() {
            path.extend([list, i as i32]);
            strip(field, path, keep);
            path.truncate(path.len() - 2);
        }
    }
    for (i, nested) in message.messages_mut(MESSAGE_NESTED_TYPE as u32).enumerate() {
        path.extend([MESSAGE_NESTED_TYPE, i as i32]);
        strip_message(nested, path, keep);
        path.truncate(path.len() - 2);
    }
}

/// Leaves out the field's JSON name unless the source writes it at `path`.
fn strip(field: &mut Message, path: &mut Vec<i32>, keep: &HashSet<&[i32]>) {
    debug_assert_eq!(field.kind, Kind::Field);
    path.push(FIELD_JSON_NAME);
    if !keep.contains(path.as_slice()) {
        field.remove(FIELD_JSON_NAME as u32);
    }
    path.pop();
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message as _;

    fn compile(source: &str) -> FileDescriptorSet {
        let dir =
            std::env::temp_dir().join(format!("protocompat-json-names-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("order.proto"), source).unwrap();
        let mut compiler = protox::Compiler::new([&dir]).unwrap();
        compiler.include_source_info(true);
        compiler.open_file("order.proto").unwrap();
        let set = compiler.file_descriptor_set();
        std::fs::remove_dir_all(&dir).unwrap();
        set
    }

    /// As protoc's Java generator writes them (checked against protoc 36.2's `--java_out`): a
    /// JSON name written in the source stays, even one equal to the default; no other does,
    /// in nested messages and extensions alike (protoc lets an extension set none).
    #[test]
    fn only_json_names_the_source_writes_stay() {
        let sources = compile(
            "syntax = \"proto2\";\npackage shop;\n\
             message Order {\n  optional int64 id = 1 [json_name = \"id\"];\n  optional string note_text = 2;\n\
             \x20 message Line { optional int32 unit_price = 1 [json_name = \"price\"]; optional int32 qty = 2; }\n\
             \x20 extensions 100 to 200;\n  extend Order { optional int32 nested_ext = 101; }\n}\n\
             extend Order { optional int32 top_ext = 100; }\n",
        );
        let mut bare = sources.clone();
        bare.file[0].source_code_info = None;
        let stripped = as_generated(&bare.encode_to_vec(), &sources).unwrap();
        let file = &FileDescriptorSet::decode(stripped.as_slice()).unwrap().file[0];
        let order = &file.message_type[0];
        let names = |fields: &[prost_types::FieldDescriptorProto]| {
            fields
                .iter()
                .map(|f| (f.name().to_owned(), f.json_name.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&order.field),
            [("id".into(), Some("id".into())), ("note_text".into(), None)]
        );
        assert_eq!(
            names(&order.nested_type[0].field),
            [
                ("unit_price".into(), Some("price".into())),
                ("qty".into(), None)
            ]
        );
        assert_eq!(names(&order.extension), [("nested_ext".into(), None)]);
        assert_eq!(names(&file.extension), [("top_ext".into(), None)]);
        // Everything else is as it was.
        let mut expected = bare.clone();
        for f in expected.file[0].message_type[0].field.iter_mut().skip(1) {
            f.json_name = None;
        }
        expected.file[0].message_type[0].nested_type[0].field[1].json_name = None;
        expected.file[0].message_type[0].extension[0].json_name = None;
        expected.file[0].extension[0].json_name = None;
        assert_eq!(expected.encode_to_vec(), stripped);
    }
}
