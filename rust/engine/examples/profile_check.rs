//! A loop for profilers (`perf record`, `valgrind --tool=callgrind`): cold FULL checks of the
//! medium benchmark schema. `cargo run --release -p protocompat --example profile_check [N]`.

use protocompat::{Bounds, Checker, Strategy};

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
    let schema = BenchSchema::compile("medium");
    let (old, new) = (schema.version(0), schema.version(1));
    let checker = Checker::new(Bounds::NONE);
    for _ in 0..rounds {
        checker.check(&[&old], &new, Strategy::Full).unwrap();
    }
}
