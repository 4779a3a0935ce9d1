//! Which files of the set the root's import closure holds, dependencies first.

use std::collections::HashMap;

use super::descriptor_proto::tag;
use super::list_names;
use super::set::{body, malformed, FileRecord};
use super::wire::Fields;
use crate::error::DecodeError;
use crate::text::bound;

/// File records by name, in the order of the set. A record with no name is left out: no
/// import can reach it, so it imposes nothing.
pub(super) fn index_by_name<'a>(
    records: &[FileRecord<'a>],
) -> HashMap<&'a [u8], Vec<FileRecord<'a>>> {
    let mut by_name: HashMap<&[u8], Vec<FileRecord>> = HashMap::with_capacity(records.len());
    for record in records {
        if !record.name.is_empty() {
            by_name.entry(record.name).or_default().push(*record);
        }
    }
    by_name
}

/// The record a name stands for. The same file listed twice is harmless; two different
/// files under one name would make the verdict depend on which one was picked. Only names
/// the closure reaches are compared: elsewhere nothing is picked. Records are compared by
/// their bytes: one serializer wrote the set, and a comparison of decoded files would miss
/// what the decoder does not keep.
fn load<'a>(name: &[u8], records: &[FileRecord<'a>]) -> Result<FileRecord<'a>, DecodeError> {
    let first = records[0];
    for other in &records[1..] {
        if other.bytes != first.bytes {
            return Err(DecodeError::invalid(format!(
                "fileDescriptorSet holds two different files named `{}`",
                bound(&String::from_utf8_lossy(name), 200)
            )));
        }
    }
    Ok(first)
}

/// The names a record imports.
fn imports(record: FileRecord<'_>) -> Result<Vec<&str>, DecodeError> {
    dependencies(body(record)?).map_err(|d| malformed(record, d))
}

/// The root file and everything it imports, dependencies before dependents.
/// Iterative, so a long import chain cannot overflow the stack.
pub(super) fn import_closure<'a>(
    files: &HashMap<&'a [u8], Vec<FileRecord<'a>>>,
    root_file: &str,
) -> Result<Vec<FileRecord<'a>>, DecodeError> {
    let Some((&root_name, root_records)) = files.get_key_value(root_file.as_bytes()) else {
        let mut names: Vec<String> = files
            .keys()
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .collect();
        names.sort();
        return Err(DecodeError::invalid(format!(
            "root file `{}` is not in the fileDescriptorSet (it holds: {})",
            bound(root_file, 200),
            list_names(&names, "no file with a name")
        )));
    };

    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        InProgress,
        Done,
    }
    struct Frame<'a> {
        name: &'a [u8],
        file: FileRecord<'a>,
        imports: Vec<&'a str>,
        /// How many of its imports have been visited.
        next: usize,
    }
    let mut marks: HashMap<&[u8], Mark> = HashMap::new();
    let mut ordered = Vec::new();
    marks.insert(root_name, Mark::InProgress);
    let root = load(root_name, root_records)?;
    let mut stack = vec![Frame {
        name: root_name,
        file: root,
        imports: imports(root)?,
        next: 0,
    }];

    while let Some(top) = stack.last_mut() {
        let Some(&import) = top.imports.get(top.next) else {
            marks.insert(top.name, Mark::Done);
            if let Some(done) = stack.pop() {
                ordered.push(done.file);
            }
            continue;
        };
        top.next += 1;
        match marks.get(import.as_bytes()) {
            Some(Mark::Done) => {}
            Some(Mark::InProgress) => {
                let start = stack
                    .iter()
                    .position(|frame| frame.name == import.as_bytes())
                    .unwrap_or(0);
                let mut cycle: Vec<String> = stack[start..]
                    .iter()
                    .map(|frame| String::from_utf8_lossy(frame.name).into_owned())
                    .collect();
                cycle.push(import.to_owned());
                return Err(DecodeError::invalid(format!(
                    "import cycle: {}",
                    bound(&cycle.join(" -> "), 600)
                )));
            }
            None => {
                let Some((&name, records)) = files.get_key_value(import.as_bytes()) else {
                    return Err(DecodeError::invalid(format!(
                        "file `{}` imports `{}`, which is not in the fileDescriptorSet",
                        bound(&String::from_utf8_lossy(top.name), 200),
                        bound(import, 200)
                    )));
                };
                marks.insert(name, Mark::InProgress);
                let file = load(name, records)?;
                stack.push(Frame {
                    name,
                    file,
                    imports: imports(file)?,
                    next: 0,
                });
            }
        }
    }
    Ok(ordered)
}

/// The names a file's `dependency` field lists, read without decoding the file.
fn dependencies(bytes: &[u8]) -> std::result::Result<Vec<&str>, &'static str> {
    let mut names = Vec::new();
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        if number == tag::file::DEPENDENCY {
            names.push(value.text()?);
        }
    }
    Ok(names)
}
