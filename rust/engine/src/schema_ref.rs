//! Which schema of a check something is about: asked of a [`crate::SchemaSource`] by
//! position ([`SchemaRef`]), and shown to users with its digest ([`NamedSchema`]), in errors
//! (`existing[1] (sha256 …)`) and findings (`existing[1] …`, `"existing": {"index": 1,
//! "sha256": …}`).

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::{Serialize, Serializer};
use sha2::{Digest, Sha256};

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

/// As an error names it: `new schema (sha256 …)`, `existing[1] (sha256 …)`.
impl fmt::Display for NamedSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.which {
            SchemaRef::New => write!(f, "new schema (sha256 {})", self.sha256),
            SchemaRef::Existing(index) => {
                write!(f, "existing[{index}] (sha256 {})", self.sha256)
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

/// The first 12 hex digits of the SHA-256 of a schema's data, worked out the first time it
/// is shown. Most checks pass and name no schema, and hashing the data costs about as much as
/// decoding it: a cold check that hashed every schema up front spent a quarter of its time
/// here. Clones share the data and its digest.
#[derive(Clone)]
pub struct SchemaDigest(Arc<LazyDigest>);

/// Schema data, or what stands for it, and its digest, worked out when first asked for.
pub(crate) struct LazyDigest {
    held: Held,
    hex: OnceLock<String>,
}

/// What a remembered schema keeps of its data.
enum Held {
    /// The bytes: a hit is confirmed by comparing them, which costs nothing to speak of.
    Bytes(Box<[u8]>),
    /// Only their length and SHA-256, for a large schema: a hit is confirmed by hashing the
    /// bytes offered, so that a history larger than the cache of schema data stays remembered
    /// (docs/rules.md#remembered-results: a cryptographic digest of at least 128 bits).
    Sha256 { len: usize, digest: [u8; 32] },
    /// Nothing: data refused before it was kept.
    Nothing,
}

impl LazyDigest {
    pub(crate) fn new(data: Box<[u8]>) -> LazyDigest {
        LazyDigest {
            held: Held::Bytes(data),
            hex: OnceLock::new(),
        }
    }

    /// `data` remembered by its SHA-256 only.
    pub(crate) fn sha256_of(data: &[u8]) -> LazyDigest {
        let digest: [u8; 32] = Sha256::digest(data).into();
        LazyDigest {
            hex: OnceLock::from(hex(&digest)),
            held: Held::Sha256 {
                len: data.len(),
                digest,
            },
        }
    }

    /// A digest worked out already, of data not kept.
    pub(crate) fn known(hex: String) -> LazyDigest {
        LazyDigest {
            held: Held::Nothing,
            hex: OnceLock::from(hex),
        }
    }

    /// The bytes, where they are kept.
    pub(crate) fn data(&self) -> Option<&[u8]> {
        match &self.held {
            Held::Bytes(data) => Some(data),
            Held::Sha256 { .. } | Held::Nothing => None,
        }
    }

    /// The heap the kept bytes take.
    pub(crate) fn held_bytes(&self) -> usize {
        match &self.held {
            Held::Bytes(data) => data.len(),
            Held::Sha256 { .. } | Held::Nothing => 0,
        }
    }

    /// Whether `bytes` are the data this stands for.
    pub(crate) fn confirms(&self, bytes: &[u8]) -> bool {
        match &self.held {
            Held::Bytes(data) => **data == *bytes,
            Held::Sha256 { len, digest } => {
                *len == bytes.len() && *digest == <[u8; 32]>::from(Sha256::digest(bytes))
            }
            Held::Nothing => false,
        }
    }

    /// Whether two remembered schemas hold the same bytes. Data is kept by bytes or by
    /// digest according to its length alone, so equal data is always kept alike.
    pub(crate) fn same_data(&self, other: &LazyDigest) -> bool {
        match (&self.held, &other.held) {
            (Held::Bytes(a), Held::Bytes(b)) => a == b,
            (Held::Sha256 { len, digest }, Held::Sha256 { len: l, digest: d }) => {
                len == l && digest == d
            }
            _ => false,
        }
    }

    fn short_sha256(&self) -> &str {
        self.hex.get_or_init(|| match &self.held {
            Held::Bytes(data) => short_sha256(data),
            Held::Sha256 { digest, .. } => hex(digest),
            Held::Nothing => String::new(),
        })
    }
}

impl SchemaDigest {
    pub(crate) fn new(holder: Arc<LazyDigest>) -> SchemaDigest {
        SchemaDigest(holder)
    }

    pub fn as_str(&self) -> &str {
        self.0.short_sha256()
    }
}

/// A digest already worked out (of data not kept, or in tests).
impl From<String> for SchemaDigest {
    fn from(hex: String) -> SchemaDigest {
        SchemaDigest(Arc::new(LazyDigest::known(hex)))
    }
}

impl From<&str> for SchemaDigest {
    fn from(hex: &str) -> SchemaDigest {
        SchemaDigest::from(hex.to_owned())
    }
}

impl fmt::Display for SchemaDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SchemaDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for SchemaDigest {
    fn eq(&self, other: &SchemaDigest) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.as_str() == other.as_str()
    }
}

impl Eq for SchemaDigest {}

impl Serialize for SchemaDigest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The first 12 hex digits of the SHA-256 of `data`.
pub fn short_sha256(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// The first 12 hex digits of a digest.
fn hex(digest: &[u8]) -> String {
    digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_and_json_name_a_schema_as_before() {
        let new = NamedSchema::new(SchemaRef::New, "1986ca17d81e");
        let old = NamedSchema::new(SchemaRef::Existing(1), "b2bd95d49882");
        assert_eq!(new.to_string(), "new schema (sha256 1986ca17d81e)");
        assert_eq!(old.to_string(), "existing[1] (sha256 b2bd95d49882)");
        assert_eq!(
            serde_json::to_string(&old).unwrap(),
            r#"{"index":1,"sha256":"b2bd95d49882"}"#
        );
        assert_eq!(
            serde_json::to_string(&new).unwrap(),
            r#"{"sha256":"1986ca17d81e"}"#
        );
    }

    #[test]
    fn a_digest_is_worked_out_when_first_shown() {
        let data = Arc::new(LazyDigest::new(Box::from(&b"{}"[..])));
        let digest = SchemaDigest::new(data.clone());
        assert!(data.hex.get().is_none());
        assert_eq!(digest.as_str(), short_sha256(b"{}"));
        assert_eq!(digest.clone(), SchemaDigest::from(digest.to_string()));
    }
}
