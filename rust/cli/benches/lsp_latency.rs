//! The time from a keystroke to the diagnostics it changes, in `protocompat lsp`: an editor's
//! side ([`protocompat_testkit::lsp::Client`]) opens the root file of a topic, then renumbers a
//! field and back, one incremental change at a time, and times each change from its send to the
//! publication of the diagnostics that show it (FIELD_NUMBER_CHANGED there, then gone). The
//! time includes the server's debounce (150 ms). Prints median, p99 and max; asserts nothing
//! about them.
//!
//! On `examples/service` (three topics; `order.proto` is every topic's root or import) and on
//! `bench/schemas/large.proto` (264 messages, one topic), each a git repository whose `main`
//! is the baseline. `cargo bench -p protocompat-cli --bench lsp_latency`; `RUNS=N` (default 40
//! changes each), `PROTOCOMPAT_BIN=PATH` times another build.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use protocompat_testkit::bench_env::env_number;
use protocompat_testkit::lsp::{uri, Client};
use protocompat_testkit::{git, repo};
use serde_json::{json, Value};

fn main() {
    let runs: usize = env_number("RUNS", 40).max(2);
    let bin = std::env::var_os("PROTOCOMPAT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_protocompat")));
    let base = std::env::temp_dir().join(format!("protocompat-bench-lsp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);

    let service = base.join("service");
    copy(&repo().join("examples/service"), &service);
    commit(&service);
    measure(
        "examples/service, proto/shop/order.proto (3 topics)",
        &bin,
        &service,
        &service.join("proto/shop/order.proto"),
        "string note = 4;",
        "4",
        "5",
        runs,
    );

    let large = base.join("large");
    std::fs::create_dir_all(&large).unwrap();
    std::fs::copy(
        repo().join("bench/schemas/large.proto"),
        large.join("large.proto"),
    )
    .unwrap();
    std::fs::write(
        large.join("protocompat.yaml"),
        "version: 1\nbaseline:\n  git: main\nimports: [.]\ntopics:\n  - name: persistent://bench/large/root\n    root: bench.Root\n    file: large.proto\n    strategy: FULL\n",
    )
    .unwrap();
    commit(&large);
    measure(
        "bench/schemas/large.proto, a field f5 (1 topic, 264 messages)",
        &bin,
        &large,
        &large.join("large.proto"),
        "int64 f5 = 5;",
        "5",
        "99",
        runs,
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// Opens `file`, then alternates the number at the end of `line` between `was` and `now`.
#[allow(clippy::too_many_arguments)]
fn measure(
    what: &str,
    bin: &Path,
    dir: &Path,
    file: &Path,
    line: &str,
    was: &str,
    now: &str,
    runs: usize,
) {
    let text = std::fs::read_to_string(file).unwrap();
    let (row, at) = text
        .lines()
        .enumerate()
        .find_map(|(row, l)| Some((row, l.find(line)? + line.len() - 1 - was.len())))
        .expect("the line is in the file");
    let mut client = Client::start(bin, dir);
    client.open(file, &text);
    client.diagnostics(file, |d| d.is_empty());
    let mut times = Vec::with_capacity(runs);
    let mut current = was;
    for run in 0..runs {
        let next = if current == was { now } else { was };
        let start = Instant::now();
        client.change(
            file,
            run as i64 + 2,
            json!([{
                "range": {"start": {"line": row, "character": at}, "end": {"line": row, "character": at + current.len()}},
                "text": next,
            }]),
        );
        let renumbered = next == now;
        client.diagnostics(file, |d| {
            d.iter()
                .any(|d: &Value| d["code"] == "FIELD_NUMBER_CHANGED")
                == renumbered
        });
        times.push(start.elapsed());
        current = next;
    }
    let _ = client.shutdown_and_exit();
    times.sort();
    let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what}: {runs} changes, keystroke to diagnostics median {} ms, p99 {} ms, max {} ms (uri {})",
        ms(pick(0.5)),
        ms(pick(0.99)),
        ms(times[times.len() - 1]),
        uri(file)
    );
}

fn ms(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1000.0)
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn commit(dir: &Path) {
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "baseline"]);
}
