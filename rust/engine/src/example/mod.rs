//! What a finding means for the data (RULES.md section 4, "Examples"): a smallest message the
//! writer schema can produce along the finding's path, its bytes, and what protobuf-java does
//! with those bytes under the reader schema. Worked out from the two schemas alone, knowing
//! nothing of profiles or rules: the finding only says where to look.

use serde::Serialize;

/// Longest example shown, in encoded bytes; a longer smallest message has no example.
pub const EXAMPLE_BYTES: usize = 256;

/// One finding's example.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The writer's message from the root, in protobuf text format.
    pub writer: String,
    /// Its encoding, lowercase hex, at most [`EXAMPLE_BYTES`] bytes.
    pub bytes: String,
    /// One sentence: what a protobuf-java reader does with the bytes.
    pub reader: String,
    /// The same, for tools and for the tests that replay it through protobuf-java.
    pub outcome: Outcome,
}

/// What protobuf-java does with an example's bytes under the reader schema. Paths are the
/// reader's field names from its root message (`pkg.Order.items.price`), or the writer's where
/// the reader has no field of that number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// The field at `path` reads `read` where the writer wrote (or meant, by its default)
    /// `written`; values in text format, lists as `[a, b]`, an unset field as its default.
    Value {
        path: String,
        written: String,
        read: String,
    },
    /// What the writer wrote at `path` is kept only as unknown field `number` of the message
    /// that holds it.
    Unknown { path: String, number: u32 },
    /// Parsing throws InvalidProtocolBufferException: `why`.
    ParseFailure { why: String },
    /// Parsing throws: the reader requires `path`, which the bytes lack.
    MissingRequired { path: String },
    /// The `elements` elements the writer wrote at `path` read as one, merged: `read`.
    Merged {
        path: String,
        elements: usize,
        read: String,
    },
}
