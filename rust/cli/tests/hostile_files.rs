//! A repository's files as an attack on whoever checks it (a CI runner checking a pull request).
//! Symbolic links in a side's import roots: one that leaves its root (a file, an import, a
//! directory on the way to one, in a work tree or a git tree, for protox and for protoc) is
//! refused by name, and nothing of its target reaches any output format; one that stays inside
//! is followed, as protoc follows it. File names that protoc would read as its options are
//! refused before protoc runs.
#![cfg(unix)]

mod support;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use support::*;

/// What the file outside the root holds: no output may show it.
const SECRET: &str = "hunter2-7f3a9c";

const FORMATS: [&str; 4] = ["text", "json", "github", "junit"];

fn protoc() -> String {
    path(&protoc_bin_vendored::protoc_bin_path().unwrap()).to_owned()
}

/// A work tree with `proto/` as the import root, `outside/` beside it holding the secret (as a
/// syntax name, which protox's and protoc's parse errors quote), and links out of the root:
/// `proto/secret.proto` to the secret file, `proto/ext` to the directory holding it.
fn hostile(name: &str) -> PathBuf {
    let dir = tempdir(name);
    let _ = std::fs::remove_dir_all(&dir);
    let secret = format!("syntax = \"{SECRET}\";\n");
    write_tree(
        &dir,
        &[
            ("outside/secret.proto", &secret),
            ("proto/old.proto", "syntax = \"proto3\";\nmessage A {\n  int32 a = 1;\n}\n"),
            (
                "proto/imports.proto",
                "syntax = \"proto3\";\nimport \"secret.proto\";\nmessage A {\n  int32 a = 1;\n}\n",
            ),
            (
                "proto/through_dir.proto",
                "syntax = \"proto3\";\nimport \"ext/secret.proto\";\nmessage A {\n  int32 a = 1;\n}\n",
            ),
            (
                "proto/editions.proto",
                "edition = \"2023\";\nimport \"secret.proto\";\nmessage A {\n  int32 a = 1;\n}\n",
            ),
        ],
    );
    symlink("../outside/secret.proto", dir.join("proto/secret.proto")).unwrap();
    symlink("../outside", dir.join("proto/ext")).unwrap();
    dir
}

/// Runs `check` in every format: each is refused (exit 2), said on stderr (`said`) and on
/// stdout in the format, and no output shows the secret.
fn refused_in_every_format(dir: &Path, args: &[&str], said: &str) {
    let protoc = protoc();
    for format in FORMATS {
        let mut all = vec!["check", "--format", format, "--protoc", &protoc];
        all.extend(args);
        let out = protocompat_in(dir, &all);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(
            !stdout.contains(SECRET) && !stderr.contains(SECRET),
            "{format} {args:?}: the secret got out:\n{stdout}{stderr}"
        );
        assert_eq!(out.status.code(), Some(2), "{format} {args:?}: {stderr}");
        assert!(stderr.contains(said), "{format} {args:?}: {stderr}");
        if format != "text" {
            assert!(
                stdout.contains("leaves its import root"),
                "{format} {args:?}: {stdout}"
            );
        }
    }
}

const LEAVES: &str =
    "leaves its import root proto: a symbolic link on its path points outside the root";

#[test]
fn a_file_that_a_link_takes_out_of_its_root_is_refused() {
    let dir = hostile("links-work-tree");
    for (file, said) in [
        // An import is the link, or goes through one, for protox and for protoc alike.
        (
            "proto/imports.proto",
            format!("the imported file `secret.proto` (proto/secret.proto) {LEAVES}"),
        ),
        (
            "proto/through_dir.proto",
            format!("the imported file `ext/secret.proto` (proto/ext/secret.proto) {LEAVES}"),
        ),
        (
            "proto/editions.proto",
            format!("the imported file `secret.proto` (proto/secret.proto) {LEAVES}"),
        ),
        // The named file is the link, or lies in a linked directory.
        (
            "proto/secret.proto",
            format!("protocompat: proto/secret.proto: the file {LEAVES}"),
        ),
        (
            "proto/ext/secret.proto",
            format!("protocompat: proto/ext/secret.proto: the file {LEAVES}"),
        ),
    ] {
        refused_in_every_format(&dir, &["-I", "proto", "proto/old.proto", file], &said);
    }

    // A directory searched for the root message: a file that declares it but leaves the root
    // is told, not passed over for another.
    write_tree(
        &dir,
        &[(
            "new/n.proto",
            "syntax = \"proto3\";\nmessage A {\n  int32 a = 1;\n}\n",
        )],
    );
    refused_in_every_format(
        &dir,
        &[
            "--root",
            "A",
            "--against",
            "proto",
            "-I",
            "new",
            "new/n.proto",
        ],
        LEAVES,
    );
}

/// A git tree keeps a link as a blob holding its target: followed inside the tree, as in a
/// checkout, and refused where it leads out of the tree's root (by `..` or an absolute target),
/// for protox and for protoc alike.
#[test]
fn a_link_in_a_git_tree_is_followed_inside_the_tree_only() {
    let dir = hostile("links-git-tree");
    let message = "message A {\n  int32 a = 1;\n}\n";
    write_tree(
        &dir,
        &[
            (
                "proto/money.proto",
                "syntax = \"proto3\";\nmessage Money {\n  int64 cents = 1;\n}\n",
            ),
            (
                "proto/order.proto",
                "syntax = \"proto3\";\nimport \"alias/money.proto\";\nmessage Order {\n  Money total = 1;\n}\n",
            ),
            (
                "proto/ed_order.proto",
                "edition = \"2023\";\nimport \"same.proto\";\nmessage Order {\n  Money total = 1;\n}\n",
            ),
            ("proto/up_imports.proto", &format!("syntax = \"proto3\";\nimport \"up.proto\";\n{message}")),
            ("proto/up_editions.proto", &format!("edition = \"2023\";\nimport \"up.proto\";\n{message}")),
            ("proto/abs_imports.proto", &format!("syntax = \"proto3\";\nimport \"abs.proto\";\n{message}")),
            ("proto/abs_editions.proto", &format!("edition = \"2023\";\nimport \"abs.proto\";\n{message}")),
        ],
    );
    symlink(".", dir.join("proto/alias")).unwrap();
    symlink("money.proto", dir.join("proto/same.proto")).unwrap();
    symlink("../outside/secret.proto", dir.join("proto/up.proto")).unwrap();
    symlink(
        dir.join("outside/secret.proto"),
        dir.join("proto/abs.proto"),
    )
    .unwrap();
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "links"]);
    // The work tree's side stays inside: only the tree's links lead out.
    for link in ["proto/up.proto", "proto/abs.proto"] {
        std::fs::remove_file(dir.join(link)).unwrap();
        write_tree(&dir, &[(link, "syntax = \"proto3\";\n")]);
    }

    let against = ["--against", ".git#ref=main,subdir=proto", "-I", "proto"];
    // Inside: the tree's schema is the work tree's, through a directory link and a file link.
    for file in ["proto/order.proto", "proto/ed_order.proto"] {
        let protoc = protoc();
        let mut args = vec!["check", "--protoc", &protoc];
        args.extend(against);
        args.push(file);
        let out = protocompat_in(&dir, &args);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", text(&out.stderr));
    }
    // Out: refused by name.
    for (file, link) in [
        ("up_imports", "up"),
        ("up_editions", "up"),
        ("abs_imports", "abs"),
        ("abs_editions", "abs"),
    ] {
        let new = format!("proto/{file}.proto");
        let mut args = against.to_vec();
        args.push(&new);
        refused_in_every_format(
            &dir,
            &args,
            &format!(
                "the imported file `{link}.proto` (.git#ref=main,subdir=proto:{link}.proto) \
                 leaves its import root .git#ref=main,subdir=proto"
            ),
        );
    }
}

/// protoc takes the file to compile on its command line, which has no `--`: a name starting
/// with `-` would be an option (`--dependency_out=/x.proto` writes there), one starting with
/// `@` a file of options.
#[test]
fn a_file_name_protoc_would_read_as_an_option_is_refused() {
    let dir = tempdir("protoc-option-names");
    let _ = std::fs::remove_dir_all(&dir);
    let source = "edition = \"2023\";\nmessage A {\n  int32 a = 1;\n}\n";
    write_tree(
        &dir,
        &[
            ("proto/@args.proto", source),
            ("proto/--dependency_out=/x.proto", source),
        ],
    );
    for (file, name) in [
        ("proto/@args.proto", "@args.proto"),
        (
            "proto/--dependency_out=/x.proto",
            "--dependency_out=/x.proto",
        ),
    ] {
        let out = protocompat_in(
            &dir,
            &["schema", "--protoc", &protoc(), "-I", "proto", "--", file],
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "and protoc would read its name `{name}` as an option: rename the file"
            )),
            "{stderr}"
        );
    }
}
