//! Heap used while checking hostile and normal schemas, counted by a wrapping allocator.
//!
//! The figures are printed, not asserted (they depend on the allocator and the toolchain):
//! `cargo test -p protocompat --release --test peak_memory -- --nocapture`. The test asserts
//! only the verdicts. Everything runs in one test so that no other test allocates meanwhile.

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use protocompat::{check, Limits, Strategy};
use support::{
    root_file_with_enum_values, schema_data, schema_of_files, tiny_root_file, unimported_file,
};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let now = CURRENT.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Checks `data` as a new schema under FULL; prints the heap it needed beyond what was already
/// allocated (the schema data itself), and the wall time.
fn measure(what: &str, data: &[u8]) -> Result<bool, String> {
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let verdict = check(&[], data, Strategy::Full)
        .map(|report| report.compatible)
        .map_err(|e| e.to_string());
    let elapsed = started.elapsed();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    println!(
        "{what}: {} bytes of schema data, peak heap {} bytes ({:.1} MB) above it, {:.0} ms",
        data.len(),
        peak,
        peak as f64 / 1e6,
        elapsed.as_secs_f64() * 1e3
    );
    verdict
}

fn refused_with(verdict: Result<bool, String>, says: &str) {
    match verdict {
        Err(message) => {
            assert!(message.starts_with("RESOURCE_LIMIT_EXCEEDED"), "{message}");
            assert!(message.contains(says), "{message}");
        }
        Ok(compatible) => panic!("expected a refusal, got compatible={compatible}"),
    }
}

#[test]
fn peak_heap_of_refusals_and_of_normal_checks() {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/schemas");
    let normal = schema_data(&bench, "large.proto", "bench.Root");
    assert_eq!(
        measure("normal schema (bench/schemas/large.proto)", &normal),
        Ok(true)
    );
    drop(normal);

    let six_million = schema_of_files(&[&tiny_root_file(), &unimported_file(6_000_000, 0)]);
    assert!(six_million.len() < Limits::DEFAULT.max_schema_bytes);
    refused_with(
        measure(
            "6,000,000 empty messages in an unimported file",
            &six_million,
        ),
        "has 6000001 messages, over the limit of 50000",
    );
    drop(six_million);

    let within = schema_of_files(&[&tiny_root_file(), &unimported_file(40_000, 10)]);
    assert_eq!(
        measure(
            "40,000 messages and 400,000 fields in an unimported file",
            &within
        ),
        Ok(true)
    );
    drop(within);

    let enums = schema_of_files(&[&root_file_with_enum_values(800_000)]);
    refused_with(
        measure("800,000 enum values in the root file", &enums),
        "has 800000 enum values, over the limit of 100000",
    );
}
