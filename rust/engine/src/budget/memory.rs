//! The memory budget of one check (`limit.maxCheckMemoryBytes`): how much heap the check's own thread holds beyond what it held
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

/// The memory budget of the check running on this thread.
pub(crate) struct Memory {
    start: isize,
    limit: usize,
}

impl Memory {
    /// Starts measuring a check on this thread.
    pub(crate) fn start(limit: usize) -> Memory {
        let start = HELD.try_with(Cell::get).unwrap_or(0);
        let _ = PEAK.try_with(|peak| peak.set(start));
        Memory { start, limit }
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
