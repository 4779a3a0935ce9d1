//! A loop for profilers (`perf record`, `valgrind --tool=callgrind`): cold FULL checks of a
//! benchmark schema under a profile.
//! `cargo run --release -p protocompat --example profile_check [N [SIZE [PROFILE]]]`
//! (200 rounds of `medium` under `pip246` by default).

use protocompat::{Bounds, Checker, Profile, Strategy};

#[path = "../benches/common/mod.rs"]
mod common;
use common::BenchSchema;

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
    let schema = BenchSchema::compile(&size);
    let (old, new) = (schema.version(0), schema.version(1));
    let checker = Checker::new(Bounds::NONE).with_profile(profile);
    for _ in 0..rounds {
        checker.check(&[&old], &new, Strategy::Full).unwrap();
    }
}
