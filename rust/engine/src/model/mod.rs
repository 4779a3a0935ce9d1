//! The schema model: Pulsar PROTOBUF_NATIVE schema data -> compact tables of the root file's
//! import closure, with effective features, and the root message inside them.
//!
//! From the top down (each place uses only those below it):
//! - `pulsar_json`: the JSON the broker stores, and the descriptor set inside it;
//! - `descriptor_set`: a set to a model, in one pass or after the prescan;
//! - `closure`: which files the root's import closure holds, dependencies first;
//! - `read`: those files read straight from the bytes into [`Model`]'s tables: files,
//!   messages and fields, enums, services, then names resolved (`read/resolve.rs`);
//! - `tally`: the prescan's counts kept while reading, so that most sets are read in one pass;
//! - `prescan`: counts from the raw wire bytes, checked against the limits first;
//! - `set`: the set's file records, and what is wrong with them in prost's words;
//! - `names`: type names resolved as protobuf resolves them;
//! - `name_id`: full names as ids, which two schemas compare in constant time;
//! - `defaults`: declared and implicit default values;
//! - `tables`: the tables and the views the rules read ([`MessageRef`], [`FieldRef`], …);
//! - `features`: edition defaults and inheritance, proto2 and proto3 as their equivalents;
//! - `descriptor_proto` and `wire`: descriptor.proto's field numbers, the wire format.

mod closure;
mod defaults;
mod descriptor_proto;
mod descriptor_set;
mod features;
mod name_id;
mod names;
mod prescan;
mod pulsar_json;
mod read;
mod set;
mod tables;
mod tally;
mod wire;

use crate::error::DecodeError;
use crate::limits::Limits;
use crate::text::bound;

pub use crate::limits::Counts;
pub use defaults::DefaultValue;
pub(crate) use descriptor_proto::tag;
/// How a default's text is read, for what compares defaults outside the model.
pub(crate) mod default_text {
    pub(crate) use super::defaults::{float, integer, unescape};
}
pub use features::{
    EnumType, Features, FieldPresence, JavaUtf8Validation, MessageEncoding, RepeatedFieldEncoding,
    Syntax, Unrecognized, Utf8Validation,
};
pub use prescan::prescan;
pub use pulsar_json::SchemaData;
pub use tables::{
    full_name_bytes_read, Cardinality, EnumRef, FieldRef, FileRef, Kind, MessageRef, Model, Scalar,
};

/// How many candidate names an error lists before it says "and N more".
const LISTED_NAMES: usize = 10;

/// One decoded schema: the model of its root file's import closure, and its root message.
pub struct Schema {
    model: Model,
    root: u32,
    /// What decoding it cost, in work units ([`crate::budget::decode_units`]).
    work: u64,
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schema")
            .field("root", &self.root().full_name())
            .finish_non_exhaustive()
    }
}

impl Schema {
    /// Decodes Pulsar schema data (the JSON the broker stores for PROTOBUF_NATIVE) within the
    /// default [`Limits`].
    pub fn decode(data: &[u8]) -> Result<Schema, DecodeError> {
        Schema::decode_within(data, &Limits::DEFAULT)
    }

    /// Decodes Pulsar schema data, refusing anything past `limits` before doing the work.
    pub fn decode_within(data: &[u8], limits: &Limits) -> Result<Schema, DecodeError> {
        limits.check_size(data.len())?;
        let parsed = SchemaData::parse(data)?;
        let model = descriptor_set::build_model(&parsed.descriptor_set, &parsed.root_file, limits)?;
        let root = find_root(&model, &parsed.root_message, &parsed.root_file)?;
        let work = crate::budget::decode_units(data.len(), &model.read_work);
        Ok(Schema { model, root, work })
    }

    pub fn root(&self) -> MessageRef<'_> {
        self.model.message(self.root)
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    /// What decoding it cost, in work units: what every check that compares it is charged
    /// (`limit.maxCheckWork`).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The heap the decoded schema holds: what it weighs in the decoded-schema cache.
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of::<Schema>() + self.model.heap_bytes()
    }
}

/// A descriptor set's model built in one pass (`None` when that pass gives way to the prescan)
/// and after the prescan, for the tests that hold the two to the same result
/// (`tests/one_pass.rs`, `fuzz/fuzz_targets/one_pass.rs`).
#[doc(hidden)]
pub fn build_both_ways(
    descriptor_set: &[u8],
    root_file: &str,
    limits: &Limits,
) -> (Option<Model>, Result<Model, DecodeError>) {
    descriptor_set::build_both_ways(descriptor_set, root_file, limits)
}

fn find_root(model: &Model, root_message: &str, root_file: &str) -> Result<u32, DecodeError> {
    let messages = (0..model.message_count() as u32).map(|id| model.message(id));
    let found = messages.clone().find(|m| m.full_name() == root_message);
    match found {
        Some(message) if message.file().name() == root_file => Ok(message.id()),
        Some(message) => Err(DecodeError::invalid(format!(
            "root message `{}` is declared in `{}`, not in the root file `{}`",
            bound(root_message, 200),
            bound(message.file().name(), 200),
            bound(root_file, 200)
        ))),
        None => {
            let declared: Vec<String> = messages
                .filter(|m| m.file().name() == root_file && !m.is_map_entry())
                .map(|m| m.full_name().to_owned())
                .collect();
            Err(DecodeError::invalid(format!(
                "root message `{}` is not declared in the root file `{}` \
                 (it declares: {})",
                bound(root_message, 200),
                bound(root_file, 200),
                list_names(&declared, "no messages")
            )))
        }
    }
}

/// A bounded, comma-separated list for error messages.
pub(crate) fn list_names(names: &[String], if_empty: &str) -> String {
    if names.is_empty() {
        return if_empty.to_owned();
    }
    let mut listed = names
        .iter()
        .take(LISTED_NAMES)
        .map(|n| bound(n, 120))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > LISTED_NAMES {
        listed.push_str(&format!(" and {} more", names.len() - LISTED_NAMES));
    }
    listed
}
