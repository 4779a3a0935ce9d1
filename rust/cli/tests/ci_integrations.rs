//! The ways into application CI, run as CI runs them: the pre-commit hook's script (and the
//! hook through the `pre-commit` tool itself, `pre-commit try-repo`) and the GitHub Action's
//! step script, in a git repository whose last commit changed a schema incompatibly.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::*;

/// A repository whose `proto/` tree is committed at version 1 (HEAD~1), then version 2
/// (HEAD), and whose work tree has version 2 too.
fn repository(name: &str, root: &str) -> PathBuf {
    let dir = tempdir(name);
    let at = |file: &str| format!("{root}{file}");
    write_tree(
        &dir,
        &[
            (&at("acme/orders/v1/order.proto"), ORDER),
            (&at("acme/orders/v1/money.proto"), MONEY_V1),
        ],
    );
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v1"]);
    write_tree(&dir, &[(&at("acme/orders/v1/money.proto"), MONEY_V2)]);
    dir
}

fn script(name: &str) -> PathBuf {
    repo().join("ci").join(name)
}

/// Whether the `pre-commit` tool is here to run the hook; where PROTOCOMPAT_REQUIRE_PRE_COMMIT
/// is set (`.ci/run`), it must be.
fn has_pre_commit() -> bool {
    let has_tool = Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_tool {
        assert!(
            std::env::var_os("PROTOCOMPAT_REQUIRE_PRE_COMMIT").is_none(),
            "pre-commit is not installed (pip install pre-commit)"
        );
        eprintln!("skipped: pre-commit is not installed (pip install pre-commit)");
    }
    has_tool
}

fn run(dir: &Path, command: &mut Command) -> Output {
    command
        .current_dir(dir)
        .env("PROTOCOMPAT", env!("CARGO_BIN_EXE_protocompat"))
        .output()
        .expect("runs")
}

#[test]
fn the_pre_commit_script_checks_each_staged_proto_against_head() {
    let dir = repository("pre-commit-script", "proto/");
    std::fs::write(
        dir.join("proto/acme/orders/v1/new.proto"),
        "syntax = \"proto3\";\nmessage N {}\n",
    )
    .unwrap();
    let out = run(
        &dir,
        Command::new("bash").arg(script("pre-commit.sh")).args([
            "--include=proto",
            "--strategy=BACKWARD",
            "proto/acme/orders/v1/order.proto",
            "proto/acme/orders/v1/new.proto",
            "README.md",
        ]),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(
            "proto/acme/orders/v1/money.proto:5:3: FIELD_NUMBER_CHANGED acme.orders.v1.Order.total.currency"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("proto/acme/orders/v1/new.proto is new at HEAD: nothing to compare"),
        "{stdout}"
    );

    // Committed: HEAD is version 2, and the same file against it passes.
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v2"]);
    let out = run(
        &dir,
        Command::new("bash")
            .arg(script("pre-commit.sh"))
            .args(["--include=proto", "proto/acme/orders/v1/order.proto"]),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // Against the commit before, as --ref names it: the change is found again.
    let out = run(
        &dir,
        Command::new("bash").arg(script("pre-commit.sh")).args([
            "--include=proto",
            "--ref=HEAD~1",
            "proto/acme/orders/v1/order.proto",
        ]),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The hook as pre-commit runs it from this repository (`pre-commit try-repo`). It runs where
/// the `pre-commit` tool is installed; `.ci/run` installs it and sets
/// PROTOCOMPAT_REQUIRE_PRE_COMMIT so that it cannot be skipped there.
#[test]
fn the_hook_runs_under_pre_commit_try_repo() {
    if !has_pre_commit() {
        return;
    }
    let dir = repository("pre-commit-try-repo", "");
    let out = run(
        &dir,
        Command::new("pre-commit")
            .args([
                "try-repo",
                path(&repo().canonicalize().unwrap()),
                "protocompat",
                "--files",
            ])
            .args(["acme/orders/v1/order.proto", "acme/orders/v1/money.proto"])
            .env("PRE_COMMIT_HOME", dir.join(".pre-commit-cache")),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("Pulsar PROTOBUF_NATIVE compatibility (protocompat)"),
        "{stdout}"
    );
    assert!(stdout.contains("Failed"), "{stdout}");
    assert!(
        stdout.contains(
            "acme/orders/v1/money.proto:5:3: FIELD_NUMBER_CHANGED acme.orders.v1.Money.currency"
        ),
        "{stdout}"
    );
}

/// The GitHub Action's step, with the inputs action.yml passes it: annotations for GitHub, and
/// the commit before as the default existing side outside a pull request.
#[test]
fn the_action_script_annotates_the_findings() {
    let dir = repository("action", "proto/");
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v2"]);
    let out = run(
        &dir,
        Command::new("bash")
            .arg(script("github-action.sh"))
            .env("INPUT_SCHEMA", "proto/acme/orders/v1/order.proto")
            .env("INPUT_INCLUDE", "proto/")
            .env("INPUT_STRATEGY", "backward")
            .env("INPUT_PROFILE", "pip246")
            .env("INPUT_FAIL_ON_WARNING", "false")
            .env("PULSAR_AUTH_TOKEN", "")
            .env_remove("GITHUB_BASE_REF"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with(
            "::error file=proto/acme/orders/v1/money.proto,line=5,col=3,title=FIELD_NUMBER_CHANGED::\
             FIELD_NUMBER_CHANGED acme.orders.v1.Order.total.currency (field 2)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("existing[0]: .#ref=HEAD~1,subdir=proto:acme/orders/v1/order.proto"),
        "{stdout}"
    );

    let missing = run(
        &dir,
        Command::new("bash")
            .arg(script("github-action.sh"))
            .env_remove("INPUT_SCHEMA"),
    );
    assert_ne!(missing.status.code(), Some(0));
    assert!(text(&missing.stderr).contains(
        "the action needs its schema input, or a protocompat.yaml at the repository's root"
    ));
}

/// A repository whose file names are an attack on the hook: `--protoc=./evil.proto` (the file
/// `evil.proto` in a directory `--protoc=.`) and, at the root, an executable `evil.proto` that
/// leaves a mark when it runs. Its Editions file `ed.proto` changes in the work tree, so a check
/// of it runs protoc: the one given by `--protoc`, were the file name taken for that option.
fn hostile_names(name: &str) -> (PathBuf, PathBuf) {
    let dir = tempdir(name);
    let mark = dir.join("protoc-ran");
    let edition = |number: u32| {
        format!("edition = \"2023\";\npackage p;\nmessage A {{\n  int32 a = {number};\n}}\n")
    };
    write_tree(
        &dir,
        &[
            ("ed.proto", &edition(1)),
            (
                "--protoc=./evil.proto",
                "syntax = \"proto3\";\nmessage E {}\n",
            ),
            (
                "evil.proto",
                &format!("#!/bin/sh\ntouch '{}'\nexit 1\n", path(&mark)),
            ),
        ],
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join("evil.proto"), PermissionsExt::from_mode(0o755)).unwrap();
    }
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v1"]);
    write_tree(&dir, &[("ed.proto", &edition(2))]);
    (dir, mark)
}

/// The trap is live: given as --protoc, the root's `evil.proto` runs.
fn assert_evil_protoc_runs(dir: &Path, mark: &Path) {
    let out = run(
        dir,
        Command::new(env!("CARGO_BIN_EXE_protocompat")).args([
            "check",
            "--protoc=./evil.proto",
            "--against=.#ref=HEAD",
            "--",
            "ed.proto",
        ]),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(mark.exists(), "{}", text(&out.stderr));
    std::fs::remove_file(mark).unwrap();
}

#[cfg(unix)]
#[test]
fn the_pre_commit_script_takes_no_file_name_for_an_option() {
    let (dir, mark) = hostile_names("pre-commit-hostile");
    assert_evil_protoc_runs(&dir, &mark);
    for (args, said) in [
        // As pre-commit passes them: its args (none here), then the files, in git's order.
        (
            &["--protoc=./evil.proto", "ed.proto", "evil.proto"][..],
            "--protoc=./evil.proto: both an option and a path in this repository",
        ),
        (
            &["--strategy=BACKWARD", "--protoc=./evil.proto", "ed.proto"],
            "--protoc=./evil.proto: both an option and a path in this repository",
        ),
        // No option after a file, existing or not.
        (
            &["ed.proto", "--protoc=./evil.proto"],
            "--protoc=./evil.proto: an option after the first file",
        ),
        (
            &["ed.proto", "--protoc=./nowhere"],
            "--protoc=./nowhere: an option after the first file",
        ),
        // Nor a file name read as an input's options (`PATH#ref=REV` is a git tree).
        (
            &["p#ref=HEAD.proto"],
            "p#ref=HEAD.proto: a path with '#' cannot be checked",
        ),
    ] {
        let out = run(
            &dir,
            Command::new("bash").arg(script("pre-commit.sh")).args(args),
        );
        let stderr = text(&out.stderr);
        assert!(
            !mark.exists(),
            "{args:?}: a file name ran as protoc: {stderr}"
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert_eq!(text(&out.stdout), "", "{args:?}: nothing is checked");
    }
}

/// The same repository through the `pre-commit` tool, which hands the hook every file.
#[cfg(unix)]
#[test]
fn the_hook_under_pre_commit_runs_no_file_as_protoc() {
    if !has_pre_commit() {
        return;
    }
    let (dir, mark) = hostile_names("pre-commit-try-repo-hostile");
    assert_evil_protoc_runs(&dir, &mark);
    let out = run(
        &dir,
        Command::new("pre-commit")
            .args([
                "try-repo",
                path(&repo().canonicalize().unwrap()),
                "protocompat",
                "--all-files",
            ])
            .env("PRE_COMMIT_HOME", dir.join(".pre-commit-cache")),
    );
    let stdout = text(&out.stdout);
    assert!(!mark.exists(), "a file name ran as protoc: {stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Failed"), "{stdout}");
    assert!(
        stdout.contains("--protoc=./evil.proto: both an option and a path in this repository"),
        "{stdout}"
    );
}

/// Inputs that start with `-` are values, not options: here the import root `-proto` and the
/// schema under it.
#[test]
fn the_action_script_reads_no_input_as_an_option() {
    let dir = repository("action-dash", "-proto/");
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v2"]);
    let out = run(
        &dir,
        Command::new("bash")
            .arg(script("github-action.sh"))
            .env("INPUT_SCHEMA", "-proto/acme/orders/v1/order.proto")
            .env("INPUT_INCLUDE", "-proto/")
            .env("INPUT_STRATEGY", "backward")
            .env("PULSAR_AUTH_TOKEN", "")
            .env_remove("GITHUB_BASE_REF"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with(
            "::error file=-proto/acme/orders/v1/money.proto,line=5,col=3,title=FIELD_NUMBER_CHANGED::"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("existing[0]: .#ref=HEAD~1,subdir=-proto:acme/orders/v1/order.proto"),
        "{stdout}"
    );

    // A root message name that reads like an option is a name that is not found.
    let out = run(
        &dir,
        Command::new("bash")
            .arg(script("github-action.sh"))
            .env("INPUT_SCHEMA", "-proto/acme/orders/v1/order.proto")
            .env("INPUT_INCLUDE", "-proto")
            .env("INPUT_ROOT", "--fail-on-warning")
            .env("PULSAR_AUTH_TOKEN", "")
            .env_remove("GITHUB_BASE_REF"),
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--fail-on-warning"), "{stderr}");
    assert!(!stderr.contains("unexpected argument"), "{stderr}");
}

/// The Action without a schema input, in a pull request's clone: every topic of the project
/// file, the file's `git: main` read as `origin/main` (the clone has no local main), the
/// findings as annotations on the work tree's files.
#[test]
fn the_action_checks_every_topic_of_the_project_file_in_a_pull_request() {
    let upstream = tempdir("action-project-upstream");
    copy_dir(&repo().join("examples/service"), &upstream);
    git(&upstream, &["init", "-q", "-b", "main"]);
    git(&upstream, &["add", "."]);
    git(&upstream, &["commit", "-q", "-m", "v1"]);
    let clone = tempdir("action-project-clone").join("service");
    git(
        clone.parent().unwrap(),
        &["clone", "-q", path(&upstream), "service"],
    );
    git(&clone, &["checkout", "-q", "-b", "feature"]);
    git(&clone, &["branch", "-q", "-D", "main"]);
    std::fs::copy(
        repo().join("examples/shop/v3/order.proto"),
        clone.join("proto/shop/order.proto"),
    )
    .unwrap();
    let action = |extra: &[(&str, &str)]| {
        let mut command = Command::new("bash");
        command
            .arg(script("github-action.sh"))
            .env("INPUT_SCHEMA", "")
            .env("INPUT_PROJECT", "")
            .env("INPUT_PROFILE", "")
            .env("INPUT_FAIL_ON_WARNING", "false")
            .env("PULSAR_AUTH_TOKEN", "")
            .env("GITHUB_BASE_REF", "main");
        for (name, value) in extra {
            command.env(name, value);
        }
        run(&clone, &mut command)
    };
    let out = action(&[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let number_changed = stdout
        .lines()
        .filter(|l| {
            l.starts_with(
                "::error file=proto/shop/order.proto,line=8,col=3,title=FIELD_NUMBER_CHANGED::",
            )
        })
        .count();
    assert_eq!(number_changed, 1, "one annotation for the change: {stdout}");

    // A schema input and a project input together are a mistake, said as one.
    let both = action(&[
        ("INPUT_SCHEMA", "proto/shop/order.proto"),
        ("INPUT_PROJECT", "protocompat.yaml"),
    ]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        text(&both.stderr).contains("not both"),
        "{}",
        text(&both.stderr)
    );
}
