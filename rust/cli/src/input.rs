//! Turns each file the user names into Pulsar PROTOBUF_NATIVE schema data, the bytes the
//! broker would hold, so the engine sees exactly what a broker sees.

use std::fs;
use std::path::{Path, PathBuf};

use prost::Message;
use prost_types::{DescriptorProto, FileDescriptorProto, FileDescriptorSet};
use protocompat::model::SchemaData;
use serde_json::Value;

/// How a file's root message is chosen and where `.proto` imports are found.
pub struct InputOptions {
    pub root: Option<String>,
    pub include: Vec<PathBuf>,
}

/// Reads `path` as Pulsar schema JSON (raw, or wrapped as `pulsar-admin` uploads or gets it),
/// a `.proto` file, or a binary FileDescriptorSet, and returns its schema data.
pub fn load(path: &Path, options: &InputOptions) -> Result<Vec<u8>, String> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if extension == "proto" {
        return compile_proto(path, options);
    }
    let bytes = fs::read(path).map_err(|e| format!("cannot read the file: {e}"))?;
    match extension.as_str() {
        "pb" | "binpb" | "desc" | "protoset" => from_descriptor_set(bytes, None, options),
        _ => unwrap_json(bytes),
    }
}

/// Schema data is passed on byte for byte, so its SHA-256 is the broker's and bad data gets
/// the broker's error; a wrapper from `pulsar-admin` is unwrapped to the schema data inside.
fn unwrap_json(bytes: Vec<u8>) -> Result<Vec<u8>, String> {
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(value @ Value::Object(_)) => unwrap_value(&value, bytes, 0),
        _ => Ok(bytes),
    }
}

fn unwrap_value(value: &Value, bytes: Vec<u8>, depth: usize) -> Result<Vec<u8>, String> {
    let Value::Object(object) = value else {
        return Err("the wrapped schema is not a JSON object".to_owned());
    };
    if object.contains_key("fileDescriptorSet") {
        return Ok(bytes);
    }
    if let Some(kind) = object.get("type").and_then(Value::as_str) {
        if kind != "PROTOBUF_NATIVE" {
            return Err(format!(
                "the file holds a {kind} schema; protocompat checks PROTOBUF_NATIVE schemas only"
            ));
        }
    }
    if depth < 4 {
        for key in ["schema", "data", "schemaInfo"] {
            match object.get(key) {
                Some(Value::String(inner)) => {
                    let parsed: Value = serde_json::from_str(inner)
                        .map_err(|e| format!("the `{key}` field does not hold schema JSON: {e}"))?;
                    return unwrap_value(&parsed, inner.as_bytes().to_vec(), depth + 1);
                }
                Some(inner @ Value::Object(_)) => {
                    return unwrap_value(inner, inner.to_string().into_bytes(), depth + 1)
                }
                _ => {}
            }
        }
    }
    Err(
        "the JSON holds no PROTOBUF_NATIVE schema: expected a `fileDescriptorSet` field, or a \
         `schema` or `data` field as in `pulsar-admin schemas upload` / `get` files"
            .to_owned(),
    )
}

fn compile_proto(path: &Path, options: &InputOptions) -> Result<Vec<u8>, String> {
    if !path.is_file() {
        return Err("cannot read the file: no such file".to_owned());
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // -I directories first, so a file under one of them gets the same name `protoc -I` would
    // give it (the name Pulsar stores as rootFileDescriptorName); the file's own directory
    // last, so a lone file compiles without any -I.
    let includes: Vec<&Path> = options
        .include
        .iter()
        .map(PathBuf::as_path)
        .chain([parent])
        .collect();
    let mut compiler = protox::Compiler::new(includes).map_err(|e| format!("{e:?}"))?;
    compiler.include_imports(true);
    compiler
        .open_file(path)
        .map_err(|e| format!("does not compile: {e:?}"))?;
    let set = compiler.file_descriptor_set();
    let root_file = compiler
        .files()
        .find(|f| !f.is_import())
        .map(|f| f.name().to_owned())
        .ok_or("does not compile: protox returned no file")?;
    from_descriptor_set(set.encode_to_vec(), Some(root_file), options)
}

/// Wraps a descriptor set as schema data; the root file is the one declaring the root message.
fn from_descriptor_set(
    bytes: Vec<u8>,
    root_file: Option<String>,
    options: &InputOptions,
) -> Result<Vec<u8>, String> {
    let set = FileDescriptorSet::decode(bytes.as_slice())
        .map_err(|e| format!("not a binary FileDescriptorSet: {e}"))?;
    let candidates: Vec<(String, &FileDescriptorProto)> = set
        .file
        .iter()
        .filter(|f| root_file.as_deref().is_none_or(|name| f.name() == name))
        .flat_map(|f| declared_messages(f).into_iter().map(move |m| (m, f)))
        .collect();
    let (root_message, file) = choose_root(&candidates, options.root.as_deref())?;
    Ok(SchemaData {
        descriptor_set: bytes,
        root_message,
        root_file: file.name().to_owned(),
    }
    .to_json()
    .into_bytes())
}

fn choose_root<'a>(
    candidates: &[(String, &'a FileDescriptorProto)],
    wanted: Option<&str>,
) -> Result<(String, &'a FileDescriptorProto), String> {
    let found = match wanted {
        Some(name) => candidates.iter().find(|(full, file)| {
            full == name
                || (!file.package().is_empty() && *full == format!("{}.{name}", file.package()))
        }),
        None => {
            let top_level: Vec<_> = candidates
                .iter()
                .filter(|(full, file)| {
                    let local = full.strip_prefix(file.package()).unwrap_or(full);
                    !local.trim_start_matches('.').contains('.')
                })
                .collect();
            match top_level.as_slice() {
                [only] => Some(*only),
                _ => {
                    let names: Vec<&str> = top_level.iter().map(|(n, _)| n.as_str()).collect();
                    return Err(match names.first() {
                        None => "declares no message to use as the root".to_owned(),
                        Some(first) => format!(
                            "declares {} top-level messages ({}); name the root message with \
                             --root, e.g. --root {first}",
                            names.len(),
                            names.join(", ")
                        ),
                    });
                }
            }
        }
    };
    found
        .map(|(name, file)| (name.clone(), *file))
        .ok_or_else(|| {
            format!(
                "no message `{}` is declared here; --root takes a full name such as pkg.Order",
                wanted.unwrap_or_default()
            )
        })
}

/// Full names of every message a file declares, nested ones included (map entries excluded).
fn declared_messages(file: &FileDescriptorProto) -> Vec<String> {
    let prefix = if file.package().is_empty() {
        String::new()
    } else {
        format!("{}.", file.package())
    };
    let mut names = Vec::new();
    let mut pending: Vec<(String, &DescriptorProto)> = file
        .message_type
        .iter()
        .map(|m| (prefix.clone(), m))
        .collect();
    while let Some((scope, message)) = pending.pop() {
        if message.options.as_ref().is_some_and(|o| o.map_entry()) {
            continue;
        }
        let full = format!("{scope}{}", message.name());
        pending.extend(message.nested_type.iter().map(|n| (format!("{full}."), n)));
        names.push(full);
    }
    names.sort();
    names
}
