//! The work one check may do over its whole history (`limit.maxCheckWork`, in units, and
//! `limit.maxFieldComparisons`), and what each step of a check is charged: the cost model
//! (RELIABILITY.md, "The cost model").
//!
//! Every loop whose trip count an input controls is either charged here, per element it visits,
//! or runs once per schema over something the schema's decode is charged for (its bytes and
//! declarations). A schema is charged in every check that compares it and a pair in every check
//! that asks for it, cached or not, so the caches never decide whether a check is refused: a
//! broker that has seen the history, a broker just restarted and `protocompat check` in CI
//! refuse the same uploads.

use super::Meter;
use crate::error::CheckError;
use crate::limits::Limits;

/// The weights: what one element of each kind costs, in units. A unit is about a nanosecond
/// of one core of this project's benchmark machine for the costliest shapes known
/// (`examples/worst_inputs.rs` prints CPU per unit for each); they are counts, not clock
/// readings, so the same check costs the same everywhere.
pub(crate) mod weight {
    /// A byte of schema data decoded (or hashed and confirmed, when remembered).
    pub const BYTE: u64 = 2;
    /// A declaration read into the model, with its names, default and features.
    pub const DECLARATION: u64 = 250;
    /// A step of resolving relative names through the tree of scopes.
    pub const RESOLUTION_STEP: u64 = 10;
    /// A SHA-256 compression (64 bytes) made for the ids of full names: those of the simple
    /// names and packages, never of the full names (`model/name_id.rs`). About 50 ns with the
    /// SHA extensions of x86 and Arm.
    pub const NAME_ID_BLOCK: u64 = 120;
    /// A byte of a message's or enum's full name, built once (copied from its scope's) and
    /// hashed once into the table of full names.
    pub const FULL_NAME_BYTE: u64 = 1;
    /// A step of the binary search that finds an enum default's value by name: each reads a
    /// value's name elsewhere in the model, a cache miss in a large enum.
    pub const DEFAULT_LOOKUP_STEP: u64 = 50;
    /// A schema taken into a check at all: read from the caller, looked up, parsed as JSON.
    pub const SCHEMA: u64 = 10_000;
    /// A pair of schemas compared in one direction: cache lookups, the verdict, the report.
    pub const SCHEMA_PAIR: u64 = 2_000;
    /// A message pair queued by a walk.
    pub const MESSAGE_PAIR: u64 = 200;
    /// A field of either message of a compared pair, read by the rules that read them all
    /// (required fields, names, oneofs) and by the matching of fields by number.
    pub const FIELD_READ: u64 = 10;
    /// A field pair matched by number and compared by the field rules.
    pub const COMPARISON: u64 = 10;
    /// A value of either enum of a compared enum pair.
    pub const ENUM_VALUE: u64 = 10;
    /// Bytes of text the rules may compare byte for byte across a pair, per unit: the names
    /// and declared defaults of the fields (the smaller side's, twice, since comparing two
    /// texts reads at most the shorter of each), the names of both enums' values (a merge by
    /// name). A few comparisons of each, at tens of bytes a nanosecond.
    pub const TEXT_BYTES_PER_UNIT: u64 = 8;
    /// A finding a rule made, kept or only counted: its description is written either way
    /// (types, defaults, names), about half a microsecond.
    pub const FINDING: u64 = 800;
    /// A byte of a finding's text (its field's name, what it says of each side): copied into
    /// the finding, the guard's set of where the profile spoke and the path, and hashed. A
    /// name of a kilobyte is found in every pair of a history it is in.
    pub const FINDING_BYTE: u64 = 2;
    /// A byte of a field's name hashed to ask whether the profile spoke there, which the guard
    /// asks of every compared field of a pair with findings.
    pub const NAME_BYTE: u64 = 1;
    /// A step of the binary search that finds a field by name: each reads a name elsewhere in
    /// the model, a cache miss in a large message.
    pub const NAME_LOOKUP_STEP: u64 = 50;
}

/// What making `violations` cost: each finding and the bytes of its text.
pub(crate) fn findings_units<'v>(
    violations: impl IntoIterator<Item = &'v crate::rules::Violation>,
) -> u64 {
    violations.into_iter().fold(0, |units, violation| {
        units
            .saturating_add(weight::FINDING)
            .saturating_add((violation.text_bytes() as u64).saturating_mul(weight::FINDING_BYTE))
    })
}

/// What reading one schema took beyond its bytes, counted as it was read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadWork {
    /// Declarations read into the model.
    pub declarations: u64,
    /// Steps of resolving relative names through the tree of scopes.
    pub resolution_steps: u64,
    /// Steps of the binary searches that found enum defaults' values by name.
    pub default_lookup_steps: u64,
    /// SHA-256 compressions the ids of the full names took (`model/name_id.rs`).
    pub name_id_blocks: u64,
    /// Bytes of the full names of messages and enums, each built once and hashed once into
    /// the table of full names: nesting makes them many times the bytes of the schema.
    pub full_name_bytes: u64,
}

/// What decoding one schema costs in work units: its bytes and what reading them took
/// ([`ReadWork`]), besides what taking any schema into a check costs.
pub fn decode_units(bytes: usize, read: &ReadWork) -> u64 {
    weight::SCHEMA
        .saturating_add((bytes as u64).saturating_mul(weight::BYTE))
        .saturating_add(read.declarations.saturating_mul(weight::DECLARATION))
        .saturating_add(
            read.resolution_steps
                .saturating_mul(weight::RESOLUTION_STEP),
        )
        .saturating_add(
            read.default_lookup_steps
                .saturating_mul(weight::DEFAULT_LOOKUP_STEP),
        )
        .saturating_add(read.name_id_blocks.saturating_mul(weight::NAME_ID_BLOCK))
        .saturating_add(read.full_name_bytes.saturating_mul(weight::FULL_NAME_BYTE))
}

/// What a walk cost: its units, and how many of them were comparisons in the sense of
/// `limit.maxFieldComparisons` (field pairs, fields read, enum values). A remembered verdict is
/// charged it again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Cost {
    pub units: u64,
    pub comparisons: usize,
}

/// The work one check may still do, over its whole history: decoding each schema it compares
/// and walking each pair, each schema and pair charged what it costs cold, whether or not the
/// caches answer it.
pub(crate) struct Work {
    units_left: u64,
    comparisons_left: usize,
    /// The limits, for the messages that refuse a check.
    max_check_work: usize,
    max_field_comparisons: usize,
    /// The history's length, for the message that refuses a check needing more.
    history: usize,
}

impl Work {
    pub(crate) fn new(limits: &Limits, history: usize) -> Work {
        Work {
            units_left: limits.max_check_work as u64,
            comparisons_left: limits.max_field_comparisons,
            max_check_work: limits.max_check_work,
            max_field_comparisons: limits.max_field_comparisons,
            history,
        }
    }

    /// The units charged so far.
    pub(crate) fn spent(&self) -> u64 {
        self.max_check_work as u64 - self.units_left
    }

    /// Whether decoding `bytes` of schema data could fit what is left: checked before a
    /// schema is decoded, so that a long history stops before it is decoded, not after.
    pub(crate) fn before_decode(&self, bytes: usize) -> Result<(), CheckError> {
        if decode_units(bytes, &ReadWork::default()) <= self.units_left {
            return Ok(());
        }
        Err(self.out_of_units())
    }

    /// Charges a schema's decode ([`decode_units`]).
    #[inline]
    pub(crate) fn decoded(&mut self, units: u64) -> Result<(), CheckError> {
        self.charge(Cost {
            units,
            comparisons: 0,
        })
    }

    /// Charges one compared pair and direction besides its walk.
    #[inline]
    pub(crate) fn pair(&mut self) -> Result<(), CheckError> {
        self.decoded(weight::SCHEMA_PAIR)
    }

    /// What the next walk may spend, besides `spent` that an earlier walk of this pair has
    /// spent and that is not charged yet; `ways` is 2 for a traversal that walks both
    /// directions at once and charges each step twice.
    pub(crate) fn allowance<'m>(&self, spent: Cost, ways: u64, meter: &'m Meter) -> Allowance<'m> {
        meter.arm();
        Allowance {
            units_left: self.units_left.saturating_sub(spent.units),
            comparisons_left: self.comparisons_left.saturating_sub(spent.comparisons),
            ways,
            each_way: Cost::default(),
            once: 0,
            until_checkpoint: CHECKPOINT_EVERY,
            meter,
        }
    }

    /// Charges what a walk cost: a walk's, or a remembered verdict's.
    #[inline]
    pub(crate) fn charge(&mut self, cost: Cost) -> Result<(), CheckError> {
        if cost.comparisons > self.comparisons_left || cost.units > self.units_left {
            return Err(self.refusal(cost));
        }
        self.comparisons_left -= cost.comparisons;
        self.units_left -= cost.units;
        Ok(())
    }

    #[cold]
    fn refusal(&self, cost: Cost) -> CheckError {
        if cost.comparisons > self.comparisons_left {
            self.out_of_comparisons()
        } else {
            self.out_of_units()
        }
    }

    /// The error for a walk that ran out of its allowance: the setting that bound it.
    pub(crate) fn out_of_comparisons(&self) -> CheckError {
        if (self.comparisons_left as u64).saturating_mul(weight::COMPARISON) <= self.units_left {
            CheckError::TooMuchWork(
                format!(
                    "checking against {} needs more than {} field comparisons",
                    self.existing(),
                    self.max_field_comparisons
                ),
                "limit.maxFieldComparisons",
            )
        } else {
            self.out_of_units()
        }
    }

    /// `1 existing schema`, `10 existing schemas`.
    fn existing(&self) -> String {
        match self.history {
            1 => "1 existing schema".to_owned(),
            n => format!("{n} existing schemas"),
        }
    }

    fn out_of_units(&self) -> CheckError {
        CheckError::TooMuchWork(
            format!(
                "checking against {} needs more than {} units of work (decoding each schema \
                 and comparing each pair)",
                self.existing(),
                self.max_check_work
            ),
            "limit.maxCheckWork",
        )
    }
}

/// Units a walk spends between two looks at the memory and CPU budgets ([`Meter::check`]).
const CHECKPOINT_EVERY: u64 = super::CLOCK_EVERY;

/// What one walk may spend, and what it has spent. A traversal of both directions at once
/// (`ways` 2) charges each step of the walk twice, once for each direction, and what only the
/// direction walked makes (its findings) once; the two verdicts then cost what the two walks
/// would cost apart.
pub(crate) struct Allowance<'m> {
    units_left: u64,
    comparisons_left: usize,
    ways: u64,
    /// Spent by each direction.
    each_way: Cost,
    /// Spent by the direction walked only.
    once: u64,
    until_checkpoint: u64,
    meter: &'m Meter,
}

impl<'m> Allowance<'m> {
    /// Spends `count` elements of `weight` units in each direction walked, counted as
    /// comparisons when `compared`; `Ok(false)`, spending nothing, when they do not fit.
    #[inline]
    pub(crate) fn each_way(
        &mut self,
        count: usize,
        weight: u64,
        compared: bool,
    ) -> Result<bool, CheckError> {
        let per_way = (count as u64).saturating_mul(weight);
        let units = per_way.saturating_mul(self.ways);
        let comparisons = if compared {
            count.saturating_mul(self.ways as usize)
        } else {
            0
        };
        if units > self.units_left || comparisons > self.comparisons_left {
            return Ok(false);
        }
        self.units_left -= units;
        self.comparisons_left -= comparisons;
        self.each_way.units += per_way;
        if compared {
            self.each_way.comparisons += count;
        }
        self.spent(units)?;
        Ok(true)
    }

    /// Spends `units` in the direction walked only.
    #[inline]
    pub(crate) fn once(&mut self, units: u64) -> Result<bool, CheckError> {
        if units == 0 {
            return Ok(true);
        }
        if units > self.units_left {
            return Ok(false);
        }
        self.units_left -= units;
        self.once += units;
        self.spent(units)?;
        Ok(true)
    }

    /// Looks at the memory and CPU budgets every [`CHECKPOINT_EVERY`] units.
    #[inline]
    fn spent(&mut self, units: u64) -> Result<(), CheckError> {
        match self.until_checkpoint.checked_sub(units) {
            Some(left) if left > 0 => {
                self.until_checkpoint = left;
                Ok(())
            }
            _ => self.checkpoint(),
        }
    }

    #[cold]
    fn checkpoint(&mut self) -> Result<(), CheckError> {
        self.until_checkpoint = CHECKPOINT_EVERY;
        self.meter.check("while comparing fields")
    }

    /// A one-way allowance for the way back walked alone, once a traversal of both ways found
    /// that the way back finds something: what is left, with the way back's share of the
    /// traversal given back, since its own walk charges it again.
    pub(crate) fn alone_after(&self) -> Allowance<'m> {
        let shares = self.ways - 1;
        Allowance {
            units_left: self.units_left + self.each_way.units * shares,
            comparisons_left: self.comparisons_left + self.each_way.comparisons * shares as usize,
            ways: 1,
            each_way: Cost::default(),
            once: 0,
            until_checkpoint: self.until_checkpoint,
            meter: self.meter,
        }
    }

    /// What the direction walked cost, as a walk of it alone would.
    pub(crate) fn forth(&self) -> Cost {
        Cost {
            units: self.each_way.units + self.once,
            comparisons: self.each_way.comparisons,
        }
    }

    /// What the way back cost, when it found nothing: the same steps, no findings.
    pub(crate) fn back(&self) -> Cost {
        self.each_way
    }
}
