//! The budgets of one check:
//! - `work`: the work it may do over its whole history, counted in units
//!   (`limit.maxCheckWork`, `limit.maxFieldComparisons`), and what each step is charged: the
//!   primary bound, deterministic, so that every broker refuses the same checks;
//! - `memory`: the heap its thread may hold (`limit.maxCheckMemoryBytes`), measured by
//!   [`MeteredAllocator`];
//! - `cpu`: the CPU time its thread may use (`limit.maxCheckCpuMillis`), a backstop for what
//!   the work accounting misses.
//!
//! Memory and CPU are looked at together ([`Meter::check`]), between the steps of a check:
//! after each decode, and every so many units of a walk. A check the caches answer decodes and
//! walks nothing, and never reads the CPU clock.

mod cpu;
mod memory;
mod work;

pub use memory::MeteredAllocator;
pub use work::{decode_units, ReadWork};
pub(crate) use work::{findings_units, weight, Allowance, Cost, Work};

use std::cell::Cell;

use crate::error::CheckError;
use crate::limits::Limits;

/// The memory and CPU budgets of the check running on this thread.
pub(crate) struct Meter {
    memory: memory::Memory,
    cpu: cpu::Cpu,
    /// Units charged since the CPU clock was last read ([`Meter::after`]).
    since_clock: Cell<u64>,
}

/// Units of work between two readings of the CPU clock, which is a system call: about 65
/// microseconds of work, so that the readings cost next to nothing however small the schemas.
pub(crate) const CLOCK_EVERY: u64 = 1 << 16;

impl Meter {
    pub(crate) fn start(limits: &Limits) -> Meter {
        Meter {
            memory: memory::Memory::start(limits.max_check_memory_bytes),
            cpu: cpu::Cpu::new(limits.max_check_cpu_millis),
            since_clock: Cell::new(0),
        }
    }

    /// The most heap this check has held so far, beyond what the thread held before it.
    pub(crate) fn peak(&self) -> usize {
        self.memory.peak()
    }

    /// Called before work that costs something (a decode, a walk): starts the CPU clock.
    pub(crate) fn arm(&self) {
        self.cpu.arm();
    }

    /// Refuses the check once it has held more memory, or used more CPU time, than its budget.
    pub(crate) fn check(&self, step: &str) -> Result<(), CheckError> {
        self.memory.check(step)?;
        self.since_clock.set(0);
        self.cpu.check(step)
    }

    /// [`Meter::check`] after a step charged `units`: the memory every time, the CPU clock once
    /// [`CLOCK_EVERY`] units have been charged since it was last read.
    #[inline]
    pub(crate) fn after(&self, step: &str, units: u64) -> Result<(), CheckError> {
        let since = self.since_clock.get().saturating_add(units);
        if since < CLOCK_EVERY {
            self.since_clock.set(since);
            return self.memory.check(step);
        }
        self.check(step)
    }

    /// The CPU budget once more, when the check is done: a check that used more than its budget
    /// is refused whether or not a look fell after the budget ran out.
    #[inline]
    pub(crate) fn finish(&self) -> Result<(), CheckError> {
        self.cpu.check("in all")
    }
}
