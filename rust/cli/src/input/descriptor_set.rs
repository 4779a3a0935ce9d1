//! Wraps a binary FileDescriptorSet as Pulsar schema data, choosing its root message.

use crate::console::Error;
use prost::Message;
use prost_types::{DescriptorProto, FileDescriptorProto, FileDescriptorSet};
use protocompat::model::SchemaData;

/// The schema data for `bytes`, passed on unchanged (a decode and re-encode could lose what
/// prost-types has no fields for, such as Editions features). The root file is the one
/// declaring the root message; `root_file`, when given, must be it.
pub fn wrap(
    bytes: Vec<u8>,
    root_file: Option<&str>,
    root_message: Option<&str>,
) -> Result<Vec<u8>, Error> {
    let set = FileDescriptorSet::decode(bytes.as_slice())
        .map_err(|e| Error::input(format!("not a binary FileDescriptorSet: {e}")))?;
    let candidates: Vec<(String, &FileDescriptorProto)> = set
        .file
        .iter()
        .filter(|f| root_file.is_none_or(|name| f.name() == name))
        .flat_map(|f| declared_messages(f).into_iter().map(move |m| (m, f)))
        .collect();
    let (root_message, file) = choose_root(&candidates, root_message)?;
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
) -> Result<(String, &'a FileDescriptorProto), Error> {
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
                    return Err(Error::input(match names.first() {
                        None => "declares no message to use as the root".to_owned(),
                        Some(first) => format!(
                            "declares {} top-level messages ({}); name the root message with \
                             --root, e.g. --root {first}",
                            names.len(),
                            names.join(", ")
                        ),
                    }));
                }
            }
        }
    };
    found
        .map(|(name, file)| (name.clone(), *file))
        .ok_or_else(|| {
            Error::input(format!(
                "no message `{}` is declared here; --root takes a full name such as pkg.Order",
                wanted.unwrap_or_default()
            ))
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
