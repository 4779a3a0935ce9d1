//! Git repositories the tests and benches make, with a fixed identity and branch name so that
//! neither the machine's git configuration nor its default branch decides a result.

use std::path::Path;
use std::process::Command;

/// Runs git in `dir`; fails the test if git fails.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
