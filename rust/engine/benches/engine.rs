//! The engine alone, without JNI: decoding, rule work (canRead), report rendering, and whole
//! checks cold and warm. `cargo bench -p protocompat --bench engine`; BENCHMARKS.md has figures.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use prost::Message;
use protocompat::schema::SchemaData;
use protocompat::{Bounds, Checker, Schema, Strategy};

/// `bench/schemas/<size>.proto` as version `v` (see bench/schemas/gen.py), compiled without
/// source info, as protoc-generated classes give it to Pulsar.
fn schema(size: &str, v: usize) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/schemas");
    let text = std::fs::read_to_string(dir.join(format!("{size}.proto"))).unwrap();
    let option = format!("option java_outer_classname = \"RootV{v}\";");
    let text = text.replace("// VERSION_OPTION", &option);
    let tmp = std::env::temp_dir().join(format!(
        "protocompat-bench-{}-{size}-{v}",
        std::process::id()
    ));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(tmp.join("root.proto"), text).unwrap();
    let mut compiler = protox::Compiler::new([&tmp]).unwrap();
    compiler.include_imports(true);
    compiler.open_file("root.proto").unwrap();
    let set = compiler.file_descriptor_set();
    std::fs::remove_dir_all(&tmp).unwrap();
    SchemaData {
        descriptor_set: set.encode_to_vec(),
        root_message: "bench.Root".into(),
        root_file: "root.proto".into(),
    }
    .to_json()
    .into_bytes()
}

/// The allocator the shipped library and CLI use.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn benches(c: &mut Criterion) {
    let full = Strategy::Full.code();
    for size in ["small", "medium", "large"] {
        let old = schema(size, 0);
        let new = schema(size, 1);
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

    let large_old = schema("large", 0);
    let other = String::from_utf8(schema("medium", 0)).unwrap();
    let report = Checker::new(Bounds::NONE)
        .check(&[&large_old], other.as_bytes(), full)
        .unwrap();
    c.bench_function("render_text/large_vs_medium", |b| {
        b.iter(|| black_box(&report).render_text())
    });

    let mut group = c.benchmark_group("full_transitive_warm/medium");
    let history: Vec<Vec<u8>> = (0..1000).map(|v| schema("medium", v)).collect();
    let proposed = schema("medium", 1000);
    for n in [1usize, 10, 100, 1000] {
        let existing: Vec<&[u8]> = history[..n].iter().map(Vec::as_slice).collect();
        let checker = Checker::new(Bounds::DEFAULT);
        checker
            .check(&existing, &proposed, Strategy::FullTransitive.code())
            .unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(n), &existing, |b, existing| {
            b.iter(|| {
                checker
                    .check(existing, &proposed, Strategy::FullTransitive.code())
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
