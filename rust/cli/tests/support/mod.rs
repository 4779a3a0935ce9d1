//! What the CLI's test files share: running the command as a user would, and their data.
#![allow(dead_code)]

pub mod broker_fakes;
pub mod http;
mod peak;

#[allow(unused_imports)]
pub use peak::output_and_peak_kib;
#[allow(unused_imports)]
pub use protocompat_testkit::{fixtures, git, repo};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// `examples/service` in a fresh directory made a git repository, committed on `main` but for
/// `leave_out` (files left out of the commit, kept in the work tree): the project whose
/// baseline is `main`, as a user's clone of it would be.
pub fn service_repo(name: &str, leave_out: &[&str]) -> PathBuf {
    let dir = tempdir(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&repo().join("examples/service"), &dir);
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    for file in leave_out {
        git(&dir, &["rm", "-q", "--cached", file]);
    }
    git(&dir, &["commit", "-q", "-m", "baseline"]);
    dir
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
