//! The engine alone, without JNI: decoding, rule work (canRead), report rendering, and whole
//! checks cold and warm. `cargo bench -p protocompat --bench engine`; BENCHMARKS.md has figures.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use protocompat::model::SchemaData;
use protocompat::{Bounds, Checker, Limits, Schema, Strategy, PROFILES};
use protocompat_testkit::bench_schema::BenchSchema;

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
        // Each profile's rule work and checks, the default's under their first names.
        for profile in PROFILES {
            let name = |what: &str| match profile.name {
                "pip246" => format!("{what}/{size}"),
                other => format!("{other}/{what}/{size}"),
            };
            let checker = |bounds| Checker::new(bounds).with_profile(profile);
            // Schemas cached, results not: the rule work of both directions of FULL.
            let rules_only = checker(Bounds {
                max_verdicts: 0,
                ..Bounds::DEFAULT
            });
            let report = rules_only.check(&[&old], &new, full).unwrap();
            // A profile that found something would be timed building a report as well.
            assert!(
                report.compatible && report.total_warnings == 0,
                "{}",
                report.render_text()
            );
            c.bench_function(&name("can_read_both_directions"), |b| {
                b.iter(|| {
                    rules_only
                        .check(&[black_box(&old)], black_box(&new), full)
                        .unwrap()
                })
            });
            let uncached = checker(Bounds::NONE);
            c.bench_function(&name("check_cold"), |b| {
                b.iter(|| {
                    uncached
                        .check(&[black_box(&old)], black_box(&new), full)
                        .unwrap()
                })
            });
            let warm = checker(Bounds::DEFAULT);
            warm.check(&[&old], &new, full).unwrap();
            c.bench_function(&name("check_warm"), |b| {
                b.iter(|| {
                    warm.check(&[black_box(&old)], black_box(&new), full)
                        .unwrap()
                })
            });
        }
    }

    for size in ["small", "medium", "large"] {
        let data = BenchSchema::compile(size).version(0);
        let decoded = Schema::decode(&data).unwrap().heap_bytes();
        println!(
            "{size}: {} bytes of schema data decode to {decoded} bytes of heap ({:.1}x)",
            data.len(),
            decoded as f64 / data.len() as f64
        );
    }

    // 500,000 fields the root never reaches, in the root file itself: validated, and kept
    // only as rows of the flat tables.
    let (unreachable, limits) = unreachable_heavy();
    println!(
        "unreachable-heavy: {:.1} MB of schema data",
        unreachable.len() as f64 / 1e6
    );
    c.bench_function("decode/unreachable_500k_fields", |b| {
        b.iter(|| Schema::decode_within(black_box(&unreachable), &limits).unwrap())
    });

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

/// A root file declaring `bench.Root { int64 id = 1; }` and 50,000 messages of 10 fields that
/// nothing refers to, with limits raised to admit it.
fn unreachable_heavy() -> (Vec<u8>, Limits) {
    use prost::Message;
    use prost_types::field_descriptor_proto::{Label, Type};
    use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
    let field = |name: String, number: i32| FieldDescriptorProto {
        name: Some(name),
        number: Some(number),
        label: Some(Label::Optional as i32),
        r#type: Some(Type::Int64 as i32),
        ..Default::default()
    };
    let mut messages = vec![DescriptorProto {
        name: Some("Root".into()),
        field: vec![field("id".into(), 1)],
        ..Default::default()
    }];
    for m in 0..50_000 {
        messages.push(DescriptorProto {
            name: Some(format!("Unreached{m}")),
            field: (1..=10).map(|f| field(format!("field{f}"), f)).collect(),
            ..Default::default()
        });
    }
    let file = FileDescriptorProto {
        name: Some("root.proto".into()),
        package: Some("bench".into()),
        syntax: Some("proto3".into()),
        message_type: messages,
        ..Default::default()
    };
    let data = SchemaData {
        descriptor_set: prost_types::FileDescriptorSet { file: vec![file] }.encode_to_vec(),
        root_message: "bench.Root".into(),
        root_file: "root.proto".into(),
    }
    .to_json()
    .into_bytes();
    let limits = Limits {
        max_fields: 1_000_000,
        max_messages: 100_000,
        max_declarations: 1_000_000,
        max_elements: 5_000_000,
        ..Limits::DEFAULT
    };
    (data, limits)
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
