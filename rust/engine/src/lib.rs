//! PIP-246 compatibility checks for Apache Pulsar PROTOBUF_NATIVE schemas.
//!
//! [`check`] takes the schema data the broker stores (existing history and the proposed
//! schema) and a [`Strategy`], and returns a [`Report`] of every finding, or a [`CheckError`]
//! naming the bad schema. Layout:
//! - [`schema`]: Pulsar schema JSON -> descriptor pool -> root message;
//! - [`rules`]: one module per rule ID, registered in [`rules::RULES`];
//! - `walk`: `canRead(writer, reader)` over every reachable message pair;
//! - [`strategy`]: which pairs a strategy compares;
//! - [`report`]: findings, bounded text and JSON renderings.
//!
//! Nothing here knows about JNI or the CLI; both call [`check`].

pub mod error;
pub mod report;
pub mod rules;
pub mod schema;
pub mod strategy;
mod walk;

use std::panic::{catch_unwind, AssertUnwindSafe};

pub use error::{CheckError, DecodeError, ErrorRule, SchemaError, SchemaRole};
pub use report::{ExistingRef, Finding, Report};
pub use rules::{RuleId, Severity};
pub use schema::Schema;
pub use strategy::{Direction, Strategy};

/// Checks `proposed` against every schema of `existing` (oldest first, as the broker passes
/// them; the order only numbers the findings) under `strategy`.
///
/// The proposed schema is always decoded, so a schema this checker cannot read is never
/// accepted. Existing schemas are decoded only when the strategy compares against them, so
/// ALWAYS_COMPATIBLE stays an escape hatch even for a history holding a schema we refuse.
///
/// Never panics: a panic here or in a dependency comes back as [`CheckError::Internal`].
pub fn check(
    existing: &[&[u8]],
    proposed: &[u8],
    strategy: Strategy,
) -> Result<Report, CheckError> {
    contain_panics(|| check_inner(existing, proposed, strategy.name(), Some(strategy)))
}

/// [`check`] for a strategy given by its native code; an unknown code is rejected with
/// UNKNOWN_STRATEGY (after the proposed schema is validated).
pub fn check_code(existing: &[&[u8]], proposed: &[u8], code: i32) -> Result<Report, CheckError> {
    match Strategy::from_code(code) {
        Some(strategy) => check(existing, proposed, strategy),
        None => contain_panics(|| {
            check_inner(existing, proposed, &format!("strategy code {code}"), None)
        }),
    }
}

fn check_inner(
    existing: &[&[u8]],
    proposed: &[u8],
    strategy_name: &str,
    strategy: Option<Strategy>,
) -> Result<Report, CheckError> {
    let new_sha = schema::short_sha256(proposed);
    let new_schema = Schema::decode(proposed).map_err(|e| SchemaError {
        schema: SchemaRole::New {
            sha256: new_sha.clone(),
        },
        rule: e.rule,
        message: e.message,
    })?;
    let report = |findings| {
        Report::new(
            strategy_name.to_owned(),
            existing.len(),
            new_sha.clone(),
            findings,
        )
    };
    let rejected = |rule, detail: &str| Finding {
        rule,
        severity: Severity::Failure,
        strategy: strategy_name.to_owned(),
        direction: None,
        existing: None,
        path: new_schema.root().full_name().to_owned(),
        field_number: None,
        writer: String::new(),
        reader: detail.to_owned(),
    };

    let strategy = match strategy {
        None | Some(Strategy::Undefined) => {
            return Ok(report(vec![rejected(
                RuleId::UnknownStrategy,
                "no compatibility strategy is defined for this check",
            )]))
        }
        Some(Strategy::AlwaysIncompatible) => {
            return Ok(report(vec![rejected(
                RuleId::AlwaysIncompatible,
                "the strategy ALWAYS_INCOMPATIBLE rejects every change",
            )]))
        }
        Some(strategy) => strategy,
    };

    let mut findings = Vec::new();
    for (index, data) in existing.iter().enumerate() {
        if strategy.directions().is_empty() {
            break;
        }
        let sha256 = schema::short_sha256(data);
        let old = Schema::decode(data).map_err(|e| SchemaError {
            schema: SchemaRole::Existing {
                index,
                sha256: sha256.clone(),
            },
            rule: e.rule,
            message: e.message,
        })?;
        for &direction in strategy.directions() {
            let (writer, reader) = match direction {
                Direction::ExistingWritesNewReads => (&old, &new_schema),
                Direction::NewWritesExistingReads => (&new_schema, &old),
            };
            for found in walk::can_read(writer.root(), reader.root()) {
                findings.push(Finding {
                    rule: found.rule.id,
                    severity: found.rule.severity,
                    strategy: strategy_name.to_owned(),
                    direction: Some(direction),
                    existing: Some(ExistingRef {
                        index,
                        sha256: sha256.clone(),
                    }),
                    path: match &found.violation.field {
                        Some(field) => format!("{}.{field}", found.path),
                        None => found.path,
                    },
                    field_number: found.violation.number,
                    writer: found.violation.writer,
                    reader: found.violation.reader,
                });
            }
        }
    }
    let report = report(findings);
    for warning in &report.warnings {
        log::warn!("PROTOBUF_NATIVE schema check: {}", warning.render());
    }
    Ok(report)
}

fn contain_panics<T>(f: impl FnOnce() -> Result<T, CheckError>) -> Result<T, CheckError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic with no message".to_owned());
        Err(CheckError::Internal(schema::truncate(&message, 300)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error_with_its_formatted_message() {
        let result: Result<(), CheckError> = contain_panics(|| panic!("boom at depth {}", 7));
        assert_eq!(
            result,
            Err(CheckError::Internal("boom at depth 7".to_owned()))
        );
        let text = result.unwrap_err().to_string();
        assert!(text.starts_with(
            "INTERNAL_ERROR: the PROTOBUF_NATIVE checker failed unexpectedly (boom at depth 7)"
        ));
    }
}
