//! Decoding Pulsar PROTOBUF_NATIVE schema data into a descriptor pool and its root message.

mod descriptor_set;
mod prescan;
mod pulsar_json;

use prost::Message;
use prost_reflect::{DescriptorPool, MessageDescriptor};
use sha2::{Digest, Sha256};

use crate::error::DecodeError;
use crate::limits::Limits;

pub use prescan::{prescan, Counts};
pub use pulsar_json::SchemaData;

/// How many candidate names an error lists before it says "and N more".
const LISTED_NAMES: usize = 10;

/// One decoded schema: the root message inside the pool built from its descriptor set.
#[derive(Debug, Clone)]
pub struct Schema {
    root: MessageDescriptor,
    /// Serialized bytes of the files that were decoded (the root's import closure).
    decoded_bytes: usize,
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
        let pool = descriptor_set::build_pool(&parsed.descriptor_set, &parsed.root_file, limits)?;
        let root = find_root(&pool, &parsed.root_message, &parsed.root_file)?;
        let decoded_bytes = pool
            .files()
            .map(|file| file.file_descriptor_proto().encoded_len())
            .sum();
        Ok(Schema {
            root,
            decoded_bytes,
        })
    }

    pub fn root(&self) -> &MessageDescriptor {
        &self.root
    }

    /// Serialized bytes of what was decoded: the root's import closure, which may be much
    /// less than the schema data (files the root does not import are never decoded). What the
    /// decoded schema takes in memory grows with this.
    pub fn decoded_bytes(&self) -> usize {
        self.decoded_bytes
    }
}

/// The first 12 hex digits of the SHA-256 of `data`.
pub fn short_sha256(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn find_root(
    pool: &DescriptorPool,
    root_message: &str,
    root_file: &str,
) -> Result<MessageDescriptor, DecodeError> {
    match pool.get_message_by_name(root_message) {
        Some(message) if message.parent_file().name() == root_file => Ok(message),
        Some(message) => Err(DecodeError::invalid(format!(
            "root message `{root_message}` is declared in `{}`, not in the root file `{root_file}`",
            message.parent_file().name()
        ))),
        None => {
            let declared: Vec<String> = pool
                .all_messages()
                .filter(|m| m.parent_file().name() == root_file && !m.is_map_entry())
                .map(|m| m.full_name().to_owned())
                .collect();
            Err(DecodeError::invalid(format!(
                "root message `{root_message}` is not declared in the root file `{root_file}` \
                 (it declares: {})",
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
        .map(|n| truncate(n, 120))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > LISTED_NAMES {
        listed.push_str(&format!(" and {} more", names.len() - LISTED_NAMES));
    }
    listed
}

/// Cuts attacker-sized text (names, values) down for messages, on a character boundary.
pub(crate) fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}
