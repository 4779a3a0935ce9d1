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
    /// Decoded schemas kept.
    pub max_schemas: usize,
    /// Total raw schema-data bytes of the decoded schemas kept (decoded, a schema takes a
    /// few times its raw size: BENCHMARKS.md has the measured figure).
    pub max_schema_bytes: usize,
    /// Pairwise `canRead` results kept.
    pub max_verdicts: usize,
}

impl Bounds {
    pub const DEFAULT: Bounds = Bounds {
        max_schemas: 10_000,
        max_schema_bytes: 64 << 20,
        max_verdicts: 100_000,
    };
    pub const NONE: Bounds = Bounds {
        max_schemas: 0,
        max_schema_bytes: 0,
        max_verdicts: 0,
    };
}

/// What the caches hold right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub schemas: usize,
    pub schema_bytes: usize,
    pub verdicts: usize,
}

struct Decoded {
    sha256: String,
    schema: Result<Schema, DecodeError>,
}

struct SchemaCache {
    entries: LruCache<SchemaKey, (Arc<Decoded>, usize)>,
    bytes: usize,
}

type Verdict = Arc<Vec<Found>>;

/// A checker with its caches; share one across threads.
pub struct Checker {
    bounds: Bounds,
    schemas: Mutex<SchemaCache>,
    verdicts: Mutex<LruCache<(SchemaKey, SchemaKey), Verdict>>,
}

impl Checker {
    pub fn new(bounds: Bounds) -> Checker {
        Checker {
            bounds,
            schemas: Mutex::new(SchemaCache {
                entries: LruCache::unbounded(),
                bytes: 0,
            }),
            verdicts: Mutex::new(LruCache::new(
                NonZeroUsize::new(bounds.max_verdicts).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    pub fn clear(&self) {
        let mut schemas = lock(&self.schemas);
        schemas.entries.clear();
        schemas.bytes = 0;
        lock(&self.verdicts).clear();
    }

    pub fn stats(&self) -> CacheStats {
        let schemas = lock(&self.schemas);
        CacheStats {
            schemas: schemas.entries.len(),
            schema_bytes: schemas.bytes,
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
        let new_entry = self.decoded(proposed, Which::New, &mut load)?;
        let new_schema = usable(&new_entry, Which::New)?;
        let report = |findings| {
            Report::new(
                strategy_name.clone(),
                existing.len(),
                new_entry.sha256.clone(),
                findings,
            )
        };
        let rejected = |rule, detail: &str| Finding {
            rule,
            severity: Severity::Failure,
            strategy: strategy_name.clone(),
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
        for (index, &key) in existing.iter().enumerate() {
            if strategy.directions().is_empty() {
                break;
            }
            let which = Which::Existing(index);
            let mut old_entry: Option<Arc<Decoded>> = None;
            for &direction in strategy.directions() {
                let (writer, reader) = match direction {
                    Direction::ExistingWritesNewReads => (key, proposed),
                    Direction::NewWritesExistingReads => (proposed, key),
                };
                let verdict = match self.cached_verdict(writer, reader) {
                    Some(verdict) => verdict,
                    None => {
                        let old = self.entry(&mut old_entry, key, which, &mut load)?;
                        let old = usable(&old, which)?;
                        let (w, r) = match direction {
                            Direction::ExistingWritesNewReads => (old, new_schema),
                            Direction::NewWritesExistingReads => (new_schema, old),
                        };
                        let verdict = Arc::new(walk::can_read(w.root(), r.root()));
                        self.store_verdict(writer, reader, verdict.clone());
                        verdict
                    }
                };
                if verdict.is_empty() {
                    continue;
                }
                let sha256 = self
                    .entry(&mut old_entry, key, which, &mut load)?
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

    /// The decoded entry for `key`, fetched at most once per check.
    fn entry(
        &self,
        slot: &mut Option<Arc<Decoded>>,
        key: SchemaKey,
        which: Which,
        load: &mut impl FnMut(Which) -> Result<Vec<u8>, String>,
    ) -> Result<Arc<Decoded>, CheckError> {
        if let Some(entry) = slot {
            return Ok(entry.clone());
        }
        let entry = self.decoded(key, which, load)?;
        *slot = Some(entry.clone());
        Ok(entry)
    }

    fn decoded(
        &self,
        key: SchemaKey,
        which: Which,
        load: &mut impl FnMut(Which) -> Result<Vec<u8>, String>,
    ) -> Result<Arc<Decoded>, CheckError> {
        if let Some((entry, _)) = lock(&self.schemas).entries.get(&key) {
            return Ok(entry.clone());
        }
        let data = load(which).map_err(CheckError::Internal)?;
        // Decoding happens outside the lock: other checks go on meanwhile.
        let entry = Arc::new(Decoded {
            sha256: short_sha256(&data),
            schema: Schema::decode(&data),
        });
        self.store_schema(key, entry.clone(), data.len());
        Ok(entry)
    }

    fn store_schema(&self, key: SchemaKey, entry: Arc<Decoded>, weight: usize) {
        let bounds = self.bounds;
        if bounds.max_schemas == 0 || weight > bounds.max_schema_bytes {
            return;
        }
        let mut cache = lock(&self.schemas);
        if let Some((_, old_weight)) = cache.entries.put(key, (entry, weight)) {
            cache.bytes -= old_weight;
        }
        cache.bytes += weight;
        while cache.entries.len() > bounds.max_schemas || cache.bytes > bounds.max_schema_bytes {
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

fn usable(entry: &Decoded, which: Which) -> Result<&Schema, CheckError> {
    entry.schema.as_ref().map_err(|e| {
        let schema = match which {
            Which::New => SchemaRole::New {
                sha256: entry.sha256.clone(),
            },
            Which::Existing(index) => SchemaRole::Existing {
                index,
                sha256: entry.sha256.clone(),
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
