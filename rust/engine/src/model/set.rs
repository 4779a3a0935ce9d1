//! The records of a serialized FileDescriptorSet, and what is wrong with them in prost's words:
//! the prescan and the reader word a malformed set the same way prost would, so an error reads
//! the same whichever part of the engine finds it.

use prost::Message;
use prost_types::{FileDescriptorProto, FileDescriptorSet};

use super::wire::{self, Fields, Reader};
use crate::error::DecodeError;
use crate::text::bound;

/// One file of the set, as found by the prescan or [`file_records`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct FileRecord<'a> {
    /// The record as the set holds it, key and length included. prost decoding it as a
    /// FileDescriptorSet counts nesting and names enclosing fields exactly as it would in the
    /// whole set, so its errors do not change.
    pub bytes: &'a [u8],
    /// The file's name (the last one, as prost keeps the last); empty when it has none.
    pub name: &'a [u8],
}

/// The set's file records and their names, as the prescan finds them, or `None` past
/// `max_files` or at anything but a file record at the top of the set.
pub(super) fn file_records(bytes: &[u8], max_files: usize) -> Option<Vec<FileRecord<'_>>> {
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

/// The serialized FileDescriptorProto inside a record of the set.
pub(super) fn body(record: FileRecord<'_>) -> Result<&[u8], DecodeError> {
    match Fields::new(record.bytes).next() {
        Some(Ok((_, value))) => value.bytes().map_err(|d| malformed(record, d)),
        Some(Err(d)) => Err(malformed(record, d)),
        None => Err(malformed(record, "an empty file record")),
    }
}

/// A file the model could not read: in prost's words when prost refuses it too (its errors
/// name the enclosing fields), else in ours.
pub(super) fn malformed(record: FileRecord<'_>, description: &str) -> DecodeError {
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
