//! FileDescriptorSet bytes -> a descriptor pool holding the root file's import closure.
//!
//! Pulsar serializes the set from a hash map, so files arrive in any order. Everything
//! protobuf itself would refuse is refused here with a message naming the file, before
//! `prost-reflect` sees the files: it panics on Editions files, and reports import problems
//! less precisely than an operator needs.

use std::collections::HashMap;

use prost::Message;
use prost_reflect::DescriptorPool;
use prost_types::{FileDescriptorProto, FileDescriptorSet};

use super::{list_names, truncate};
use crate::error::DecodeError;
use crate::limits::Limits;

pub(crate) fn build_pool(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> Result<DescriptorPool, DecodeError> {
    let set = FileDescriptorSet::decode(bytes).map_err(|e| {
        DecodeError::invalid(format!(
            "fileDescriptorSet is not a serialized google.protobuf.FileDescriptorSet: {}",
            describe_decode_error(&e)
        ))
    })?;
    limits.check_set(&set)?;
    let mut files = index_by_name(set.file)?;
    let closure = import_closure(&files, root_file)?;
    let mut ordered = Vec::with_capacity(closure.len());
    for name in &closure {
        // Moved, not cloned: the files are the bulk of the decoding work's memory.
        if let Some(file) = files.remove(name) {
            check_syntax(&file)?;
            ordered.push(file);
        }
    }
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_protos(ordered).map_err(|e| {
        // Rare: decode the set again to name the element the error points at.
        let files = FileDescriptorSet::decode(bytes)
            .map(|set| set.file)
            .unwrap_or_default();
        let place = e
            .file()
            .and_then(|name| files.iter().find(|f| f.name() == name))
            .map(|file| {
                let element = e.path().and_then(|path| element_name(file, path));
                match element {
                    Some(element) => format!(" (file `{}`, at {element})", file.name()),
                    None => format!(" (file `{}`)", file.name()),
                }
            })
            .unwrap_or_default();
        DecodeError::invalid(format!(
            "the descriptor set does not build: {}{}",
            truncate(&e.to_string(), 300),
            truncate(&place, 300)
        ))
    })?;
    Ok(pool)
}

fn index_by_name(
    files: Vec<FileDescriptorProto>,
) -> Result<HashMap<String, FileDescriptorProto>, DecodeError> {
    if files.is_empty() {
        return Err(DecodeError::invalid("fileDescriptorSet holds no files"));
    }
    let mut by_name: HashMap<String, FileDescriptorProto> = HashMap::with_capacity(files.len());
    for file in files {
        let name = file.name().to_owned();
        if name.is_empty() {
            return Err(DecodeError::invalid(
                "fileDescriptorSet holds a file with no name",
            ));
        }
        match by_name.get(&name) {
            // The same file listed twice is harmless; two different files under one name
            // would make the verdict depend on which one was picked.
            Some(existing) if *existing == file => {}
            Some(_) => {
                return Err(DecodeError::invalid(format!(
                    "fileDescriptorSet holds two different files named `{}`",
                    truncate(&name, 200)
                )))
            }
            None => {
                by_name.insert(name, file);
            }
        }
    }
    Ok(by_name)
}

/// The names of the root file and everything it imports, dependencies before dependents.
/// Iterative, so a long import chain cannot overflow the stack.
fn import_closure(
    files: &HashMap<String, FileDescriptorProto>,
    root_file: &str,
) -> Result<Vec<String>, DecodeError> {
    let Some(root) = files.get(root_file) else {
        let mut names: Vec<String> = files.keys().cloned().collect();
        names.sort();
        return Err(DecodeError::invalid(format!(
            "root file `{}` is not in the fileDescriptorSet (it holds: {})",
            truncate(root_file, 200),
            list_names(&names, "no files")
        )));
    };

    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        InProgress,
        Done,
    }
    let mut marks: HashMap<&str, Mark> = HashMap::new();
    let mut ordered = Vec::new();
    // Each frame: a file and how many of its imports have been visited.
    let mut stack: Vec<(&FileDescriptorProto, usize)> = vec![(root, 0)];
    marks.insert(root.name(), Mark::InProgress);

    while let Some((file, next)) = stack.last_mut() {
        let file: &FileDescriptorProto = file;
        let Some(import) = file.dependency.get(*next) else {
            marks.insert(file.name(), Mark::Done);
            ordered.push(file.name().to_owned());
            stack.pop();
            continue;
        };
        *next += 1;
        match marks.get(import.as_str()) {
            Some(Mark::Done) => {}
            Some(Mark::InProgress) => {
                let start = stack
                    .iter()
                    .position(|(f, _)| f.name() == import)
                    .unwrap_or(0);
                let mut cycle: Vec<&str> = stack[start..].iter().map(|(f, _)| f.name()).collect();
                cycle.push(import);
                return Err(DecodeError::invalid(format!(
                    "import cycle: {}",
                    truncate(&cycle.join(" -> "), 600)
                )));
            }
            None => {
                let Some(dependency) = files.get(import.as_str()) else {
                    return Err(DecodeError::invalid(format!(
                        "file `{}` imports `{}`, which is not in the fileDescriptorSet",
                        truncate(file.name(), 200),
                        truncate(import, 200)
                    )));
                };
                marks.insert(dependency.name(), Mark::InProgress);
                stack.push((dependency, 0));
            }
        }
    }
    Ok(ordered)
}

fn check_syntax(file: &FileDescriptorProto) -> Result<(), DecodeError> {
    let name = truncate(file.name(), 200);
    match file.syntax.as_deref() {
        None | Some("") | Some("proto2") | Some("proto3") => Ok(()),
        Some("editions") => Err(DecodeError::unsupported(format!(
            "file `{name}` uses Protobuf Editions (syntax \"editions\"); this checker \
             supports syntax proto2 and proto3 only"
        ))),
        Some(other) => Err(DecodeError::invalid(format!(
            "file `{name}` declares unknown syntax `{}`",
            truncate(other, 40)
        ))),
    }
}

/// prost lists every enclosing field of a decode error, innermost first; a deeply nested
/// input would make that list as long as the input. Repeats are folded: `A.b ×148`.
fn describe_decode_error(error: &prost::DecodeError) -> String {
    let text = error.to_string();
    let mut rest = text
        .strip_prefix("failed to decode Protobuf message: ")
        .unwrap_or(&text);
    // prost writes `Message.field: ` for each enclosing field, then the description, which
    // may itself hold `: ` ("invalid tag value: 0").
    let mut parts: Vec<&str> = Vec::new();
    while let Some((part, tail)) = rest.split_once(": ") {
        if !is_enclosing_field(part) {
            break;
        }
        parts.push(part);
        rest = tail;
    }
    let description = rest;
    let mut folded: Vec<(&str, usize)> = Vec::new();
    for part in parts.into_iter().rev() {
        match folded.last_mut() {
            Some((last, count)) if *last == part => *count += 1,
            _ => folded.push((part, 1)),
        }
    }
    let within: Vec<String> = folded
        .iter()
        .map(|(part, n)| {
            if *n > 1 {
                format!("{part} ×{n}")
            } else {
                (*part).to_owned()
            }
        })
        .collect();
    if within.is_empty() {
        description.to_owned()
    } else {
        truncate(&format!("{description} (in {})", within.join(" > ")), 400)
    }
}

/// `DescriptorProto.nested_type`, `FieldDescriptorProto.r#type`.
fn is_enclosing_field(part: &str) -> bool {
    let identifier = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '#')
    };
    matches!(part.split_once('.'), Some((message, field)) if identifier(message) && identifier(field))
}

/// The full name of the element a descriptor path points at, such as `shop.Order.note`.
fn element_name(file: &FileDescriptorProto, path: &[i32]) -> Option<String> {
    use prost_types::{DescriptorProto, EnumDescriptorProto};
    let mut name = file.package().to_owned();
    let join = |scope: &str, part: &str| {
        if scope.is_empty() {
            part.to_owned()
        } else {
            format!("{scope}.{part}")
        }
    };
    let index = |i: Option<&i32>| i.and_then(|i| usize::try_from(*i).ok());
    let enum_value = |e: &EnumDescriptorProto, scope: &str, rest: &[i32]| match rest {
        [2, i, ..] => e
            .value
            .get(usize::try_from(*i).ok()?)
            .map(|v| join(scope, v.name())),
        _ => Some(scope.to_owned()),
    };
    let mut message: Option<&DescriptorProto> = None;
    let mut rest = path;
    loop {
        let (children_tag, fields_tag, enums_tag) = if message.is_some() {
            (3, 2, 4)
        } else {
            (4, -1, 5)
        };
        match rest {
            [tag, i, tail @ ..] if *tag == children_tag => {
                let child = match message {
                    Some(m) => m.nested_type.get(index(Some(i))?)?,
                    None => file.message_type.get(index(Some(i))?)?,
                };
                name = join(&name, child.name());
                message = Some(child);
                rest = tail;
            }
            [tag, i, ..] if *tag == fields_tag => {
                let field = message?.field.get(index(Some(i))?)?;
                return Some(join(&name, field.name()));
            }
            [tag, i, tail @ ..] if *tag == enums_tag => {
                let e = match message {
                    Some(m) => m.enum_type.get(index(Some(i))?)?,
                    None => file.enum_type.get(index(Some(i))?)?,
                };
                let scope = join(&name, e.name());
                return enum_value(e, &scope, tail);
            }
            _ => return (!name.is_empty() || message.is_some()).then_some(name),
        }
    }
}
