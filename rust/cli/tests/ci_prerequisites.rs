//! `ci/prerequisites.sh`, which ci/release.sh, rust/cli/build-static.sh, the portable Maven
//! profile and the Maven plugin's build run before compiling anything: on a PATH of fake tools
//! (a `rustup` whose installed targets the test chooses), it names each missing tool or target
//! with the line that installs it, and the scripts that use it stop there. Each case runs a
//! shell script or two against fakes: milliseconds.

mod support;

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::*;

const ALL_TARGETS: &[&str] = &[
    "x86_64-unknown-linux-gnu",
    "aarch64-unknown-linux-gnu",
    "x86_64-unknown-linux-musl",
    "aarch64-unknown-linux-musl",
];

/// The tools a release needs, as fakes; cargo and mvn fail loudly if anything gets as far as
/// running them, which no case here may.
const TOOLS: &[&str] = &[
    "cargo",
    "cargo-zigbuild",
    "maturin",
    "cargo-cyclonedx",
    "readelf",
    "unzip",
    "mvn",
    "java",
];

fn write_script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A directory that is the whole PATH: the shell utilities the scripts use (linked to the real
/// ones), fakes of `tools`, a `python3` that has Zig (`python3 -m ziglang`) when `zig` is set,
/// and a `rustup` listing `targets` as installed.
fn fake_path(name: &str, tools: &[&str], zig: bool, targets: &[&str]) -> PathBuf {
    let dir = tempdir(name).join("bin");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for utility in ["bash", "grep", "sed", "dirname", "ls", "cat"] {
        let real = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(utility))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("no {utility} in /usr/bin or /bin"));
        symlink(real, dir.join(utility)).unwrap();
    }
    for tool in tools {
        write_script(
            &dir.join(tool),
            &format!("echo \"fake {tool} ran: $*\" >&2; exit 99"),
        );
    }
    let ziglang = if zig {
        "[ \"$1 $2 $3\" = \"-m ziglang version\" ] && { echo 0.13.0; exit 0; }\n"
    } else {
        ""
    };
    write_script(
        &dir.join("python3"),
        &format!("{ziglang}echo \"fake python3: $*\" >&2; exit 1"),
    );
    write_script(
        &dir.join("rustup"),
        &format!(
            "[ \"$*\" = \"target list --installed\" ] || {{ echo \"fake rustup: $*\" >&2; exit 99; }}\nprintf '%s\\n' {}",
            targets.join(" ")
        ),
    );
    dir
}

fn run(path: &Path, script: &str, args: &[&str]) -> Output {
    Command::new(repo().join(script))
        .args(args)
        .env_clear()
        .env("PATH", path)
        .env("HOME", path.parent().unwrap())
        .current_dir(path.parent().unwrap())
        .output()
        .expect("the script runs")
}

fn stderr_of(out: &Output) -> String {
    text(&out.stderr)
}

#[test]
fn a_missing_rust_target_is_named_with_the_line_that_adds_it() {
    let path = fake_path(
        "prereq-target",
        TOOLS,
        true,
        &["x86_64-unknown-linux-gnu", "x86_64-unknown-linux-musl"],
    );
    let out = run(&path, "ci/prerequisites.sh", &["release"]);
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for target in ["aarch64-unknown-linux-gnu", "aarch64-unknown-linux-musl"] {
        assert!(
            stderr.contains(&format!("Rust target {target}")),
            "{target} not named: {stderr}"
        );
        assert!(
            stderr.contains(&format!("rustup target add {target}")),
            "no install line for {target}: {stderr}"
        );
    }
    // Only what is missing: the installed targets and the tools that are here go unnamed.
    assert!(!stderr.contains("x86_64-unknown-linux"), "{stderr}");
    assert!(!stderr.contains("maturin"), "{stderr}");
    assert!(!stderr.contains("fake "), "a fake ran: {stderr}");

    // Only the portable build's targets for -Pportable without the static CLI.
    let out = run(&path, "ci/prerequisites.sh", &["portable"]);
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("rustup target add aarch64-unknown-linux-gnu"));
    assert!(!stderr.contains("musl"), "{stderr}");
}

#[test]
fn release_and_the_static_build_stop_before_compiling() {
    let path = fake_path(
        "prereq-release",
        TOOLS,
        true,
        &[
            "x86_64-unknown-linux-gnu",
            "x86_64-unknown-linux-musl",
            "aarch64-unknown-linux-musl",
        ],
    );
    let out = run(&path, "ci/release.sh", &[]);
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("rustup target add aarch64-unknown-linux-gnu"),
        "{stderr}"
    );
    assert!(
        stderr.contains("release: error: install what is missing"),
        "{stderr}"
    );
    // Stopped at the check: no cargo or Maven ran (the fakes would have said so).
    assert!(!stderr.contains("fake "), "a build step ran: {stderr}");

    let path = fake_path("prereq-static", TOOLS, true, &["x86_64-unknown-linux-musl"]);
    let out = run(&path, "rust/cli/build-static.sh", &[]);
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("rustup target add aarch64-unknown-linux-musl"),
        "{stderr}"
    );
    assert!(!stderr.contains("fake "), "a build step ran: {stderr}");
}

#[test]
fn missing_pypi_tools_are_installed_into_a_venv_not_the_system_python() {
    let tools: Vec<&str> = TOOLS
        .iter()
        .copied()
        .filter(|t| !matches!(*t, "maturin" | "cargo-zigbuild"))
        .collect();
    let path = fake_path("prereq-pypi", &tools, false, ALL_TARGETS);
    let out = run(&path, "ci/prerequisites.sh", &["release"]);
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let venv_pip = "$HOME/.venvs/protocompat-build/bin/pip install";
    for (tool, package) in [
        ("maturin", "maturin"),
        ("cargo-zigbuild", "cargo-zigbuild"),
        ("Zig", "ziglang"),
    ] {
        let line = stderr
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{tool} ")))
            .unwrap_or_else(|| panic!("{tool} not named: {stderr}"));
        assert!(
            line.ends_with(&format!("{venv_pip} {package}")),
            "{tool}: {line}"
        );
    }
    assert!(
        stderr.contains(
            "python3 -m venv $HOME/.venvs/protocompat-build && export PATH=\"$HOME/.venvs/protocompat-build/bin:$PATH\""
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("Rust target"), "{stderr}");

    // --brief: the names alone, for the Maven plugin's build to decide and say what it bundles.
    let out = run(&path, "ci/prerequisites.sh", &["--brief", "static-cli"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout).trim(), "maturin, Zig");
}

#[test]
fn everything_here_passes() {
    let path = fake_path("prereq-all", TOOLS, true, ALL_TARGETS);
    let out = run(&path, "ci/prerequisites.sh", &["release"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(
        text(&out.stdout).trim(),
        "prerequisites: all here for release"
    );
    let out = run(&path, "ci/prerequisites.sh", &["--brief", "portable"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "");
    // A need the script does not know is a usage error, not a pass.
    let out = run(&path, "ci/prerequisites.sh", &["portabel"]);
    assert_eq!(out.status.code(), Some(2));
}
