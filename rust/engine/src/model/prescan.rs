//! One pass over the raw bytes of a FileDescriptorSet, before anything is decoded.
//!
//! Decoding builds a row per declaration, so a count taken after decoding comes too late: 16 MB
//! declaring 6 million empty messages would be expanded before it could be refused. This pass
//! reads the wire format directly instead. It walks descriptor.proto's declaration tree (files,
//! messages, fields, enums and their values, oneofs, services, methods) by recursive descent,
//! at most [`MAX_DEPTH`] levels deep, and keeps nothing that grows with what it counts except
//! one entry per file, and only up to the number of files allowed.
//!
//! It checks the framing protobuf's parsers check: keys, varints, lengths, the wire type of
//! every field descriptor.proto declares, and the nesting limit, at the depth prost would
//! refuse it, for every file of the set, imported or not. A failure is described in prost's
//! words (`tests/prescan.rs` compares them), so an error reads the same whichever part of the
//! engine finds it. It does not look inside options, source info or ranges, and does not check
//! UTF-8: the model's reader checks those in the files it decodes, and it decodes only the
//! root file's import closure.

use std::borrow::Cow;

use super::set::{not_a_descriptor_set, FileRecord};
use super::wire::varint_at;
use crate::error::DecodeError;
use crate::limits::Counts;
use crate::text::bound;

/// Counts what `descriptor_set` (the serialized `google.protobuf.FileDescriptorSet`) declares
/// without decoding it, in one pass that allocates nothing proportional to the counts.
///
/// Fails with SCHEMA_RECONSTRUCTION_FAILED when the bytes cannot be walked as a
/// FileDescriptorSet, in the words prost would use. It applies no limit: decoding schema data
/// compares these counts with [`crate::Limits`].
pub fn prescan(descriptor_set: &[u8]) -> Result<Counts, DecodeError> {
    Ok(scan(descriptor_set, 0)?.counts)
}

/// The counts of [`prescan`], and where the files and the longest name are.
pub(crate) struct Scan<'a> {
    pub counts: Counts,
    /// The first file records, as many as the scan was asked to keep.
    pub files: Vec<FileRecord<'a>>,
    /// What the longest name names, and the index of its file.
    longest: Option<(&'static str, usize)>,
}

impl Scan<'_> {
    /// Where the longest name is, for the error refusing it.
    pub(crate) fn longest_name_place(&self) -> String {
        let Some((what, index)) = self.longest else {
            return "no names".to_owned();
        };
        let file = match self.files.get(index) {
            Some(file) if !file.name.is_empty() => {
                format!("`{}`", bound(&String::from_utf8_lossy(file.name), 200))
            }
            Some(_) => "with no name".to_owned(),
            None => format!("number {} of the set", index + 1),
        };
        match what {
            FILE_NAME => format!("the name of file {file}"),
            _ => format!("{what} in file {file}"),
        }
    }
}

/// Walks the set, keeping the first `keep_files` file records.
pub(crate) fn scan(bytes: &[u8], keep_files: usize) -> Result<Scan<'_>, DecodeError> {
    let mut scanner = Scanner {
        bytes,
        pos: 0,
        scan: Scan {
            counts: Counts::default(),
            files: Vec::new(),
            longest: None,
        },
        keep_files,
    };
    match scanner.walk(Kind::Set, bytes.len(), 0) {
        Ok(_) => Ok(scanner.scan),
        Err(failure) => Err(not_a_descriptor_set(
            &failure.description,
            &failure.within_outermost_first(),
        )),
    }
}

/// prost's recursion limit: a message nested deeper than this is refused while decoding.
pub(super) const MAX_DEPTH: usize = 100;

const FILE_NAME: &str = "a file name";

// prost's descriptions of malformed data (`prost::DecodeError`).
const INVALID_VARINT: &str = "invalid varint";
const BUFFER_UNDERFLOW: &str = "buffer underflow";
const DELIMITED_LENGTH_EXCEEDED: &str = "delimited length exceeded";
const UNEXPECTED_END_GROUP: &str = "unexpected end group tag";
const RECURSION_LIMIT: &str = "recursion limit reached";

/// The messages of descriptor.proto the walk enters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Set,
    File,
    Message,
    Field,
    Oneof,
    Enum,
    EnumValue,
    Service,
    Method,
}

const KINDS: usize = 9;

impl Kind {
    /// Every kind, in the order of their discriminants.
    const ALL: [Kind; KINDS] = [
        Kind::Set,
        Kind::File,
        Kind::Message,
        Kind::Field,
        Kind::Oneof,
        Kind::Enum,
        Kind::EnumValue,
        Kind::Service,
        Kind::Method,
    ];

    /// The name prost gives the message in its errors.
    fn name(self) -> &'static str {
        match self {
            Kind::Set => "FileDescriptorSet",
            Kind::File => "FileDescriptorProto",
            Kind::Message => "DescriptorProto",
            Kind::Field => "FieldDescriptorProto",
            Kind::Oneof => "OneofDescriptorProto",
            Kind::Enum => "EnumDescriptorProto",
            Kind::EnumValue => "EnumValueDescriptorProto",
            Kind::Service => "ServiceDescriptorProto",
            Kind::Method => "MethodDescriptorProto",
        }
    }
}

/// How a field declared by descriptor.proto is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Value {
    /// A declaration to walk into.
    Walk(Kind),
    /// A message whose inside does not matter here: options, source info, ranges.
    Skip,
    /// A name, and what it names, for the error refusing it.
    Name(&'static str),
    /// Any other string.
    Text,
    /// An int32, enum or bool.
    Varint,
    /// A repeated int32, packed or not.
    Int32s,
}

/// Tags above this are unknown to every message the walk enters.
const HIGHEST_TAG: usize = 17;

/// [`declared_field`] as a table, so that the walk looks a field up instead of branching
/// through two levels of `match` for every field it reads.
static FIELDS: [[Option<(&str, Value)>; HIGHEST_TAG + 1]; KINDS] = {
    let mut table = [[None; HIGHEST_TAG + 1]; KINDS];
    let mut kind = 0;
    while kind < KINDS {
        let mut tag = 0;
        while tag <= HIGHEST_TAG {
            table[kind][tag] = declared_field(Kind::ALL[kind], tag as u32);
            tag += 1;
        }
        kind += 1;
    }
    table
};

// The table is indexed by discriminant: `Kind::ALL` must list the kinds in that order.
const _: () = {
    let mut i = 0;
    while i < KINDS {
        assert!(Kind::ALL[i] as usize == i);
        i += 1;
    }
};

#[inline(always)]
fn field(kind: Kind, tag: u32) -> Option<(&'static str, Value)> {
    FIELDS[kind as usize].get(tag as usize).copied().flatten()
}

/// How descriptor.proto declares field `tag` of `kind`, for the model's reader, which checks
/// what this walk checks when it reads a set in one pass (`tally`).
#[inline]
pub(super) fn declared(kind: Kind, tag: u32) -> Option<Value> {
    field(kind, tag).map(|(_, value)| value)
}

/// The fields prost-types 0.14 declares, by their prost names (errors quote them); anything
/// else is an unknown field to prost, skipped.
const fn declared_field(kind: Kind, tag: u32) -> Option<(&'static str, Value)> {
    use Value::*;
    Some(match (kind, tag) {
        (Kind::Set, 1) => ("file", Walk(Kind::File)),

        (Kind::File, 1) => ("name", Name(FILE_NAME)),
        (Kind::File, 2) => ("package", Name("a package")),
        (Kind::File, 3) => ("dependency", Name("an import")),
        (Kind::File, 4) => ("message_type", Walk(Kind::Message)),
        (Kind::File, 5) => ("enum_type", Walk(Kind::Enum)),
        (Kind::File, 6) => ("service", Walk(Kind::Service)),
        (Kind::File, 7) => ("extension", Walk(Kind::Field)),
        (Kind::File, 8) => ("options", Skip),
        (Kind::File, 9) => ("source_code_info", Skip),
        (Kind::File, 10) => ("public_dependency", Int32s),
        (Kind::File, 11) => ("weak_dependency", Int32s),
        (Kind::File, 12) => ("syntax", Text),

        (Kind::Message, 1) => ("name", Name("a message name")),
        (Kind::Message, 2) => ("field", Walk(Kind::Field)),
        (Kind::Message, 3) => ("nested_type", Walk(Kind::Message)),
        (Kind::Message, 4) => ("enum_type", Walk(Kind::Enum)),
        (Kind::Message, 5) => ("extension_range", Skip),
        (Kind::Message, 6) => ("extension", Walk(Kind::Field)),
        (Kind::Message, 7) => ("options", Skip),
        (Kind::Message, 8) => ("oneof_decl", Walk(Kind::Oneof)),
        (Kind::Message, 9) => ("reserved_range", Skip),
        (Kind::Message, 10) => ("reserved_name", Text),

        (Kind::Field, 1) => ("name", Name("a field name")),
        (Kind::Field, 2) => ("extendee", Name("an extendee")),
        (Kind::Field, 3) => ("number", Varint),
        (Kind::Field, 4) => ("label", Varint),
        (Kind::Field, 5) => ("r#type", Varint),
        (Kind::Field, 6) => ("type_name", Name("a type name")),
        (Kind::Field, 7) => ("default_value", Text),
        (Kind::Field, 8) => ("options", Skip),
        (Kind::Field, 9) => ("oneof_index", Varint),
        (Kind::Field, 10) => ("json_name", Name("a JSON name")),
        (Kind::Field, 17) => ("proto3_optional", Varint),

        (Kind::Oneof, 1) => ("name", Name("a oneof name")),
        (Kind::Oneof, 2) => ("options", Skip),

        (Kind::Enum, 1) => ("name", Name("an enum name")),
        (Kind::Enum, 2) => ("value", Walk(Kind::EnumValue)),
        (Kind::Enum, 3) => ("options", Skip),
        (Kind::Enum, 4) => ("reserved_range", Skip),
        (Kind::Enum, 5) => ("reserved_name", Text),

        (Kind::EnumValue, 1) => ("name", Name("an enum value name")),
        (Kind::EnumValue, 2) => ("number", Varint),
        (Kind::EnumValue, 3) => ("options", Skip),

        (Kind::Service, 1) => ("name", Name("a service name")),
        (Kind::Service, 2) => ("method", Walk(Kind::Method)),
        (Kind::Service, 3) => ("options", Skip),

        (Kind::Method, 1) => ("name", Name("a method name")),
        (Kind::Method, 2) => ("input_type", Name("an input type")),
        (Kind::Method, 3) => ("output_type", Name("an output type")),
        (Kind::Method, 4) => ("options", Skip),
        (Kind::Method, 5) => ("client_streaming", Varint),
        (Kind::Method, 6) => ("server_streaming", Varint),

        _ => return None,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WireType {
    Varint,
    SixtyFourBit,
    LengthDelimited,
    StartGroup,
    EndGroup,
    ThirtyTwoBit,
}

impl WireType {
    /// prost's name for it (`Debug` of `prost::encoding::WireType`).
    fn name(self) -> &'static str {
        match self {
            WireType::Varint => "Varint",
            WireType::SixtyFourBit => "SixtyFourBit",
            WireType::LengthDelimited => "LengthDelimited",
            WireType::StartGroup => "StartGroup",
            WireType::EndGroup => "EndGroup",
            WireType::ThirtyTwoBit => "ThirtyTwoBit",
        }
    }
}

impl Kind {
    /// Whether the pool gives a declaration of this kind a full name of its own.
    fn is_declaration(self) -> bool {
        matches!(
            self,
            Kind::Message
                | Kind::Field
                | Kind::Oneof
                | Kind::Enum
                | Kind::EnumValue
                | Kind::Service
                | Kind::Method
        )
    }
}

/// What a walked message adds to the full names around it.
#[derive(Default)]
struct Walked {
    /// The declaration's own name (a file's package), in bytes: the last one read.
    name_len: usize,
    /// Declarations inside this one, at any depth.
    descendants: usize,
}

/// Why the walk stopped: prost's description, and the fields enclosing the failure, innermost
/// first, as the walk unwinds through them.
struct Failure {
    description: Cow<'static, str>,
    within: Vec<(Kind, &'static str)>,
}

impl Failure {
    fn within_outermost_first(&self) -> Vec<String> {
        self.within
            .iter()
            .rev()
            .map(|(kind, field)| format!("{}.{field}", kind.name()))
            .collect()
    }
}

/// Boxed: failures are rare, and every step of the walk returns a result.
type Failed = Box<Failure>;

fn fail(description: impl Into<Cow<'static, str>>) -> Failed {
    Box::new(Failure {
        description: description.into(),
        within: Vec::new(),
    })
}

struct Scanner<'a> {
    bytes: &'a [u8],
    /// One cursor over the whole set, as prost reads it: a field running past the end of its
    /// message is read from the bytes after it, and the message then fails as too long.
    pos: usize,
    scan: Scan<'a>,
    keep_files: usize,
}

impl<'a> Scanner<'a> {
    /// Walks the fields of one message of `kind`, nested `depth` deep (the set is 0), which
    /// ends at `end`. Recursive, as prost's decoding is, but only through this function, whose
    /// frame is small: the depth is bounded by [`MAX_DEPTH`] before anything is entered.
    fn walk(&mut self, kind: Kind, end: usize, depth: usize) -> Result<Walked, Failed> {
        let mut walked = Walked::default();
        loop {
            if self.pos >= end {
                if self.pos != end {
                    return Err(fail(DELIMITED_LENGTH_EXCEEDED));
                }
                return Ok(walked);
            }
            let key_at = self.pos;
            let (tag, wire_type) = self.key()?;
            let Some((name, value)) = field(kind, tag) else {
                self.skip(tag, wire_type, depth)?;
                continue;
            };
            let entered = self
                .known(kind, tag, value, wire_type, depth, &mut walked)
                .and_then(|declaration| match declaration {
                    None => Ok(()),
                    Some((inner, inner_end)) => {
                        self.count(inner, key_at, inner_end);
                        let inner_walked = self.walk(inner, inner_end, depth + 1)?;
                        self.add_full_names(inner, inner_walked, &mut walked);
                        Ok(())
                    }
                });
            if let Err(mut failure) = entered {
                failure.within.push((kind, name));
                return Err(failure);
            }
        }
    }

    /// A field descriptor.proto declares, read with prost's checks in prost's order. A
    /// declaration to walk into is returned, with where it ends, for [`Scanner::walk`] to
    /// enter.
    fn known(
        &mut self,
        kind: Kind,
        tag: u32,
        value: Value,
        wire_type: WireType,
        depth: usize,
        walked: &mut Walked,
    ) -> Result<Option<(Kind, usize)>, Failed> {
        match value {
            Value::Walk(_) | Value::Skip => {
                expect(wire_type, WireType::LengthDelimited)?;
                self.scan.counts.elements += 1;
                if depth == MAX_DEPTH {
                    return Err(fail(RECURSION_LIMIT));
                }
                let end = self.length()?;
                if let Value::Walk(inner) = value {
                    return Ok(Some((inner, end)));
                }
                let nested = records_within(&self.bytes[self.pos..end], SKIPPED_DEPTH).0;
                self.scan.counts.nested_records =
                    self.scan.counts.nested_records.saturating_add(nested);
                self.pos = end;
            }
            Value::Name(_) | Value::Text => {
                expect(wire_type, WireType::LengthDelimited)?;
                self.scan.counts.elements += 1;
                let end = self.length()?;
                let text = &self.bytes[self.pos..end];
                self.pos = end;
                if let Value::Name(what) = value {
                    self.name(what, text, kind == Kind::File && tag == 1);
                    // The last one counts, as prost keeps the last.
                    let own =
                        matches!((kind, tag), (Kind::File, 2)) || (kind != Kind::File && tag == 1);
                    if own {
                        walked.name_len = text.len();
                    }
                }
            }
            Value::Varint => {
                expect(wire_type, WireType::Varint)?;
                self.varint()?;
            }
            Value::Int32s => {
                if wire_type == WireType::LengthDelimited {
                    let end = self.length()?;
                    while self.pos < end {
                        self.varint()?;
                    }
                    if self.pos != end {
                        return Err(fail(DELIMITED_LENGTH_EXCEEDED));
                    }
                } else {
                    expect(wire_type, WireType::Varint)?;
                    self.varint()?;
                }
            }
        }
        Ok(None)
    }

    /// Counts a declaration (or a file) about to be walked; a file's record is kept.
    fn count(&mut self, kind: Kind, key_at: usize, end: usize) {
        let counts = &mut self.scan.counts;
        match kind {
            Kind::File => {
                counts.files += 1;
                if self.scan.files.len() < self.keep_files {
                    self.scan.files.push(FileRecord {
                        bytes: &self.bytes[key_at..end],
                        name: &[],
                    });
                }
            }
            Kind::Message => counts.messages += 1,
            Kind::Field => counts.fields += 1,
            Kind::EnumValue => counts.enum_values += 1,
            _ => {}
        }
        if kind.is_declaration() {
            counts.declarations += 1;
        }
    }

    /// A walked declaration adds its name to its own full name and to those of everything
    /// inside it (`pkg.` likewise for a file's declarations), whatever order the fields came in.
    fn add_full_names(&mut self, kind: Kind, inner: Walked, parent: &mut Walked) {
        let counts = &mut self.scan.counts;
        if kind.is_declaration() {
            let named = inner.descendants + 1;
            counts.full_name_bytes = counts
                .full_name_bytes
                .saturating_add((inner.name_len + 1).saturating_mul(named));
            parent.descendants += named;
        } else if kind == Kind::File {
            counts.full_name_bytes = counts
                .full_name_bytes
                .saturating_add(inner.name_len.saturating_mul(inner.descendants));
        }
    }

    fn name(&mut self, what: &'static str, name: &'a [u8], is_file_name: bool) {
        // Names are declared only inside files, and the file being walked is the last counted.
        let file = self.scan.counts.files.saturating_sub(1);
        if name.len() > self.scan.counts.longest_name || self.scan.longest.is_none() {
            self.scan.counts.longest_name = name.len();
            self.scan.longest = Some((what, file));
        }
        if is_file_name {
            if let Some(record) = self.scan.files.get_mut(file) {
                record.name = name;
            }
        }
    }

    /// An unknown field, skipped as prost's `skip_field` does; a group is walked to its end
    /// tag, one level deeper, since prost counts its nesting.
    fn skip(&mut self, tag: u32, wire_type: WireType, depth: usize) -> Result<(), Failed> {
        if depth == MAX_DEPTH {
            return Err(fail(RECURSION_LIMIT));
        }
        match wire_type {
            WireType::Varint => {
                self.varint()?;
            }
            WireType::SixtyFourBit => self.pos = self.within_bytes(8)?,
            WireType::ThirtyTwoBit => self.pos = self.within_bytes(4)?,
            WireType::LengthDelimited => self.pos = self.length()?,
            WireType::StartGroup => self.group(tag, depth + 1)?,
            WireType::EndGroup => return Err(fail(UNEXPECTED_END_GROUP)),
        }
        Ok(())
    }

    /// The fields of an unknown group, up to its end tag.
    #[cold]
    fn group(&mut self, group_tag: u32, depth: usize) -> Result<(), Failed> {
        loop {
            let (tag, wire_type) = self.key()?;
            if wire_type == WireType::EndGroup {
                if tag != group_tag {
                    return Err(fail(UNEXPECTED_END_GROUP));
                }
                return Ok(());
            }
            self.skip(tag, wire_type, depth)?;
        }
    }

    /// prost's `decode_key`.
    #[inline(always)]
    fn key(&mut self) -> Result<(u32, WireType), Failed> {
        let key = self.varint()?;
        if key > u64::from(u32::MAX) {
            return Err(fail(format!("invalid key value: {key}")));
        }
        let wire_type = match key & 0x07 {
            0 => WireType::Varint,
            1 => WireType::SixtyFourBit,
            2 => WireType::LengthDelimited,
            3 => WireType::StartGroup,
            4 => WireType::EndGroup,
            5 => WireType::ThirtyTwoBit,
            other => return Err(fail(format!("invalid wire type value: {other}"))),
        };
        let tag = (key >> 3) as u32;
        if tag < 1 {
            return Err(fail("invalid tag value: 0"));
        }
        Ok((tag, wire_type))
    }

    /// prost's `decode_varint`.
    #[inline(always)]
    fn varint(&mut self) -> Result<u64, Failed> {
        varint_at(self.bytes, &mut self.pos).ok_or_else(|| fail(INVALID_VARINT))
    }

    /// A length prefix; returns where the bytes it announces end.
    #[inline(always)]
    fn length(&mut self) -> Result<usize, Failed> {
        let len = self.varint()?;
        match usize::try_from(len) {
            Ok(len) => self.within_bytes(len),
            Err(_) => Err(fail(BUFFER_UNDERFLOW)),
        }
    }

    #[inline(always)]
    fn within_bytes(&self, len: usize) -> Result<usize, Failed> {
        if len > self.bytes.len() - self.pos {
            return Err(fail(BUFFER_UNDERFLOW));
        }
        Ok(self.pos + len)
    }
}

/// How deep [`records_within`] looks inside a message the walk does not enter: deep enough for
/// an options message's uninterpreted options and their name parts, and for source info's
/// locations and their comments.
pub(super) const SKIPPED_DEPTH: usize = 3;

/// How many records lie inside a message the walk does not enter (options, source info,
/// ranges), down to `depth` levels of length-delimited fields that read as messages: each
/// becomes a value when decoded. A string that happens to read as a message is counted as
/// one, which can only overcount. Also says whether the bytes read as a message at all.
/// Counting stops quietly at anything malformed: prost refuses that when it decodes the file,
/// and a file it never decodes costs nothing. Work is at most `depth + 1` reads of the bytes.
pub(super) fn records_within(bytes: &[u8], depth: usize) -> (usize, bool) {
    let mut inner = Scanner {
        bytes,
        pos: 0,
        scan: Scan {
            counts: Counts::default(),
            files: Vec::new(),
            longest: None,
        },
        keep_files: 0,
    };
    let mut records = 0usize;
    while inner.pos < bytes.len() {
        let Ok((_, wire_type)) = inner.key() else {
            return (records, false);
        };
        let skipped = match wire_type {
            WireType::Varint => inner.varint().map(|_| ()),
            WireType::SixtyFourBit => inner.within_bytes(8).map(|end| inner.pos = end),
            WireType::ThirtyTwoBit => inner.within_bytes(4).map(|end| inner.pos = end),
            WireType::LengthDelimited => inner.length().map(|end| {
                if depth > 0 {
                    let (nested, message) = records_within(&bytes[inner.pos..end], depth - 1);
                    if message {
                        records = records.saturating_add(nested);
                    }
                }
                inner.pos = end;
            }),
            WireType::StartGroup | WireType::EndGroup => Ok(()),
        };
        if skipped.is_err() {
            return (records, false);
        }
        records = records.saturating_add(1);
    }
    (records, true)
}

#[inline(always)]
fn expect(actual: WireType, expected: WireType) -> Result<(), Failed> {
    if actual == expected {
        return Ok(());
    }
    Err(fail(format!(
        "invalid wire type: {} (expected {})",
        actual.name(),
        expected.name()
    )))
}
