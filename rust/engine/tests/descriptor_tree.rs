//! The lossless tree of a descriptor set (`remedy::descriptor::Tree`): every committed schema's
//! set, Editions features and custom options included, encodes back to its exact bytes, where
//! prost's types lose what they do not know; and no input makes it panic.

use std::fs;
use std::path::Path;

use prost::Message as _;
use protocompat::model::SchemaData;
use protocompat::remedy::descriptor::{Tree, Value};
use protocompat_testkit::fixtures;

fn schema_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            schema_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "schema") {
            out.push(path);
        }
    }
}

fn committed_sets() -> Vec<(String, Vec<u8>)> {
    let mut paths = Vec::new();
    schema_files(&fixtures(), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let data = SchemaData::parse(&fs::read(&p).unwrap()).ok()?;
            Some((p.display().to_string(), data.descriptor_set))
        })
        .collect()
}

#[test]
fn every_committed_set_encodes_back_to_its_bytes() {
    let (mut round_trips, mut editions) = (0, 0);
    for (name, bytes) in committed_sets() {
        let Ok(tree) = Tree::parse(&bytes) else {
            continue;
        };
        assert_eq!(tree.encode(), bytes, "{name}");
        round_trips += 1;
        if tree.files().any(|f| f.string(12) == Some("editions")) {
            editions += 1;
        }
    }
    assert!(round_trips >= 60, "only {round_trips} sets parsed");
    assert!(editions >= 20, "only {editions} Editions sets parsed");
}

/// A set with a custom option and Editions-like unknown fields: prost's types drop them, the
/// tree keeps them.
#[test]
fn custom_options_survive_where_prost_drops_them() {
    let dir = std::env::temp_dir().join(format!("protocompat-tree-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("opts.proto"),
        r#"syntax = "proto2";
package ext;
import "google/protobuf/descriptor.proto";
extend google.protobuf.FieldOptions { optional string owner = 50001; }
extend google.protobuf.FileOptions { optional int32 tier = 50002; }
option (tier) = 3;
message Order { optional string note = 1 [(owner) = "team-a", deprecated = true]; }
"#,
    )
    .unwrap();
    let bytes = protox::Compiler::new([&dir])
        .unwrap()
        .include_imports(true)
        .open_file("opts.proto")
        .unwrap()
        .encode_file_descriptor_set();
    fs::remove_dir_all(&dir).ok();
    let tree = Tree::parse(&bytes).unwrap();
    assert_eq!(tree.encode(), bytes);
    let file = tree.file_named("opts.proto").unwrap();
    let order = file.messages(4).next().unwrap();
    let note = order.messages(2).next().unwrap();
    let options = note.message(8).unwrap();
    assert!(matches!(options.get(50001), Some(Value::Bytes(b)) if b == b"team-a"));
    let lossy = prost_types::FileDescriptorSet::decode(bytes.as_slice())
        .unwrap()
        .encode_to_vec();
    assert_ne!(
        lossy, bytes,
        "prost kept the custom options: this test shows nothing"
    );
}

#[test]
fn finds_each_root_message_by_full_name() {
    let mut paths = Vec::new();
    schema_files(&fixtures().join("editions"), &mut paths);
    let mut found = 0;
    for path in paths {
        let Ok(data) = SchemaData::parse(&fs::read(&path).unwrap()) else {
            continue;
        };
        let Ok(tree) = Tree::parse(&data.descriptor_set) else {
            continue;
        };
        let scope = tree.find_message(&data.root_message).unwrap();
        assert_eq!(tree.full_name(&scope).unwrap(), data.root_message);
        found += 1;
    }
    assert!(found >= 20, "{found}");
    let tree = Tree::parse(&[]).unwrap();
    assert!(tree.find_message("no.such.Message").is_none());
}

/// Cut, flipped or deeply nested bytes are an error, never a panic.
#[test]
fn bad_bytes_are_errors() {
    let (_, bytes) = committed_sets()
        .into_iter()
        .find(|(_, b)| Tree::parse(b).is_ok() && b.len() > 200)
        .unwrap();
    for cut in 0..bytes.len() {
        let _ = Tree::parse(&bytes[..cut]);
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut flipped = bytes.clone();
        let at = (seed % flipped.len() as u64) as usize;
        flipped[at] ^= (seed >> 32) as u8 | 1;
        if let Ok(tree) = Tree::parse(&flipped) {
            let _ = tree.encode();
        }
    }
    // Messages nested 200 deep: file, then message in message.
    let mut nested: Vec<u8> = Vec::new();
    for _ in 0..200 {
        let mut outer = vec![0x1a];
        put_len(&mut outer, nested.len());
        outer.extend_from_slice(&nested);
        nested = outer;
    }
    let mut file = vec![0x22];
    put_len(&mut file, nested.len());
    file.extend_from_slice(&nested);
    let mut set = vec![0x0a];
    put_len(&mut set, file.len());
    set.extend_from_slice(&file);
    assert!(Tree::parse(&set).unwrap_err().contains("nested"));
    // A group that never ends, and one nested past the limit.
    assert!(Tree::parse(&[0x0b, 0x08, 0x01]).is_err());
    assert!(Tree::parse(&[0x0b; 300]).is_err());
}

fn put_len(out: &mut Vec<u8>, mut len: usize) {
    while len >= 0x80 {
        out.push((len as u8 & 0x7f) | 0x80);
        len >>= 7;
    }
    out.push(len as u8);
}

/// Edits of every kind applied to every committed set, and sets compared pairwise: errors
/// where they do not fit, never a panic.
#[test]
fn applying_and_comparing_never_panic() {
    use protocompat::model::Scalar;
    use protocompat::remedy::descriptor::{apply, differences};
    use protocompat::remedy::{
        Edit, EnumOption, FieldOption, FieldType, FileOption, Label, NewField, Value as V,
    };
    let sets: Vec<(String, Vec<u8>)> = committed_sets();
    let mut made = 0;
    let trees: Vec<Tree> = sets
        .iter()
        .filter_map(|(_, b)| Tree::parse(b).ok())
        .collect();
    for (i, tree) in trees.iter().enumerate() {
        let _ = differences(tree, &trees[(i + 1) % trees.len()]);
        let mut messages = Vec::new();
        protocompat::remedy::descriptor::each_message(tree, |name, m| {
            let fields: Vec<String> = m
                .messages(2)
                .filter_map(|f| f.name().map(str::to_owned))
                .collect();
            let oneofs: Vec<String> = m
                .messages(8)
                .filter_map(|o| o.name().map(str::to_owned))
                .collect();
            messages.push((name.to_owned(), fields, oneofs));
        });
        for (message, fields, oneofs) in messages.iter().take(4) {
            let field = fields.first().cloned().unwrap_or_default();
            let oneof = oneofs.first().cloned().unwrap_or_else(|| "o".into());
            let new = |label, ty| NewField {
                label,
                ty,
                name: "added_x".into(),
                number: 4_000,
                options: vec![(FieldOption::Deprecated, V::Bool(true))],
            };
            let edits = vec![
                Edit::SetNumber {
                    message: message.clone(),
                    field: field.clone(),
                    number: 3_999,
                },
                Edit::SetName {
                    message: message.clone(),
                    field: field.clone(),
                    name: "renamed_x".into(),
                },
                Edit::SetLabel {
                    message: message.clone(),
                    field: field.clone(),
                    label: Label::Optional,
                },
                Edit::SetOption {
                    message: message.clone(),
                    field: field.clone(),
                    option: FieldOption::FieldPresence,
                    value: V::Ident("EXPLICIT".into()),
                },
                Edit::SetOption {
                    message: message.clone(),
                    field: field.clone(),
                    option: FieldOption::Default,
                    value: V::Int(1),
                },
                Edit::AddField {
                    message: message.clone(),
                    oneof: None,
                    field: new(
                        None,
                        FieldType::Map {
                            key: Scalar::String,
                            value: Box::new(FieldType::Message(message.clone())),
                        },
                    ),
                },
                Edit::AddField {
                    message: message.clone(),
                    oneof: Some(oneof.clone()),
                    field: new(None, FieldType::Scalar(Scalar::Bytes)),
                },
                Edit::MoveOutOfOneof {
                    message: message.clone(),
                    field: field.clone(),
                    label: None,
                },
                Edit::MoveIntoOneof {
                    message: message.clone(),
                    field: field.clone(),
                    oneof,
                },
                Edit::RenameType {
                    type_name: message.clone(),
                    name: "Renamed".into(),
                },
                Edit::SetFileOption {
                    message: message.clone(),
                    option: FileOption::JavaStringCheckUtf8,
                    value: V::Bool(true),
                },
                Edit::AddEnumValue {
                    enum_name: format!("{message}.E"),
                    name: "X".into(),
                    number: -1,
                },
                Edit::SetEnumOption {
                    enum_name: format!("{message}.E"),
                    option: EnumOption::AllowAlias,
                    value: V::Bool(true),
                },
            ];
            for edit in &edits {
                let mut applied = tree.clone();
                if apply(&mut applied, std::slice::from_ref(edit)).is_ok() {
                    made += 1;
                    let _ = differences(&applied, tree);
                    Tree::parse(&applied.encode()).unwrap();
                }
            }
            let mut applied = tree.clone();
            let _ = apply(&mut applied, &edits);
        }
    }
    assert!(made >= 200, "only {made} edits applied");
}
