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

pub(crate) fn build_pool(bytes: &[u8], root_file: &str) -> Result<DescriptorPool, DecodeError> {
    let set = FileDescriptorSet::decode(bytes).map_err(|e| {
        DecodeError::invalid(format!(
            "fileDescriptorSet is not a serialized google.protobuf.FileDescriptorSet: {e}"
        ))
    })?;
    let files = index_by_name(set.file)?;
    let closure = import_closure(&files, root_file)?;
    for file in &closure {
        check_syntax(file)?;
    }
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_protos(closure.into_iter().cloned())
        .map_err(|e| {
            DecodeError::invalid(format!(
                "the descriptor set does not build: {}",
                truncate(&e.to_string(), 600)
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

/// The root file and everything it imports, dependencies before dependents.
/// Iterative, so a long import chain cannot overflow the stack.
fn import_closure<'a>(
    files: &'a HashMap<String, FileDescriptorProto>,
    root_file: &str,
) -> Result<Vec<&'a FileDescriptorProto>, DecodeError> {
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
            ordered.push(file);
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
