//! What the CLI's test files share: running the command as a user would, and their data.
#![allow(dead_code)]

pub mod http;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

/// The protoc bundled with the CLI, named with --protoc so that a protoc installed on the
/// machine (perhaps too old for Editions) does not decide a test.
pub fn bundled_protoc() -> String {
    protoc_bin_vendored::protoc_bin_path()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned()
}

/// `from` copied into `to`, directories and all.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
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

/// Runs `command` to its end, reading its stdout and stderr meanwhile: what it printed, and the
/// most memory it ever held, in KiB: its peak resident set as the kernel counted it, read when
/// it is reaped (`wait4`), so no moment is missed, and no other process is counted.
// The child is reaped by wait4, which `Child::wait` cannot give the resource use of.
#[allow(clippy::zombie_processes)]
pub fn output_and_peak_kib(mut command: Command) -> (Output, u64) {
    use std::os::unix::process::ExitStatusExt;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain integers, for which all zeros is a value; wait4 writes both
    // out-parameters, which live across the call. The child is reaped here, not by `child`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            break;
        }
        let error = std::io::Error::last_os_error();
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::Interrupted,
            "wait4: {error}"
        );
    }
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    // Linux counts ru_maxrss in KiB.
    (output, u64::try_from(usage.ru_maxrss).unwrap())
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

/// A proto tree of two files, the root importing the other: versions 1 and 2 differ in the
/// imported file only, where `currency` moves from field 2 to field 3 (FIELD_NUMBER_CHANGED).
pub const ORDER: &str = r#"syntax = "proto3";
package acme.orders.v1;
import "acme/orders/v1/money.proto";
message Order {
  int64 id = 1;
  Money total = 2;
}
"#;

pub const MONEY_V1: &str = r#"syntax = "proto3";
package acme.orders.v1;
message Money {
  int64 units = 1;
  string currency = 2;
}
"#;

/// The breaking change is in the imported file: `currency` moves to field 3.
pub const MONEY_V2: &str = r#"syntax = "proto3";
package acme.orders.v1;
message Money {
  int64 units = 1;
  string currency = 3;
}
"#;

pub const FILE: &str = "acme/orders/v1/order.proto";

/// Runs git in `dir` with a fixed identity and branch name; fails the test if git fails.
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
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

/// The schema data the broker stores for `examples/shop/VERSION/order.proto`, made once per
/// version and test binary (a fake admin API serves it for every topic).
pub fn shop_data(version: &str) -> String {
    static DATA: std::sync::Mutex<std::collections::BTreeMap<String, String>> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());
    if let Some(data) = DATA.lock().unwrap().get(version) {
        return data.clone();
    }
    let dir = format!("examples/shop/{version}");
    let out = protocompat(&[
        "schema",
        "--root",
        "shop.Order",
        "-I",
        &dir,
        &format!("{dir}/order.proto"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let data = text(&out.stdout).trim_end().to_owned();
    DATA.lock()
        .unwrap()
        .insert(version.to_owned(), data.clone());
    data
}

/// What `protocompat schema` printed: its JSON, and the descriptor set it carries, decoded from
/// base64.
pub fn schema_output(stdout: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let json: serde_json::Value = serde_json::from_slice(stdout).unwrap();
    let set = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        json["fileDescriptorSet"].as_str().unwrap(),
    )
    .unwrap();
    (json, set)
}
