//! Serialized files -> the flat tables of [`Model`], straight from the wire bytes.
//!
//! Each file of the closure is read once, dependencies first; every declaration becomes one row,
//! its names copied once into the model's text (short names interned). Type names are kept as
//! borrowed slices until every file is in, then resolved against one symbol table, which is
//! dropped afterwards: the model keeps indices, not names to look up.
//!
//! Everything protobuf would refuse to build is refused here with the file and the element it
//! is about (docs/rules.md#errors), also in declarations the root never reaches; a feature or
//! an edition this checker does not know is UNSUPPORTED_FEATURE.
//!
//! - `files`: a file, its syntax or edition and its options;
//! - `messages`: messages and their oneofs, fields sorted by number;
//! - `fields`: fields and extensions, each syntax's rules for them;
//! - `enums`, `services`;
//! - `resolve`: once every file is in, type names to rows, and defaults checked.

mod enums;
mod fields;
mod files;
mod messages;
mod resolve;
mod services;

use super::features::{FeatureError, FeatureSet, Features, Syntax};
use super::name_id::OpenScopes;
use super::names::{NameMap, Symbol};
use super::tables::{Model, Str};
use super::tally::Tally;
use crate::error::DecodeError;
use crate::text::bound;
use resolve::Pending;

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
    /// The scope each message and enum was declared in, in the order they were: what the tree
    /// of scopes for relative names is built from (`resolve.rs`).
    declared_in: Vec<(Str, Symbol)>,
    /// The scopes being read, for the ids of the full names declared in them.
    ids: OpenScopes<'a>,
    /// The bytes of the full names built ([`Builder::join`]): a message nested 31 deep in
    /// messages named with a kilobyte builds a 31 KB name out of one more kilobyte, which it
    /// copies and the table of full names hashes.
    full_name_bytes: u64,
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
            declared_in: Vec::new(),
            oneof_features: Vec::new(),
            names: Vec::new(),
            ids: OpenScopes::default(),
            full_name_bytes: 0,
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

    /// A name of a field, oneof or enum value, refused unless it is an identifier, interned:
    /// a name interned before was checked then, and most names recur (`id`, `name`).
    fn intern_identifier(
        &mut self,
        ctx: Context,
        element: &Element<'_>,
        what: &str,
        text: &'a str,
    ) -> Result<Str> {
        if let Some(&s) = self.interned.get(text) {
            return Ok(s);
        }
        self.identifier(ctx, element, what, text)?;
        let s = self.push(text);
        self.interned.insert(text, s);
        Ok(s)
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
        self.full_name_bytes += u64::from(full.len);
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

    /// Refuses a declaration's name that is not an identifier, as protobuf refuses it: ASCII
    /// letters, digits and underscores. Names reach reports, logs and CI runners, where a
    /// newline or an escape sequence in one would be read as a line or a command of its own.
    #[inline]
    fn identifier(
        &self,
        ctx: Context,
        element: &Element<'_>,
        what: &str,
        name: &str,
    ) -> Result<()> {
        if is_identifier(name) {
            return Ok(());
        }
        Err(self.not_an_identifier(ctx, element, what, name))
    }

    #[cold]
    fn not_an_identifier(
        &self,
        ctx: Context,
        element: &Element<'_>,
        what: &str,
        name: &str,
    ) -> BuildError {
        if name.is_empty() {
            return self.refuse(ctx.file, element, format!("{what} has no name"));
        }
        self.refuse(
            ctx.file,
            element,
            format!(
                "{what} is named '{}', which is not an identifier (letters, digits and \
                 underscores only)",
                bound(name, 100)
            ),
        )
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
}

impl Builder<'_> {
    /// A message's or enum's `SymbolVisibility` (`export`, `local`: edition 2024 on), read as
    /// known and not kept: it says which files may name the type, not how it is encoded. A
    /// value descriptor.proto does not define is refused like a feature's unknown value.
    fn visibility(&self, ctx: Context, element: &Element<'_>, value: Option<i32>) -> Result<()> {
        match value {
            // VISIBILITY_UNSET, VISIBILITY_LOCAL, VISIBILITY_EXPORT.
            None | Some(0..=2) => Ok(()),
            Some(n) => Err(BuildError::from(DecodeError::unsupported(format!(
                "visibility set to value {n}, which this checker does not know{}",
                self.place(ctx.file, element)
            )))),
        }
    }
}

/// Whether `name` is one part of a protobuf name: ASCII letters, digits and underscores
/// (protoc's rule; protobuf-java also refuses a leading digit, which the other parsers allow).
fn is_identifier(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| IDENTIFIER_BYTES[b as usize])
}

/// The bytes of an identifier, by value: one load a byte, where the reader spends its time.
const IDENTIFIER_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};
