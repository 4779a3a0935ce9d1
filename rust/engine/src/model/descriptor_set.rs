//! FileDescriptorSet bytes -> the model of the root file's import closure.
//!
//! Pulsar serializes the set from a hash map, so files arrive in any order. The set is first
//! walked without decoding (`prescan`) to count it against the limits and to find where each
//! file lies; then only the files of the root file's import closure are read into the model,
//! dependencies first. Files outside it are counted and never read, so they impose nothing
//! beyond the limits (RULES.md section 4).
//!
//! Most sets hold the root's closure and nothing else, as a client built from generated
//! classes sends them. Such a set is first read in one pass, the model's reader keeping the
//! prescan's counts as it goes (`tally`); anything unusual on the way ends the pass, and the
//! set is then walked and decoded as above, which says what is wrong.

use std::collections::HashMap;

use prost::Message;
use prost_types::{FileDescriptorProto, FileDescriptorSet};

use super::decode::{self, BuildError, Builder};
use super::list_names;
use super::prescan::{self, FileRecord};
use super::tables::Model;
use super::tally::Tally;
use super::wire::{self, Fields, Reader};
use crate::error::DecodeError;
use crate::limits::Limits;
use crate::text::bound;

pub(crate) fn build_model(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> Result<Model, DecodeError> {
    match build_in_one_pass(bytes, root_file, limits) {
        Some(model) => Ok(model),
        None => build_after_prescan(bytes, root_file, limits),
    }
}

pub(super) fn build_both_ways(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> (Option<Model>, Result<Model, DecodeError>) {
    (
        build_in_one_pass(bytes, root_file, limits),
        build_after_prescan(bytes, root_file, limits),
    )
}

/// The model of a set that is exactly the root's import closure, read in one pass, or `None`
/// when the set is anything else, or anything on the way is unusual or wrong: the prescan then
/// walks it. A model built here is the one [`build_after_prescan`] builds: the same files in
/// the same order, read by the same code, and the counts the prescan would take within the
/// limits (see `tally`).
fn build_in_one_pass(bytes: &[u8], root_file: &str, limits: &Limits) -> Option<Model> {
    // Every element is a key and a length at least: past this, the prescan counts them.
    if bytes.len() / 2 > limits.max_elements {
        return None;
    }
    let records = file_records(bytes, limits.max_files)?;
    let files = index_by_name(&records);
    let closure = import_closure(&files, root_file).ok()?;
    // A file listed twice, a file with no name or one the root does not import: the prescan
    // counts and checks what the model would not read.
    if closure.len() != records.len() {
        return None;
    }
    let mut builder = Builder::new(Tally::one_pass(limits));
    for record in closure {
        builder.file(body(record).ok()?).ok()?;
    }
    let counts = builder.counts(records.len(), bytes.len());
    limits.check_counts(&counts, String::new).ok()?;
    builder.finish().ok()
}

/// The set's file records and their names, as the prescan finds them, or `None` past
/// `max_files` or at anything but a file record at the top of the set.
fn file_records(bytes: &[u8], max_files: usize) -> Option<Vec<FileRecord<'_>>> {
    const FILE: u32 = wire::key(1, wire::LEN);
    const NAME: u32 = wire::key(1, wire::LEN);
    let mut records = Vec::new();
    let mut set = Reader::new(bytes);
    while !set.is_done() {
        let start = set.position();
        if set.key().ok()? != FILE {
            return None;
        }
        let file = set.bytes().ok()?;
        // The last name, as prost keeps the last.
        let mut name: &[u8] = &[];
        let mut fields = Reader::new(file);
        while !fields.is_done() {
            let key = fields.key().ok()?;
            let value = fields.value(key).ok()?;
            if key == NAME {
                name = value.bytes().ok()?;
            }
        }
        records.push(FileRecord {
            bytes: &bytes[start..set.position()],
            name,
        });
        if records.len() > max_files {
            return None;
        }
    }
    Some(records)
}

/// The model of the root's import closure, after the prescan has walked the whole set and
/// its counts are within the limits.
fn build_after_prescan(
    bytes: &[u8],
    root_file: &str,
    limits: &Limits,
) -> Result<Model, DecodeError> {
    // Past maxFiles the scan keeps no more records, and the count refuses the set anyway.
    let scan = prescan::scan(bytes, limits.max_files)?;
    limits.check_counts(&scan.counts, || scan.longest_name_place())?;
    if scan.counts.files == 0 {
        return Err(DecodeError::invalid("fileDescriptorSet holds no files"));
    }
    let files = index_by_name(&scan.files);
    let closure = import_closure(&files, root_file)?;
    let mut builder = Builder::new(Tally::after_prescan());
    // When the closure is the whole set, the counts say exactly how many rows the tables get.
    if closure.len() == scan.counts.files {
        builder.reserve(&scan.counts);
    }
    for record in closure {
        builder.file(body(record)?).map_err(|e| match e {
            BuildError::Refused(error) => *error,
            BuildError::Malformed(description) => malformed(record, description),
        })?;
    }
    builder.finish()
}

/// The serialized FileDescriptorProto inside a record of the set.
fn body(record: FileRecord<'_>) -> Result<&[u8], DecodeError> {
    match Fields::new(record.bytes).next() {
        Some(Ok((_, value))) => value.bytes().map_err(|d| malformed(record, d)),
        Some(Err(d)) => Err(malformed(record, d)),
        None => Err(malformed(record, "an empty file record")),
    }
}

/// A file the model could not read: in prost's words when prost refuses it too (its errors
/// name the enclosing fields), else in ours.
fn malformed(record: FileRecord<'_>, description: &str) -> DecodeError {
    match decode(record) {
        Err(error) => error,
        Ok(file) => not_a_descriptor_set(
            &format!("{description} (in file `{}`)", bound(file.name(), 200)),
            &[],
        ),
    }
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
    decode::dependencies(body(record)?).map_err(|d| malformed(record, d))
}

/// The root file and everything it imports, dependencies before dependents.
/// Iterative, so a long import chain cannot overflow the stack.
fn import_closure<'a>(
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
        bound(&format!("{description} (in {})", within.join(" > ")), 400)
    }
}
