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
use std::time::Duration;

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

/// The CPU budget of the check running on this thread. The clock is a system call, about as
/// long as a whole check the caches answer, so it is first read when the check starts work
/// that costs something ([`Cpu::arm`]: a decode or a walk); a check the caches answer never
/// reads it.
pub(crate) struct Cpu {
    start: Cell<Option<Duration>>,
    limit: Duration,
}

impl Cpu {
    pub(crate) fn new(limit_millis: usize) -> Cpu {
        Cpu {
            start: Cell::new(None),
            limit: Duration::from_millis(limit_millis as u64),
        }
    }

    /// Starts the clock, if it is not running yet.
    pub(crate) fn arm(&self) {
        if self.start.get().is_none() {
            self.start.set(Some(thread_cpu()));
        }
    }

    /// Refuses the check once its thread has used more CPU time than its budget since the
    /// clock started.
    #[inline]
    pub(crate) fn check(&self, step: &str) -> Result<(), CheckError> {
        let Some(start) = self.start.get() else {
            return Ok(());
        };
        let used = thread_cpu().saturating_sub(start);
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
