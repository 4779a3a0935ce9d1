//! Resident memory of the decoded-schema cache at its bound: fills a checker with distinct
//! versions of a benchmark schema, twice as many as the bound admits, and prints the process's
//! resident set size as it goes (it must stop growing at the bound), against the estimate the
//! bound counts (each decoded model's heap, `Schema::heap_bytes`).
//! `cargo bench -p protocompat --bench cache_memory [-- small|medium|large]`.

use protocompat::{Bounds, Checker, Schema, Strategy};

use protocompat_testkit::bench_schema::BenchSchema;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn main() {
    let size = std::env::args()
        .skip(1)
        .find(|a| ["small", "medium", "large"].contains(&a.as_str()))
        .unwrap_or_else(|| "medium".to_owned());
    let schema = BenchSchema::compile(&size);
    let version = |v: usize| schema.version(v);
    let raw = version(0).len();
    let bounds = Bounds::DEFAULT;
    let decoded = Schema::decode(&version(0)).unwrap().heap_bytes();
    let admitted = bounds.max_decoded_bytes / decoded;
    println!(
        "{size} schema: {raw} bytes of schema data, {decoded} bytes decoded ({:.1}x); bounds: {} schemas remembered, {} MiB of \
         decoded schemas, {} verdicts -> {admitted} decoded schemas fit",
        decoded as f64 / raw as f64,
        bounds.max_schemas,
        bounds.max_decoded_bytes >> 20,
        bounds.max_verdicts
    );
    println!(
        "{:>8} {:>10} {:>16} {:>12} {:>14}",
        "checks", "decoded", "estimate MiB", "RSS MiB", "RSS/estimate"
    );
    let checker = Checker::new(bounds);
    let start = resident_bytes();
    let total = admitted * 2;
    let step = (total / 8).max(1);
    let mut previous = version(0);
    for v in 1..=total {
        let next = version(v);
        checker.check(&[&previous], &next, Strategy::Full).unwrap();
        previous = next;
        if v % step == 0 || v == total {
            let stats = checker.stats();
            let grown = resident_bytes().saturating_sub(start);
            println!(
                "{v:>8} {:>10} {:>16.1} {:>12.1} {:>14.2}",
                stats.decoded,
                stats.decoded_bytes as f64 / 1048576.0,
                grown as f64 / 1048576.0,
                grown as f64 / stats.decoded_bytes.max(1) as f64
            );
        }
    }
}
