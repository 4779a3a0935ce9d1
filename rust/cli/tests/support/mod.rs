//! What the CLI's test files share: running the command as a user would, and their data.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

pub fn case(name: &str, side: &str) -> PathBuf {
    fixtures()
        .join("compat")
        .join(name)
        .join(side)
        .join("order.proto")
}

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the command from the repository's root, as a user of this checkout would: the
/// fixtures are under the default import root, the current directory.
pub fn protocompat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("protocompat runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("protocompat-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the command from `dir`.
pub fn protocompat_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("protocompat runs")
}

/// Writes `files` (path, content) under `dir`, making directories as needed.
pub fn write_tree(dir: &Path, files: &[(&str, &str)]) {
    for (name, content) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}
