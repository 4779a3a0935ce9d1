//! Errors about the input schemas (docs/rules.md#errors): always typed, never a panic.

use std::fmt;

use serde::Serialize;

use crate::schema_ref::NamedSchema;

/// The rule ID a bad input is reported under (`RESOURCE_LIMIT_EXCEEDED`: the ID is derived
/// from the variant).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorRule {
    /// The bytes do not describe a schema protobuf itself would build.
    SchemaReconstructionFailed,
    /// A well-formed schema that uses something this checker does not support (Editions).
    UnsupportedFeature,
    /// A schema or check past one of the configured resource limits.
    ResourceLimitExceeded,
}

impl ErrorRule {
    /// Every error rule ID, in declaration order.
    pub fn all() -> impl Iterator<Item = ErrorRule> {
        <ErrorRule as strum::VariantArray>::VARIANTS.iter().copied()
    }

    pub fn id(self) -> &'static str {
        self.into()
    }
}

/// What is wrong with one schema, before we know which schema of a check it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    pub rule: ErrorRule,
    pub message: String,
    /// The setting (`limit.maxFields`) that refused the schema, for RESOURCE_LIMIT_EXCEEDED:
    /// each front end says how to raise it in its own terms ([`CheckError::render`]).
    pub setting: Option<&'static str>,
}

impl DecodeError {
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        DecodeError {
            rule: ErrorRule::SchemaReconstructionFailed,
            message: message.into(),
            setting: None,
        }
    }

    pub(crate) fn over_limit(setting: &'static str, message: impl Into<String>) -> Self {
        DecodeError {
            rule: ErrorRule::ResourceLimitExceeded,
            message: message.into(),
            setting: Some(setting),
        }
    }

    pub(crate) fn unsupported(message: impl Into<String>) -> Self {
        DecodeError {
            rule: ErrorRule::UnsupportedFeature,
            message: message.into(),
            setting: None,
        }
    }
}

/// A bad schema, named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    pub schema: NamedSchema,
    pub rule: ErrorRule,
    pub message: String,
    /// As [`DecodeError::setting`].
    pub setting: Option<&'static str>,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.rule, self.schema, self.message)?;
        if let Some(setting) = self.setting {
            write!(f, " ({setting}=N raises it)")?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaError {}

/// The rule ID of a failure of ours, not of the input.
const INTERNAL_ERROR: &str = "INTERNAL_ERROR";

/// Why a check produced no verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckError {
    /// One of the schemas is bad input.
    Schema(SchemaError),
    /// A bug of ours or of a dependency, caught before it could unwind into the caller.
    Internal(String),
    /// The check would compare more than the configured limit allows: what, and the setting.
    TooMuchWork(String, &'static str),
}

impl CheckError {
    /// The rule ID to report this error under.
    pub fn rule_id(&self) -> &'static str {
        match self {
            CheckError::Schema(e) => e.rule.id(),
            CheckError::Internal(_) => INTERNAL_ERROR,
            CheckError::TooMuchWork(..) => ErrorRule::ResourceLimitExceeded.id(),
        }
    }

    /// The setting whose limit refused the check, if one did.
    pub fn setting(&self) -> Option<&'static str> {
        match self {
            CheckError::Schema(e) => e.setting,
            CheckError::TooMuchWork(_, setting) => Some(setting),
            CheckError::Internal(_) => None,
        }
    }

    /// The error as a front end shows it: `spell` turns a setting's name into what its user
    /// writes to change it (`-Dprotocompat.limit.maxFields`, `--limit maxFields`).
    pub fn render(&self, spell: impl Fn(&str) -> String) -> String {
        let text = self.to_string();
        match self.setting() {
            Some(setting) => text.replace(
                &format!("({setting}=N raises it)"),
                &format!("({}=N raises it)", spell(setting)),
            ),
            None => text,
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Schema(e) => e.fmt(f),
            CheckError::Internal(msg) => write!(
                f,
                "{INTERNAL_ERROR}: the PROTOBUF_NATIVE checker failed unexpectedly ({msg}); \
                 the schema was not accepted; please report this with the schemas involved"
            ),
            CheckError::TooMuchWork(msg, setting) => {
                let rule = ErrorRule::ResourceLimitExceeded;
                write!(f, "{rule}: {msg} ({setting}=N raises it)")
            }
        }
    }
}

impl std::error::Error for CheckError {}

impl From<SchemaError> for CheckError {
    fn from(e: SchemaError) -> Self {
        CheckError::Schema(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn json_and_text_use_the_same_derived_ids() {
        for rule in ErrorRule::VARIANTS {
            let json = serde_json::to_string(rule).unwrap();
            assert_eq!(json, format!("\"{}\"", rule.id()));
            assert_eq!(rule.to_string(), rule.id());
        }
        assert_eq!(
            ErrorRule::SchemaReconstructionFailed.id(),
            "SCHEMA_RECONSTRUCTION_FAILED"
        );
        let work = CheckError::TooMuchWork("too much".into(), "limit.maxFieldComparisons");
        assert_eq!(work.rule_id(), "RESOURCE_LIMIT_EXCEEDED");
        assert_eq!(
            work.to_string(),
            "RESOURCE_LIMIT_EXCEEDED: too much (limit.maxFieldComparisons=N raises it)"
        );
    }
}
