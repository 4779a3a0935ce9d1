//! The check over a history, with bounded caches so that the broker's repeated checks (every
//! producer or consumer connect re-checks the same history) skip decoding and rule work:
//! - remembered schemas: the schema data itself (to confirm a hit), its SHA-256, its root or
//!   why it is unusable;
//! - decoded schemas;
//! - pairwise `canRead` results.
//!
//! A remembered result stands in for a check only when the bytes are the same
//! (docs/rules.md#remembered-results): a schema is looked up by [`IndexDigest`] and every hit is
//! confirmed against the bytes; decoded schemas and results are keyed by the identity of a
//! confirmed entry, never by a digest. Callers hand over a [`SchemaSource`], so a JNI caller can
//! read Java arrays in place and copy only the schemas that actually need decoding.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::budget::{decode_units, Cost, Meter, ReadWork, Work};
use crate::cache::{BoundedLru, IndexDigest};
use crate::error::{CheckError, DecodeError, SchemaError};
use crate::example::ExampleBudget;
use crate::limits::Limits;
use crate::model::Schema;
use crate::report::Report;
use crate::rules::{Profile, RuleId, PIP246};
use crate::schema_ref::short_sha256;
use crate::schema_ref::{LazyDigest, SchemaDigest};
use crate::schema_ref::{NamedSchema, SchemaRef};
use crate::strategy::{Direction, Requested, Strategy};
use crate::walk::{self, Side, Verdict};

/// The schema data of one check, read where it lies.
pub trait SchemaSource {
    /// How many existing schemas the check compares against.
    fn existing(&self) -> usize;

    /// Runs `f` on the bytes of one schema, in place where the source can. `f` only reads
    /// memory (hashing, comparing), so a JNI source may hold the array pinned meanwhile.
    fn inspect<R>(&mut self, which: SchemaRef, f: impl FnOnce(&[u8]) -> R) -> Result<R, String>;

    /// A copy of one schema's bytes, for decoding (cache misses only).
    fn copy(&mut self, which: SchemaRef) -> Result<Vec<u8>, String> {
        self.inspect(which, <[u8]>::to_vec)
    }
}

/// Schema data given as slices.
pub struct Slices<'a> {
    pub existing: &'a [&'a [u8]],
    pub proposed: &'a [u8],
}

impl SchemaSource for Slices<'_> {
    fn existing(&self) -> usize {
        self.existing.len()
    }

    fn inspect<R>(&mut self, which: SchemaRef, f: impl FnOnce(&[u8]) -> R) -> Result<R, String> {
        match which {
            SchemaRef::New => Ok(f(self.proposed)),
            SchemaRef::Existing(i) => Ok(f(self.existing[i])),
        }
    }
}

/// Cache bounds. Zero in any of them turns that cache off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Schemas remembered (their data, validity, SHA-256 and root name): with the results
    /// below, enough for a warm check, which decodes nothing.
    pub max_schemas: usize,
    /// Bytes of schema data the remembered schemas may hold in all.
    pub max_schema_data_bytes: usize,
    /// Memory of the decoded schemas kept, each counted by the heap its model holds
    /// ([`decoded_weight`]).
    pub max_decoded_bytes: usize,
    /// Pairwise `canRead` results kept.
    pub max_verdicts: usize,
    /// Memory the kept results may take in all (their first findings, paths and descriptions).
    pub max_verdict_bytes: usize,
}

/// What a decoded schema is counted as in the decoded-schema cache: the heap its model holds,
/// so that files the root never imports, which are never decoded, weigh nothing, and what a
/// walk may keep with it of what it holds on its own ([`walk::Side`]).
pub fn decoded_weight(schema: &Schema) -> usize {
    schema.heap_bytes() + walk::reached_weight(schema)
}

impl Bounds {
    pub const DEFAULT: Bounds = Bounds {
        max_schemas: 50_000,
        max_schema_data_bytes: 64 << 20,
        max_decoded_bytes: 256 << 20,
        max_verdicts: 100_000,
        max_verdict_bytes: 32 << 20,
    };
    pub const NONE: Bounds = Bounds {
        max_schemas: 0,
        max_schema_data_bytes: 0,
        max_decoded_bytes: 0,
        max_verdicts: 0,
        max_verdict_bytes: 0,
    };
}

/// What the caches hold right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub schemas: usize,
    pub schema_data_bytes: usize,
    pub decoded: usize,
    pub decoded_bytes: usize,
    pub verdicts: usize,
    pub verdict_bytes: usize,
    /// The heap the last check held at its peak, where the metered allocator is installed.
    pub last_check_peak_bytes: usize,
    /// The work units the last check was charged (`limit.maxCheckWork`), refused or not: what
    /// the worst-inputs benchmark divides its CPU by.
    pub last_check_work: u64,
    /// Pairwise results looked up in the verdict cache since the checker was made: found, and
    /// not found (then walked). Their ratio is the cache's hit ratio.
    pub verdict_hits: u64,
    pub verdict_misses: u64,
}

/// A check's report, and whether some pair had to be walked: false when the caches answered.
pub struct Checked {
    pub report: Report,
    pub walked: bool,
}

/// A decoded schema, and the remembered schema it was decoded from.
type Decoded = (Arc<Side>, Arc<Remembered>);

/// One schema's data and what a check needs to know of it when no rule has to run.
struct Remembered {
    /// Unique for the life of the process: decoded schemas and results are keyed by it.
    id: u64,
    /// The data, and its digest once shown: a report names the schema by it.
    data: Arc<LazyDigest>,
    /// The root message's full name, or why the schema is unusable.
    root: Result<String, DecodeError>,
    /// What decoding it costs ([`Schema::work`]): charged to every check that compares it,
    /// decoded or remembered.
    work: u64,
    /// The stamp of the last check that used it: a check does not evict the decoded schemas
    /// it has used ([`Checker::keep_decoded`]).
    last_check: AtomicU64,
}

impl Remembered {
    fn digest(&self) -> SchemaDigest {
        SchemaDigest::new(self.data.clone())
    }

    fn weight(&self) -> usize {
        std::mem::size_of::<Remembered>()
            + self.data.held_bytes()
            + SHORT_SHA256_LEN
            + match &self.root {
                Ok(name) => name.len(),
                Err(e) => e.message.len(),
            }
    }
}

/// The digest a report names a schema by, once worked out: 12 hex digits.
const SHORT_SHA256_LEN: usize = 12;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// What one check has fetched of one schema, so that it reads and decodes each schema once
/// at most, whatever the caches keep.
struct Fetched {
    entry: Arc<Remembered>,
    schema: Option<Arc<Side>>,
}

/// A checker with its caches; share one across threads.
pub struct Checker {
    bounds: Bounds,
    limits: Limits,
    /// The rules every check runs; remembered verdicts are this profile's.
    profile: &'static Profile,
    /// Whether findings about data get an example (the CLI's reports; never the broker's).
    examples: bool,
    digest: IndexDigest,
    schemas: Mutex<BoundedLru<u128, Arc<Remembered>>>,
    /// Decoded schemas by the identity of their remembered schema, which each holds on to
    /// for the stamp of the last check that used it.
    decoded: Mutex<BoundedLru<u64, Decoded>>,
    verdicts: Mutex<BoundedLru<(u64, u64), Arc<Verdict>>>,
    /// The heap the last check held at its peak (see [`crate::budget`]).
    last_peak: AtomicUsize,
    last_work: AtomicU64,
    verdict_hits: AtomicU64,
    verdict_misses: AtomicU64,
}

impl Checker {
    pub fn new(bounds: Bounds) -> Checker {
        Checker::with_limits(bounds, Limits::DEFAULT)
    }

    pub fn with_limits(bounds: Bounds, limits: Limits) -> Checker {
        Checker::with_digest(bounds, limits, IndexDigest::random())
    }

    /// This checker, running `profile`'s rules instead of the default profile's.
    pub fn with_profile(mut self, profile: &'static Profile) -> Checker {
        self.profile = profile;
        self
    }

    /// This checker, giving each kept finding about data an example (docs/rules.md#examples). The
    /// broker's checker never does: its text keeps payloads out of broker diagnostics.
    pub fn with_examples(mut self, examples: bool) -> Checker {
        self.examples = examples;
        self
    }

    pub fn profile(&self) -> &'static Profile {
        self.profile
    }

    /// A checker whose index digest has a known seed, so that a test can aim collisions at it
    /// and show that a colliding schema is still checked as itself.
    #[doc(hidden)]
    pub fn with_index_seed(bounds: Bounds, limits: Limits, seed: u64) -> Checker {
        Checker::with_digest(bounds, limits, IndexDigest::with_seed(seed))
    }

    fn with_digest(bounds: Bounds, limits: Limits, digest: IndexDigest) -> Checker {
        let decoded_entries = if bounds.max_schemas == 0 {
            0
        } else {
            usize::MAX
        };
        Checker {
            bounds,
            limits,
            profile: &PIP246,
            examples: false,
            digest,
            schemas: Mutex::new(BoundedLru::new(
                bounds.max_schemas,
                bounds.max_schema_data_bytes,
            )),
            // Decoded schemas and results hang off remembered schemas: without those, their
            // keys would never be seen again.
            decoded: Mutex::new(BoundedLru::new(decoded_entries, bounds.max_decoded_bytes)),
            verdicts: Mutex::new(BoundedLru::new(
                if bounds.max_schemas == 0 {
                    0
                } else {
                    bounds.max_verdicts
                },
                bounds.max_verdict_bytes,
            )),
            last_peak: AtomicUsize::new(0),
            last_work: AtomicU64::new(0),
            verdict_hits: AtomicU64::new(0),
            verdict_misses: AtomicU64::new(0),
        }
    }

    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn clear(&self) {
        lock(&self.schemas).clear();
        lock(&self.decoded).clear();
        lock(&self.verdicts).clear();
    }

    pub fn stats(&self) -> CacheStats {
        let schemas = lock(&self.schemas);
        let decoded = lock(&self.decoded);
        let verdicts = lock(&self.verdicts);
        CacheStats {
            schemas: schemas.len(),
            schema_data_bytes: schemas.bytes(),
            decoded: decoded.len(),
            decoded_bytes: decoded.bytes(),
            verdicts: verdicts.len(),
            verdict_bytes: verdicts.bytes(),
            last_check_peak_bytes: self.last_peak.load(Ordering::Relaxed),
            last_check_work: self.last_work.load(Ordering::Relaxed),
            verdict_hits: self.verdict_hits.load(Ordering::Relaxed),
            verdict_misses: self.verdict_misses.load(Ordering::Relaxed),
        }
    }

    /// Checks schema data given as slices.
    pub fn check(
        &self,
        existing: &[&[u8]],
        proposed: &[u8],
        strategy: impl Into<Requested>,
    ) -> Result<Report, CheckError> {
        self.check_source(&mut Slices { existing, proposed }, strategy)
    }

    /// Checks the schemas of `source`, reading each in place and copying it only to decode it.
    /// A source error is a failure of the caller (a JNI call, say), reported as internal.
    /// Never panics: a panic comes back as [`CheckError::Internal`].
    pub fn check_source(
        &self,
        source: &mut impl SchemaSource,
        strategy: impl Into<Requested>,
    ) -> Result<Report, CheckError> {
        self.check_source_traced(source, strategy)
            .map(|checked| checked.report)
    }

    /// [`Checker::check_source`], also saying whether the caches answered it (metrics tell
    /// warm checks from cold ones by it).
    pub fn check_source_traced(
        &self,
        source: &mut impl SchemaSource,
        strategy: impl Into<Requested>,
    ) -> Result<Checked, CheckError> {
        let strategy = strategy.into();
        crate::contain::contain_panics(|| self.check_metered(source, strategy))
    }

    /// One check with a memory budget of its own. The peak it reached is kept for
    /// [`Checker::stats`] whatever the outcome: a check refused for its memory is the one an
    /// operator wants the figure of.
    fn check_metered<S: SchemaSource>(
        &self,
        source: &mut S,
        requested: Requested,
    ) -> Result<Checked, CheckError> {
        let meter = Meter::start(&self.limits);
        let mut run = Run {
            work: Work::new(&self.limits, source.existing()),
            source,
            meter: &meter,
            stamp: NEXT_CHECK.fetch_add(1, Ordering::Relaxed),
            walked: false,
            examples: ExampleBudget::default(),
        };
        let result = self.check_within(&mut run, requested);
        self.last_peak.store(meter.peak(), Ordering::Relaxed);
        self.last_work.store(run.work.spent(), Ordering::Relaxed);
        result
    }

    /// The check itself: the new schema, then the strategy, then the history.
    fn check_within<S: SchemaSource>(
        &self,
        run: &mut Run<'_, S>,
        requested: Requested,
    ) -> Result<Checked, CheckError> {
        // The new schema first, under every strategy: a schema this checker cannot read is
        // never accepted, not even by a strategy that rejects or accepts without comparing.
        let mut new = self.fetch(run, SchemaRef::New)?;
        run.meter
            .after("after decoding the new schema", new.entry.work)?;
        let new_root = usable(&new.entry, SchemaRef::New)?;
        let mut report = Report::new(
            requested.name(),
            self.profile.name,
            run.source.existing(),
            new.entry.digest(),
        );
        let strategy = match comparing_strategy(requested) {
            Ok(strategy) => strategy,
            Err((rule, why)) => {
                report.reject(rule, new_root, why);
                return Ok(Checked {
                    report,
                    walked: false,
                });
            }
        };
        self.compare_history(run, &mut new, strategy, &mut report)?;
        run.meter.finish()?;
        // A check answered from the caches logs nothing, so that clients reconnecting with the
        // same schema cannot fill the broker's log.
        if run.walked {
            log_warnings(&report);
        }
        Ok(Checked {
            report,
            walked: run.walked,
        })
    }

    /// Compares the new schema with each existing one, oldest first, in every direction the
    /// strategy requires, into `report`.
    fn compare_history<S: SchemaSource>(
        &self,
        run: &mut Run<'_, S>,
        new: &mut Fetched,
        strategy: Strategy,
        report: &mut Report,
    ) -> Result<(), CheckError> {
        let directions = strategy.directions();
        if directions.is_empty() {
            // ALWAYS_COMPATIBLE does not even fetch the history, so it stays an escape hatch
            // for a history holding a schema this checker refuses.
            return Ok(());
        }
        for index in 0..run.source.existing() {
            let mut old = self.fetch(run, SchemaRef::Existing(index))?;
            run.meter
                .after("after decoding an existing schema", old.entry.work)?;
            let mut verdicts: [Option<Arc<Verdict>>; 2] = [None, None];
            for (verdict, &direction) in verdicts.iter_mut().zip(directions) {
                *verdict = self.cached_verdict(&old.entry, &new.entry, direction);
            }
            if let ([forth, back], [None, None]) = (directions, &verdicts) {
                let both = self.walk_both_ways(run, new, &mut old, index, [*forth, *back])?;
                verdicts = both.map(Some);
            }
            for (verdict, &direction) in verdicts.iter_mut().zip(directions) {
                run.work.pair()?;
                let verdict = match verdict.take() {
                    // Remembered, or walked both ways just now: what its walk cost is charged
                    // all the same, so that the caches never decide what a check may do.
                    Some(verdict) => {
                        run.work.charge(verdict.cost)?;
                        verdict
                    }
                    None => self.walk_one_way(run, new, &mut old, index, direction)?,
                };
                if !verdict.is_empty() {
                    report.add_verdict(index, &old.entry.digest(), direction, &verdict);
                }
            }
        }
        Ok(())
    }

    /// `canRead` in one direction between the new schema and existing[`index`], walked,
    /// charged and remembered. The schemas are decoded only here and in
    /// [`Self::walk_both_ways`], so a warm check decodes nothing.
    fn walk_one_way<S: SchemaSource>(
        &self,
        run: &mut Run<'_, S>,
        new: &mut Fetched,
        old: &mut Fetched,
        index: usize,
        direction: Direction,
    ) -> Result<Arc<Verdict>, CheckError> {
        run.walked = true;
        let (writer, reader) = self.sides(run, new, old, index, direction)?;
        let mut allowance = run.work.allowance(Cost::default(), 1, run.meter);
        let verdict = walk::can_read(
            self.profile,
            &writer,
            &reader,
            &mut allowance,
            self.examples.then_some(&run.examples),
        )?
        .ok_or_else(|| run.work.out_of_comparisons())?;
        run.work.charge(verdict.cost)?;
        let verdict = Arc::new(verdict);
        // As in `walk_both_ways`: examples cut short by the check's total are not remembered.
        if !run.examples.ran_out() {
            self.store_verdict(&old.entry, &new.entry, direction, &verdict);
        }
        Ok(verdict)
    }

    /// Both directions of a FULL check walked in one traversal ([`walk::can_read_both_ways`])
    /// and remembered; the caller charges each as it reports it.
    fn walk_both_ways<S: SchemaSource>(
        &self,
        run: &mut Run<'_, S>,
        new: &mut Fetched,
        old: &mut Fetched,
        index: usize,
        directions: [Direction; 2],
    ) -> Result<[Arc<Verdict>; 2], CheckError> {
        run.walked = true;
        let (writer, reader) = self.sides(run, new, old, index, directions[0])?;
        let mut allowance = run.work.allowance(Cost::default(), 2, run.meter);
        let (forth, back) = walk::can_read_both_ways(
            self.profile,
            &writer,
            &reader,
            &mut allowance,
            self.examples.then_some(&run.examples),
        )?
        .ok_or_else(|| run.work.out_of_comparisons())?;
        let verdicts = [Arc::new(forth), Arc::new(back)];
        // Examples cut short by what earlier pairs of this check spent are not what another
        // check would find: such verdicts are not remembered.
        if !run.examples.ran_out() {
            for (direction, verdict) in directions.iter().zip(&verdicts) {
                self.store_verdict(&old.entry, &new.entry, *direction, verdict);
            }
        }
        Ok(verdicts)
    }

    /// The decoded (writer, reader) schemas of `direction`.
    fn sides<S: SchemaSource>(
        &self,
        run: &mut Run<'_, S>,
        new: &mut Fetched,
        old: &mut Fetched,
        index: usize,
        direction: Direction,
    ) -> Result<(Arc<Side>, Arc<Side>), CheckError> {
        let new_schema = self.schema(run, new, SchemaRef::New)?;
        let old_schema = self.schema(run, old, SchemaRef::Existing(index))?;
        Ok(match direction {
            Direction::ExistingWritesNewReads => (old_schema, new_schema),
            Direction::NewWritesExistingReads => (new_schema, old_schema),
        })
    }

    /// The remembered entry for one schema of the source, confirmed byte for byte (or by its
    /// SHA-256, for a large one), or a new one decoded from a copy of its bytes. Either way
    /// the check is charged what decoding it costs.
    fn fetch<S: SchemaSource>(
        &self,
        run: &mut Run<'_, S>,
        which: SchemaRef,
    ) -> Result<Fetched, CheckError> {
        let (key, size, hit) = run
            .source
            .inspect(which, |bytes| {
                let key = self.digest.of(bytes);
                let candidate = lock(&self.schemas).get(&key);
                let hit = candidate.filter(|entry| entry.data.confirms(bytes));
                (key, bytes.len(), hit)
            })
            .map_err(CheckError::Internal)?;
        if let Some(entry) = hit {
            run.work.decoded(entry.work)?;
            entry.last_check.store(run.stamp, Ordering::Relaxed);
            return Ok(Fetched {
                entry,
                schema: None,
            });
        }
        // Past the size limit the bytes are neither copied nor remembered.
        if let Err(refused) = self.limits.check_size(size) {
            let sha256 = run
                .source
                .inspect(which, short_sha256)
                .map_err(CheckError::Internal)?;
            return Ok(Fetched {
                entry: Arc::new(Remembered {
                    id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                    data: Arc::new(LazyDigest::known(sha256)),
                    root: Err(refused),
                    work: 0,
                    last_check: AtomicU64::new(run.stamp),
                }),
                schema: None,
            });
        }
        run.work.before_decode(size)?;
        run.meter.arm();
        let data = run.source.copy(which).map_err(CheckError::Internal)?;
        let decoded = Schema::decode_within(&data, &self.limits);
        let entry = Arc::new(Remembered {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            root: decoded
                .as_ref()
                .map(|s| s.root().full_name().to_owned())
                .map_err(Clone::clone),
            // A schema refused as it was read cost its bytes all the same.
            work: decoded
                .as_ref()
                .map_or_else(|_| decode_units(size, &ReadWork::default()), |s| s.work()),
            last_check: AtomicU64::new(run.stamp),
            // Without a cache nothing is remembered: hashing would buy nothing.
            data: Arc::new(
                if data.len() > REMEMBERED_BY_SHA256_OVER && self.bounds.max_schemas > 0 {
                    LazyDigest::sha256_of(&data)
                } else {
                    LazyDigest::new(data.into_boxed_slice())
                },
            ),
        });
        let evicted = lock(&self.schemas).put(key, entry.clone(), entry.weight());
        // A decoded schema whose data is forgotten could never be found again.
        if !evicted.is_empty() {
            let mut decoded_cache = lock(&self.decoded);
            for (_, gone) in evicted {
                decoded_cache.remove(&gone.id);
            }
        }
        let schema = decoded.ok().map(|schema| Arc::new(Side::new(schema)));
        if let Some(schema) = &schema {
            self.keep_decoded(run, &entry, schema);
        }
        run.work.decoded(entry.work)?;
        Ok(Fetched { entry, schema })
    }

    /// Keeps a decoded schema unless that would evict one this check has used: a history
    /// larger than the cache then keeps most of itself from one upload to the next.
    fn keep_decoded<S: SchemaSource>(
        &self,
        run: &Run<'_, S>,
        entry: &Arc<Remembered>,
        schema: &Arc<Side>,
    ) {
        let _ = lock(&self.decoded).put_unless(
            entry.id,
            (schema.clone(), entry.clone()),
            decoded_weight(schema.schema()),
            |(_, used)| used.last_check.load(Ordering::Relaxed) == run.stamp,
        );
    }

    /// The decoded schema of a fetched entry: kept, cached, or decoded again from the entry's
    /// own bytes, or for a large schema remembered by its digest, from the source's, confirmed
    /// against that digest again.
    fn schema<S: SchemaSource>(
        &self,
        run: &mut Run<'_, S>,
        fetched: &mut Fetched,
        which: SchemaRef,
    ) -> Result<Arc<Side>, CheckError> {
        if let Some(schema) = &fetched.schema {
            return Ok(schema.clone());
        }
        usable(&fetched.entry, which)?;
        let cached = lock(&self.decoded)
            .get(&fetched.entry.id)
            .map(|(schema, _)| schema);
        let schema = match cached {
            Some(schema) => schema,
            None => {
                run.meter.arm();
                let copied;
                let data = match fetched.entry.data.data() {
                    Some(data) => data,
                    None => {
                        copied = run.source.copy(which).map_err(CheckError::Internal)?;
                        if !fetched.entry.data.confirms(&copied) {
                            return Err(CheckError::Internal(
                                "a schema's data changed while it was checked".to_owned(),
                            ));
                        }
                        &copied
                    }
                };
                let schema = Schema::decode_within(data, &self.limits)
                    .map(|schema| Arc::new(Side::new(schema)))
                    .map_err(|e| {
                        CheckError::Internal(format!(
                            "a schema that decoded once failed: {}",
                            e.message
                        ))
                    })?;
                self.keep_decoded(run, &fetched.entry, &schema);
                schema
            }
        };
        fetched.schema = Some(schema.clone());
        Ok(schema)
    }

    fn cached_verdict(
        &self,
        old: &Remembered,
        new: &Remembered,
        direction: Direction,
    ) -> Option<Arc<Verdict>> {
        if old.id == new.id || old.data.same_data(&new.data) {
            // The same bytes on both sides: no rule can find anything.
            return Some(Arc::new(Verdict::default()));
        }
        let found = lock(&self.verdicts).get(&pair_key(old, new, direction));
        let counter = match found {
            Some(_) => &self.verdict_hits,
            None => &self.verdict_misses,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    fn store_verdict(
        &self,
        old: &Remembered,
        new: &Remembered,
        direction: Direction,
        verdict: &Arc<Verdict>,
    ) {
        lock(&self.verdicts).put(
            pair_key(old, new, direction),
            verdict.clone(),
            verdict.weight(),
        );
    }
}

/// What one check is working with: its schemas, what it may still spend, and the stamp that
/// marks the remembered schemas it has used.
struct Run<'r, S> {
    source: &'r mut S,
    work: Work,
    meter: &'r Meter,
    /// This check's stamp: the remembered schemas it uses carry it while it runs.
    stamp: u64,
    /// Whether some pair was walked rather than remembered.
    walked: bool,
    /// What the searches for this check's examples may still spend (docs/rules.md#examples).
    examples: ExampleBudget,
}

/// Each check's stamp, which the remembered schemas it uses carry ([`Remembered::last_check`]).
static NEXT_CHECK: AtomicU64 = AtomicU64::new(1);

/// Schema data larger than this is remembered by its SHA-256, not its bytes: a large history
/// then stays remembered (and its results with it) within `cache.maxSchemaDataBytes`, which
/// holds 256 schemas of this size at least, at the price of hashing a large schema again when
/// it is met (about a tenth of what decoding it costs). Real schemas are smaller: they are
/// confirmed by comparing bytes, which costs next to nothing.
const REMEMBERED_BY_SHA256_OVER: usize = 256 << 10;

/// The strategy a check compares under, or the rule that rejects it whatever the schemas,
/// with the reason the finding gives.
fn comparing_strategy(requested: Requested) -> Result<Strategy, (RuleId, &'static str)> {
    match requested {
        Requested::UnknownCode(_) | Requested::Known(Strategy::Undefined) => Err((
            RuleId::UnknownStrategy,
            "no compatibility strategy is defined for this check",
        )),
        Requested::Known(Strategy::AlwaysIncompatible) => Err((
            RuleId::AlwaysIncompatible,
            "the strategy ALWAYS_INCOMPATIBLE rejects every change",
        )),
        Requested::Known(strategy) => Ok(strategy),
    }
}

/// (writer, reader) identities of a compared pair.
fn pair_key(old: &Remembered, new: &Remembered, direction: Direction) -> (u64, u64) {
    match direction {
        Direction::ExistingWritesNewReads => (old.id, new.id),
        Direction::NewWritesExistingReads => (new.id, old.id),
    }
}

/// How many warning lines one check may log besides its summary.
const LOGGED_WARNINGS: usize = 3;

/// One summary line and the first few warnings, for a check that compared something new; a
/// check answered from the caches logs nothing, so reconnecting clients cannot fill the log.
fn log_warnings(report: &Report) {
    if report.total_warnings == 0 {
        return;
    }
    log::warn!("PROTOBUF_NATIVE schema check: {}", report.summary());
    for warning in report.warnings.iter().take(LOGGED_WARNINGS) {
        log::warn!("PROTOBUF_NATIVE schema check: {}", warning.render());
    }
    let unlogged = report.total_warnings.saturating_sub(LOGGED_WARNINGS);
    if unlogged > 0 {
        let noun = if unlogged == 1 { "warning" } else { "warnings" };
        log::warn!("PROTOBUF_NATIVE schema check: {unlogged} more {noun} not logged");
    }
}

fn usable(entry: &Remembered, which: SchemaRef) -> Result<&str, CheckError> {
    entry.root.as_deref().map_err(|e| {
        CheckError::Schema(SchemaError {
            schema: NamedSchema::new(which, entry.digest().as_str()),
            rule: e.rule,
            message: e.message.clone(),
            setting: e.setting,
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
