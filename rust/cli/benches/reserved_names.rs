//! The time of one `protocompat check OLD NEW` where NEW changes field `a`'s type and its
//! message reserves the names `a_v2` … `a_vN`: the remedy for the change keeps `a` and adds the
//! new declaration under a fresh name, which has to be found past every one of them (remedies
//! are planned for every check, `--fix` or not). With the names in a list, N = 160,000 took
//! 23.5 s. Prints the figures; asserts nothing about them, only that the check ran and found
//! the first free name.
//!
//! `cargo bench -p protocompat-cli --bench reserved_names`; `NAMES=N` sets the number of
//! reserved names (default 160000), `RUNS=N` the runs (default 5), and `PROTOCOMPAT_BIN=PATH`
//! times another build of the CLI (an older one, for a before-and-after).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use protocompat_testkit::bench_env::{env_number, secs};

fn main() {
    let names: usize = env_number("NAMES", 160_000);
    let runs: usize = env_number("RUNS", 5).max(1);
    let bin = std::env::var_os("PROTOCOMPAT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_protocompat")));
    let dir =
        std::env::temp_dir().join(format!("protocompat-bench-reserved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let old = "syntax = \"proto3\";\npackage p;\nmessage M {\n  int32 a = 1;\n}\n";
    let mut reserved = String::new();
    for version in 2..2 + names {
        if version > 2 {
            reserved.push_str(", ");
        }
        let _ = write!(reserved, "\"a_v{version}\"");
    }
    let new = format!(
        "syntax = \"proto3\";\npackage p;\nmessage M {{\n  string a = 1;\n  reserved {reserved};\n}}\n"
    );
    std::fs::write(dir.join("old.proto"), old).unwrap();
    std::fs::write(dir.join("new.proto"), new).unwrap();
    let fresh = format!("a_v{}", names + 2);
    println!(
        "{} check old.proto new.proto, {names} reserved names, {runs} runs",
        bin.display()
    );
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let out = Command::new(&bin)
            .args(["check", "old.proto", "new.proto"])
            .current_dir(&dir)
            .output()
            .unwrap();
        times.push(start.elapsed());
        // Compatible (the findings are warnings) or not: anything but a refusal.
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&fresh),
            "no {fresh} in the remedy: {stdout}"
        );
    }
    times.sort();
    println!(
        "median {:.3} s  (fastest {:.3} s, slowest {:.3} s)",
        secs(times[times.len() / 2]),
        secs(times[0]),
        secs(times[times.len() - 1])
    );
    let _ = std::fs::remove_dir_all(&dir);
}
