//! `text::bound` reads no more of a text than can reach what it returns: a default of
//! megabytes is shown in a finding of every pair of a history it is in, and the `cost` fuzz
//! target found that reading all of it each time took 19 s of CPU for one check
//! (RELIABILITY.md, "Fuzzing for cost"). What it reads shows as what it allocates: a text with
//! a control character anywhere was copied whole to escape it before it was cut.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

/// Counts the bytes each thread allocates.
struct Counting;

// SAFETY: every call goes to the system allocator unchanged; only sizes are counted, in a
// const-initialised thread-local without Drop.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + layout.size()));
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATED.try_with(|a| a.set(a.get() + new_size));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocated() -> usize {
    ALLOCATED.with(Cell::get)
}

#[test]
fn bound_reads_no_further_than_it_keeps() {
    let text = format!("{}\n", "7".repeat(1 << 20));
    let before = allocated();
    let shown = protocompat::text::bound(&text, 60);
    let spent = allocated() - before;
    assert_eq!(shown, format!("{}…", "7".repeat(57)));
    assert!(
        spent < 1024,
        "bounding 1 MiB to 60 bytes allocated {spent} bytes"
    );
}
