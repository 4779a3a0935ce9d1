//! A loop for profilers (`perf record`, `valgrind --tool=callgrind`): cold FULL checks of the
//! medium benchmark schema. `cargo run --release -p protocompat --example profile_check [N]`.

use std::path::Path;

use prost::Message;
use protocompat::schema::SchemaData;
use protocompat::{Bounds, Checker, Strategy};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/schemas");
    let mut compiler = protox::Compiler::new([&dir]).unwrap();
    compiler.include_imports(true);
    compiler.open_file("medium.proto").unwrap();
    let data = |name: &str| {
        SchemaData {
            descriptor_set: compiler.file_descriptor_set().encode_to_vec(),
            root_message: "bench.Root".into(),
            root_file: name.into(),
        }
        .to_json()
        .into_bytes()
    };
    let (old, new) = (data("medium.proto"), data("medium.proto"));
    let mut new = new;
    new.push(b' '); // different bytes, same schema: the check cannot short-cut
    let checker = Checker::new(Bounds::NONE);
    for _ in 0..rounds {
        checker.check(&[&old], &new, Strategy::Full.code()).unwrap();
    }
}
