//! A loop for profilers (`perf record`, `valgrind --tool=callgrind`): cold FULL checks of a
//! benchmark schema under a profile (warm ones, the caches kept, with `PROFILE_CHECK_WARM=1`).
//! `cargo run --release -p protocompat --example profile_check [N [SIZE [PROFILE [HISTORY]]]]`
//! (200 rounds of `medium` under `pip246` against one version by default; with a longer
//! history, FULL_TRANSITIVE against versions 0 to HISTORY - 1).

use protocompat::{Bounds, Checker, Profile, Strategy};

use protocompat_testkit::bench_schema::BenchSchema;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    // Two versions: different bytes, so the check cannot short-cut.
    let size = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "medium".to_owned());
    let profile = Profile::named(
        &std::env::args()
            .nth(3)
            .unwrap_or_else(|| "pip246".to_owned()),
    )
    .expect("a profile");
    let history: usize = std::env::args()
        .nth(4)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let schema = BenchSchema::compile(&size);
    let versions: Vec<Vec<u8>> = (0..=history).map(|v| schema.version(v)).collect();
    let (old, new) = versions.split_at(history);
    let old: Vec<&[u8]> = old.iter().map(Vec::as_slice).collect();
    let strategy = if history == 1 {
        Strategy::Full
    } else {
        Strategy::FullTransitive
    };
    // `PROFILE_CHECK_WARM=1`: the checker keeps its caches, as a broker's does, so every round
    // after the first is answered from them.
    let warm = std::env::var("PROFILE_CHECK_WARM").as_deref() == Ok("1");
    let bounds = if warm { Bounds::DEFAULT } else { Bounds::NONE };
    let checker = Checker::new(bounds).with_profile(profile);
    let started = std::time::Instant::now();
    for _ in 0..rounds {
        let report = checker.check(&old, &new[0], strategy).unwrap();
        assert!(report.compatible, "{}", report.render_text());
    }
    eprintln!(
        "{} µs per check ({rounds} {} checks of {size} against {history}, {}), {} work units each ({:.0}% of limit.maxCheckWork)",
        started.elapsed().as_micros() / rounds.max(1) as u128,
        if warm { "warm" } else { "cold" },
        profile.name,
        checker.stats().last_check_work,
        checker.stats().last_check_work as f64 * 100.0
            / protocompat::Limits::DEFAULT.max_check_work as f64
    );
}
