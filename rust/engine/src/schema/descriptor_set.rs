//! FileDescriptorSet bytes -> a descriptor pool holding the root file's import closure.
//!
//! Pulsar serializes the set from a hash map, so files arrive in any order. The set is first
//! walked without decoding (`prescan`) to count it against the limits and to find where each
//! file lies; then only the files of the root file's import closure are decoded, when the
//! closure reaches them. Files outside it are counted and never decoded, so
//! they impose nothing beyond the limits (RULES.md section 4). Everything protobuf itself would
//! refuse in the closure is refused here with a message naming the file, before
//! `prost-reflect` sees the files: it panics on Editions files, and reports import problems
//! less precisely than an operator needs.

use std::collections::HashMap;

use prost::Message;
use prost_reflect::DescriptorPool;
use prost_types::{FileDescriptorProto, FileDescriptorSet};

use super::prescan::{self, FileRecord};
use super::{list_names, truncate};
use crate::error::DecodeError;
use crate::limits::Limits;

pub(crate) fn build_pool(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> Result<DescriptorPool, DecodeError> {
    // Past maxFiles the scan keeps no more records, and the count refuses the set anyway.
    let scan = prescan::scan(bytes, limits.max_files)?;
    limits.check_counts(&scan.counts, || scan.longest_name_place())?;
    if scan.counts.files == 0 {
        return Err(DecodeError::invalid("fileDescriptorSet holds no files"));
    }
    let files = index_by_name(&scan.files);
    let closure = import_closure(&files, root_file)?;
    for file in &closure {
        check_syntax(file)?;
    }
    let mut pool = DescriptorPool::new();
    pool.add_file_descriptor_protos(closure).map_err(|e| {
        // Rare: decode the file again to name the element the error points at.
        let file = e
            .file()
            .and_then(|name| files.get(name.as_bytes()))
            .and_then(|records| decode(records[0]).ok());
        let place = file
            .map(|file| {
                let element = e.path().and_then(|path| element_name(&file, path));
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

/// The error for bytes that are not a FileDescriptorSet, from a description and the fields
/// enclosing the failure (outermost first), in prost's words.
pub(super) fn not_a_descriptor_set(description: &str, within: &[String]) -> DecodeError {
    DecodeError::invalid(format!(
        "fileDescriptorSet is not a serialized google.protobuf.FileDescriptorSet: {}",
        describe(description, within)
    ))
}

/// Decodes one file record. Decoded as a set of its own, so that prost's errors read as they
/// would for the whole set.
fn decode(record: FileRecord<'_>) -> Result<FileDescriptorProto, DecodeError> {
    let set = FileDescriptorSet::decode(record.bytes).map_err(|e| {
        let (description, within) = split_decode_error(&e);
        not_a_descriptor_set(&description, &within)
    })?;
    // A record is one field of the set, so prost returns exactly one file.
    Ok(set.file.into_iter().next().unwrap_or_default())
}

/// File records by name, in the order of the set. A record with no name is left out: no
/// import can reach it, so it imposes nothing.
fn index_by_name<'a>(records: &[FileRecord<'a>]) -> HashMap<&'a [u8], Vec<FileRecord<'a>>> {
    let mut by_name: HashMap<&[u8], Vec<FileRecord>> = HashMap::with_capacity(records.len());
    for record in records {
        if !record.name.is_empty() {
            by_name.entry(record.name).or_default().push(*record);
        }
    }
    by_name
}

/// Decodes the file a name stands for. The same file listed twice is harmless; two different
/// files under one name would make the verdict depend on which one was picked. Only names
/// the closure reaches are compared: elsewhere nothing is picked.
fn load(name: &[u8], records: &[FileRecord<'_>]) -> Result<FileDescriptorProto, DecodeError> {
    let first = decode(records[0])?;
    for other in &records[1..] {
        if other.bytes != records[0].bytes && decode(*other)? != first {
            return Err(DecodeError::invalid(format!(
                "fileDescriptorSet holds two different files named `{}`",
                truncate(&String::from_utf8_lossy(name), 200)
            )));
        }
    }
    Ok(first)
}

/// The root file and everything it imports, decoded, dependencies before dependents.
/// Iterative, so a long import chain cannot overflow the stack.
fn import_closure(
    files: &HashMap<&[u8], Vec<FileRecord<'_>>>,
    root_file: &str,
) -> Result<Vec<FileDescriptorProto>, DecodeError> {
    let Some((&root_name, root_records)) = files.get_key_value(root_file.as_bytes()) else {
        let mut names: Vec<String> = files
            .keys()
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .collect();
        names.sort();
        return Err(DecodeError::invalid(format!(
            "root file `{}` is not in the fileDescriptorSet (it holds: {})",
            truncate(root_file, 200),
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
        file: FileDescriptorProto,
        /// How many of its imports have been visited.
        next: usize,
    }
    let mut marks: HashMap<&[u8], Mark> = HashMap::new();
    let mut ordered = Vec::new();
    marks.insert(root_name, Mark::InProgress);
    let mut stack = vec![Frame {
        name: root_name,
        file: load(root_name, root_records)?,
        next: 0,
    }];

    while let Some(top) = stack.last_mut() {
        let Some(import) = top.file.dependency.get(top.next).cloned() else {
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
                let mut cycle: Vec<&str> = stack[start..]
                    .iter()
                    .map(|frame| frame.file.name())
                    .collect();
                cycle.push(&import);
                return Err(DecodeError::invalid(format!(
                    "import cycle: {}",
                    truncate(&cycle.join(" -> "), 600)
                )));
            }
            None => {
                let Some((&name, records)) = files.get_key_value(import.as_bytes()) else {
                    return Err(DecodeError::invalid(format!(
                        "file `{}` imports `{}`, which is not in the fileDescriptorSet",
                        truncate(top.file.name(), 200),
                        truncate(&import, 200)
                    )));
                };
                marks.insert(name, Mark::InProgress);
                let file = load(name, records)?;
                stack.push(Frame {
                    name,
                    file,
                    next: 0,
                });
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

/// prost's description of a decode error, and the fields enclosing it, outermost first.
/// prost writes `Message.field: ` for each enclosing field, innermost first, then the
/// description, which may itself hold `: ` ("invalid tag value: 0").
fn split_decode_error(error: &prost::DecodeError) -> (String, Vec<String>) {
    let text = error.to_string();
    let mut rest = text
        .strip_prefix("failed to decode Protobuf message: ")
        .unwrap_or(&text);
    let mut within = Vec::new();
    while let Some((part, tail)) = rest.split_once(": ") {
        if !is_enclosing_field(part) {
            break;
        }
        within.push(part.to_owned());
        rest = tail;
    }
    within.reverse();
    (rest.to_owned(), within)
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

/// prost lists every enclosing field of a decode error; a deeply nested input would make that
/// list as long as the input. Repeats are folded: `A.b ×148`.
fn describe(description: &str, within: &[String]) -> String {
    let mut folded: Vec<(&str, usize)> = Vec::new();
    for part in within {
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
