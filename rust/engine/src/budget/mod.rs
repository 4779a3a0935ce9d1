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
pub use work::decode_units;
pub(crate) use work::{weight, Allowance, Cost, Work};

use crate::error::CheckError;
use crate::limits::Limits;

/// The memory and CPU budgets of the check running on this thread.
pub(crate) struct Meter {
    memory: memory::Memory,
    cpu: cpu::Cpu,
}

impl Meter {
    pub(crate) fn start(limits: &Limits) -> Meter {
        Meter {
            memory: memory::Memory::start(limits.max_check_memory_bytes),
            cpu: cpu::Cpu::new(limits.max_check_cpu_millis),
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
        self.cpu.check(step)
    }
}
