//! `check --fix` as a user runs it: the README's transcript (copy v3, fix it against v2, read
//! the result) replayed in a scratch copy of `examples/`, word for word, and its result the file
//! the demo uploads (`examples/shop/v3-fixed`); and what `--fix` refuses or cannot do.

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::{copy_dir, repo};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("protocompat-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a terminal shows for a run: stderr's lines (said while it works), then stdout's.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    (out.status.code(), shown)
}

/// The README's code block that starts by copying a version: its commands, each with the
/// lines it prints.
fn readme_block() -> Vec<(String, Vec<String>)> {
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let start = readme
        .find("$ cp -r examples/shop/v3 ")
        .expect("the README's --fix transcript");
    let block = &readme[start..start + readme[start..].find("```").unwrap()];
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => commands.push((command.to_owned(), Vec::new())),
            None => commands.last_mut().unwrap().1.push(line.to_owned()),
        }
    }
    commands
}

#[test]
fn the_readme_fix_transcript_is_what_fix_does_and_gives_the_demo_file() {
    let dir = scratch("fix-transcript");
    copy_dir(&repo().join("examples"), &dir.join("examples"));
    let commands = readme_block();
    assert_eq!(commands.len(), 3, "cp, protocompat check --fix, cat");
    let mut fixed = None;
    for (command, expected) in &commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        let shown = match words.as_slice() {
            ["cp", "-r", from, to] => {
                copy_dir(&dir.join(from), &dir.join(to));
                String::new()
            }
            ["protocompat", args @ ..] => {
                let (status, shown) = run(&dir, args);
                assert_eq!(status, Some(0), "{shown}");
                shown
            }
            ["cat", file] => {
                let text = fs::read_to_string(dir.join(file)).unwrap();
                fixed = Some(text.clone());
                text
            }
            _ => panic!("the transcript runs cp, protocompat and cat only: {command}"),
        };
        assert_eq!(shown.trim_end(), expected.join("\n"), "$ {command}");
    }
    let demo = fs::read_to_string(repo().join("examples/shop/v3-fixed/order.proto")).unwrap();
    assert_eq!(
        fixed.as_deref(),
        Some(demo.as_str()),
        "the demo uploads what --fix wrote"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn fix_refuses_a_new_side_that_is_not_proto_source() {
    let dir = scratch("fix-refuses");
    let (status, shown) = run(
        &repo(),
        &[
            "schema",
            "--root",
            "shop.Order",
            "examples/shop/v3/order.proto",
        ],
    );
    assert_eq!(status, Some(0), "{shown}");
    let schema = dir.join("v3.json");
    fs::write(&schema, shown.trim_end()).unwrap();
    let (status, shown) = run(
        &repo(),
        &[
            "check",
            "--fix",
            "--root",
            "shop.Order",
            "examples/shop/v1/order.proto",
            schema.to_str().unwrap(),
        ],
    );
    assert_eq!(status, Some(2), "{shown}");
    assert!(
        shown.contains("--fix edits .proto source on disk: NEW must be a .proto file or a directory of them (not a descriptor set, Pulsar schema JSON or a git tree)"),
        "{shown}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn what_fix_cannot_change_is_left_and_reported() {
    // proto3 to proto2: SYNTAX_CHANGED has no edit; the file is left as it was.
    let dir = scratch("fix-left");
    let old = dir.join("old.proto");
    let new = dir.join("new.proto");
    fs::write(
        &old,
        "syntax = \"proto3\";\nmessage Order { int64 id = 1; }\n",
    )
    .unwrap();
    let written = "syntax = \"proto2\";\nmessage Order { optional int64 id = 1; }\n";
    fs::write(&new, written).unwrap();
    let (status, shown) = run(
        &dir,
        &["check", "--fix", "--against", "old.proto", "new.proto"],
    );
    assert_eq!(status, Some(1), "{shown}");
    assert!(
        shown.contains("protocompat --fix: no failure has a proven fix to make"),
        "{shown}"
    );
    assert!(shown.contains("SYNTAX_CHANGED Order"), "{shown}");
    assert!(
        shown.contains("advice: keep the old file's proto3"),
        "{shown}"
    );
    assert_eq!(fs::read_to_string(&new).unwrap(), written);
    let _ = fs::remove_dir_all(&dir);
}

/// `int32` widened to `int64` in proto3 is a warning under `pip246` and FULL: the broker takes
/// the change, so a plain `--fix` writes nothing and says what `--fix-warnings` would write;
/// with `--fix-warnings` the old field is kept beside the new one.
#[test]
fn a_plain_fix_leaves_a_warning_only_change_as_it_is() {
    let dir = scratch("fix-warning-only");
    let case = repo().join("tests/fixtures/fixes/widened_warning_only");
    copy_dir(&case.join("old"), &dir.join("old"));
    copy_dir(&case.join("new"), &dir.join("new"));
    let written = fs::read_to_string(dir.join("new/order.proto")).unwrap();
    let args = [
        "check",
        "--fix",
        "--strategy",
        "FULL",
        "--profile",
        "pip246",
        "--against",
        "old/order.proto",
        "--against-include",
        "old",
        "-I",
        "new",
        "new/order.proto",
    ];
    let (status, shown) = run(&dir, &args);
    assert_eq!(status, Some(0), "{shown}");
    assert_eq!(
        fs::read_to_string(dir.join("new/order.proto")).unwrap(),
        written
    );
    assert!(
        shown.contains("protocompat --fix: left as a suggestion (a warning; --fix-warnings makes it): keep field quantity as it was"),
        "{shown}"
    );
    assert!(
        shown.contains("no failure has a proven fix to make"),
        "{shown}"
    );
    let mut with_warnings = args.to_vec();
    with_warnings.insert(2, "--fix-warnings");
    let (status, shown) = run(&dir, &with_warnings);
    assert_eq!(status, Some(0), "{shown}");
    let fixed = fs::read_to_string(dir.join("new/order.proto")).unwrap();
    assert!(fixed.contains("int64 quantity_v2 = 3;"), "{fixed}");
    assert!(
        fixed.contains("int32 quantity = 2 [deprecated = true];"),
        "{fixed}"
    );
    let _ = fs::remove_dir_all(&dir);
}
