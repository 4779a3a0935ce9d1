//! Serialized files -> the flat tables of [`Model`], straight from the wire bytes.
//!
//! Each file of the closure is read once, dependencies first; every declaration becomes one row,
//! its names copied once into the model's text (short names interned). Type names are kept as
//! borrowed slices until every file is in, then resolved against one symbol table, which is
//! dropped afterwards: the model keeps indices, not names to look up.
//!
//! Everything protobuf would refuse to build is refused here with the file and the element it
//! is about (RULES.md section 4), also in declarations the root never reaches; a feature or an
//! edition this checker does not know is UNSUPPORTED_FEATURE.

use std::collections::HashMap;

use super::defaults;
use super::features::{
    EnumType, FeatureError, FeatureSet, Features, FieldPresence, MessageEncoding,
    RepeatedFieldEncoding, Syntax, EDITION_PROTO2, EDITION_PROTO3,
};
use super::names::{Names, Symbol};
use super::prescan::Kind;
use super::tables::{
    Cardinality, Enum, EnumValue, Field, File, Label, Message, Model, Oneof, Scalar, Span, Str,
    Type, NONE,
};
use super::tally::Tally;
use super::wire::{Fields, Reader};
use crate::error::DecodeError;
use crate::text::bound;

/// Field numbers of descriptor.proto's messages.
mod tag {
    pub mod file {
        pub const NAME: u32 = 1;
        pub const PACKAGE: u32 = 2;
        pub const DEPENDENCY: u32 = 3;
        pub const MESSAGE_TYPE: u32 = 4;
        pub const ENUM_TYPE: u32 = 5;
        pub const SERVICE: u32 = 6;
        pub const EXTENSION: u32 = 7;
        pub const OPTIONS: u32 = 8;
        pub const SYNTAX: u32 = 12;
        pub const EDITION: u32 = 14;
    }
    pub mod file_options {
        pub const JAVA_STRING_CHECK_UTF8: u32 = 27;
        pub const FEATURES: u32 = 50;
    }
    pub mod message {
        pub const NAME: u32 = 1;
        pub const FIELD: u32 = 2;
        pub const NESTED_TYPE: u32 = 3;
        pub const ENUM_TYPE: u32 = 4;
        pub const EXTENSION_RANGE: u32 = 5;
        pub const EXTENSION: u32 = 6;
        pub const OPTIONS: u32 = 7;
        pub const ONEOF_DECL: u32 = 8;
    }
    pub mod message_options {
        pub const MESSAGE_SET_WIRE_FORMAT: u32 = 1;
        pub const MAP_ENTRY: u32 = 7;
        pub const FEATURES: u32 = 12;
    }
    pub mod field {
        pub const NAME: u32 = 1;
        pub const EXTENDEE: u32 = 2;
        pub const NUMBER: u32 = 3;
        pub const LABEL: u32 = 4;
        pub const TYPE: u32 = 5;
        pub const TYPE_NAME: u32 = 6;
        pub const DEFAULT_VALUE: u32 = 7;
        pub const OPTIONS: u32 = 8;
        pub const ONEOF_INDEX: u32 = 9;
        pub const JSON_NAME: u32 = 10;
        pub const PROTO3_OPTIONAL: u32 = 17;
    }
    pub mod field_options {
        pub const PACKED: u32 = 2;
        pub const FEATURES: u32 = 21;
    }
    pub mod oneof {
        pub const NAME: u32 = 1;
        pub const OPTIONS: u32 = 2;
    }
    pub mod oneof_options {
        pub const FEATURES: u32 = 1;
    }
    pub mod enums {
        pub const NAME: u32 = 1;
        pub const VALUE: u32 = 2;
        pub const OPTIONS: u32 = 3;
    }
    pub mod enum_options {
        pub const FEATURES: u32 = 7;
    }
    pub mod enum_value {
        pub const NAME: u32 = 1;
        pub const NUMBER: u32 = 2;
        pub const OPTIONS: u32 = 3;
    }
    pub mod enum_value_options {
        pub const FEATURES: u32 = 2;
    }
    pub mod service {
        pub const NAME: u32 = 1;
        pub const METHOD: u32 = 2;
    }
    pub mod method {
        pub const NAME: u32 = 1;
        pub const INPUT_TYPE: u32 = 2;
        pub const OUTPUT_TYPE: u32 = 3;
    }
}

/// Whole keys (tag and wire type) of the fields the hot loops read with [`Reader`].
mod keys {
    use super::tag;
    use crate::model::wire::{key, LEN, VARINT};

    pub mod message {
        use super::*;
        pub const NAME: u32 = key(tag::message::NAME, LEN);
        pub const FIELD: u32 = key(tag::message::FIELD, LEN);
        pub const NESTED_TYPE: u32 = key(tag::message::NESTED_TYPE, LEN);
        pub const ENUM_TYPE: u32 = key(tag::message::ENUM_TYPE, LEN);
        pub const EXTENSION: u32 = key(tag::message::EXTENSION, LEN);
        pub const OPTIONS: u32 = key(tag::message::OPTIONS, LEN);
        pub const ONEOF_DECL: u32 = key(tag::message::ONEOF_DECL, LEN);
    }
    pub mod field {
        use super::*;
        pub const NAME: u32 = key(tag::field::NAME, LEN);
        pub const EXTENDEE: u32 = key(tag::field::EXTENDEE, LEN);
        pub const NUMBER: u32 = key(tag::field::NUMBER, VARINT);
        pub const LABEL: u32 = key(tag::field::LABEL, VARINT);
        pub const TYPE: u32 = key(tag::field::TYPE, VARINT);
        pub const TYPE_NAME: u32 = key(tag::field::TYPE_NAME, LEN);
        pub const DEFAULT_VALUE: u32 = key(tag::field::DEFAULT_VALUE, LEN);
        pub const OPTIONS: u32 = key(tag::field::OPTIONS, LEN);
        pub const ONEOF_INDEX: u32 = key(tag::field::ONEOF_INDEX, VARINT);
        pub const JSON_NAME: u32 = key(tag::field::JSON_NAME, LEN);
        pub const PROTO3_OPTIONAL: u32 = key(tag::field::PROTO3_OPTIONAL, VARINT);
    }
    pub mod enum_value {
        use super::*;
        pub const NAME: u32 = key(tag::enum_value::NAME, LEN);
        pub const NUMBER: u32 = key(tag::enum_value::NUMBER, VARINT);
        pub const OPTIONS: u32 = key(tag::enum_value::OPTIONS, LEN);
    }
}

/// `FieldDescriptorProto.Type` numbers that name another declaration.
const TYPE_GROUP: i32 = 10;
const TYPE_MESSAGE: i32 = 11;
const TYPE_ENUM: i32 = 14;

/// The largest field number protobuf allows, and the range it keeps for itself.
const MAX_FIELD_NUMBER: i64 = 536_870_911;
const RESERVED_NUMBERS: std::ops::RangeInclusive<i64> = 19_000..=19_999;

/// Why a file could not be read into the model.
pub(crate) enum BuildError {
    /// The bytes are not a well-formed descriptor; the caller asks prost for its words.
    Malformed(&'static str),
    /// Boxed, so that every result of the decoder stays small: errors are rare.
    Refused(Box<DecodeError>),
}

impl From<&'static str> for BuildError {
    fn from(description: &'static str) -> BuildError {
        BuildError::Malformed(description)
    }
}

impl From<DecodeError> for BuildError {
    fn from(error: DecodeError) -> BuildError {
        BuildError::Refused(Box::new(error))
    }
}

type Result<T> = std::result::Result<T, BuildError>;

/// What a name waiting for resolution will become.
enum Target {
    /// A field's type: the row, and its declared `type` (0 when only `type_name` is set).
    Field { row: u32, declared: i32 },
    /// An extension's type, checked and not kept.
    ExtensionType { declared: i32 },
    /// An extension's extendee or a method's input or output: must name a message.
    MessageName,
}

struct Pending<'a> {
    target: Target,
    name: &'a str,
    /// The full name of the scope the name was written in (a package or a message).
    scope: Str,
    file: u32,
    /// What the name belongs to, for errors: the declaration's scope and its own name.
    owner: Str,
    member: &'a str,
}

/// Names are interned and declarations resolved through maps of names. Their hasher is seeded
/// per process, like the standard one, so an input cannot aim collisions at it, and is several
/// times faster on short names.
pub(super) type NameMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

pub(crate) struct Builder<'a> {
    model: Model,
    interned: NameMap<&'a str, Str>,
    pending: Vec<Pending<'a>>,
    scratch: String,
    /// The declarations inside the messages being read, innermost last: (tag, bytes).
    children: Vec<(u32, &'a [u8])>,
    /// The effective features of the oneofs of the messages being read, innermost last.
    oneof_features: Vec<Features>,
    /// One message's field names (interned, so equal names start at the same place) and rows.
    names: Vec<(u32, u32)>,
    /// What the prescan counts, counted again as the files are read.
    tally: Tally,
}

/// Where an error is: a declaration's full name, or a member (`name`) of a scope. Rendered
/// only when an error is, so reading a field builds no text.
#[derive(Clone, Copy)]
struct Element<'e> {
    scope: Str,
    name: &'e str,
}

impl Element<'_> {
    const FILE: Element<'static> = Element {
        scope: Str { start: 0, len: 0 },
        name: "",
    };

    fn named(full_name: Str) -> Element<'static> {
        Element {
            scope: full_name,
            name: "",
        }
    }
}

/// What every declaration of one file is read with.
#[derive(Clone, Copy)]
struct Context {
    file: u32,
    syntax: Syntax,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(tally: Tally) -> Builder<'a> {
        Builder {
            model: Model::default(),
            interned: NameMap::default(),
            pending: Vec::new(),
            scratch: String::new(),
            children: Vec::new(),
            oneof_features: Vec::new(),
            names: Vec::new(),
            tally,
        }
    }

    /// The prescan's counts for the files read so far, `files` records in `set_len` bytes, or
    /// more (see [`Tally::counts`]).
    pub(crate) fn counts(&self, files: usize, set_len: usize) -> super::Counts {
        self.tally.counts(&self.model, files, set_len)
    }

    /// Room for what the prescan counted, so the tables grow without copying.
    pub(crate) fn reserve(&mut self, counts: &super::Counts) {
        let model = &mut self.model;
        model.messages.reserve_exact(counts.messages);
        model.fields.reserve_exact(counts.fields);
        model.values.reserve_exact(counts.enum_values);
        model.by_number.reserve_exact(counts.fields);
    }

    fn intern(&mut self, text: &'a str) -> Str {
        if let Some(&s) = self.interned.get(text) {
            return s;
        }
        let s = self.push(text);
        self.interned.insert(text, s);
        s
    }

    fn push(&mut self, text: &str) -> Str {
        let start = self.model.text.len() as u32;
        self.model.text.push_str(text);
        Str {
            start,
            len: text.len() as u32,
        }
    }

    /// `scope.name` as a new piece of text.
    fn join(&mut self, scope: Str, name: &str) -> (Str, u32) {
        let start = self.model.text.len();
        if scope.len > 0 {
            let scope = scope.start as usize..(scope.start + scope.len) as usize;
            // Through a buffer: the text cannot be read while it grows.
            self.scratch.clear();
            self.scratch.push_str(&self.model.text[scope]);
            self.model.text.push_str(&self.scratch);
            self.model.text.push('.');
        }
        let name_at = (self.model.text.len() - start) as u32;
        self.model.text.push_str(name);
        let full = Str {
            start: start as u32,
            len: (self.model.text.len() - start) as u32,
        };
        (full, name_at)
    }

    fn text(&self, s: Str) -> &str {
        self.model.str(s)
    }

    fn place(&self, file: u32, element: &Element<'_>) -> String {
        let file = self.text(self.model.files[file as usize].name);
        let scope = self.text(element.scope);
        let element = match (scope.is_empty(), element.name.is_empty()) {
            (_, true) => scope.to_owned(),
            (true, false) => element.name.to_owned(),
            (false, false) => format!("{scope}.{}", element.name),
        };
        if element.is_empty() {
            format!(" (file `{}`)", bound(file, 200))
        } else {
            format!(
                " (file `{}`, at {})",
                bound(file, 200),
                bound(&element, 300)
            )
        }
    }

    fn refuse(&self, file: u32, element: &Element<'_>, what: impl AsRef<str>) -> BuildError {
        BuildError::from(DecodeError::invalid(format!(
            "the descriptor set does not build: {}{}",
            what.as_ref(),
            self.place(file, element)
        )))
    }

    fn features(&self, ctx: Context, element: &Element<'_>, bytes: &[u8]) -> Result<FeatureSet> {
        let set = FeatureSet::decode(bytes).map_err(|e| match e {
            FeatureError::Malformed(description) => BuildError::Malformed(description),
            FeatureError::Unknown(what) => BuildError::from(DecodeError::unsupported(format!(
                "{what}{}",
                self.place(ctx.file, element)
            ))),
        })?;
        if !ctx.syntax.is_edition() && !set.is_empty() {
            return Err(self.refuse(
                ctx.file,
                element,
                format!(
                    "features are set in a {} file; they are only valid under Protobuf Editions",
                    ctx.syntax.name()
                ),
            ));
        }
        Ok(set)
    }

    /// Reads one serialized `FileDescriptorProto`; the files it imports must be in already.
    pub(crate) fn file(&mut self, bytes: &'a [u8]) -> Result<()> {
        let mut name = "";
        let mut package = "";
        let mut syntax_text: Option<&str> = None;
        let mut edition: Option<i32> = None;
        let mut options: Option<&[u8]> = None;
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::file::NAME => {
                    name = value.text()?;
                    self.tally.name(name.len());
                }
                tag::file::PACKAGE => {
                    package = value.text()?;
                    self.tally.name(package.len());
                }
                tag::file::SYNTAX => syntax_text = Some(value.text()?),
                tag::file::EDITION => edition = Some(value.int32()?),
                tag::file::OPTIONS => {
                    let bytes = value.bytes()?;
                    self.tally.skipped(bytes);
                    options = Some(bytes);
                }
                _ => self.tally.unread(Kind::File, number, value)?,
            }
        }
        let id = self.model.files.len() as u32;
        let name = self.push(name);
        let package_str = self.push(package);
        self.model.files.push(File {
            name,
            package: package_str,
            syntax: Syntax::Proto2,
        });
        let syntax = self.syntax(id, syntax_text, edition)?;
        self.model.files[id as usize].syntax = syntax;
        let ctx = Context { file: id, syntax };

        let mut features = Features::defaults(syntax);
        if let Some(options) = options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                match number {
                    tag::file_options::FEATURES => {
                        features =
                            features.with(&self.features(ctx, &Element::FILE, value.bytes()?)?)
                    }
                    // Expressed as Java's feature, as protobuf does for proto2 and proto3.
                    tag::file_options::JAVA_STRING_CHECK_UTF8
                        if !syntax.is_edition() && value.bool()? =>
                    {
                        features.java_utf8_validation = super::features::JavaUtf8Validation::Verify
                    }
                    _ => {}
                }
            }
        }

        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::file::MESSAGE_TYPE => {
                    self.message(ctx, package_str, &features, value.bytes()?)?;
                }
                tag::file::ENUM_TYPE => {
                    self.enumeration(ctx, package_str, &features, value.bytes()?)?
                }
                tag::file::EXTENSION => {
                    self.extension(ctx, package_str, value.bytes()?)?;
                }
                tag::file::SERVICE => self.service(ctx, package_str, value.bytes()?)?,
                _ => {}
            }
        }
        Ok(())
    }

    fn syntax(&self, file: u32, text: Option<&str>, edition: Option<i32>) -> Result<Syntax> {
        let file_name = bound(self.text(self.model.files[file as usize].name), 200);
        match text.unwrap_or("") {
            "" | "proto2" if matches!(edition, None | Some(EDITION_PROTO2)) => Ok(Syntax::Proto2),
            "proto3" if matches!(edition, None | Some(EDITION_PROTO3)) => Ok(Syntax::Proto3),
            "editions" => match edition {
                Some(number) => Syntax::from_edition(number).ok_or_else(|| {
                    BuildError::from(DecodeError::unsupported(format!(
                        "file `{file_name}` uses {}; this checker supports proto2, proto3 and \
                         editions 2023 and 2024",
                        edition_name(number)
                    )))
                }),
                None => Err(BuildError::from(DecodeError::invalid(format!(
                    "file `{file_name}` declares syntax \"editions\" but no edition"
                )))),
            },
            "" | "proto2" | "proto3" => Err(BuildError::from(DecodeError::invalid(format!(
                "file `{file_name}` declares syntax `{}` and {}",
                text.unwrap_or("proto2"),
                edition_name(edition.unwrap_or(0))
            )))),
            other => Err(BuildError::from(DecodeError::invalid(format!(
                "file `{file_name}` declares unknown syntax `{}`",
                bound(other, 40)
            )))),
        }
    }

    /// Reads a `DescriptorProto` declared in `scope`; returns its row.
    ///
    /// Its bytes are read once: the name and options are taken at once, every declaration
    /// inside is set aside on [`Builder::children`] and read afterwards, oneofs first (fields
    /// refer to them), then fields, then nested messages, enums and extensions.
    fn message(
        &mut self,
        ctx: Context,
        scope: Str,
        parent: &Features,
        bytes: &'a [u8],
    ) -> Result<u32> {
        self.tally.enter()?;
        let mark = self.children.len();
        let mut name = "";
        let mut options: Option<&[u8]> = None;
        let mut extension_ranges = false;
        let mut reader = Reader::new(bytes);
        while !reader.is_done() {
            match reader.key()? {
                keys::message::NAME => {
                    name = reader.text()?;
                    self.tally.name(name.len());
                }
                keys::message::OPTIONS => {
                    let bytes = reader.bytes()?;
                    self.tally.skipped(bytes);
                    options = Some(bytes);
                }
                key @ (keys::message::FIELD
                | keys::message::ONEOF_DECL
                | keys::message::NESTED_TYPE
                | keys::message::ENUM_TYPE
                | keys::message::EXTENSION) => self.children.push((key >> 3, reader.bytes()?)),
                other => {
                    self.tally.unread_key(Kind::Message, other, &mut reader)?;
                    extension_ranges |= other >> 3 == tag::message::EXTENSION_RANGE;
                }
            }
        }
        self.tally.declared(scope.len, name.len())?;
        let children = mark..self.children.len();
        let (full_name, name_at) = self.join(scope, name);
        let id = self.model.messages.len() as u32;
        let element = Element::named(full_name);
        if name.is_empty() {
            return Err(self.refuse(ctx.file, &element, "a message has no name"));
        }
        let mut features = *parent;
        let mut map_entry = false;
        let mut message_set = false;
        if let Some(options) = options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                match number {
                    tag::message_options::MAP_ENTRY => map_entry = value.bool()?,
                    tag::message_options::MESSAGE_SET_WIRE_FORMAT => message_set = value.bool()?,
                    tag::message_options::FEATURES => {
                        features = features.with(&self.features(ctx, &element, value.bytes()?)?)
                    }
                    _ => {}
                }
            }
        }
        let oneofs = Span {
            start: self.model.oneofs.len() as u32,
            len: 0,
        };
        let oneof_features = self.oneof_features.len();
        for child in children.clone() {
            let (number, bytes) = self.children[child];
            if number != tag::message::ONEOF_DECL {
                continue;
            }
            let (oneof_name, oneof_options) = oneof(&mut self.tally, bytes)?;
            self.tally.declared(full_name.len, oneof_name.len())?;
            let mut own = features;
            if let Some(options) = oneof_options {
                for field in Fields::new(options) {
                    let (number, value) = field?;
                    if number == tag::oneof_options::FEATURES {
                        own = own.with(&self.features(ctx, &element, value.bytes()?)?);
                    }
                }
            }
            self.oneof_features.push(own);
            let oneof_name = self.intern(oneof_name);
            self.model.oneofs.push(Oneof {
                name: oneof_name,
                synthetic: true,
            });
        }
        let oneofs = Span {
            len: self.model.oneofs.len() as u32 - oneofs.start,
            ..oneofs
        };
        self.model.beyond_fields |=
            extension_ranges || message_set || features.unrecognized.is_some();
        self.model.messages.push(Message {
            full_name,
            name_at,
            file: ctx.file,
            fields: Span::default(),
            sorted: 0,
            oneofs,
            map_entry,
            extension_ranges,
            message_set,
            features,
        });

        let field_start = self.model.fields.len() as u32;
        for child in children.clone() {
            let (number, bytes) = self.children[child];
            if number == tag::message::FIELD {
                self.field(ctx, id, &features, oneof_features, bytes)?;
            }
        }
        self.oneof_features.truncate(oneof_features);
        let field_count = self.model.fields.len() as u32 - field_start;
        self.model.messages[id as usize].fields = Span {
            start: field_start,
            len: field_count,
        };
        self.sort_fields(ctx, id)?;
        self.mark_real_oneofs(id);

        for child in children {
            let (number, bytes) = self.children[child];
            match number {
                tag::message::NESTED_TYPE => {
                    self.message(ctx, full_name, &features, bytes)?;
                }
                tag::message::ENUM_TYPE => self.enumeration(ctx, full_name, &features, bytes)?,
                tag::message::EXTENSION => self.extension(ctx, full_name, bytes)?,
                _ => {}
            }
        }
        self.children.truncate(mark);
        self.tally.leave();
        Ok(id)
    }

    /// Fills in the message's field indices sorted by number, refusing a number or a name
    /// used twice. Fields are usually declared in number order, and names are interned, so
    /// neither check compares text.
    fn sort_fields(&mut self, ctx: Context, message: u32) -> Result<()> {
        let model = &mut self.model;
        let fields = model.messages[message as usize].fields;
        let sorted = model.by_number.len();
        model.by_number.extend(fields.range().map(|f| f as u32));
        let rows = &model.fields;
        let by_number = &mut model.by_number[sorted..];
        if !by_number
            .windows(2)
            .all(|w| rows[w[0] as usize].number < rows[w[1] as usize].number)
        {
            by_number.sort_unstable_by_key(|&f| (rows[f as usize].number, f));
        }
        let twice_number = by_number
            .windows(2)
            .find(|w| rows[w[0] as usize].number == rows[w[1] as usize].number)
            .map(|w| (w[0], w[1]));
        model.messages[message as usize].sorted = sorted as u32;

        self.names.clear();
        self.names.extend(
            fields
                .range()
                .map(|f| (self.model.fields[f].name.start, f as u32)),
        );
        self.names.sort_unstable();
        let twice_name = self
            .names
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| w[1].1);

        let owner = self.model.messages[message as usize].full_name;
        if let Some((first, second)) = twice_number {
            let first = self.text(self.model.fields[first as usize].name).to_owned();
            let second_row = &self.model.fields[second as usize];
            let second = self.text(second_row.name).to_owned();
            return Err(self.refuse(
                ctx.file,
                &Element {
                    scope: owner,
                    name: &second,
                },
                format!(
                    "field number '{}' is used by both '{}' and '{}'",
                    second_row.number,
                    bound(&first, 100),
                    bound(&second, 100)
                ),
            ));
        }
        if let Some(second) = twice_name {
            let second = self
                .text(self.model.fields[second as usize].name)
                .to_owned();
            return Err(self.refuse(
                ctx.file,
                &Element {
                    scope: owner,
                    name: &second,
                },
                format!("field name '{}' is declared twice", bound(&second, 100)),
            ));
        }
        Ok(())
    }

    /// A oneof is synthetic (protoc's wrapper of a proto3 `optional` field) when all its
    /// fields are proto3 optional.
    fn mark_real_oneofs(&mut self, message: u32) {
        let row = &self.model.messages[message as usize];
        let (fields, oneofs) = (row.fields, row.oneofs);
        for f in fields.range() {
            let field = &self.model.fields[f];
            if field.oneof != NONE && !field.proto3_optional {
                self.model.oneofs[field.oneof as usize].synthetic = false;
            }
        }
        let _ = oneofs;
    }

    /// Reads a field of `message`.
    #[inline(always)]
    fn field(
        &mut self,
        ctx: Context,
        message: u32,
        features: &Features,
        oneof_features: usize,
        bytes: &'a [u8],
    ) -> Result<()> {
        let raw = RawField::read(bytes, &mut self.tally)?;
        let oneof_count = self.oneof_features.len() - oneof_features;
        let owner = self.model.messages[message as usize].full_name;
        let element = Element {
            scope: owner,
            name: raw.name,
        };
        if raw.name.is_empty() {
            return Err(self.refuse(ctx.file, &element, "a field has no name"));
        }
        self.tally.declared(owner.len, raw.name.len())?;
        let number = self.field_number(ctx, &element, raw.number)?;
        let label = self.label(ctx, &element, raw.label)?;
        let oneof = match raw.oneof_index {
            None => NONE,
            Some(i) if (i as usize) < oneof_count => {
                self.model.messages[message as usize].oneofs.start + i as u32
            }
            Some(i) => {
                return Err(self.refuse(
                    ctx.file,
                    &element,
                    format!("oneof index {i} is out of range"),
                ))
            }
        };
        let mut own = match raw.oneof_index {
            Some(i) => self.oneof_features[oneof_features + i as usize],
            None => *features,
        };
        let mut packed: Option<bool> = None;
        if let Some(options) = raw.options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                match number {
                    tag::field_options::PACKED => packed = Some(value.bool()?),
                    tag::field_options::FEATURES => {
                        own = own.with(&self.features(ctx, &element, value.bytes()?)?)
                    }
                    _ => {}
                }
            }
        }
        self.syntax_rules(ctx, &element, &raw, label, packed)?;
        // proto2 and proto3 expressed as features, as protobuf's legacy features do.
        if !ctx.syntax.is_edition() {
            if label == Label::Required {
                own.field_presence = FieldPresence::LegacyRequired;
            }
            if raw.proto3_optional {
                own.field_presence = FieldPresence::Explicit;
            }
            if raw.declared == TYPE_GROUP {
                own.message_encoding = MessageEncoding::Delimited;
            }
            if let Some(packed) = packed {
                own.repeated_field_encoding = if packed {
                    RepeatedFieldEncoding::Packed
                } else {
                    RepeatedFieldEncoding::Expanded
                };
            }
        }
        let ty = self.declared_type(ctx, &element, &raw)?;
        let row = self.model.fields.len() as u32;
        let name = self.intern(raw.name);
        let default = raw.default.map(|d| self.push(d));
        if !matches!(ty, Type::Scalar(_)) || raw.declared == 0 {
            self.pending.push(Pending {
                target: Target::Field {
                    row,
                    declared: raw.declared,
                },
                name: raw.type_name.unwrap_or(""),
                scope: owner,
                file: ctx.file,
                owner,
                member: raw.name,
            });
        }
        let mut row = Field {
            name,
            number,
            message,
            label,
            ty,
            oneof,
            default,
            proto3_optional: raw.proto3_optional,
            features: own,
            cardinality: Cardinality::Optional,
            packed: false,
            validates_utf8: false,
        };
        row.settle(self.model.messages[message as usize].map_entry);
        self.model.beyond_fields |= row.features.unrecognized.is_some();
        self.model.fields.push(row);
        Ok(())
    }

    #[inline(always)]
    fn field_number(
        &self,
        ctx: Context,
        element: &Element<'_>,
        number: Option<i32>,
    ) -> Result<u32> {
        let number = i64::from(number.unwrap_or(0));
        if !(1..=MAX_FIELD_NUMBER).contains(&number) || RESERVED_NUMBERS.contains(&number) {
            let why = if RESERVED_NUMBERS.contains(&number) {
                " (19000 to 19999 are reserved for protobuf)"
            } else {
                ""
            };
            return Err(self.refuse(
                ctx.file,
                element,
                format!("invalid field number '{number}'{why}"),
            ));
        }
        Ok(number as u32)
    }

    #[inline(always)]
    fn label(&self, ctx: Context, element: &Element<'_>, label: Option<i32>) -> Result<Label> {
        match label {
            None | Some(1) => Ok(Label::Optional),
            Some(2) => Ok(Label::Required),
            Some(3) => Ok(Label::Repeated),
            Some(other) => Err(self.refuse(ctx.file, element, format!("unknown label {other}"))),
        }
    }

    /// What each syntax forbids of a field, as protobuf refuses it.
    fn syntax_rules(
        &self,
        ctx: Context,
        element: &Element<'_>,
        raw: &RawField<'_>,
        label: Label,
        packed: Option<bool>,
    ) -> Result<()> {
        let refuse = |what: &str| Err(self.refuse(ctx.file, element, what));
        match ctx.syntax {
            Syntax::Proto3 if label == Label::Required => {
                refuse("required fields are not allowed in proto3")
            }
            Syntax::Proto3 if raw.declared == TYPE_GROUP => {
                refuse("groups are not allowed in proto3")
            }
            Syntax::Proto3 if raw.default.is_some() => {
                refuse("explicit default values are not allowed in proto3")
            }
            Syntax::Edition2023 | Syntax::Edition2024 if label == Label::Required => refuse(
                "the required label is not allowed under Editions; \
                 use features.field_presence = LEGACY_REQUIRED",
            ),
            Syntax::Edition2023 | Syntax::Edition2024 if packed.is_some() => refuse(
                "the packed option is not allowed under Editions; \
                 use features.repeated_field_encoding",
            ),
            _ if raw.proto3_optional && ctx.syntax != Syntax::Proto3 => {
                refuse("proto3_optional is set outside proto3")
            }
            _ if raw.default.is_some() && label == Label::Repeated => {
                refuse("repeated fields cannot have default values")
            }
            _ => Ok(()),
        }
    }

    /// The stored type before resolution: a scalar, or a placeholder row.
    #[inline(always)]
    fn declared_type(
        &self,
        ctx: Context,
        element: &Element<'_>,
        raw: &RawField<'_>,
    ) -> Result<Type> {
        match raw.declared {
            TYPE_GROUP => Ok(Type::Group(NONE)),
            TYPE_MESSAGE => Ok(Type::Message(NONE)),
            TYPE_ENUM => Ok(Type::Enum(NONE)),
            0 if raw.type_name.is_some() => Ok(Type::Message(NONE)),
            0 => Err(self.refuse(ctx.file, element, "the field has no type")),
            n => match Scalar::from_type(n) {
                Some(scalar) if raw.type_name.is_none() => Ok(Type::Scalar(scalar)),
                Some(scalar) => Err(self.refuse(
                    ctx.file,
                    element,
                    format!("a {} field has a type name", scalar.name()),
                )),
                None => Err(self.refuse(ctx.file, element, format!("unknown field type {n}"))),
            },
        }
    }

    /// An extension: its number, type and extendee are checked; nothing of it is kept, since
    /// no rule reads extensions.
    fn extension(&mut self, ctx: Context, scope: Str, bytes: &'a [u8]) -> Result<()> {
        let raw = RawField::read(bytes, &mut self.tally)?;
        self.tally.declared(scope.len, raw.name.len())?;
        self.tally.extension();
        let element = Element {
            scope,
            name: raw.name,
        };
        self.field_number(ctx, &element, raw.number)?;
        self.label(ctx, &element, raw.label)?;
        self.declared_type(ctx, &element, &raw)?;
        let Some(extendee) = raw.extendee else {
            return Err(self.refuse(ctx.file, &element, "an extension has no extendee"));
        };
        let pending = |target, name| Pending {
            target,
            name,
            scope,
            file: ctx.file,
            owner: scope,
            member: raw.name,
        };
        self.pending.push(pending(Target::MessageName, extendee));
        if let Some(type_name) = raw.type_name {
            self.pending.push(pending(
                Target::ExtensionType {
                    declared: raw.declared,
                },
                type_name,
            ));
        }
        Ok(())
    }

    /// A service: its methods' input and output types must resolve to messages.
    fn service(&mut self, ctx: Context, scope: Str, bytes: &'a [u8]) -> Result<()> {
        let mut name = "";
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            if number == tag::service::NAME {
                name = value.text()?;
                self.tally.name(name.len());
            } else {
                self.tally.unread(Kind::Service, number, value)?;
            }
        }
        self.tally.declared(scope.len, name.len())?;
        let (owner, _) = self.join(scope, name);
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            if number != tag::service::METHOD {
                continue;
            }
            let mut method = "";
            let mut types = Vec::with_capacity(2);
            for field in Fields::new(value.bytes()?) {
                let (number, value) = field?;
                match number {
                    tag::method::NAME => {
                        method = value.text()?;
                        self.tally.name(method.len());
                    }
                    tag::method::INPUT_TYPE | tag::method::OUTPUT_TYPE => {
                        let type_name = value.text()?;
                        self.tally.name(type_name.len());
                        types.push(type_name);
                    }
                    _ => self.tally.unread(Kind::Method, number, value)?,
                }
            }
            self.tally.declared(owner.len, method.len())?;
            for type_name in types {
                self.pending.push(Pending {
                    target: Target::MessageName,
                    name: type_name,
                    scope,
                    file: ctx.file,
                    owner,
                    member: method,
                });
            }
        }
        Ok(())
    }

    fn enumeration(
        &mut self,
        ctx: Context,
        scope: Str,
        parent: &Features,
        bytes: &'a [u8],
    ) -> Result<()> {
        let mut name = "";
        let mut options: Option<&[u8]> = None;
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::enums::NAME => {
                    name = value.text()?;
                    self.tally.name(name.len());
                }
                tag::enums::OPTIONS => {
                    let bytes = value.bytes()?;
                    self.tally.skipped(bytes);
                    options = Some(bytes);
                }
                _ => self.tally.unread(Kind::Enum, number, value)?,
            }
        }
        self.tally.declared(scope.len, name.len())?;
        let (full_name, name_at) = self.join(scope, name);
        let element = Element::named(full_name);
        if name.is_empty() {
            return Err(self.refuse(ctx.file, &element, "an enum has no name"));
        }
        let mut features = *parent;
        if let Some(options) = options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                if number == tag::enum_options::FEATURES {
                    features = features.with(&self.features(ctx, &element, value.bytes()?)?);
                }
            }
        }
        let start = self.model.values.len() as u32;
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            if number != tag::enums::VALUE {
                continue;
            }
            let mut value_name = "";
            let mut value_number = 0;
            let mut reader = Reader::new(value.bytes()?);
            while !reader.is_done() {
                match reader.key()? {
                    keys::enum_value::NAME => {
                        value_name = reader.text()?;
                        self.tally.name(value_name.len());
                    }
                    keys::enum_value::NUMBER => value_number = reader.int32()?,
                    keys::enum_value::OPTIONS => {
                        let options = reader.bytes()?;
                        self.tally.skipped(options);
                        for field in Fields::new(options) {
                            let (number, value) = field?;
                            if number == tag::enum_value_options::FEATURES {
                                let set = self.features(ctx, &element, value.bytes()?)?;
                                // Nothing inherits a value's features, so the enum carries
                                // what its values could not have interpreted.
                                features.unrecognized = features.unrecognized.or(set.unrecognized);
                            }
                        }
                    }
                    other => self.tally.unread_key(Kind::EnumValue, other, &mut reader)?,
                }
            }
            if value_name.is_empty() {
                return Err(self.refuse(ctx.file, &element, "an enum value has no name"));
            }
            self.tally.declared(full_name.len, value_name.len())?;
            let value_name = self.intern(value_name);
            self.model.values.push(EnumValue {
                name: value_name,
                number: value_number,
            });
        }
        let values = Span {
            start,
            len: self.model.values.len() as u32 - start,
        };
        if values.len == 0 {
            return Err(self.refuse(ctx.file, &element, "enums must contain at least one value"));
        }
        // The values sorted by name (which finds a name declared twice) and by number, once:
        // `conservative` compares enums pair by pair, in one pass over each order.
        let model = &mut self.model;
        let name_of = |row: u32| model.str(model.values[row as usize].name);
        let mut by_name: Vec<u32> = values.range().map(|row| row as u32).collect();
        by_name.sort_unstable_by(|&a, &b| name_of(a).cmp(name_of(b)));
        let twice = by_name
            .windows(2)
            .find(|w| name_of(w[0]) == name_of(w[1]))
            .map(|w| name_of(w[0]).to_owned());
        let mut by_number = by_name.clone();
        // Stable: aliases keep their declaration order.
        by_number.sort_by_key(|&row| (model.values[row as usize].number, row));
        model.values_by_name.extend(by_name);
        model.values_by_number.extend(by_number);
        let rows = &self.model.values[values.range()];
        if let Some(twice) = twice {
            return Err(self.refuse(
                ctx.file,
                &Element {
                    scope: full_name,
                    name: &twice,
                },
                format!("enum value '{}' is declared twice", bound(&twice, 100)),
            ));
        }
        if ctx.syntax == Syntax::Proto3 && rows[0].number != 0 {
            return Err(self.refuse(
                ctx.file,
                &element,
                "the first value of a proto3 enum must be zero",
            ));
        }
        self.model.beyond_fields |= features.unrecognized.is_some();
        self.model.enums.push(Enum {
            full_name,
            name_at,
            file: ctx.file,
            values,
            features,
        });
        Ok(())
    }

    /// Resolves every type name, validates defaults, and returns the model.
    pub(crate) fn finish(mut self) -> std::result::Result<Model, DecodeError> {
        let pending = std::mem::take(&mut self.pending);
        let mut names = self.names()?;
        let mut resolved: Vec<(u32, Type)> = Vec::new();
        for p in &pending {
            let found = names.resolve(p.name, self.model.str(p.scope));
            let what = |this: &Self, text: String| {
                let element = Element {
                    scope: p.owner,
                    name: p.member,
                };
                match this.refuse(p.file, &element, text) {
                    BuildError::Refused(e) => *e,
                    BuildError::Malformed(d) => DecodeError::invalid(d),
                }
            };
            let Some(symbol) = found else {
                let text = if p.name.is_empty() {
                    "the field has no type name".to_owned()
                } else {
                    format!("'{}' is not defined", bound(p.name, 200))
                };
                return Err(what(&self, text));
            };
            let expected_message = match p.target {
                Target::Field { declared, .. } | Target::ExtensionType { declared } => {
                    match declared {
                        TYPE_MESSAGE | TYPE_GROUP => Some(true),
                        TYPE_ENUM => Some(false),
                        _ => None,
                    }
                }
                Target::MessageName => Some(true),
            };
            let is_message = matches!(symbol, Symbol::Message(_));
            if expected_message.is_some_and(|m| m != is_message) {
                let kind = if is_message { "a message" } else { "an enum" };
                return Err(what(
                    &self,
                    format!(
                        "'{}' is {kind}, which the declared type does not allow",
                        bound(p.name, 200)
                    ),
                ));
            }
            if let Target::Field { row, declared } = p.target {
                let ty = match symbol {
                    Symbol::Enum(e) => Type::Enum(e),
                    Symbol::Message(m) => {
                        let field = &self.model.fields[row as usize];
                        let delimited = declared == TYPE_GROUP
                            || (field.features.message_encoding == MessageEncoding::Delimited
                                && !self.model.messages[m as usize].map_entry
                                && !self.model.messages[field.message as usize].map_entry);
                        if delimited {
                            Type::Group(m)
                        } else {
                            Type::Message(m)
                        }
                    }
                };
                resolved.push((row, ty));
            }
        }
        for (row, ty) in resolved {
            let field = &mut self.model.fields[row as usize];
            field.ty = ty;
            field.settle(self.model.messages[field.message as usize].map_entry);
            // Java reads the field as closed while its enum is open.
            if let Type::Enum(e) = ty {
                self.model.beyond_fields |= field.features.java_legacy_closed_enum
                    && self.model.enums[e as usize].features.enum_type != EnumType::Closed;
            }
        }
        self.check_defaults()?;
        // Tables grown row by row have room to spare, which a cached model would carry.
        self.model.shrink_to_fit();
        Ok(self.model)
    }

    /// Every message and enum, by full name and by scope; a name declared twice is refused.
    fn names(&self) -> std::result::Result<Names<'_>, DecodeError> {
        let model = &self.model;
        let mut names = Names::new(model.messages.len() + model.enums.len());
        let declared = model
            .messages
            .iter()
            .enumerate()
            .map(|(i, m)| (m.full_name, m.file, Symbol::Message(i as u32)))
            .chain(
                model
                    .enums
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.full_name, e.file, Symbol::Enum(i as u32))),
            );
        for (full_name, file, symbol) in declared {
            let name = model.str(full_name);
            if !names.declare(name, symbol) {
                let error = self.refuse(
                    file,
                    &Element::named(full_name),
                    format!("'{}' is already defined", bound(name, 200)),
                );
                return Err(match error {
                    BuildError::Refused(e) => *e,
                    BuildError::Malformed(d) => DecodeError::invalid(d),
                });
            }
        }
        Ok(names)
    }

    fn check_defaults(&self) -> std::result::Result<(), DecodeError> {
        for (id, row) in self.model.fields.iter().enumerate() {
            let Some(text) = row.default else {
                continue;
            };
            let field = self.model.field(id as u32);
            if let Err(what) = defaults::parse(self.text(text), &field.kind()) {
                let message = field.message();
                let element = Element {
                    scope: self.model.messages[row.message as usize].full_name,
                    name: field.name(),
                };
                return Err(match self.refuse(message.file_index(), &element, what) {
                    BuildError::Refused(e) => *e,
                    BuildError::Malformed(d) => DecodeError::invalid(d),
                });
            }
        }
        Ok(())
    }
}

/// A oneof's name and options.
fn oneof<'b>(tally: &mut Tally, bytes: &'b [u8]) -> Result<(&'b str, Option<&'b [u8]>)> {
    let mut name = "";
    let mut options = None;
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        match number {
            tag::oneof::NAME => {
                name = value.text()?;
                tally.name(name.len());
            }
            tag::oneof::OPTIONS => {
                let bytes = value.bytes()?;
                tally.skipped(bytes);
                options = Some(bytes);
            }
            _ => tally.unread(Kind::Oneof, number, value)?,
        }
    }
    Ok((name, options))
}

/// A `FieldDescriptorProto` as read, before any check.
struct RawField<'a> {
    name: &'a str,
    number: Option<i32>,
    label: Option<i32>,
    declared: i32,
    type_name: Option<&'a str>,
    extendee: Option<&'a str>,
    default: Option<&'a str>,
    options: Option<&'a [u8]>,
    oneof_index: Option<i32>,
    proto3_optional: bool,
}

impl<'a> RawField<'a> {
    // Inlined, so that the fields read stay in registers: returned through memory, the
    // struct's small parts were stored piecewise and loaded whole, which stalls every field.
    #[inline(always)]
    fn read(bytes: &'a [u8], tally: &mut Tally) -> Result<RawField<'a>> {
        let mut raw = RawField {
            name: "",
            number: None,
            label: None,
            declared: 0,
            type_name: None,
            extendee: None,
            default: None,
            options: None,
            oneof_index: None,
            proto3_optional: false,
        };
        let mut reader = Reader::new(bytes);
        // protoc, protox and protobuf-java write a field's parts in tag order, and most fields
        // have a name, number, label and type: those are tried in that order first, tests the
        // branch predictor learns, where a `match` of every key is a jump it mispredicts.
        // Whatever follows, or comes in another order, goes through the `match`.
        let mut key = reader.next_key()?;
        if key == Some(keys::field::NAME) {
            raw.name = reader.text()?;
            tally.name(raw.name.len());
            key = reader.next_key()?;
        }
        if key == Some(keys::field::NUMBER) {
            raw.number = Some(reader.int32()?);
            key = reader.next_key()?;
        }
        if key == Some(keys::field::LABEL) {
            raw.label = Some(reader.int32()?);
            key = reader.next_key()?;
        }
        if key == Some(keys::field::TYPE) {
            raw.declared = reader.int32()?;
            key = reader.next_key()?;
        }
        while let Some(current) = key {
            match current {
                keys::field::NAME => {
                    raw.name = reader.text()?;
                    tally.name(raw.name.len());
                }
                keys::field::EXTENDEE => {
                    let extendee = reader.text()?;
                    tally.name(extendee.len());
                    raw.extendee = Some(extendee);
                }
                keys::field::NUMBER => raw.number = Some(reader.int32()?),
                keys::field::LABEL => raw.label = Some(reader.int32()?),
                keys::field::TYPE => raw.declared = reader.int32()?,
                keys::field::TYPE_NAME => {
                    let type_name = reader.text()?;
                    tally.name(type_name.len());
                    raw.type_name = Some(type_name);
                }
                keys::field::DEFAULT_VALUE => raw.default = Some(reader.text()?),
                keys::field::OPTIONS => {
                    let options = reader.bytes()?;
                    tally.skipped(options);
                    raw.options = Some(options);
                }
                // Not kept, but read here: protoc writes one for every field.
                keys::field::JSON_NAME => tally.name(reader.bytes()?.len()),
                keys::field::ONEOF_INDEX => {
                    let index = reader.int32()?;
                    if index < 0 {
                        return Err(BuildError::Malformed("a oneof index is negative"));
                    }
                    raw.oneof_index = Some(index)
                }
                keys::field::PROTO3_OPTIONAL => raw.proto3_optional = reader.bool()?,
                other => tally.unread_key(Kind::Field, other, &mut reader)?,
            }
            key = reader.next_key()?;
        }
        Ok(raw)
    }
}

/// The names a file's `dependency` field lists, read without decoding the file.
pub(crate) fn dependencies(bytes: &[u8]) -> std::result::Result<Vec<&str>, &'static str> {
    let mut names = Vec::new();
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        if number == tag::file::DEPENDENCY {
            names.push(value.text()?);
        }
    }
    Ok(names)
}

/// The edition as descriptor.proto's `Edition` enum names it.
fn edition_name(number: i32) -> String {
    match number {
        0 => "no edition".to_owned(),
        EDITION_PROTO2 => "EDITION_PROTO2".to_owned(),
        EDITION_PROTO3 => "EDITION_PROTO3".to_owned(),
        9999 => "EDITION_UNSTABLE".to_owned(),
        i32::MAX => "EDITION_MAX".to_owned(),
        1..=2 | 99_997..=99_999 => format!("test-only edition {number}"),
        n => format!("edition number {n}"),
    }
}
