//! The two budgets of one check: the work it may do, counted in units (`limit.maxCheckWork`,
//! [`Work`]), and the memory it may hold (`limit.maxCheckMemoryBytes`, [`Budget`]).
//!
//! A memory budget per check: how much heap the check's own thread holds beyond what it held
//! when the check began, consulted between the steps of a check (after each decode, and while
//! walking), so that a check past the budget stops with RESOURCE_LIMIT_EXCEEDED long before
//! the process is at risk.
//!
//! The counts of the prescan bound each step already (RELIABILITY.md, "Worst inputs inside
//! the default limits"); the budget is the net under them, for whatever a count misses. It can
//! only stop a check between steps: an allocator may not unwind, and a failed allocation
//! aborts the process.
//!
//! It measures only where [`MeteredAllocator`] is the global allocator (the JNI library and the
//! CLI install it); elsewhere the meter reads zero and the budget never stops a check.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

use crate::error::CheckError;
use crate::limits::Limits;

thread_local! {
    /// Bytes this thread allocated minus bytes it freed, and the most that difference reached
    /// since the current check began. Const-initialised and without Drop, so the allocator
    /// can use them at any time, thread start and teardown included.
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn add(bytes: isize) {
    let _ = HELD.try_with(|held| {
        let now = held.get().wrapping_add(bytes);
        held.set(now);
        let _ = PEAK.try_with(|peak| {
            if now > peak.get() {
                peak.set(now);
            }
        });
    });
}

/// Wraps an allocator and counts, per thread, what each thread holds.
pub struct MeteredAllocator<A>(pub A);

// SAFETY: every call is forwarded unchanged to the wrapped allocator; only sizes are counted,
// in thread-locals that neither allocate nor unwind.
unsafe impl<A: GlobalAlloc> GlobalAlloc for MeteredAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = self.0.alloc(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = self.0.alloc_zeroed(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.0.dealloc(ptr, layout);
        add(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = self.0.realloc(ptr, layout, new_size);
        if !p.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// The budget of the check running on this thread.
pub(crate) struct Budget {
    start: isize,
    limit: usize,
}

impl Budget {
    /// Starts measuring a check on this thread.
    pub(crate) fn start(limit: usize) -> Budget {
        let start = HELD.try_with(Cell::get).unwrap_or(0);
        let _ = PEAK.try_with(|peak| peak.set(start));
        Budget { start, limit }
    }

    /// The most heap this check has held so far, beyond what the thread held before it.
    pub(crate) fn peak(&self) -> usize {
        let peak = PEAK.try_with(Cell::get).unwrap_or(self.start);
        usize::try_from(peak.saturating_sub(self.start)).unwrap_or(0)
    }

    /// Refuses the check once it has held more than its budget.
    pub(crate) fn check(&self, step: &str) -> Result<(), CheckError> {
        let peak = self.peak();
        if peak <= self.limit {
            return Ok(());
        }
        Err(CheckError::TooMuchWork(
            format!(
                "the check held {} of memory {step}, over its budget of {}",
                amount(peak),
                amount(self.limit)
            ),
            "limit.maxCheckMemoryBytes",
        ))
    }
}

/// Bytes in MiB, or in KiB below one MiB, for messages.
fn amount(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// What decoding one schema costs in work units: its bytes, its declarations and the steps its
/// relative names took to resolve. The weights make a unit about a nanosecond of one core of
/// this project's benchmark machine for the costliest shapes known (RELIABILITY.md, "Worst
/// inputs"); they are counts, not clock readings, so the same schema costs the same everywhere.
pub fn decode_units(bytes: usize, declarations: u64, resolution_steps: u64) -> u64 {
    (bytes as u64)
        .saturating_mul(UNITS_PER_BYTE)
        .saturating_add(declarations.saturating_mul(UNITS_PER_DECLARATION))
        .saturating_add(resolution_steps.saturating_mul(UNITS_PER_RESOLUTION_STEP))
}

const UNITS_PER_BYTE: u64 = 2;
const UNITS_PER_DECLARATION: u64 = 250;
const UNITS_PER_RESOLUTION_STEP: u64 = 10;
/// A field pair compared (or a field or enum value read by a rule that reads them all).
const UNITS_PER_COMPARISON: u64 = 10;

/// The work one check may still do, over its whole history: decoding each schema it compares
/// and walking each pair, each schema and pair charged what it costs cold, whether or not the
/// caches answer it, so that the same check is refused or not on every broker and in the CLI
/// alike. Field comparisons have a limit of their own besides (`limit.maxFieldComparisons`).
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

    /// Whether decoding `bytes` of schema data could fit what is left: checked before a
    /// schema is decoded, so that a long history stops before it is decoded, not after.
    pub(crate) fn before_decode(&self, bytes: usize) -> Result<(), CheckError> {
        if decode_units(bytes, 0, 0) <= self.units_left {
            return Ok(());
        }
        Err(self.out_of_units())
    }

    /// Charges a schema's decode ([`decode_units`]).
    pub(crate) fn decoded(&mut self, units: u64) -> Result<(), CheckError> {
        match self.units_left.checked_sub(units) {
            Some(left) => {
                self.units_left = left;
                Ok(())
            }
            None => Err(self.out_of_units()),
        }
    }

    /// The field comparisons the next walk may make.
    pub(crate) fn walk_allowance(&self) -> usize {
        let by_units = self.units_left / UNITS_PER_COMPARISON;
        self.comparisons_left
            .min(usize::try_from(by_units).unwrap_or(usize::MAX))
    }

    /// Charges `comparisons` field comparisons: a walk's, or a remembered verdict's.
    pub(crate) fn compared(&mut self, comparisons: usize) -> Result<(), CheckError> {
        // Charged for every remembered verdict of a warm check: no division here.
        let units = (comparisons as u64).saturating_mul(UNITS_PER_COMPARISON);
        if comparisons > self.comparisons_left || units > self.units_left {
            return Err(self.out_of_comparisons());
        }
        self.comparisons_left -= comparisons;
        self.units_left -= units;
        Ok(())
    }

    /// The error for a walk that ran out of its allowance: the setting that bound it.
    pub(crate) fn out_of_comparisons(&self) -> CheckError {
        if (self.comparisons_left as u64).saturating_mul(UNITS_PER_COMPARISON) <= self.units_left {
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
