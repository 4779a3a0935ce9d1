//! Turns each file the user names into Pulsar PROTOBUF_NATIVE schema data, the bytes the
//! broker would hold, so the engine sees exactly what a broker sees.

use std::cell::{Cell, RefCell};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use prost::Message;
use prost_types::{DescriptorProto, FileDescriptorProto, FileDescriptorSet};
use protocompat::model::SchemaData;
use protocompat::ErrorRule;
use protox::file::{File, FileResolver, GoogleFileResolver, IncludeFileResolver};
use serde_json::Value;

use crate::editions;

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
                "the file holds a schema of type {kind}; protocompat checks PROTOBUF_NATIVE schemas only"
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
    let mut includes: Vec<PathBuf> = options.include.clone();
    if !includes.iter().any(|i| i == parent) {
        includes.push(parent.to_owned());
    }
    let editions_file = Rc::new(RefCell::new(None));
    let mut compiler = protox::Compiler::with_file_resolver(EditionsGuard {
        includes: includes.clone(),
        opened: Cell::new(0),
        found: Rc::clone(&editions_file),
    });
    compiler.include_imports(true);
    if let Err(e) = compiler.open_file(path) {
        if let Some(found) = editions_file.borrow_mut().take() {
            return Err(editions_refused(path, &found, &includes, options));
        }
        return Err(format!("does not compile: {e:?}"));
    }
    let set = compiler.file_descriptor_set();
    let root_file = compiler
        .files()
        .find(|f| !f.is_import())
        .map(|f| f.name().to_owned())
        .ok_or("does not compile: protox returned no file")?;
    from_descriptor_set(set.encode_to_vec(), Some(root_file), options)
}

/// An Editions file met while compiling: the named file itself, or one of its imports.
struct EditionsFile {
    name: String,
    path: PathBuf,
    edition: String,
    imported: bool,
}

/// How much of a file is read to find its first statement: past any licence header.
const EDITION_SCAN_BYTES: u64 = 1 << 20;

/// protox's own file lookup (each include directory in order, then the files it bundles,
/// `google/protobuf/descriptor.proto` and the well-known types), except that a file found in
/// an include directory is first looked at for an `edition` statement. protox cannot parse
/// Editions files (it stops at `edition` with a parse error), so such a file is refused before
/// protox parses it, and `found` says which file it was.
struct EditionsGuard {
    includes: Vec<PathBuf>,
    /// Files opened so far: the first is the file named on the command line.
    opened: Cell<usize>,
    found: Rc<RefCell<Option<EditionsFile>>>,
}

impl FileResolver for EditionsGuard {
    fn resolve_path(&self, path: &Path) -> Option<String> {
        self.includes
            .iter()
            .find_map(|include| IncludeFileResolver::new(include.clone()).resolve_path(path))
    }

    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        let imported = self.opened.get() > 0;
        self.opened.set(self.opened.get() + 1);
        for include in &self.includes {
            let path = include.join(name);
            match read_head(&path) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                // protox reads it again and reports any other problem with the file its way.
                Err(_) => {}
                Ok(head) => {
                    if let Some(edition) = editions::declared_edition(&head) {
                        *self.found.borrow_mut() = Some(EditionsFile {
                            name: name.to_owned(),
                            path,
                            edition,
                            imported,
                        });
                        return Err(protox::Error::new(format!(
                            "{name} is a Protobuf Editions file"
                        )));
                    }
                }
            }
            return IncludeFileResolver::new(include.clone()).open_file(name);
        }
        GoogleFileResolver::new().open_file(name)
    }
}

fn read_head(path: &Path) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    fs::File::open(path)?
        .take(EDITION_SCAN_BYTES)
        .read_to_end(&mut head)?;
    Ok(head)
}

/// UNSUPPORTED_FEATURE for an Editions file, with the protoc command that makes a descriptor
/// set of the named file, which the CLI reads as it is.
fn editions_refused(
    path: &Path,
    found: &EditionsFile,
    includes: &[PathBuf],
    options: &InputOptions,
) -> String {
    let what = if found.imported {
        format!(
            "the imported file `{}` ({}) uses Protobuf Editions (edition = \"{}\")",
            found.name,
            found.path.display(),
            found.edition
        )
    } else {
        format!(
            "file `{}` uses Protobuf Editions (edition = \"{}\")",
            found.name, found.edition
        )
    };
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "schema".to_owned());
    let out = format!("{stem}.pb");
    let mut protoc = vec![
        "protoc".to_owned(),
        "--include_imports".to_owned(),
        format!("--descriptor_set_out={}", shell_word(&out)),
    ];
    for include in includes {
        protoc.push("-I".to_owned());
        protoc.push(shell_word(&include.display().to_string()));
    }
    protoc.push(shell_word(&path.display().to_string()));
    let root = options
        .root
        .as_deref()
        .map(shell_word)
        .unwrap_or_else(|| "<Message>".to_owned());
    format!(
        "{}: {what}, which protocompat cannot compile from .proto source (protox reads syntax \
         proto2 and proto3 only); make a descriptor set with protoc and pass that instead: {}, \
         then protocompat check ... {} --root {root}",
        ErrorRule::UnsupportedFeature.id(),
        protoc.join(" "),
        shell_word(&out)
    )
}

/// `word` as one shell word: as it is when it is plain, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./=+:,@%".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    fn data(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/editions")
            .join(name)
    }

    fn options(root: Option<&str>) -> InputOptions {
        InputOptions {
            root: root.map(str::to_owned),
            include: Vec::new(),
        }
    }

    /// A descriptor set protoc made of an Editions file reaches the schema data byte for byte:
    /// the `edition` field and the feature options, which prost-types 0.14 has no fields for,
    /// are not lost to a decode and re-encode. (Whether the engine accepts it is its business.)
    #[test]
    fn a_protoc_editions_descriptor_set_is_wrapped_unchanged() {
        let pb = data("order.pb");
        let bytes = fs::read(&pb).unwrap();
        for root in [None, Some("shop.Order"), Some("Order")] {
            let json: Value = serde_json::from_slice(&load(&pb, &options(root)).unwrap()).unwrap();
            let set = base64::engine::general_purpose::STANDARD
                .decode(json["fileDescriptorSet"].as_str().unwrap())
                .unwrap();
            assert_eq!(set, bytes, "--root {root:?}");
            assert_eq!(json["rootMessageTypeName"], "shop.Order");
            assert_eq!(json["rootFileDescriptorName"], "order.proto");
        }
    }

    #[test]
    fn the_protoc_hint_quotes_what_a_shell_would_split() {
        assert_eq!(shell_word("dir/order.proto"), "dir/order.proto");
        assert_eq!(shell_word("my dir/o.proto"), "'my dir/o.proto'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
