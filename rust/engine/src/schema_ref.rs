//! Which schema of a check something is about: asked of a [`crate::SchemaSource`] by
//! position ([`SchemaRef`]), and shown to users with its digest ([`NamedSchema`]), in errors
//! (`existing schema #1 (sha256 …)`) and findings (`existing #1 …`, `"existing": {"index": 1,
//! "sha256": …}`).

use std::fmt;

use serde::{Serialize, Serializer};

/// Which schema of a check: the proposed one, or an existing one by its index in the history
/// the caller passed (oldest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemaRef {
    New,
    Existing(usize),
}

/// A schema of a check as users see it named: which one, and the first 12 hex digits of the
/// SHA-256 of its schema data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NamedSchema {
    pub which: SchemaRef,
    pub sha256: String,
}

impl NamedSchema {
    pub fn new(which: SchemaRef, sha256: impl Into<String>) -> NamedSchema {
        NamedSchema {
            which,
            sha256: sha256.into(),
        }
    }

    /// The index of an existing schema, `None` for the new one.
    pub fn index(&self) -> Option<usize> {
        match self.which {
            SchemaRef::New => None,
            SchemaRef::Existing(index) => Some(index),
        }
    }
}

/// As an error names it: `new schema (sha256 …)`, `existing schema #1 (sha256 …)`.
impl fmt::Display for NamedSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.which {
            SchemaRef::New => write!(f, "new schema (sha256 {})", self.sha256),
            SchemaRef::Existing(index) => {
                write!(f, "existing schema #{index} (sha256 {})", self.sha256)
            }
        }
    }
}

/// `{"index": 1, "sha256": "…"}`; the new schema has no index.
impl Serialize for NamedSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Json<'a> {
            #[serde(skip_serializing_if = "Option::is_none")]
            index: Option<usize>,
            sha256: &'a str,
        }
        Json {
            index: self.index(),
            sha256: &self.sha256,
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_and_json_name_a_schema_as_before() {
        let new = NamedSchema::new(SchemaRef::New, "1986ca17d81e");
        let old = NamedSchema::new(SchemaRef::Existing(1), "b2bd95d49882");
        assert_eq!(new.to_string(), "new schema (sha256 1986ca17d81e)");
        assert_eq!(old.to_string(), "existing schema #1 (sha256 b2bd95d49882)");
        assert_eq!(
            serde_json::to_string(&old).unwrap(),
            r#"{"index":1,"sha256":"b2bd95d49882"}"#
        );
        assert_eq!(
            serde_json::to_string(&new).unwrap(),
            r#"{"sha256":"1986ca17d81e"}"#
        );
    }
}
