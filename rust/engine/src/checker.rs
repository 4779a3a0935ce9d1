//! The check itself, with two bounded caches so that the broker's repeated checks (every
//! producer or consumer connect re-checks the same history) skip decoding and rule work:
//! - decoded schemas, keyed by a 128-bit xxh3 hash of the raw schema data;
//! - pairwise `canRead` results, keyed by the two schemas' hashes.
//!
//! Callers hand over hashes and a loader instead of bytes, so a JNI caller can hash Java
//! arrays in place and copy only the schemas that actually need decoding.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;
use xxhash_rust::xxh3::xxh3_128;

use crate::error::{CheckError, DecodeError, SchemaError, SchemaRole};
use crate::limits::Limits;
use crate::report::{ExistingRef, Finding, Report};
use crate::rules::{RuleId, Severity};
use crate::schema::{short_sha256, Schema};
use crate::strategy::{Direction, Strategy};
use crate::walk::{self, Found};

/// Identifies schema data by content: the xxh3-128 hash of its bytes.
pub type SchemaKey = u128;

/// The key of `data`.
pub fn schema_key(data: &[u8]) -> SchemaKey {
    xxh3_128(data)
}

/// Which schema of a check a loader is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    New,
    Existing(usize),
}

/// Cache bounds. Zero in any of them turns that cache off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Schemas whose validity, SHA-256 and root name are remembered (a few hundred bytes
    /// each): enough for a warm check, which needs no decoded schema when its results are
    /// cached.
    pub max_schemas: usize,
    /// Estimated memory of the decoded schemas kept, counted as [`DECODED_SIZE_FACTOR`] times
    /// their raw schema data.
    pub max_decoded_bytes: usize,
    /// Pairwise `canRead` results kept.
    pub max_verdicts: usize,
}

/// A decoded schema takes about this many times the size of its schema data in memory
/// (measured 36x to 39x for the benchmark schemas: BENCHMARKS.md).
pub const DECODED_SIZE_FACTOR: usize = 40;

impl Bounds {
    pub const DEFAULT: Bounds = Bounds {
        max_schemas: 50_000,
        max_decoded_bytes: 256 << 20,
        max_verdicts: 100_000,
    };
    pub const NONE: Bounds = Bounds {
        max_schemas: 0,
        max_decoded_bytes: 0,
        max_verdicts: 0,
    };
}

/// What the caches hold right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub schemas: usize,
    pub decoded: usize,
    pub decoded_bytes: usize,
    pub verdicts: usize,
}

/// What a check needs to know of a schema when no rule has to run.
struct Summary {
    sha256: String,
    /// The root message's full name, or why the schema is unusable.
    root: Result<String, DecodeError>,
}

struct DecodedCache {
    entries: LruCache<SchemaKey, (Arc<Schema>, usize)>,
    bytes: usize,
}

type Verdict = Arc<Vec<Found>>;

/// What one check has fetched of one schema, so that it decodes each schema once at most,
/// whatever the caches keep.
#[derive(Default)]
struct Fetched {
    summary: Option<Arc<Summary>>,
    schema: Option<Arc<Schema>>,
}

/// A checker with its caches; share one across threads.
pub struct Checker {
    bounds: Bounds,
    limits: Limits,
    summaries: Mutex<LruCache<SchemaKey, Arc<Summary>>>,
    decoded: Mutex<DecodedCache>,
    verdicts: Mutex<LruCache<(SchemaKey, SchemaKey), Verdict>>,
}

fn capacity(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN)
}

impl Checker {
    pub fn new(bounds: Bounds) -> Checker {
        Checker::with_limits(bounds, Limits::DEFAULT)
    }

    pub fn with_limits(bounds: Bounds, limits: Limits) -> Checker {
        Checker {
            bounds,
            limits,
            summaries: Mutex::new(LruCache::new(capacity(bounds.max_schemas))),
            decoded: Mutex::new(DecodedCache {
                entries: LruCache::unbounded(),
                bytes: 0,
            }),
            verdicts: Mutex::new(LruCache::new(capacity(bounds.max_verdicts))),
        }
    }

    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn clear(&self) {
        lock(&self.summaries).clear();
        let mut decoded = lock(&self.decoded);
        decoded.entries.clear();
        decoded.bytes = 0;
        lock(&self.verdicts).clear();
    }

    pub fn stats(&self) -> CacheStats {
        let decoded = lock(&self.decoded);
        CacheStats {
            schemas: lock(&self.summaries).len(),
            decoded: decoded.entries.len(),
            decoded_bytes: decoded.bytes,
            verdicts: lock(&self.verdicts).len(),
        }
    }

    /// Checks schema data given as slices.
    pub fn check(
        &self,
        existing: &[&[u8]],
        proposed: &[u8],
        strategy_code: i32,
    ) -> Result<Report, CheckError> {
        let keys: Vec<SchemaKey> = existing.iter().map(|d| schema_key(d)).collect();
        self.check_keyed(&keys, schema_key(proposed), strategy_code, |which| {
            Ok(match which {
                Which::New => proposed.to_vec(),
                Which::Existing(i) => existing[i].to_vec(),
            })
        })
    }

    /// Checks schemas known by key; `load` is called only for schemas the caches lack.
    /// A loader error is a failure of the caller (a JNI call, say), reported as internal.
    /// Never panics: a panic comes back as [`CheckError::Internal`].
    pub fn check_keyed(
        &self,
        existing: &[SchemaKey],
        proposed: SchemaKey,
        strategy_code: i32,
        load: impl FnMut(Which) -> Result<Vec<u8>, String>,
    ) -> Result<Report, CheckError> {
        crate::contain_panics(|| self.check_contained(existing, proposed, strategy_code, load))
    }

    fn check_contained(
        &self,
        existing: &[SchemaKey],
        proposed: SchemaKey,
        strategy_code: i32,
        mut load: impl FnMut(Which) -> Result<Vec<u8>, String>,
    ) -> Result<Report, CheckError> {
        let strategy = Strategy::from_code(strategy_code);
        let strategy_name = strategy.map_or_else(
            || format!("strategy code {strategy_code}"),
            |s| s.name().to_owned(),
        );
        let mut new = Fetched::default();
        let new_summary = self.summary(&mut new, proposed, Which::New, &mut load)?;
        let new_root = usable(&new_summary, Which::New)?;
        let report = |findings| {
            Report::new(
                strategy_name.clone(),
                existing.len(),
                new_summary.sha256.clone(),
                findings,
            )
        };
        let rejected = |rule, detail: &str| Finding {
            rule,
            severity: Severity::Failure,
            strategy: strategy_name.clone(),
            direction: None,
            existing: None,
            path: new_root.to_owned(),
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

        let mut budget = self.limits.max_field_comparisons;
        let mut findings = Vec::new();
        for (index, &key) in existing.iter().enumerate() {
            if strategy.directions().is_empty() {
                break;
            }
            let which = Which::Existing(index);
            let mut old = Fetched::default();
            for &direction in strategy.directions() {
                let (writer, reader) = match direction {
                    Direction::ExistingWritesNewReads => (key, proposed),
                    Direction::NewWritesExistingReads => (proposed, key),
                };
                let verdict = match self.cached_verdict(writer, reader) {
                    Some(verdict) => verdict,
                    None => {
                        let new_schema = self.schema(&mut new, proposed, Which::New, &mut load)?;
                        let old_schema = self.schema(&mut old, key, which, &mut load)?;
                        let (w, r) = match direction {
                            Direction::ExistingWritesNewReads => (old_schema, new_schema),
                            Direction::NewWritesExistingReads => (new_schema, old_schema),
                        };
                        let verdict = walk::can_read(w.root(), r.root(), &mut budget)
                            .ok_or_else(|| too_much_work(&self.limits, existing.len()))?;
                        let verdict = Arc::new(verdict);
                        self.store_verdict(writer, reader, verdict.clone());
                        verdict
                    }
                };
                if verdict.is_empty() {
                    continue;
                }
                let sha256 = self
                    .summary(&mut old, key, which, &mut load)?
                    .sha256
                    .clone();
                findings.extend(verdict.iter().map(|found| Finding {
                    rule: found.rule.id,
                    severity: found.rule.severity,
                    strategy: strategy_name.clone(),
                    direction: Some(direction),
                    existing: Some(ExistingRef {
                        index,
                        sha256: sha256.clone(),
                    }),
                    path: match &found.violation.field {
                        Some(field) => format!("{}.{field}", found.path),
                        None => found.path.clone(),
                    },
                    field_number: found.violation.number,
                    writer: found.violation.writer.clone(),
                    reader: found.violation.reader.clone(),
                }));
            }
        }
        let report = report(findings);
        for warning in &report.warnings {
            log::warn!("PROTOBUF_NATIVE schema check: {}", warning.render());
        }
        Ok(report)
    }

    fn summary(
        &self,
        fetched: &mut Fetched,
        key: SchemaKey,
        which: Which,
        load: &mut impl FnMut(Which) -> Result<Vec<u8>, String>,
    ) -> Result<Arc<Summary>, CheckError> {
        if fetched.summary.is_none() {
            fetched.summary = lock(&self.summaries).get(&key).cloned();
        }
        if fetched.summary.is_none() {
            self.decode(fetched, key, which, load)?;
        }
        fetched
            .summary
            .clone()
            .ok_or_else(|| CheckError::Internal("a schema decoded without a summary".into()))
    }

    fn schema(
        &self,
        fetched: &mut Fetched,
        key: SchemaKey,
        which: Which,
        load: &mut impl FnMut(Which) -> Result<Vec<u8>, String>,
    ) -> Result<Arc<Schema>, CheckError> {
        if fetched.schema.is_none() {
            fetched.schema = lock(&self.decoded)
                .entries
                .get(&key)
                .map(|(s, _)| s.clone());
        }
        if fetched.schema.is_none() {
            self.decode(fetched, key, which, load)?;
        }
        match &fetched.schema {
            Some(schema) => Ok(schema.clone()),
            None => {
                let summary = self.summary(fetched, key, which, load)?;
                Err(usable(&summary, which).err().unwrap_or_else(|| {
                    CheckError::Internal("a usable schema did not decode".into())
                }))
            }
        }
    }

    /// Decodes (outside any lock: other checks go on meanwhile) and remembers the result.
    fn decode(
        &self,
        fetched: &mut Fetched,
        key: SchemaKey,
        which: Which,
        load: &mut impl FnMut(Which) -> Result<Vec<u8>, String>,
    ) -> Result<(), CheckError> {
        let data = load(which).map_err(CheckError::Internal)?;
        let decoded = Schema::decode_within(&data, &self.limits);
        let summary = Arc::new(Summary {
            sha256: short_sha256(&data),
            root: decoded
                .as_ref()
                .map(|s| s.root().full_name().to_owned())
                .map_err(Clone::clone),
        });
        if self.bounds.max_schemas > 0 {
            lock(&self.summaries).put(key, summary.clone());
        }
        let schema = decoded.ok().map(Arc::new);
        if let Some(schema) = &schema {
            self.store_decoded(
                key,
                schema.clone(),
                data.len().saturating_mul(DECODED_SIZE_FACTOR),
            );
        }
        *fetched = Fetched {
            summary: Some(summary),
            schema,
        };
        Ok(())
    }

    fn store_decoded(&self, key: SchemaKey, schema: Arc<Schema>, weight: usize) {
        let limit = self.bounds.max_decoded_bytes;
        if weight > limit {
            return;
        }
        let mut cache = lock(&self.decoded);
        if let Some((_, old_weight)) = cache.entries.put(key, (schema, weight)) {
            cache.bytes -= old_weight;
        }
        cache.bytes += weight;
        while cache.bytes > limit {
            match cache.entries.pop_lru() {
                Some((_, (_, evicted))) => cache.bytes -= evicted,
                None => break,
            }
        }
    }

    fn cached_verdict(&self, writer: SchemaKey, reader: SchemaKey) -> Option<Verdict> {
        if writer == reader {
            // The same bytes on both sides: no rule can find anything.
            return Some(Arc::new(Vec::new()));
        }
        lock(&self.verdicts).get(&(writer, reader)).cloned()
    }

    fn store_verdict(&self, writer: SchemaKey, reader: SchemaKey, verdict: Verdict) {
        if self.bounds.max_verdicts > 0 {
            lock(&self.verdicts).put((writer, reader), verdict);
        }
    }
}

fn too_much_work(limits: &Limits, history: usize) -> CheckError {
    CheckError::TooMuchWork(format!(
        "checking against {history} existing schemas needs more than {} field comparisons \
         ({}=N raises the limit)",
        limits.max_field_comparisons,
        Limits::property("maxFieldComparisons")
    ))
}

fn usable(summary: &Summary, which: Which) -> Result<&str, CheckError> {
    summary.root.as_deref().map_err(|e| {
        let schema = match which {
            Which::New => SchemaRole::New {
                sha256: summary.sha256.clone(),
            },
            Which::Existing(index) => SchemaRole::Existing {
                index,
                sha256: summary.sha256.clone(),
            },
        };
        CheckError::Schema(SchemaError {
            schema,
            rule: e.rule,
            message: e.message.clone(),
        })
    })
}

/// A poisoned lock only means another check panicked (and was contained) while holding it;
/// the caches hold no invariant a panic could break halfway, so carry on.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
