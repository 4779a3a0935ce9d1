//! The time `protocompat schema --root p500.Order INPUT` takes to find the file that declares
//! the root message among many Editions files that all mention `message Order` (so each is a
//! candidate protoc must compile), in a directory and in a git tree. Prints the figures;
//! asserts nothing about them.
//!
//! `cargo bench -p protocompat-cli --bench editions_search`; `FILES=N` sets the number of files
//! (default 1000), `RUNS=N` the runs of each input (default 3), and `PROTOCOMPAT_BIN=PATH`
//! times another build of the CLI (an older one, for a before-and-after).

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use protocompat_testkit::bench_env::{env_number, secs};
use protocompat_testkit::git;

fn main() {
    let files: usize = env_number("FILES", 1000);
    let runs: usize = env_number("RUNS", 3);
    let bin = std::env::var_os("PROTOCOMPAT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_protocompat")));
    let protoc = protoc_bin_vendored::protoc_bin_path().unwrap();
    let dir = std::env::temp_dir().join(format!("protocompat-bench-search-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proto")).unwrap();
    for i in 0..files {
        std::fs::write(
            dir.join(format!("proto/f{i}.proto")),
            format!("edition = \"2023\";\npackage p{i};\nmessage Order {{\n  int32 x = 1;\n}}\n"),
        )
        .unwrap();
    }
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "files"]);
    let root = format!("p{}.Order", files / 2);
    println!(
        "{} schema --root {root}, {files} Editions files, {runs} runs each",
        bin.display()
    );
    for input in ["proto", ".git#ref=HEAD,subdir=proto"] {
        let mut times = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let out = Command::new(&bin)
                .args(["schema", "--protoc"])
                .arg(&protoc)
                .args(["--root", &root, input])
                .current_dir(&dir)
                .output()
                .unwrap();
            times.push(start.elapsed());
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        times.sort();
        println!(
            "{input:32} median {:>9.3} s  (fastest {:.3} s, slowest {:.3} s)",
            secs(times[times.len() / 2]),
            secs(times[0]),
            secs(times[times.len() - 1])
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
