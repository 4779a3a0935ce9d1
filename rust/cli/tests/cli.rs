//! The `protocompat` command as a user runs it: exit status, stdout, stderr.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

use support::*;

#[test]
fn compatible_pair_exits_0_and_says_so() {
    let out = protocompat(&[
        "check",
        "--root",
        "shop.Order",
        path(&case("allowed_changes", "old")),
        path(&case("allowed_changes", "new")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // The report leads with what the user named: the root and the file.
    let lead = format!(
        "shop.Order in {}: Compatible under FULL (profile pip246): ",
        path(&case("allowed_changes", "new"))
    );
    assert!(stdout.starts_with(&lead), "{stdout}");
    assert!(out.stderr.is_empty());
}

#[test]
fn incompatible_pair_exits_1_and_lists_findings() {
    let old = case("field_kind_changed_message", "old");
    let out = protocompat(&[
        "check",
        "--strategy",
        "backward",
        "--root",
        "Order",
        path(&old),
        path(&case("field_kind_changed_message", "new")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lead = format!(
        "shop.Order in {}: Incompatible under BACKWARD (profile pip246): ",
        path(&case("field_kind_changed_message", "new"))
    );
    assert!(stdout.starts_with(&lead), "{stdout}");
    assert!(stdout.contains("FIELD_KIND_CHANGED shop.Order.total (field 2): writer=message shop.Money reader=message shop.Price [BACKWARD, existing[0] "), "{stdout}");
    assert!(
        stdout.contains(&format!("existing[0]: {}", old.display())),
        "{stdout}"
    );
}

#[test]
fn warnings_alone_exit_0() {
    let out = protocompat(&[
        "check",
        "--root",
        "shop.Order",
        path(&case("scalar_type_changed", "old")),
        path(&case("scalar_type_changed", "new")),
    ]);
    assert_eq!(out.status.code(), Some(0));
    // FULL finds it both ways: one warning entry, naming each schema's side.
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "warning: SCALAR_TYPE_CHANGED shop.Order.id (field 1): existing=int64 new=string [FULL, \
             existing[0] "
        ) && stdout.contains(": both directions]\n"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("SCALAR_TYPE_CHANGED").count(), 1, "{stdout}");
}

/// The same pair under `--profile conservative`: the scalar change the default profile only
/// warns about is a failure, and the first line names the profile that decided.
#[test]
fn the_conservative_profile_rejects_what_the_default_warns_about() {
    let args = |profile: &'static str| ["check", "--profile", profile, "--root", "shop.Order"];
    let (old, new) = (
        case("scalar_type_changed", "old"),
        case("scalar_type_changed", "new"),
    );
    let mut conservative: Vec<&str> = args("conservative").to_vec();
    conservative.extend([path(&old), path(&new)]);
    let out = protocompat(&conservative);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let first = stdout.lines().next().unwrap();
    assert!(
        first.contains(": Incompatible under FULL (profile conservative): 2 violations"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "\ntests/fixtures/compat/scalar_type_changed/new/order.proto:3:17: TYPE_CHANGED \
             shop.Order.id (field 1): existing=int64 new=string [FULL"
        ),
        "{stdout}"
    );
    let mut default: Vec<&str> = args("pip246").to_vec();
    default.extend([path(&old), path(&new)]);
    assert_eq!(protocompat(&default).status.code(), Some(0));
}

/// A strategy that compares nothing is refused with its reason alone: no empty `writer=`.
#[test]
fn an_undefined_strategy_is_refused_with_its_reason() {
    let out = protocompat(&[
        "check",
        "--strategy",
        "undefined",
        "--root",
        "shop.Order",
        path(&case("allowed_changes", "old")),
        path(&case("allowed_changes", "new")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "\nUNKNOWN_STRATEGY shop.Order: no compatibility strategy is defined for this check [UNDEFINED]\n"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("writer="), "{stdout}");
}

/// With `--format json`, bad input is also an error object on stdout (and still a message on
/// stderr, exit 2), so a tool reading stdout always has JSON to parse.
#[test]
fn json_output_of_bad_input_is_an_error_object() {
    let bad = fixtures().join("bad/bad_base64.schema");
    let out = protocompat(&["check", "--format", "json", path(&bad), path(&bad)]);
    assert_eq!(out.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(error["error"]["rule"], "SCHEMA_RECONSTRUCTION_FAILED");
    assert_eq!(error["error"]["file"], path(&bad));
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("fileDescriptorSet is not valid standard base64"),
        "{message}"
    );
    assert!(
        text(&out.stderr).contains("SCHEMA_RECONSTRUCTION_FAILED: fileDescriptorSet is not valid")
    );

    let missing = protocompat(&["check", "--format", "json", "no/such.proto", "x.proto"]);
    assert_eq!(missing.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_slice(&missing.stdout).unwrap();
    assert_eq!(error["error"]["file"], "no/such.proto");
    assert!(error["error"]["rule"].is_null());
    assert!(error["error"]["message"]
        .as_str()
        .unwrap()
        .contains("cannot read the file"));
    // The text format keeps stdout empty on bad input.
    let text_out = protocompat(&["check", path(&bad), path(&bad)]);
    assert!(text_out.stdout.is_empty());
}

#[test]
fn json_output_is_the_report() {
    let out = protocompat(&[
        "check",
        "--format",
        "json",
        "--root",
        "shop.Order",
        path(&case("multiple_findings", "old")),
        path(&case("multiple_findings", "new")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["compatible"], false);
    assert_eq!(json["strategy"], "FULL");
    assert_eq!(json["failures"].as_array().unwrap().len(), 9);
    assert_eq!(json["reportVersion"], 1);
    assert_eq!(json["failed"], true);
    assert_eq!(
        json["inputs"]["new"],
        path(&case("multiple_findings", "new"))
    );
}

#[test]
fn bad_schema_exits_2_naming_the_file_and_the_problem() {
    let bad = fixtures().join("bad/import_cycle.schema");
    let out = protocompat(&[
        "check",
        path(&bad),
        path(&case("allowed_changes", "old")),
        "--root",
        "shop.Order",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(path(&bad))
            && stderr.contains("SCHEMA_RECONSTRUCTION_FAILED: import cycle"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn every_bad_input_of_the_catalogue_exits_2_with_its_rule() {
    let expect: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("bad/expect.json")).unwrap())
            .unwrap();
    for (name, want) in expect.as_object().unwrap() {
        let file = fixtures().join(format!("bad/{name}.schema"));
        let out = protocompat(&["check", path(&file)]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(want["rule"].as_str().unwrap()),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains(want["message_contains"].as_str().unwrap()),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn proto_that_does_not_compile_exits_2_with_the_location() {
    let dir = tempdir("broken");
    let file = dir.join("broken.proto");
    std::fs::write(
        &file,
        "syntax = \"proto3\";\nmessage Order { int64 id = 1 }\n",
    )
    .unwrap();
    let out = protocompat(&["check", "-I", path(&dir), path(&file), path(&file)]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("broken.proto")
            && stderr.contains("does not compile")
            && stderr.contains(":2:"),
        "{stderr}"
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["check"],
        vec!["check", "--strategy", "SIDEWAYS", "a.proto"],
        vec!["frobnicate"],
    ] {
        let out = protocompat(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = protocompat(&["check", "no/such/file.proto"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no/such/file.proto: cannot read the file"));
}

#[test]
fn several_top_level_messages_need_root() {
    let out = protocompat(&["check", path(&case("maps", "old"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("declares 3 top-level messages (shop.Item, shop.Order, shop.Sku); name the root message with --root"));
}

#[test]
fn schema_files_for_pulsar_admin_check_like_their_sources() {
    let dir = tempdir("upload");
    let mut files = Vec::new();
    for (side, upload) in [("old", true), ("new", false)] {
        let source = case("maps", side);
        let mut args = vec!["schema", "--root", "shop.Order", path(&source)];
        if upload {
            args.insert(1, "--upload");
        }
        let out = protocompat(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if upload {
            assert_eq!(json["type"], "PROTOBUF_NATIVE");
            assert!(json["schema"]
                .as_str()
                .unwrap()
                .contains("\"rootMessageTypeName\":\"shop.Order\""));
        } else {
            // Named as protoc names it: its path under the import root, the current directory.
            assert_eq!(
                json["rootFileDescriptorName"],
                "tests/fixtures/compat/maps/new/order.proto"
            );
        }
        let file = dir.join(format!("{side}.json"));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file);
    }
    let from_json = protocompat(&["check", path(&files[0]), path(&files[1])]);
    let from_proto = protocompat(&[
        "check",
        "--root",
        "shop.Order",
        path(&case("maps", "old")),
        path(&case("maps", "new")),
    ]);
    assert_eq!(from_json.status.code(), Some(1));
    // The same findings; only the .proto input has source positions to put before them.
    let findings = |out: &Output| {
        text(&out.stdout)
            .lines()
            .filter(|l| l.contains(" [FULL"))
            .map(|l| match l.split_once(".proto:") {
                Some((_, at)) => at.split_once(": ").unwrap().1.to_owned(),
                None => l.to_owned(),
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(findings(&from_json), findings(&from_proto));
}

#[test]
fn a_non_protobuf_schema_is_named_as_such() {
    let dir = tempdir("avro");
    let file = dir.join("avro.json");
    std::fs::write(
        &file,
        r#"{"type":"AVRO","schema":"{\"type\":\"record\"}","properties":{}}"#,
    )
    .unwrap();
    let out = protocompat(&["check", path(&file)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(
        "the file holds a schema of type AVRO; protocompat checks PROTOBUF_NATIVE schemas only"
    ));
}

#[test]
fn descriptor_set_files_and_transitive_histories() {
    let dir = tempdir("pb");
    let mut files = Vec::new();
    for side in ["old", "new"] {
        let set = protox::compile(
            ["order.proto"],
            [case("field_number_changed", side).parent().unwrap()],
        )
        .unwrap();
        let file = dir.join(format!("{side}.pb"));
        std::fs::write(&file, prost::Message::encode_to_vec(&set)).unwrap();
        files.push(file);
    }
    let compatible_middle = case("field_number_changed", "old");
    let out = protocompat(&[
        "check",
        "--strategy",
        "FULL_TRANSITIVE",
        "--root",
        "shop.Order",
        path(&files[0]),
        path(&compatible_middle),
        path(&files[1]),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("FIELD_NUMBER_CHANGED shop.Order.note (field 2 → 3): existing=number 2 new=number 3 [FULL_TRANSITIVE, existing[0]"), "{stdout}");
    assert!(stdout.contains("[FULL_TRANSITIVE, existing[1]"), "{stdout}");
}

/// Every `$ protocompat …` transcript in the README is what the command prints today.
#[test]
fn readme_transcripts_are_current() {
    let root = repo();
    // The README and the documents it links to, wherever a transcript has moved.
    let mut documents = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    documents.extend(docs);
    let mut checked = 0;
    for document in documents {
        let text = std::fs::read_to_string(&document).unwrap();
        checked += check_transcripts(&root, &document, &text);
    }
    assert!(checked >= 3, "the documents lost their transcripts");
}

/// Runs each `$ protocompat …` line of a document's code blocks and compares its output with
/// the lines that follow it there; returns how many it ran.
fn check_transcripts(root: &Path, document: &Path, contents: &str) -> usize {
    let mut checked = 0;
    let mut lines = contents.lines().peekable();
    let mut block: Vec<&str> = Vec::new();
    while let Some(line) = lines.next() {
        if line.starts_with("```") {
            block.clear();
        }
        block.push(line);
        let Some(command) = line.strip_prefix("$ protocompat ") else {
            continue;
        };
        let mut expected = Vec::new();
        while let Some(next) = lines.next_if(|l| !l.starts_with("```")) {
            expected.push(next);
        }
        block.extend(&expected);
        // A block that works in a copy (`$ cp …`, `$ cd …`, then `check --fix` or a project's
        // check) runs in a scratch directory: tests/fix_transcript.rs and tests/project.rs
        // replay those.
        if block
            .iter()
            .any(|l| l.starts_with("$ ") && !l.starts_with("$ protocompat "))
        {
            continue;
        }
        let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
            .args(command.split_whitespace())
            // Editions transcripts: the bundled protoc, whatever protoc this machine has.
            .env("PROTOC", protoc_bin_vendored::protoc_bin_path().unwrap())
            .current_dir(root)
            .output()
            .unwrap();
        let actual = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(
            actual.trim_end(),
            expected.join("\n"),
            "{}: $ protocompat {command}",
            document.display()
        );
        checked += 1;
    }
    checked
}

#[test]
fn limits_are_set_with_limit_flags_and_named_as_such() {
    let (old, new) = (
        case("allowed_changes", "old"),
        case("allowed_changes", "new"),
    );
    let args = |limit: &'static str| ["check", "--root", "shop.Order", "--limit", limit];
    let lowered = protocompat(&[&args("maxFields=1")[..], &[path(&old), path(&new)]].concat());
    assert_eq!(lowered.status.code(), Some(2));
    let stderr = text(&lowered.stderr);
    assert!(stderr.contains("RESOURCE_LIMIT_EXCEEDED"), "{stderr}");
    assert!(stderr.contains("--limit maxFields=N raises it"), "{stderr}");
    assert!(
        !stderr.contains("-Dprotocompat"),
        "broker wording in the CLI: {stderr}"
    );

    let raised = protocompat(
        &[
            &args("limit.maxFields=2000000")[..],
            &[path(&old), path(&new)],
        ]
        .concat(),
    );
    assert_eq!(raised.status.code(), Some(0), "{}", text(&raised.stderr));

    let typo = protocompat(&[&args("maxFeilds=3")[..], &[path(&old), path(&new)]].concat());
    assert_eq!(typo.status.code(), Some(2));
    assert!(
        text(&typo.stderr)
            .contains("unknown setting --limit maxFeilds; the settings are --limit maxSchemaBytes"),
        "{}",
        text(&typo.stderr)
    );
    let not_a_number =
        protocompat(&[&args("maxFields=lots")[..], &[path(&old), path(&new)]].concat());
    assert!(
        text(&not_a_number.stderr).contains("--limit maxFields=lots is not a whole number"),
        "{}",
        text(&not_a_number.stderr)
    );
}

fn editions_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/editions")
        .join(name)
}

/// protox cannot parse Editions files; protoc compiles them, and the schema data holds the
/// descriptor set protoc makes of the file, byte for byte but for the JSON names, which the
/// classes protoc generates do not carry (`order.pb` was made by protoc 35.1).
#[test]
fn an_editions_proto_compiles_with_protoc() {
    let file = editions_data("order.proto");
    let dir = file.parent().unwrap();
    let protoc = bundled_protoc();
    for root in [&["--root", "shop.Order"][..], &[]] {
        let out = protocompat(
            &[
                &["schema", "--protoc", &protoc, "-I", path(dir)][..],
                root,
                &[path(&file)],
            ]
            .concat(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let (json, set) = schema_output(&out.stdout);
        let protoc_set = std::fs::read(editions_data("order.pb")).unwrap();
        assert_eq!(set, protocompat_testkit::without_json_names(&protoc_set));
        assert_ne!(set, protoc_set, "order.pb has JSON names");
        assert_eq!(json["rootMessageTypeName"], "shop.Order");
        assert_eq!(json["rootFileDescriptorName"], "order.proto");
    }
}

/// Without a protoc to run, an Editions file is refused naming the file that needs protoc,
/// the named one or an import, and the protoc that could not be run.
#[test]
fn an_editions_import_without_protoc_is_named() {
    let missing = tempdir("no-protoc").join("no-such-protoc");
    let file = editions_data("uses_order.proto");
    let imported = editions_data("order.proto").canonicalize().unwrap();
    let out = protocompat(&[
        "check",
        "--protoc",
        path(&missing),
        "-I",
        path(file.parent().unwrap()),
        "--root",
        "shop.basket.Basket",
        path(&file),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "protocompat: {}: the imported file `order.proto` ({}) uses Protobuf Editions \
             (edition = \"2023\"), so protoc compiles it: cannot run protoc (--protoc {}): ",
            path(&file),
            // Shown from the current directory, as a CI annotation needs it.
            path(
                imported
                    .strip_prefix(repo().canonicalize().unwrap())
                    .unwrap()
            ),
            path(&missing)
        )),
        "{stderr}"
    );

    // An import found through -I, in a subdirectory, edition 2024, behind a proto3 import.
    let dir = tempdir("editions-import");
    std::fs::create_dir_all(dir.join("inc/google/protobuf")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("inc/google/protobuf/java_features.proto"),
        "// Copyright\n\nedition = \"2024\";\npackage pb;\nmessage JavaFeatures {}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("inc/middle.proto"),
        "syntax = \"proto3\";\nimport \"google/protobuf/java_features.proto\";\n",
    )
    .unwrap();
    let root = dir.join("src/o.proto");
    std::fs::write(
        &root,
        "syntax = \"proto3\";\nimport \"middle.proto\";\nmessage O {}\n",
    )
    .unwrap();
    let inc = dir.join("inc");
    let src = dir.join("src");
    let args = ["schema", "-I", path(&inc), "-I", path(&src), path(&root)];
    let out = protocompat(&[&args[..], &["--protoc", path(&missing)]].concat());
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "the imported file `google/protobuf/java_features.proto` ({}) uses Protobuf \
             Editions (edition = \"2024\"), so protoc compiles it",
            path(&inc.join("google/protobuf/java_features.proto"))
        )),
        "{stderr}"
    );
    // With protoc, the first root's java_features.proto is the one imported, as protox
    // would have it, before protoc's own.
    let out = protocompat(&[&args[..], &["--protoc", &bundled_protoc()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (_, set) = schema_output(&out.stdout);
    let set: prost_types::FileDescriptorSet = prost::Message::decode(set.as_slice()).unwrap();
    let java_features = set
        .file
        .iter()
        .find(|f| f.name() == "google/protobuf/java_features.proto")
        .unwrap();
    assert_eq!(java_features.package(), "pb");
    assert_eq!(java_features.message_type[0].name(), "JavaFeatures");
}

#[test]
fn a_proto3_file_that_mentions_edition_compiles() {
    let file = editions_data("mentions_edition.proto");
    let out = protocompat(&["schema", "-I", path(file.parent().unwrap()), path(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["rootMessageTypeName"], "shop.Edition");
    assert_eq!(json["rootFileDescriptorName"], "mentions_edition.proto");
}

/// A descriptor set protoc made of an Editions file is the way in: the CLI wraps it byte for
/// byte. Only the schema data is asserted, not what the engine makes of it (until the engine
/// supports Editions, `schema` refuses to print it, under UNSUPPORTED_FEATURE; the CLI's own
/// unit test checks the data it builds either way).
#[test]
fn a_protoc_editions_descriptor_set_passes_through_unchanged() {
    let pb = editions_data("order.pb");
    let out = protocompat(&["schema", path(&pb)]);
    let stderr = text(&out.stderr);
    if out.status.code() == Some(0) {
        let (json, set) = schema_output(&out.stdout);
        assert_eq!(set, std::fs::read(&pb).unwrap());
        assert_eq!(json["rootMessageTypeName"], "shop.Order");
        assert_eq!(json["rootFileDescriptorName"], "order.proto");
    } else {
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("UNSUPPORTED_FEATURE"), "{stderr}");
    }
}

/// Every Editions fixture through the command as a CI job runs it: the schema data files,
/// BACKWARD (old writes, new reads) and FORWARD, exit status and failures as `expect.json`
/// says (docs/rules.md#decisions, "Editions").
#[test]
fn editions_fixtures_get_their_verdicts() {
    let root = fixtures().join("editions");
    let mut cases = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        // `bad/` holds bad inputs, not pairs.
        if !dir.join("old.schema").is_file() {
            continue;
        }
        cases += 1;
        let expect: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("expect.json")).unwrap()).unwrap();
        let (old, new) = (dir.join("old.schema"), dir.join("new.schema"));
        for (strategy, direction) in [
            ("BACKWARD", "old_writes_new_reads"),
            ("FORWARD", "new_writes_old_reads"),
        ] {
            let want = &expect[direction];
            let out = protocompat(&[
                "check",
                "--strategy",
                strategy,
                "--format",
                "json",
                path(&old),
                path(&new),
            ]);
            let case = format!("{} under {strategy}", dir.display());
            let compatible = want["compatible"].as_bool().unwrap();
            assert_eq!(
                out.status.code(),
                Some(if compatible { 0 } else { 1 }),
                "{case}: {}{}",
                text(&out.stdout),
                text(&out.stderr)
            );
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let mut found: Vec<String> = report["failures"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    format!(
                        "{} {}",
                        f["rule"].as_str().unwrap(),
                        f["path"].as_str().unwrap()
                    )
                })
                .collect();
            let mut expected: Vec<String> = want["failures"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap().to_owned())
                .collect();
            found.sort();
            expected.sort();
            assert_eq!(found, expected, "{case}");
        }
    }
    assert!(cases >= 31, "Editions fixtures went missing: {cases}");
}

/// `protocompat rules` lists every rule of every profile, with what it does and whether it
/// fails a check, then the rule IDs no profile lists; `--profile` picks one, and an unknown one
/// is a usage error naming the others.
#[test]
fn rules_lists_each_profiles_rules() {
    let out = protocompat(&["rules"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    let footer = listed.rsplit("\n\n").next().unwrap();
    assert!(footer.starts_with("every profile: "), "{listed}");
    assert!(
        footer.trim_end().ends_with("docs/rules.md#rule-index"),
        "{footer}"
    );
    let in_a_profile: Vec<protocompat::RuleId> = protocompat::PROFILES
        .iter()
        .flat_map(|p| p.rules.iter().chain(p.guard))
        .map(|r| r.id)
        .collect();
    let elsewhere = protocompat::RuleId::all().filter(|id| !in_a_profile.contains(id));
    for id in elsewhere
        .map(protocompat::RuleId::id)
        .chain(protocompat::ErrorRule::all().map(protocompat::ErrorRule::id))
    {
        assert!(footer.contains(id), "{id} missing:\n{footer}");
    }
    for profile in protocompat::PROFILES {
        let heading = format!("{}: {}\n", profile.name, profile.summary);
        assert!(listed.contains(&heading));
        // The profile's block: from its heading to the blank line before the next.
        let block = listed
            .split(&heading)
            .nth(1)
            .unwrap()
            .split("\n\n")
            .next()
            .unwrap();
        for rule in profile.rules.iter().chain(profile.guard) {
            let severity = match rule.severity {
                protocompat::Severity::Failure => "fails",
                protocompat::Severity::Warning => "warns",
            };
            let line = block
                .lines()
                .find(|l| l.split_whitespace().next() == Some(rule.id.id()))
                .unwrap_or_else(|| panic!("{} missing:\n{listed}", rule.id));
            assert!(
                line.contains(severity) && line.ends_with(rule.description),
                "{line}"
            );
        }
    }
    for profile in protocompat::PROFILES {
        let one = protocompat(&["rules", "--profile", profile.name]);
        assert_eq!(one.status.code(), Some(0));
        let listed = text(&one.stdout);
        assert!(listed.starts_with(&format!("{}: ", profile.name)));
        // Only that profile's rules, each once, and those it reports as warnings after a line
        // saying so; then the same footer.
        let (block, footer) = listed.split_once("\n\n").unwrap();
        assert!(footer.starts_with("every profile: "), "{listed}");
        let guard = if profile.guard.is_empty() {
            0
        } else {
            1 + profile.guard.len()
        };
        assert_eq!(
            block.lines().count(),
            1 + profile.rules.len() + guard,
            "{listed}"
        );
        for rule in profile.rules {
            assert!(
                listed
                    .lines()
                    .any(|l| l.trim_start().starts_with(rule.id.id())
                        && l.ends_with(rule.description)),
                "{} missing:\n{listed}",
                rule.id
            );
        }
    }
    let unknown = protocompat(&["rules", "--profile", "strict"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        text(&unknown.stderr)
            .contains("unknown profile `strict`; the profiles are pip246, conservative"),
        "{}",
        text(&unknown.stderr)
    );
}

/// Old and new swapped under BACKWARD checks the other direction; the report says which input
/// it took for which, and what the strategy asked of them, so a swap does not pass unseen.
#[test]
fn the_report_names_which_input_is_new_and_what_the_strategy_asked() {
    let (old, new) = (
        case("allowed_changes", "old"),
        case("allowed_changes", "new"),
    );
    let swapped = protocompat(&[
        "check",
        "--strategy",
        "BACKWARD",
        "--root",
        "shop.Order",
        path(&new),
        path(&old),
    ]);
    let stdout = text(&swapped.stdout);
    assert!(
        stdout.contains(&format!("\nnew: {} (schema data sha256 ", path(&old))),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("\nexisting[0]: {}\n", path(&new))),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nBACKWARD: the new schema must read data written with existing[0]"),
        "{stdout}"
    );
}
