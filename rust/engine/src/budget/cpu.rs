//! The backstop under the work budget: the CPU time the check's own thread has used since the
//! check began (`limit.maxCheckCpuMillis`).
//!
//! The work budget ([`super::work`]) is the bound that matters: it is a count, so every broker
//! and the CLI refuse the same checks. A clock is not: the same check takes longer on a slower
//! or busier machine, so near this limit two brokers could disagree. It is there for what the
//! accounting misses (a loop nobody charged), so its default sits well above what the work
//! budget lets through on any machine the project has measured, and it is read only where the
//! memory budget is, between the steps of a check.

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::error::CheckError;

/// CPU time this thread has used, where the platform can tell; else the time since an
/// arbitrary start (which only counts more, never less).
#[cfg(unix)]
fn thread_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `now` is.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    if status != 0 {
        return wall();
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[cfg(not(unix))]
fn thread_cpu() -> Duration {
    wall()
}

fn wall() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

/// How long a check runs, by the wall clock, before its CPU clock is first read: a thread
/// cannot have used more CPU time than the wall time that passed, and the CPU clock is a
/// system call, a few percent of a cold check of small schemas, which therefore reads none.
const FIRST_READ_AFTER: Duration = Duration::from_millis(1);

/// The CPU budget of the check running on this thread. Started when the check starts work that
/// costs something ([`Cpu::arm`]: a decode or a walk), by the wall clock, which costs no system
/// call; a check the caches answer never starts it. The CPU clock is first read once a
/// millisecond of wall time has passed, and the CPU used until then is counted as that wall
/// time, which it cannot exceed.
pub(crate) struct Cpu {
    began: Cell<Option<Instant>>,
    /// The first reading of the CPU clock, and the wall time that had passed by then.
    first: Cell<Option<(Duration, Duration)>>,
    limit: Duration,
}

impl Cpu {
    pub(crate) fn new(limit_millis: usize) -> Cpu {
        Cpu {
            began: Cell::new(None),
            first: Cell::new(None),
            limit: Duration::from_millis(limit_millis as u64),
        }
    }

    /// Starts the clock, if it is not running yet.
    pub(crate) fn arm(&self) {
        if self.began.get().is_none() {
            self.began.set(Some(Instant::now()));
        }
    }

    /// The CPU time used since the clock started, at most: `None` while it cannot be over the
    /// budget yet and the CPU clock has not been read.
    fn used(&self) -> Option<Duration> {
        let began = self.began.get()?;
        if let Some((cpu, before)) = self.first.get() {
            return Some(before + thread_cpu().saturating_sub(cpu));
        }
        let elapsed = began.elapsed();
        if elapsed <= FIRST_READ_AFTER.min(self.limit) {
            return None;
        }
        self.first.set(Some((thread_cpu(), elapsed)));
        Some(elapsed)
    }

    /// Refuses the check once its thread has used more CPU time than its budget since the
    /// clock started.
    #[inline]
    pub(crate) fn check(&self, step: &str) -> Result<(), CheckError> {
        let Some(used) = self.used() else {
            return Ok(());
        };
        if used <= self.limit {
            return Ok(());
        }
        Err(CheckError::TooMuchWork(
            format!(
                "the check used {} ms of CPU time {step}, over its budget of {} ms (a backstop \
                 under limit.maxCheckWork: please report the schema that did this)",
                used.as_millis(),
                self.limit.as_millis()
            ),
            "limit.maxCheckCpuMillis",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_clock_is_read_only_after_a_millisecond_and_counts_no_sleep() {
        let cpu = Cpu::new(10_000);
        assert!(cpu.used().is_none(), "not started");
        cpu.arm();
        // Nothing read within the first millisecond of wall time: a small check reads nothing.
        // A slow machine (qemu in CI) may pass the millisecond before this line; then this is
        // the first reading, which counts the wall time since `arm`.
        let first = cpu.used();
        assert!(first.is_none_or(|used| used >= FIRST_READ_AFTER));
        std::thread::sleep(Duration::from_millis(5));
        let before = cpu.used().expect("read after a millisecond");
        match first {
            // The first reading is this one: the wall time since `arm`, the 5 ms sleep included.
            None => assert!(before >= Duration::from_millis(5), "{before:?}"),
            // Read before the sleep: from then on the CPU clock counts, and sleeping adds nothing.
            Some(first) => assert!(
                before >= first && before < first + Duration::from_millis(100),
                "{first:?}, then {before:?} after sleeping 5 ms"
            ),
        }
        // Sleeping uses no CPU time: counted by the CPU clock from its first reading on.
        std::thread::sleep(Duration::from_millis(200));
        let after = cpu.used().expect("read");
        assert!(
            after < before + Duration::from_millis(100),
            "{before:?}, then {after:?} after sleeping 200 ms"
        );
    }

    #[test]
    fn a_budget_of_nothing_refuses_any_work() {
        let cpu = Cpu::new(0);
        cpu.arm();
        std::thread::sleep(Duration::from_millis(1));
        assert!(cpu.check("at once").is_err());
    }
}
