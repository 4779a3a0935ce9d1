//! `buf breaking` itself running `protocompat buf-plugin`, in a git repository whose `main`
//! holds `examples/shop/v1`'s order.proto: the baseline passes, v3 in its place fails with
//! FIELD_NUMBER_CHANGED at the changed field's line, and a topic whose root `main` lacks is
//! new. It runs where buf is installed (`buf`, or the one PROTOCOMPAT_BUF names); `.ci/run`
//! installs buf 1.75.0 and sets PROTOCOMPAT_REQUIRE_BUF so that it cannot be skipped there.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::*;

const BUF_YAML: &str = "\
version: v2
modules:
  - path: proto
plugins:
  - plugin: [protocompat, buf-plugin]
    options:
      roots: [shop.Order, shop.Invoice]
breaking:
  use:
    - PIP246
";

const INVOICE: &str =
    "syntax = \"proto3\";\npackage shop;\n\nmessage Invoice {\n  int64 id = 1;\n}\n";

/// buf, or `None` with the test skipped; where PROTOCOMPAT_REQUIRE_BUF is set, buf must be here.
fn buf() -> Option<PathBuf> {
    let buf = std::env::var_os("PROTOCOMPAT_BUF")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("buf"));
    let version = Command::new(&buf).arg("--version").output();
    match version {
        Ok(out) if out.status.success() => {
            eprintln!("buf {}", text(&out.stdout).trim());
            Some(buf)
        }
        _ => {
            assert!(
                std::env::var_os("PROTOCOMPAT_REQUIRE_BUF").is_none(),
                "buf is not installed (pip install buf-bin==1.75.0), and PROTOCOMPAT_REQUIRE_BUF is set"
            );
            eprintln!("skipped: buf is not installed (pip install buf-bin==1.75.0, or PROTOCOMPAT_BUF=PATH)");
            None
        }
    }
}

/// `buf breaking --against '.git#branch=main'` in `dir`, with this build's protocompat first on
/// the PATH, as a user's installed one would be.
fn breaking(buf: &Path, dir: &Path) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_protocompat"))
        .parent()
        .unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    Command::new(buf)
        .args(["breaking", "--against", ".git#branch=main"])
        .current_dir(dir)
        .env("PATH", path)
        .env("BUF_CACHE_DIR", dir.join(".buf-cache"))
        .output()
        .expect("buf runs")
}

fn shop(version: &str) -> String {
    std::fs::read_to_string(
        repo()
            .join("examples/shop")
            .join(version)
            .join("order.proto"),
    )
    .unwrap()
}

#[test]
fn buf_breaking_runs_our_rules_through_the_plugin() {
    let Some(buf) = buf() else {
        return;
    };
    let dir = tempdir("buf-breaking");
    write_tree(
        &dir,
        &[
            ("buf.yaml", BUF_YAML),
            ("proto/shop/order.proto", &shop("v1")),
            (".gitignore", ".buf-cache/\n"),
        ],
    );
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v1"]);

    // The baseline against itself; shop.Invoice is in no file yet, and no root of a side.
    write_tree(&dir, &[("proto/shop/invoice.proto", INVOICE)]);
    let out = breaking(&buf, &dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}{stderr}", text(&out.stdout));
    // A topic whose root main lacks is new: said, and not a failure.
    assert!(stderr.contains("shop.Invoice: new"), "{stderr}");

    // v3 changes note's number (line 8), a type, packing and a nested field's type.
    write_tree(&dir, &[("proto/shop/order.proto", &shop("v3"))]);
    let out = breaking(&buf, &dir);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(100),
        "{stdout}{}",
        text(&out.stderr)
    );
    let number: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(":FIELD_NUMBER_CHANGED shop.Order.note"))
        .collect();
    assert!(!number.is_empty(), "{stdout}");
    for line in number {
        assert!(line.starts_with("proto/shop/order.proto:8:3:"), "{line}");
        assert!(
            line.contains("fix: give field note its old number 4"),
            "{line}"
        );
        assert!(line.ends_with("(protocompat)"), "{line}");
    }
    // PIP246 is what the broker refuses: SCALAR_TYPE_CHANGED, a warning, is not in it.
    assert!(
        stdout.contains(":FIELD_KIND_CHANGED shop.Order.total.currency"),
        "{stdout}"
    );
    assert!(!stdout.contains("SCALAR_TYPE_CHANGED"), "{stdout}");
    // docs/buf.md shows this run: its transcript is what buf prints today.
    assert_eq!(
        stdout.trim_end(),
        documented_run(),
        "docs/buf.md is out of date"
    );
}

/// The lines docs/buf.md shows under `$ buf breaking --against '.git#branch=main'`, up to the
/// next command.
fn documented_run() -> String {
    let doc = std::fs::read_to_string(repo().join("docs/buf.md")).unwrap();
    let lines: Vec<&str> = doc
        .lines()
        .skip_while(|l| *l != "$ buf breaking --against '.git#branch=main'")
        .skip(1)
        .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
        .collect();
    assert!(!lines.is_empty(), "docs/buf.md lost its transcript");
    lines.join("\n")
}
