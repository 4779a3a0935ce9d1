//! What a finding means for the data (docs/rules.md#examples): a smallest message the
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

mod budget;
mod candidates;
mod encode;
mod read;
mod search;
#[cfg(test)]
mod tests;
mod value;

pub(crate) use budget::ExampleBudget;
pub(crate) use search::Subject;

/// Longest writer text or value shown; past it the text is cut and says so.
const TEXT_LIMIT: usize = 2048;

impl Outcome {
    /// The outcome as one sentence, for people.
    pub fn sentence(&self) -> String {
        match self {
            Outcome::Value {
                path,
                written,
                read,
            } => format!("reads {path} as {read}, not {written}"),
            Outcome::Unknown { path, number } => format!(
                "keeps {path} only as unknown field {number}: the reader's getters do not see it"
            ),
            Outcome::ParseFailure { why } => format!("fails to parse: {why}"),
            Outcome::MissingRequired { path } => {
                format!("fails to parse: required field {path} is missing")
            }
            Outcome::Merged {
                path,
                elements,
                read,
            } => format!("merges the {elements} elements of {path} into one: {read}"),
        }
    }

    /// The same outcome with every text cut to a length a report can hold.
    fn bounded(self) -> Outcome {
        let b = |s: String| crate::text::bound(&s, TEXT_LIMIT);
        match self {
            Outcome::Value {
                path,
                written,
                read,
            } => Outcome::Value {
                path: b(path),
                written: b(written),
                read: b(read),
            },
            Outcome::Unknown { path, number } => Outcome::Unknown {
                path: b(path),
                number,
            },
            Outcome::ParseFailure { why } => Outcome::ParseFailure { why: b(why) },
            Outcome::MissingRequired { path } => Outcome::MissingRequired { path: b(path) },
            Outcome::Merged {
                path,
                elements,
                read,
            } => Outcome::Merged {
                path: b(path),
                elements,
                read: b(read),
            },
        }
    }
}

impl Example {
    /// Roughly what the example takes in memory, for the byte-bounded result cache.
    pub(crate) fn weight(&self) -> usize {
        std::mem::size_of::<Example>()
            + self.writer.len()
            + self.bytes.len()
            + 2 * self.reader.len()
    }

    fn bounded(self) -> Example {
        let outcome = self.outcome.bounded();
        Example {
            writer: crate::text::bound(&self.writer, TEXT_LIMIT),
            bytes: self.bytes,
            reader: outcome.sentence(),
            outcome,
        }
    }
}

/// Why a finding `depth` fields down from the root has no example, if it is too deep for one:
/// the walk asks before it writes the path out, which a chain thousands deep would make long.
pub(crate) fn too_deep(depth: usize) -> Option<String> {
    (depth > candidates::DEEPEST)
        .then(|| format!("the path is {depth} fields deep; protobuf-java reads at most 100 levels"))
}

/// The example of a finding in the pair reached through `trail`, bounded for a report, or why
/// there is none. The search spends at most a finding's share of `budget`, the check's.
pub(crate) fn of<'a>(
    roots: (crate::model::MessageRef<'a>, crate::model::MessageRef<'a>),
    trail: &[(crate::model::FieldRef<'a>, crate::model::FieldRef<'a>)],
    subject: &Subject,
    budget: &ExampleBudget,
) -> Result<Example, String> {
    let meter = budget.meter();
    let found = search::search(roots, trail, subject, &meter);
    budget.settle(&meter);
    found.map(Example::bounded)
}
