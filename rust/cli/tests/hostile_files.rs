//! A repository's files as an attack on whoever checks it (a CI runner checking a pull request).
//! Symbolic links in a side's import roots: one that leaves its root (a file, an import, a
//! directory on the way to one, in a work tree or a git tree, for protox and for protoc) is
//! refused by name, and nothing of its target reaches any output format; one that stays inside
//! is followed, as protoc follows it. File names that protoc would read as its options are
//! compiled as files.
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
    // The same for Editions candidates, which protoc compiles together: their files are
    // copied, under the checks, before protoc runs.
    write_tree(
        &dir,
        &[
            (
                "eds/e.proto",
                "edition = \"2023\";\nimport \"secret.proto\";\nmessage A {\n  int32 a = 1;\n}\n",
            ),
            (
                "eds/f.proto",
                "edition = \"2023\";\npackage f;\nmessage A {\n  int32 a = 1;\n}\n",
            ),
        ],
    );
    let _ = std::fs::remove_file(dir.join("eds/secret.proto"));
    symlink("../outside/secret.proto", dir.join("eds/secret.proto")).unwrap();
    refused_in_every_format(
        &dir,
        &[
            "--root",
            "A",
            "--against",
            "eds",
            "-I",
            "new",
            "new/n.proto",
        ],
        "the imported file `secret.proto` (eds/secret.proto) leaves its import root eds: a \
         symbolic link on its path points outside the root",
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
/// `@` a file of options. protoc is given each file as a path under its copy of the root
/// (`root-0/NAME`), so such a file is compiled as the file it is, under its own name.
#[test]
fn a_file_name_protoc_would_read_as_an_option_is_compiled_as_a_file() {
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
        assert_eq!(out.status.code(), Some(0), "{file}: {stderr}");
        let (json, _) = schema_output(&out.stdout);
        assert_eq!(json["rootFileDescriptorName"], name, "{file}");
        assert_eq!(json["rootMessageTypeName"], "A", "{file}");
    }
}

/// The existing side's file is the one with the new side's root file name in it, and that name
/// comes from the new side's schema data, which anyone can write (a descriptor set, a schema
/// read from a broker). A name that leads out of the root as written (`../outside/a.proto`, an
/// absolute path) is no file of the root, whatever the disk holds there: the file is found by
/// its message instead, and the answer is the same whether the file outside exists or not.
#[test]
fn a_root_file_name_from_the_other_side_names_no_file_outside_the_root() {
    use prost::Message as _;
    use prost_types::{
        DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet,
    };

    let dir = tempdir("counterpart-outside");
    let _ = std::fs::remove_dir_all(&dir);
    let a = "syntax = \"proto3\";\nmessage A {\n  int32 a = 1;\n}\n";
    write_tree(&dir, &[("proto/a.proto", a)]);
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "a"]);
    // Were it compared, the file outside would make the check fail: `a` retyped.
    let outside = dir.join("outside/a.proto");
    let outside_source = "syntax = \"proto3\";\nmessage A {\n  string a = 1;\n}\n";
    let absolute = path(&outside).to_owned();
    for name in ["../outside/a.proto", absolute.as_str()] {
        let set = FileDescriptorSet {
            file: vec![FileDescriptorProto {
                name: Some(name.to_owned()),
                syntax: Some("proto3".to_owned()),
                message_type: vec![DescriptorProto {
                    name: Some("A".to_owned()),
                    field: vec![FieldDescriptorProto {
                        name: Some("a".to_owned()),
                        number: Some(1),
                        label: Some(1),
                        r#type: Some(5),
                        json_name: Some("a".to_owned()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            }],
        };
        std::fs::write(dir.join("new.pb"), set.encode_to_vec()).unwrap();
        for against in ["proto", ".git#ref=main,subdir=proto"] {
            for outside_exists in [true, false] {
                if outside_exists {
                    write_tree(&dir, &[("outside/a.proto", outside_source)]);
                } else {
                    let _ = std::fs::remove_file(&outside);
                }
                let out = protocompat_in(&dir, &["check", "--against", against, "new.pb"]);
                let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
                let case = format!("{name} against {against}, outside: {outside_exists}");
                assert_eq!(out.status.code(), Some(0), "{case}:\n{stdout}{stderr}");
                assert!(
                    !stderr.contains("leaves its import root"),
                    "{case}: {stderr}"
                );
            }
        }
    }
}

/// protoc follows any link it meets, so it is never given a side's roots: it runs on copies of
/// the files of the compile (the named file, or a search's candidates, and their imports), made
/// under the roots' checks and written out once for a search's one run. A protoc that lists
/// what it can see before it compiles sees those files and nothing else: not another file of
/// the root, not a link out of it, whether the root is a directory or a git tree.
#[test]
fn protoc_sees_copies_of_the_files_of_the_compile_only() {
    use std::os::unix::fs::PermissionsExt;

    let dir = hostile("protoc-sees");
    write_tree(
        &dir,
        &[
            (
                "eds/a.proto",
                "edition = \"2023\";\npackage p;\nimport \"dep.proto\";\nmessage A {\n  Dep d = 1;\n}\n",
            ),
            (
                "eds/dep.proto",
                "edition = \"2023\";\npackage p;\nmessage Dep {\n  int32 x = 1;\n}\n",
            ),
            (
                "eds/b.proto",
                "edition = \"2023\";\npackage q;\nmessage A {\n  int32 y = 1;\n}\n",
            ),
            (
                "eds/unrelated.proto",
                "edition = \"2023\";\npackage u;\nmessage U {\n  int32 z = 1;\n}\n",
            ),
        ],
    );
    let _ = std::fs::remove_dir_all(dir.join(".git"));
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "eds"]);
    git(&dir, &["commit", "-q", "-m", "eds"]);
    for (link, target) in [
        ("eds/secret.proto", "../outside/secret.proto"),
        ("eds/ext", "../outside"),
    ] {
        let _ = std::fs::remove_file(dir.join(link));
        symlink(target, dir.join(link)).unwrap();
    }
    // Paths named in the script: protoc gets none of the test's environment.
    let script = dir.join("protoc-that-looks");
    let seen = dir.join("seen");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nfind -L . -name '*.proto' 2>/dev/null | sort >> '{seen}'\n\
             echo run >> '{seen}'\nexec '{real}' \"$@\"\n",
            seen = path(&seen),
            real = protoc()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (args, sees) in [
        (
            &["-I", "eds", "eds/a.proto"][..],
            &["./root-0/a.proto", "./root-0/dep.proto"][..],
        ),
        (
            &["--root", "p.A", "eds"][..],
            &["./root-0/a.proto", "./root-0/b.proto", "./root-0/dep.proto"][..],
        ),
        (
            &["--root", "p.A", ".git#ref=main,subdir=eds"][..],
            &["./root-0/a.proto", "./root-0/b.proto", "./root-0/dep.proto"][..],
        ),
    ] {
        let _ = std::fs::remove_file(&seen);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"))
            .args(["schema", "--protoc", path(&script)])
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let (json, _) = schema_output(&out.stdout);
        assert_eq!(json["rootFileDescriptorName"], "a.proto", "{args:?}");
        let listing = std::fs::read_to_string(&seen).unwrap();
        let mut want: Vec<&str> = sees.to_vec();
        want.push("run");
        assert_eq!(listing.lines().collect::<Vec<_>>(), want, "{args:?}");
    }
}
