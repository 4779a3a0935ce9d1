//! What the model's reader counts as it reads, so that a set can be decoded in one pass instead
//! of a prescan and then a decode.
//!
//! The prescan walks every byte of the set before anything is built, so that a set past the
//! limits never expands. When the root's import closure is the whole set, as a client built
//! from generated classes sends it, the reader sees every declaration itself and can keep the
//! same counts while it builds (`descriptor_set::build_in_one_pass`). It must then refuse
//! everything the prescan refuses, and never build past the limits on the way:
//!
//! - every field descriptor.proto declares is checked for its wire type, read or not, against
//!   the prescan's own table ([`prescan::declared`]);
//! - names, records inside options and ranges, full names and declarations are counted as the
//!   prescan counts them, or over (a full name is counted with one byte more than it can be);
//! - declarations and full names are checked against their limits as they are counted, and
//!   messages nested deeper than [`ONE_PASS_DEPTH`] or a group in an unknown field end the pass.
//!
//! Whatever ends a pass, an error or a count over a limit, sends the set to the prescan and the
//! decode after it, which say what is wrong in the same words as ever. So a set decoded in one
//! pass is one the prescan accepts, and one it refuses is refused as before.

use super::prescan::{self, Kind, Value as Declared};
use super::tables::Model;
use super::wire::{Reader, Value};
use crate::limits::Counts;
use crate::limits::Limits;

/// Messages nested deeper than this end a pass, and the prescan, whose frames are small, walks
/// the set. A pass recurses once per nested message, and the reader's frame is large in a debug
/// build (some 16 KiB): eight levels keep a refused 5,000-deep set within the 256 KiB stack
/// `tests/bad_inputs.rs` gives it. Real schemas nest declarations a few levels; deeper ones are
/// read after the prescan, as before.
const ONE_PASS_DEPTH: u32 = 8;

/// Why a pass ended early. Never seen by a user: the prescan then says what is wrong.
pub(super) const PASS_ENDED: &str = "the set needs the prescan";

/// The counts of one decode.
pub(super) struct Tally {
    /// Whether the prescan has not walked the set: then the limits are checked here.
    one_pass: bool,
    max_declarations: usize,
    max_full_name_bytes: usize,
    depth: u32,
    longest_name: usize,
    nested_records: usize,
    full_name_bytes: usize,
    declarations: usize,
    extensions: usize,
}

impl Tally {
    /// For a set the prescan has walked and the limits have accepted: the counts are kept
    /// (they cost a few additions) but nothing is refused here.
    pub(super) fn after_prescan() -> Tally {
        Tally::new(false, usize::MAX, usize::MAX)
    }

    /// For a set read in one pass: declarations and full names are held to `limits` as they
    /// are counted, so that the tables stop growing where the prescan would have refused.
    pub(super) fn one_pass(limits: &Limits) -> Tally {
        Tally::new(true, limits.max_declarations, limits.max_full_name_bytes)
    }

    fn new(one_pass: bool, max_declarations: usize, max_full_name_bytes: usize) -> Tally {
        Tally {
            one_pass,
            max_declarations,
            max_full_name_bytes,
            depth: 0,
            longest_name: 0,
            nested_records: 0,
            full_name_bytes: 0,
            declarations: 0,
            extensions: 0,
        }
    }

    /// A name: a declaration's, a type name, an import, a JSON name.
    #[inline(always)]
    pub(super) fn name(&mut self, len: usize) {
        self.longest_name = self.longest_name.max(len);
    }

    /// Options, source info or ranges: the records inside them.
    #[inline]
    pub(super) fn skipped(&mut self, bytes: &[u8]) {
        let nested = prescan::records_within(bytes, prescan::SKIPPED_DEPTH).0;
        self.nested_records = self.nested_records.saturating_add(nested);
    }

    /// A declaration named `name_len` bytes in a scope (a package or the full name of the
    /// declaration around it) of `scope_len` bytes. Its full name is counted with its leading
    /// dot, one byte more than the prescan may count.
    #[inline]
    pub(super) fn declared(&mut self, scope_len: u32, name_len: usize) -> Result<(), &'static str> {
        self.declarations += 1;
        let full = scope_len as usize + name_len + 2;
        self.full_name_bytes = self.full_name_bytes.saturating_add(full);
        if self.declarations > self.max_declarations
            || self.full_name_bytes > self.max_full_name_bytes
        {
            return Err(PASS_ENDED);
        }
        Ok(())
    }

    /// The declarations counted so far.
    pub(super) fn declarations(&self) -> usize {
        self.declarations
    }

    /// An extension: a declaration and a field the model keeps no row for.
    pub(super) fn extension(&mut self) {
        self.extensions += 1;
    }

    /// Into a message nested one level deeper.
    #[inline]
    pub(super) fn enter(&mut self) -> Result<(), &'static str> {
        self.depth += 1;
        if self.one_pass && self.depth > ONE_PASS_DEPTH {
            return Err(PASS_ENDED);
        }
        Ok(())
    }

    #[inline]
    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A field of a `kind` message the reader does not use: checked and counted as the prescan
    /// checks and counts it.
    pub(super) fn unread(
        &mut self,
        kind: Kind,
        tag: u32,
        value: Value<'_>,
    ) -> Result<(), &'static str> {
        match (prescan::declared(kind, tag), value) {
            // The prescan walks a group to its end, counting its depth; a pass leaves it to it.
            (None, Value::Group) if self.one_pass => Err(PASS_ENDED),
            (None, _) => Ok(()),
            (Some(Declared::Skip), Value::Bytes(bytes)) => {
                self.skipped(bytes);
                Ok(())
            }
            (Some(Declared::Name(_)), Value::Bytes(bytes)) => {
                self.name(bytes.len());
                Ok(())
            }
            (Some(Declared::Walk(_) | Declared::Text), Value::Bytes(_)) => Ok(()),
            (Some(Declared::Varint), Value::Varint(_)) => Ok(()),
            (Some(Declared::Int32s), Value::Varint(_)) => Ok(()),
            (Some(Declared::Int32s), Value::Bytes(packed)) => {
                let mut reader = Reader::new(packed);
                while !reader.is_done() {
                    reader.varint()?;
                }
                Ok(())
            }
            (Some(_), _) => Err(super::wire::WRONG_WIRE_TYPE),
        }
    }

    /// [`Tally::unread`] for a field whose key `reader` has just read.
    #[inline]
    pub(super) fn unread_key(
        &mut self,
        kind: Kind,
        key: u32,
        reader: &mut Reader<'_>,
    ) -> Result<(), &'static str> {
        let value = reader.value(key)?;
        self.unread(kind, key >> 3, value)
    }

    /// The prescan's counts of a set of `files` records in `set_len` bytes, all of them read
    /// into `model`, or more. Elements are not counted: each is a key and a length at least,
    /// so a set has at most half its length of them.
    pub(super) fn counts(&self, model: &Model, files: usize, set_len: usize) -> Counts {
        Counts {
            files,
            messages: model.messages.len(),
            fields: model.fields.len() + self.extensions,
            enum_values: model.values.len(),
            declarations: self.declarations,
            elements: set_len / 2,
            nested_records: self.nested_records,
            full_name_bytes: self.full_name_bytes,
            longest_name: self.longest_name,
        }
    }
}
