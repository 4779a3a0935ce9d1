//! PIP-246 compatibility checks for Apache Pulsar PROTOBUF_NATIVE schemas.
//!
//! [`check`] takes the schema data the broker stores (existing history and the proposed
//! schema) and a [`Strategy`] (or a [`Requested`] one, which may be a code we do not know), and returns a [`Report`] of every finding, or a [`CheckError`]
//! naming the bad schema. Layout:
//! - [`model`]: Pulsar schema JSON -> compact tables of the root's import closure, with
//!   effective features -> root message;
//! - [`rules`]: one module per rule ID, listed by the profiles ([`rules::PROFILES`]);
//! - `walk`: `canRead(writer, reader)` over every reachable message pair;
//! - [`strategy`]: which pairs a strategy compares;
//! - [`report`]: findings, bounded text and JSON renderings; [`change`]: the findings of one
//!   change found in both directions, shown as one;
//! - [`settings`]: every cache bound and resource limit, named and defaulted once;
//! - [`contain`]: a panic turned into [`CheckError::Internal`], for the engine and the bridge;
//! - [`text`]: the one way text from schemas or panics is bounded (by bytes);
//! - [`budget`]: the memory one check holds, metered by [`budget::MeteredAllocator`];
//! - [`checker`]: the check over a history, with bounded caches of remembered schemas, decoded
//!   schemas and pairwise results (the broker plugin keeps one [`Checker`] for its lifetime);
//! - `cache`: the byte-bounded maps behind them, and the digest that finds a schema (a hit is
//!   always confirmed against the bytes).
//!
//! Nothing here knows about JNI or the CLI.

pub mod budget;
mod cache;
pub mod change;
pub mod checker;
pub mod contain;
pub mod error;
pub mod example;
pub mod limits;
pub mod model;
pub mod remedy;
pub mod report;
pub mod rules;
pub mod schema_ref;
pub mod settings;
pub mod strategy;
pub mod text;
mod walk;

pub use change::Change;
pub use checker::{Bounds, CacheStats, Checker, SchemaSource, Slices};
pub use contain::{contain_panics, panic_message};
pub use error::{CheckError, DecodeError, ErrorRule, SchemaError};
pub use example::{Example, Outcome};
pub use limits::Limits;
pub use model::Schema;
pub use report::{Finding, Report};
pub use rules::{Profile, RuleId, Severity, CONSERVATIVE, PIP246, PROFILES};
pub use schema_ref::{short_sha256, NamedSchema, SchemaDigest, SchemaRef};
pub use settings::{Setting, Settings, SETTINGS};
pub use strategy::{Direction, Requested, Strategy};

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
    strategy: impl Into<Requested>,
) -> Result<Report, CheckError> {
    let strategy = strategy.into();
    contain_panics(|| Checker::new(Bounds::NONE).check(existing, proposed, strategy))
}

/// [`check`] for a strategy given by its native code; an unknown code is rejected with
/// UNKNOWN_STRATEGY (after the proposed schema is validated).
pub fn check_code(existing: &[&[u8]], proposed: &[u8], code: i32) -> Result<Report, CheckError> {
    check(existing, proposed, Requested::from_code(code))
}
