//! The engine alone, without JNI: decoding, rule work (canRead), report rendering, and whole
//! checks cold and warm. `cargo bench -p protocompat --bench engine`; BENCHMARKS.md has figures.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

mod common;
use common::BenchSchema;
use protocompat::{Bounds, Checker, Schema, Strategy};

/// The allocator the shipped library and CLI use.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn benches(c: &mut Criterion) {
    let full = Strategy::Full;
    for size in ["small", "medium", "large"] {
        let schema = BenchSchema::compile(size);
        let (old, new) = (schema.version(0), schema.version(1));
        c.bench_function(&format!("decode/{size}"), |b| {
            b.iter(|| Schema::decode(black_box(&old)).unwrap())
        });
        // Schemas cached, results not: the rule work of both directions of FULL.
        let rules_only = Checker::new(Bounds {
            max_verdicts: 0,
            ..Bounds::DEFAULT
        });
        rules_only.check(&[&old], &new, full).unwrap();
        c.bench_function(&format!("can_read_both_directions/{size}"), |b| {
            b.iter(|| {
                rules_only
                    .check(&[black_box(&old)], black_box(&new), full)
                    .unwrap()
            })
        });
        let uncached = Checker::new(Bounds::NONE);
        c.bench_function(&format!("check_cold/{size}"), |b| {
            b.iter(|| {
                uncached
                    .check(&[black_box(&old)], black_box(&new), full)
                    .unwrap()
            })
        });
        let warm = Checker::new(Bounds::DEFAULT);
        warm.check(&[&old], &new, full).unwrap();
        c.bench_function(&format!("check_warm/{size}"), |b| {
            b.iter(|| {
                warm.check(&[black_box(&old)], black_box(&new), full)
                    .unwrap()
            })
        });
    }

    let large_old = BenchSchema::compile("large").version(0);
    let medium = BenchSchema::compile("medium");
    let other = String::from_utf8(medium.version(0)).unwrap();
    let report = Checker::new(Bounds::NONE)
        .check(&[&large_old], other.as_bytes(), full)
        .unwrap();
    c.bench_function("render_text/large_vs_medium", |b| {
        b.iter(|| black_box(&report).render_text())
    });

    let mut group = c.benchmark_group("full_transitive_warm/medium");
    let history: Vec<Vec<u8>> = (0..1000).map(|v| medium.version(v)).collect();
    let proposed = medium.version(1000);
    for n in [1usize, 10, 100, 1000] {
        let existing: Vec<&[u8]> = history[..n].iter().map(Vec::as_slice).collect();
        let checker = Checker::new(Bounds::DEFAULT);
        checker
            .check(&existing, &proposed, Strategy::FullTransitive)
            .unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(n), &existing, |b, existing| {
            b.iter(|| {
                checker
                    .check(existing, &proposed, Strategy::FullTransitive)
                    .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = engine;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = benches
}
criterion_main!(engine);
