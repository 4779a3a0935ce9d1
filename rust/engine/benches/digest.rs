//! Candidates for the cache key of schema data (docs/rules.md#remembered-results: a remembered
//! result may stand in for a check only when the bytes are the same), on the benchmark schemas'
//! data.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sha2::{Digest, Sha256};
use std::hint::black_box;

fn digests(c: &mut Criterion) {
    let key = [7u8; 32];
    let mut group = c.benchmark_group("digest");
    for size in ["small", "medium", "large"] {
        let data = protocompat_testkit::bench_schema::BenchSchema::compile(size).version(1);
        let copy = data.clone();
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.bench_with_input(BenchmarkId::new("xxh3_128", size), &data, |b, d| {
            b.iter(|| xxhash_rust::xxh3::xxh3_128(black_box(d)))
        });
        group.bench_with_input(BenchmarkId::new("xxh3_128+memcmp", size), &data, |b, d| {
            b.iter(|| {
                let key = xxhash_rust::xxh3::xxh3_128(black_box(d));
                (key, black_box(d.as_slice()) == black_box(copy.as_slice()))
            })
        });
        group.bench_with_input(BenchmarkId::new("blake3_keyed", size), &data, |b, d| {
            b.iter(|| blake3::keyed_hash(&key, black_box(d)))
        });
        group.bench_with_input(BenchmarkId::new("sha256", size), &data, |b, d| {
            b.iter(|| Sha256::digest(black_box(d)))
        });
        group.bench_with_input(BenchmarkId::new("siphash13_128", size), &data, |b, d| {
            b.iter(|| {
                use std::hash::Hasher;
                let mut h = siphasher::sip128::SipHasher13::new_with_key(&[7u8; 16]);
                h.write(black_box(d));
                siphasher::sip128::Hasher128::finish128(&h)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .measurement_time(std::time::Duration::from_secs(2))
        .warm_up_time(std::time::Duration::from_millis(500));
    targets = digests
}
criterion_main!(benches);
