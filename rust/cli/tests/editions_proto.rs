//! Protobuf Editions `.proto` files as input: every case of `tests/fixtures/editions/` compiled
//! by the CLI (through protoc) gives the schema data a protoc-built descriptor set of the same
//! files gives, and the verdicts the committed, protoc-built `.schema` files get; as two trees,
//! as a git tree, with mixed Editions and proto3 imports; and protoc's failures are named.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use protocompat_testkit::cases::case_dirs;
use serde_json::Value;
use support::*;

/// The bundled protoc ([`bundled_protoc`]); the fallback to it is tested below.
fn protoc() -> String {
    bundled_protoc()
}

struct Case {
    dir: PathBuf,
    root_file: String,
    roots: [String; 2],
}

impl Case {
    fn name(&self) -> String {
        self.dir.file_name().unwrap().to_string_lossy().into_owned()
    }

    fn side(&self, side: usize) -> PathBuf {
        self.dir.join(["old", "new"][side])
    }
}

fn cases() -> Vec<Case> {
    let cases: Vec<Case> = case_dirs("editions")
        .into_iter()
        .filter(|case| case.dir.join("old.schema").is_file())
        .map(|case| {
            let (old, new) = case.roots();
            Case {
                root_file: case.root_file().to_owned(),
                roots: [old.to_owned(), new.to_owned()],
                dir: case.dir,
            }
        })
        .collect();
    assert!(cases.len() >= 31, "Editions fixtures went missing");
    cases
}

/// A committed `.schema` file (protoc's descriptor set) with its JSON names left out, as the
/// classes protoc generates carry them and so as the CLI makes schema data from `.proto` files;
/// written to `dir`, the rest of its text unchanged.
fn as_generated(schema: &Path, dir: &Path) -> PathBuf {
    use base64::Engine as _;
    let text = std::fs::read_to_string(schema).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let encoded = json["fileDescriptorSet"].as_str().unwrap();
    let engine = base64::engine::general_purpose::STANDARD;
    let set = engine.decode(encoded).unwrap();
    let stripped = engine.encode(protocompat_testkit::without_json_names(&set));
    let out = dir.join(schema.file_name().unwrap());
    std::fs::write(&out, text.replace(encoded, &stripped)).unwrap();
    out
}

/// Schema data's descriptor set: each file's bytes by name, in the set's order, and the root.
struct Data {
    files: Vec<(String, Vec<u8>)>,
    root_message: String,
    root_file: String,
}

fn parse_data(json: &[u8]) -> Data {
    let (json, set) = schema_output(json);
    let files = split_set(&set)
        .into_iter()
        .map(|file| {
            let decoded: prost_types::FileDescriptorProto =
                prost::Message::decode(file.as_slice()).unwrap();
            (decoded.name().to_owned(), file)
        })
        .collect();
    Data {
        files,
        root_message: json["rootMessageTypeName"].as_str().unwrap().to_owned(),
        root_file: json["rootFileDescriptorName"].as_str().unwrap().to_owned(),
    }
}

/// A FileDescriptorSet's files as the bytes written (a decode would drop the Editions fields
/// prost-types lacks): it is field 1, length-delimited, over and over.
fn split_set(mut set: &[u8]) -> Vec<Vec<u8>> {
    fn varint(bytes: &mut &[u8]) -> usize {
        let mut value = 0;
        for shift in (0..).step_by(7) {
            let (&byte, rest) = bytes.split_first().unwrap();
            *bytes = rest;
            value |= usize::from(byte & 0x7F) << shift;
            if byte < 0x80 {
                break;
            }
        }
        value
    }
    let mut files = Vec::new();
    while !set.is_empty() {
        assert_eq!(varint(&mut set), 1 << 3 | 2, "not a set of files");
        let len = varint(&mut set);
        files.push(set[..len].to_vec());
        set = &set[len..];
    }
    files
}

/// The names of `root` and every file it imports (`dependency`, not `option_dependency`).
fn imported_from(data: &Data, root: &str) -> std::collections::BTreeSet<String> {
    let imports: BTreeMap<String, Vec<String>> = data
        .files
        .iter()
        .map(|(name, bytes)| {
            let file: prost_types::FileDescriptorProto =
                prost::Message::decode(bytes.as_slice()).unwrap();
            (name.clone(), file.dependency)
        })
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = vec![root.to_owned()];
    while let Some(name) = todo.pop() {
        if seen.insert(name.clone()) {
            todo.extend(imports.get(&name).into_iter().flatten().cloned());
        }
    }
    seen
}

/// protoc run by hand on one side, as tests/fixtures/editions/generate.py runs it: the
/// descriptor set a user would pass as `.pb`.
fn protoc_set(side: &Path, root_file: &str, out: &Path) {
    let run = Command::new(protoc())
        .arg("-I.")
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", out.display()))
        .arg(root_file)
        .current_dir(side)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
}

/// The data `protocompat schema` prints for an Editions `.proto` file is the data it prints for
/// protoc's descriptor set of the same files, as the classes protoc generates carry it: every
/// file byte for byte (Editions fields and features included, no source info, no JSON names),
/// the same root; only the files' order is the Java client's, as for any `.proto` input, and
/// the files the root does not import (an `import option` and what that imports) are left out,
/// as the Java client leaves them out. For a set of one file the whole data is the same.
#[test]
fn editions_proto_gives_the_schema_data_of_a_protoc_descriptor_set() {
    let tmp = tempdir("editions-data");
    let protoc = protoc();
    let mut compared = 0;
    for case in cases() {
        for side in 0..2 {
            let dir = case.side(side);
            let root = &case.roots[side];
            let what = format!("{} side {side}", case.name());
            let from_proto = protocompat(&[
                "schema",
                "--protoc",
                &protoc,
                "-I",
                path(&dir),
                "--root",
                root,
                path(&dir.join(&case.root_file)),
            ]);
            assert_eq!(
                from_proto.status.code(),
                Some(0),
                "{what}: {}",
                text(&from_proto.stderr)
            );
            let pb = tmp.join(format!("{}-{side}.pb", case.name()));
            protoc_set(&dir, &case.root_file, &pb);
            let generated = protocompat_testkit::without_json_names(&std::fs::read(&pb).unwrap());
            std::fs::write(&pb, generated).unwrap();
            let from_pb = protocompat(&["schema", "--root", root, path(&pb)]);
            assert_eq!(from_pb.status.code(), Some(0), "{what}");

            let (a, b) = (parse_data(&from_proto.stdout), parse_data(&from_pb.stdout));
            assert_eq!(a.root_message, b.root_message, "{what}");
            assert_eq!(a.root_file, b.root_file, "{what}");
            let by_name = |d: &Data| d.files.iter().cloned().collect::<BTreeMap<_, _>>();
            let imported = imported_from(&b, &b.root_file);
            let b_imported: BTreeMap<_, _> = by_name(&b)
                .into_iter()
                .filter(|(name, _)| imported.contains(name))
                .collect();
            assert_eq!(a.files.len(), imported.len(), "{what}");
            assert_eq!(by_name(&a), b_imported, "{what}");
            if a.files.len() == 1 && b.files.len() == 1 {
                assert_eq!(from_proto.stdout, from_pb.stdout, "{what}");
            }
            compared += 1;
        }
    }
    assert!(compared >= 62);
}

/// Cases that import a file protoc itself ships (`google/protobuf/java_features.proto`), which
/// changes between protoc releases: their committed `.schema` files hold protoc 35.1's copy, so
/// the schemas' digests differ from the bundled protoc's, though not the findings. The 2026
/// twin's set is protoc 36.2's, but protoc writes the imported file first and the CLI after
/// the root, so its digest differs too.
/// e2026_import_option's protoc-built set also holds the file its `import option` names (and
/// what that imports), which the CLI leaves out, as the Java client does.
const PROTOC_VERSION_DEPENDENT: [&str; 3] = [
    "java_features",
    "e2026_java_features",
    "e2026_import_option",
];

/// A check's report with what depends on how the inputs were named left out: labels and
/// positions (a schema file has none); and the schemas' digests where `same_bytes` is false.
fn verdict(report: &[u8], same_bytes: bool) -> Value {
    let mut report: Value = serde_json::from_slice(report).unwrap();
    let object = report.as_object_mut().unwrap();
    object.remove("inputs");
    if !same_bytes {
        object.remove("new_schema_sha256");
    }
    for list in ["failures", "warnings"] {
        for finding in report[list].as_array_mut().unwrap() {
            let finding = finding.as_object_mut().unwrap();
            finding.remove("location");
            finding.remove("existing_location");
            if !same_bytes {
                finding.remove("existing");
            }
        }
    }
    if !same_bytes {
        // The change's line names the existing schema's digest.
        for change in report["changes"].as_array_mut().unwrap() {
            change.as_object_mut().unwrap().remove("message");
        }
    }
    report
}

/// Positions of a report's findings.
fn locations(report: &[u8]) -> Vec<Value> {
    let report: Value = serde_json::from_slice(report).unwrap();
    ["failures", "warnings"]
        .iter()
        .flat_map(|list| report[list].as_array().unwrap().clone())
        .map(|f| f["location"].clone())
        .collect()
}

/// Every Editions case, old tree against new file (each side with its own import roots, as
/// `check --against DIR -I NEW_DIR NEW.proto` takes them), under both profiles: the report
/// equals the one the committed, protoc-built `.schema` files get, and its findings carry
/// `file:line:col` from protoc's source info.
#[test]
fn editions_cases_as_two_trees_get_the_verdicts_of_their_schema_data() {
    let protoc = protoc();
    let tmp = tempdir("editions-trees");
    let mut cases_run = 0;
    let mut located = 0;
    for case in cases() {
        // Its two sides have different root messages, and --root names one for both.
        if case.roots[0] != case.roots[1] {
            continue;
        }
        cases_run += 1;
        for profile in ["pip246", "conservative"] {
            let common = [
                "check",
                "--format",
                "json",
                "--no-examples",
                "--no-fixes",
                "--profile",
                profile,
            ];
            let new = case.side(1).join(&case.root_file);
            let from_proto = protocompat(
                &[
                    &common[..],
                    &[
                        "--protoc",
                        &protoc,
                        "--against",
                        path(&case.side(0)),
                        "-I",
                        path(&case.side(1)),
                        "--root",
                        &case.roots[1],
                        path(&new),
                    ],
                ]
                .concat(),
            );
            let from_schema = protocompat(
                &[
                    &common[..],
                    &[
                        path(&as_generated(&case.dir.join("old.schema"), &tmp)),
                        path(&as_generated(&case.dir.join("new.schema"), &tmp)),
                    ],
                ]
                .concat(),
            );
            let what = format!("{} under {profile}", case.name());
            assert_eq!(
                from_proto.status.code(),
                from_schema.status.code(),
                "{what}: {}",
                text(&from_proto.stderr)
            );
            assert!(
                matches!(from_schema.status.code(), Some(0 | 1)),
                "{what}: {}",
                text(&from_schema.stderr)
            );
            let same_bytes = !PROTOC_VERSION_DEPENDENT.contains(&case.name().as_str());
            assert_eq!(
                verdict(&from_proto.stdout, same_bytes),
                verdict(&from_schema.stdout, same_bytes),
                "{what}"
            );
            for location in locations(&from_proto.stdout) {
                if location.is_null() {
                    continue;
                }
                let file = repo()
                    .join(location["file"].as_str().unwrap())
                    .canonicalize()
                    .unwrap();
                // In the new tree, or in the old one for what only it declares.
                assert!(
                    file.starts_with(case.dir.canonicalize().unwrap()),
                    "{what}: {location}"
                );
                let line = location["line"].as_u64().unwrap() as usize;
                let source = std::fs::read_to_string(&file).unwrap();
                assert!(line >= 1 && line <= source.lines().count(), "{what}");
                located += 1;
            }
        }
    }
    assert!(cases_run >= 30, "{cases_run}");
    assert!(located >= 40, "positions went missing: {located}");
}

/// An Editions tree at a git ref is the existing side: its files reach protoc from memory.
#[test]
fn an_editions_git_tree_is_the_existing_side() {
    let case = fixtures().join("editions/import_edition_2023_to_2024");
    let dir = tempdir("editions-git");
    let copy = |side: &str| {
        for entry in std::fs::read_dir(case.join(side)).unwrap() {
            let entry = entry.unwrap().path();
            let target = dir.join("proto").join(entry.file_name().unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(&entry, target).unwrap();
        }
    };
    copy("old");
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "old"]);
    copy("new");

    let protoc = protoc();
    let from_git = protocompat_in(
        &dir,
        &[
            "check",
            "--format",
            "json",
            "--no-examples",
            "--no-fixes",
            "--protoc",
            &protoc,
            "--against",
            ".git#ref=main,subdir=proto",
            "-I",
            "proto",
            "proto/order.proto",
        ],
    );
    let from_schema = protocompat(&[
        "check",
        "--format",
        "json",
        "--no-examples",
        "--no-fixes",
        path(&as_generated(&case.join("old.schema"), &dir)),
        path(&as_generated(&case.join("new.schema"), &dir)),
    ]);
    assert_eq!(from_schema.status.code(), Some(1), "the case must break");
    assert_eq!(
        from_git.status.code(),
        Some(1),
        "{}",
        text(&from_git.stderr)
    );
    assert_eq!(
        verdict(&from_git.stdout, true),
        verdict(&from_schema.stdout, true)
    );
    let report: Value = serde_json::from_slice(&from_git.stdout).unwrap();
    assert_eq!(
        report["inputs"]["existing"][0]["label"],
        ".git#ref=main,subdir=proto:order.proto"
    );

    // The tree's own files, not the work tree's: against itself it is compatible.
    let same = protocompat_in(
        &dir,
        &[
            "check",
            "--protoc",
            &protoc,
            "--root",
            "shop.Order",
            "--against",
            ".git#ref=main,subdir=proto",
            ".git#ref=main,subdir=proto",
        ],
    );
    assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
}

/// An Editions file importing a proto3 one and a proto3 file importing an Editions one both
/// compile, whichever file of the set is named; positions point into the imported file.
#[test]
fn editions_and_proto3_import_each_other() {
    let dir = tempdir("editions-mixed");
    let money = |number: u32| {
        format!(
            "syntax = \"proto3\";\npackage shop;\nmessage Money {{\n  int64 cents = {number};\n}}\n"
        )
    };
    let order = "edition = \"2024\";\npackage shop;\nimport \"money.proto\";\nmessage Order {\n  Money total = 1;\n}\n";
    let wallet = "syntax = \"proto3\";\npackage shop;\nimport \"order.proto\";\nmessage Wallet {\n  Order last = 1;\n}\n";
    write_tree(
        &dir,
        &[
            ("old/money.proto", &money(1)),
            ("old/order.proto", order),
            ("old/wallet.proto", wallet),
            ("new/money.proto", &money(2)),
            ("new/order.proto", order),
            ("new/wallet.proto", wallet),
        ],
    );
    let protoc = protoc();
    for (file, root) in [
        ("order.proto", "shop.Order"),
        ("wallet.proto", "shop.Wallet"),
    ] {
        let out = protocompat_in(
            &dir,
            &[
                "check",
                "--protoc",
                &protoc,
                "--root",
                root,
                "--against",
                "old",
                "-I",
                "new",
                &format!("new/{file}"),
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{file}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains("new/money.proto:4:3: FIELD_NUMBER_CHANGED"),
            "{file}: {stdout}"
        );
    }
}

/// With no --protoc, no PROTOC and no protoc on PATH, the bundled protoc compiles Editions
/// files: a machine with nothing installed can check them.
#[test]
fn the_bundled_protoc_is_the_last_resort() {
    let case = fixtures().join("editions/field_number_changed");
    let new = case.join("new/order.proto");
    let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(["schema", "-I", path(new.parent().unwrap()), path(&new)])
        .env_remove("PROTOC")
        .env("PATH", "")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let with_flag = protocompat(&[
        "schema",
        "--protoc",
        &protoc(),
        "-I",
        path(new.parent().unwrap()),
        path(&new),
    ]);
    assert_eq!(out.stdout, with_flag.stdout);
}

/// protoc's own complaint reaches the user, naming the file and where in it, made printable
/// and bounded; --protoc wins over PROTOC, and PROTOC over PATH.
#[test]
fn protocs_failures_are_named() {
    let dir = tempdir("editions-protoc-fails");
    write_tree(
        &dir,
        &[
            (
                "broken.proto",
                "edition = \"2023\";\npackage p;\nmessage A {\n  int32 x = 1\n}\n",
            ),
            (
                "ok.proto",
                "edition = \"2023\";\npackage p;\nmessage A { int32 x = 1; }\n",
            ),
            (
                "plain.proto",
                "syntax = \"proto3\";\npackage p;\nmessage A { int32 x = 1; }\n",
            ),
        ],
    );
    let protoc = protoc();
    let out = protocompat_in(&dir, &["schema", "--protoc", &protoc, "broken.proto"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(
            "protocompat: broken.proto: file `broken.proto` uses Protobuf Editions (edition = \
             \"2023\"), so protoc compiles it: protoc (--protoc "
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("libprotoc 36.")
            && stderr
                .contains("could not compile `broken.proto`: broken.proto:5:1: Expected \";\"."),
        "{stderr}"
    );

    // A protoc that fails with escapes and a flood of text.
    let fake = dir.join("fake-protoc");
    std::fs::write(
        &fake,
        "#!/bin/sh\nprintf 'bad \\033[31mred\\n' >&2\nyes 'more text' | head -c 100000 >&2\nexit 3\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = protocompat_in(&dir, &["schema", "--protoc", "./fake-protoc", "ok.proto"]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "protoc (--protoc {}) could not compile `ok.proto`: bad \\u{{1b}}[31mred; more text",
                path(&fake)
            )),
            "{stderr}"
        );
        assert!(!stderr.contains('\u{1b}'));
        assert!(stderr.len() < 3000, "{}", stderr.len());

        // PROTOC is used when --protoc is not given, and --protoc over it.
        let run = |env: &str, args: &[&str]| {
            Command::new(env!("CARGO_BIN_EXE_protocompat"))
                .args(args)
                .env("PROTOC", env)
                .current_dir(&dir)
                .output()
                .unwrap()
        };
        let by_env = run(path(&fake), &["schema", "ok.proto"]);
        assert!(
            text(&by_env.stderr).contains(&format!("protoc (PROTOC {})", path(&fake))),
            "{}",
            text(&by_env.stderr)
        );
        let flag_wins = run(path(&fake), &["schema", "--protoc", &protoc, "ok.proto"]);
        assert_eq!(
            flag_wins.status.code(),
            Some(0),
            "{}",
            text(&flag_wins.stderr)
        );
        // A proto3 file never runs protoc: protox compiles it.
        let plain = run(path(&fake), &["schema", "plain.proto"]);
        assert_eq!(plain.status.code(), Some(0), "{}", text(&plain.stderr));

        // Without --protoc and PROTOC (an empty one is none), the protoc on PATH.
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::copy(&fake, bin.join("protoc")).unwrap();
        let on_path = Command::new(env!("CARGO_BIN_EXE_protocompat"))
            .args(["schema", "ok.proto"])
            .env("PROTOC", "")
            .env("PATH", &bin)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            text(&on_path.stderr).contains(&format!(
                "protoc (PATH {}) could not compile `ok.proto`: bad",
                path(&bin.join("protoc"))
            )),
            "{}",
            text(&on_path.stderr)
        );
    }
}

/// protoc splits --proto_path at `:` and `=`: a root whose path has them still reaches it, and
/// its complaints and positions name the root as the user did.
#[cfg(unix)]
/// A file of an edition the checker does not read, the root or an import, is refused with the
/// broker's rule and the editions it reads, before protoc runs: protoc would compile
/// `UNSTABLE` with a flag (`int64` is an sfixed64 there), and names only its own maximum
/// otherwise. A protoc that records being run shows it was not.
#[test]
fn an_edition_the_checker_does_not_read_is_refused_before_protoc() {
    let dir = tempdir("editions-unread");
    write_tree(
        &dir,
        &[
            (
                "unstable.proto",
                "// a header\nedition = \"UNSTABLE\";\npackage p;\nmessage A { int64 x = 1; }\n",
            ),
            (
                "root.proto",
                "edition = \"2026\";\npackage p;\nimport \"next.proto\";\nmessage R { B b = 1; }\n",
            ),
            (
                "next.proto",
                "edition = \"2027\";\npackage p;\nexport message B { int32 y = 1; }\n",
            ),
            ("ran-protoc", "#!/bin/sh\ntouch protoc-ran\nexit 1\n"),
        ],
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("ran-protoc");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for (file, says) in [
        (
            "unstable.proto",
            "unstable.proto declares edition = \"UNSTABLE\"",
        ),
        ("root.proto", "next.proto declares edition = \"2027\""),
    ] {
        for command in [&["schema"][..], &["check", file]] {
            let args = [command, &["--protoc", "./ran-protoc", file]].concat();
            let out = protocompat_in(&dir, &args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let stderr = text(&out.stderr);
            assert!(
                stderr.contains(&format!(
                    "UNSUPPORTED_FEATURE: {says}; this checker supports proto2, proto3 and \
                     editions 2023, 2024 and 2026"
                )),
                "{args:?}: {stderr}"
            );
        }
    }
    assert!(!dir.join("protoc-ran").exists(), "protoc ran");
}

#[test]
fn a_root_path_with_colons_and_equals_signs_reaches_protoc() {
    let dir = tempdir("editions-odd-root");
    let order = |number: u32| {
        format!("edition = \"2023\";\npackage p;\nmessage A {{\n  int32 x = {number};\n}}\n")
    };
    write_tree(
        &dir,
        &[
            ("old/a:b=c/a.proto", &order(1)),
            ("new/a:b=c/a.proto", &order(2)),
            ("new/a:b=c/broken.proto", "edition = \"2023\";\nmessage {\n"),
        ],
    );
    let protoc = protoc();
    let out = protocompat_in(
        &dir,
        &[
            "check",
            "--protoc",
            &protoc,
            "--against",
            "old/a:b=c",
            "-I",
            "new/a:b=c",
            "new/a:b=c/a.proto",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("new/a:b=c/a.proto:4:3: FIELD_NUMBER_CHANGED p.A.x"),
        "{stdout}"
    );
    let broken = protocompat_in(
        &dir,
        &[
            "schema",
            "--protoc",
            &protoc,
            "-I",
            "new/a:b=c",
            "new/a:b=c/broken.proto",
        ],
    );
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        text(&broken.stderr).contains(
            "could not compile `broken.proto` (new/a:b=c/broken.proto): new/a:b=c/broken.proto:2:9: Expected message name."
        ),
        "{}",
        text(&broken.stderr)
    );
}

/// The test of done: `check` on a 2026 `.proto` gives, under both profiles, the verdict
/// and findings its original gives (`twin_of` in the twin's expect.json: the same files in
/// 2024, or in 2023 where the original had no 2024 file), apart from the editions
/// SYNTAX_CHANGED names as writer and reader; and `schema` compiles every twin's sides.
#[test]
fn a_2026_proto_gets_the_verdict_of_its_twin_under_both_profiles() {
    let protoc = protoc();
    let by_name: BTreeMap<String, Case> = cases().into_iter().map(|c| (c.name(), c)).collect();
    let check = |case: &Case, profile: &str| {
        let new = case.side(1).join(&case.root_file);
        let out = protocompat(&[
            "check",
            "--format",
            "json",
            "--no-examples",
            "--no-fixes",
            "--profile",
            profile,
            "--protoc",
            &protoc,
            "--against",
            path(&case.side(0)),
            "-I",
            path(&case.side(1)),
            "--root",
            &case.roots[1],
            path(&new),
        ]);
        let mut report = verdict(&out.stdout, false);
        report.as_object_mut().unwrap().remove("new_schema_sha256");
        for list in ["failures", "warnings"] {
            for finding in report[list].as_array_mut().unwrap() {
                if finding["rule"] == "SYNTAX_CHANGED" {
                    let finding = finding.as_object_mut().unwrap();
                    finding.remove("writer");
                    finding.remove("reader");
                }
            }
        }
        (out.status.code(), report)
    };
    let mut twins = 0;
    for (name, twin) in &by_name {
        let expect: Value =
            serde_json::from_str(&std::fs::read_to_string(twin.dir.join("expect.json")).unwrap())
                .unwrap();
        let Some(of) = expect["twin_of"].as_str() else {
            continue;
        };
        let original = &by_name[of];
        for side in 0..2 {
            let dir = twin.side(side);
            let schema = protocompat(&[
                "schema",
                "--protoc",
                &protoc,
                "-I",
                path(&dir),
                "--root",
                &twin.roots[side],
                path(&dir.join(&twin.root_file)),
            ]);
            assert_eq!(
                schema.status.code(),
                Some(0),
                "{name} side {side}: {}",
                text(&schema.stderr)
            );
        }
        if twin.roots[0] != twin.roots[1] {
            continue;
        }
        twins += 1;
        for profile in ["pip246", "conservative"] {
            let (mine, theirs) = (check(twin, profile), check(original, profile));
            assert!(
                matches!(mine.0, Some(0 | 1)),
                "{name} under {profile}: {mine:?}"
            );
            assert_eq!(mine, theirs, "{name} under {profile}, against {of}");
        }
    }
    assert!(twins >= 30, "2026 twins went missing: {twins}");
}
