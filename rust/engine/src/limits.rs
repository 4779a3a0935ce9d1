//! Resource bounds: schema data comes from any client with schema rights, so everything that
//! grows with it is capped before the work starts, and a schema past a cap is refused fast with
//! RESOURCE_LIMIT_EXCEEDED, naming the limit and how to raise it.

use prost_types::{DescriptorProto, FileDescriptorSet};

use crate::error::DecodeError;

/// The caps. Defaults are far above real schemas (descriptor.proto is 30 messages, 9 KB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of schema data (the JSON the broker stores).
    pub max_schema_bytes: usize,
    /// Files in a descriptor set.
    pub max_files: usize,
    /// Messages in a descriptor set, nested ones and map entries included.
    pub max_messages: usize,
    /// Fields in a descriptor set, extensions included.
    pub max_fields: usize,
    /// Field pairs compared in one check, over its whole history.
    pub max_field_comparisons: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_schema_bytes: 16 << 20,
        max_files: 1_000,
        max_messages: 50_000,
        max_fields: 500_000,
        max_field_comparisons: 50_000_000,
    };

    /// The system property of the broker plugin for each limit, for error messages.
    pub(crate) fn property(name: &str) -> String {
        format!("-Dprotocompat.limit.{name}")
    }

    pub(crate) fn check_size(&self, bytes: usize) -> Result<(), DecodeError> {
        exceeded(
            "schema data",
            bytes,
            self.max_schema_bytes,
            "maxSchemaBytes",
            "bytes",
        )
    }

    /// Counts without recursion (nesting is bounded by protobuf's parse limit anyway).
    pub(crate) fn check_set(&self, set: &FileDescriptorSet) -> Result<(), DecodeError> {
        exceeded(
            "the descriptor set",
            set.file.len(),
            self.max_files,
            "maxFiles",
            "files",
        )?;
        let mut messages = 0usize;
        let mut fields = 0usize;
        let mut pending: Vec<&DescriptorProto> = Vec::new();
        for file in &set.file {
            fields += file.extension.len();
            pending.extend(&file.message_type);
            while let Some(message) = pending.pop() {
                messages += 1;
                fields += message.field.len() + message.extension.len();
                pending.extend(&message.nested_type);
            }
        }
        exceeded(
            "the descriptor set",
            messages,
            self.max_messages,
            "maxMessages",
            "messages",
        )?;
        exceeded(
            "the descriptor set",
            fields,
            self.max_fields,
            "maxFields",
            "fields",
        )
    }
}

fn exceeded(
    what: &str,
    count: usize,
    limit: usize,
    name: &str,
    unit: &str,
) -> Result<(), DecodeError> {
    if count <= limit {
        return Ok(());
    }
    Err(DecodeError::limit(format!(
        "{what} has {count} {unit}, over the limit of {limit} ({}=N raises it)",
        Limits::property(name)
    )))
}
