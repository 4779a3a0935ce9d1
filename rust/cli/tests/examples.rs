//! Examples (docs/rules.md#examples) as a user gets them: asked for by default, in every format,
//! and `--no-examples` removes them and nothing else. How each format lays an example out, and
//! that its text comes out inert, is tested on findings made by hand in `src/output/mod.rs`.

mod support;

use serde_json::Value;
use support::*;

/// `examples/shop/v3` against v1 (5 failures and 2 warnings, all about data) in `format`.
fn shop_v3(format: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![
        "check",
        "--root",
        "shop.Order",
        "--against",
        "examples/shop/v1",
        "-I",
        "examples/shop/v3",
        "examples/shop/v3/order.proto",
        "--format",
        format,
    ];
    args.extend(extra);
    let out = protocompat(&args);
    (out.status.code(), text(&out.stdout))
}

/// What an example adds to a line of `github` or `junit` output: ` — e.g. …` or
/// ` — no example: …`; for a change found both ways, each after its direction's name
/// (` — existing writes, new reads: e.g. …`).
fn has_inline_example(output: &str) -> bool {
    [" — ", " reads: "].iter().any(|lead| {
        output.contains(&format!("{lead}e.g. writer "))
            || output.contains(&format!("{lead}no example: "))
    })
}

/// The lines `text` puts under a finding for its example; under a change found both ways, each
/// direction's name heads its example.
fn is_example_line(line: &str) -> bool {
    let line = line.trim_start_matches(' ');
    ["writer: ", "bytes:  ", "reader: ", "no example: "]
        .iter()
        .any(|label| line.starts_with(label))
        || DIRECTIONS.contains(&line)
}

const DIRECTIONS: [&str; 2] = ["existing writes, new reads:", "new writes, existing reads:"];

fn findings(report: &Value) -> Vec<&Value> {
    ["failures", "warnings"]
        .iter()
        .flat_map(|key| report[key].as_array().unwrap())
        .collect()
}

#[test]
fn both_commands_document_no_examples() {
    for command in ["check", "audit"] {
        let out = protocompat(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0));
        let help = text(&out.stdout);
        assert!(help.contains("--no-examples"), "{command}: {help}");
        assert!(help.contains("Shown by default"), "{command}: {help}");
    }
}

/// With the flag the report is the one without examples; without it, the same report with
/// examples added: fields and lines of their own, nothing else changed.
#[test]
fn no_examples_removes_the_examples_and_nothing_else() {
    let (status, with) = shop_v3("json", &[]);
    let (status_without, without) = shop_v3("json", &["--no-examples"]);
    assert_eq!(status, Some(1));
    assert_eq!(status_without, status);
    let mut with: Value = serde_json::from_str(&with).expect("JSON");
    let without: Value = serde_json::from_str(&without).expect("JSON");
    for finding in findings(&without) {
        for key in ["example", "no_example"] {
            assert!(finding.get(key).is_none(), "{finding}");
        }
    }
    for key in ["failures", "warnings"] {
        for finding in with[key].as_array_mut().unwrap() {
            let finding = finding.as_object_mut().unwrap();
            finding.remove("example");
            finding.remove("no_example");
        }
    }
    // Each change's examples: its lines under the change, none without them.
    for change in without["changes"].as_array().unwrap() {
        assert_eq!(change["examples"], serde_json::json!([]), "{change}");
    }
    let mut any = false;
    for change in with["changes"].as_array_mut().unwrap() {
        any |= !change["examples"].as_array().unwrap().is_empty();
        change["examples"] = serde_json::json!([]);
    }
    assert!(any, "no change has examples");
    assert_eq!(with, without);

    let (_, with) = shop_v3("text", &[]);
    let (_, without) = shop_v3("text", &["--no-examples"]);
    assert!(!without.lines().any(is_example_line), "{without}");
    let kept: Vec<&str> = with.lines().filter(|l| !is_example_line(l)).collect();
    assert_eq!(kept.join("\n"), without.trim_end_matches('\n'));

    for format in ["github", "junit"] {
        let (status_without, without) = shop_v3(format, &["--no-examples"]);
        assert_eq!(status_without, Some(1));
        assert!(!has_inline_example(&without), "{format}: {without}");
        assert!(!without.lines().any(is_example_line), "{format}: {without}");
    }
}

/// Every finding of the shop's v3 is about data: each has an example, or says why not, in
/// every format. Ignored until the engine fills examples in (`Checker::with_examples` is in
/// place; the computation follows it); then this runs as it is.
#[test]
fn examples_are_shown_by_default() {
    let (_, json) = shop_v3("json", &[]);
    let report: Value = serde_json::from_str(&json).expect("JSON");
    let all = findings(&report);
    assert_eq!(all.len(), 7, "{json}");
    for finding in &all {
        assert!(
            finding.get("example").is_some() != finding.get("no_example").is_some(),
            "{finding}"
        );
        if let Some(example) = finding.get("example") {
            for key in ["writer", "bytes", "reader"] {
                assert!(example[key].is_string(), "{example}");
            }
            assert!(example["outcome"]["kind"].is_string(), "{example}");
        }
    }

    let (_, text) = shop_v3("text", &[]);
    let lines: Vec<&str> = text.lines().collect();
    let finding_lines = lines
        .iter()
        .filter(|l| l.starts_with("examples/shop/v3/order.proto:"))
        .count();
    // Seven findings in four changes: three found both ways.
    assert_eq!(finding_lines, 4, "{text}");
    // Each finding line is followed by its example (three lines) or why it has none (one); a
    // change found both ways by each direction's, under its name.
    for (at, line) in lines.iter().enumerate() {
        if line.starts_with("examples/shop/v3/order.proto:") {
            let next = lines.get(at + 1).copied().unwrap_or_default();
            let example = |line: &str| {
                line.starts_with("    writer: ") || line.starts_with("    no example: ")
            };
            if line.ends_with("both directions]") {
                let under: Vec<&str> = lines[at + 1..]
                    .iter()
                    .copied()
                    .take_while(|l| l.starts_with("    "))
                    .collect();
                for direction in DIRECTIONS {
                    let head = under
                        .iter()
                        .position(|l| l.trim_start() == direction)
                        .unwrap_or_else(|| panic!("no {direction}: {text}"));
                    let first = under.get(head + 1).copied().unwrap_or_default();
                    assert!(
                        example(first.strip_prefix("  ").unwrap_or_default()),
                        "{text}"
                    );
                }
                continue;
            }
            assert!(example(next), "{text}");
        }
    }

    let (_, github) = shop_v3("github", &[]);
    let annotations: Vec<&str> = github
        .lines()
        .filter(|l| l.starts_with("::error ") || l.starts_with("::warning "))
        .collect();
    assert_eq!(annotations.len(), 4, "{github}");
    assert!(
        annotations.iter().all(|a| has_inline_example(a)),
        "{github}"
    );

    let (_, junit) = shop_v3("junit", &[]);
    let doc = roxmltree::Document::parse(&junit).expect("well-formed XML");
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    let body = failure.text().unwrap();
    assert!(body.lines().all(has_inline_example), "{junit}");
}

/// `message Root` of 8,000 fields of `ty` after `header`, in `oneof choice` or not.
fn eight_thousand(header: &str, ty: &str, in_oneof: bool) -> String {
    let mut proto = format!("{header}\npackage t;\nmessage Root {{\n");
    if in_oneof {
        proto.push_str("  oneof choice {\n");
    }
    let label = if in_oneof || header.contains("proto3") {
        ""
    } else {
        "optional "
    };
    // Numbers 1 to 8,000: clear of the 19000-19999 protobuf reserves.
    for i in 1..=8_000 {
        proto.push_str(&format!("    {label}{ty} f{i} = {i};\n"));
    }
    if in_oneof {
        proto.push_str("  }\n");
    }
    proto + "}\n"
}

/// The example (or why none) of the one finding of `check` on 8,000 fields of `ty` moved into
/// a oneof, with examples by default. Making every pair of members up front took more than
/// 4 GiB here; the search now makes them one at a time, within a budget.
fn oneof_of_eight_thousand(name: &str, header: &str, ty: &str) -> Value {
    let dir = tempdir(name);
    write_tree(
        &dir,
        &[
            ("old/t.proto", &eight_thousand(header, ty, false)),
            ("new/t.proto", &eight_thousand(header, ty, true)),
        ],
    );
    let out = protocompat_in(
        &dir,
        &[
            "check",
            "--root",
            "t.Root",
            "--against",
            "old",
            "-I",
            "new",
            "new/t.proto",
            "--format",
            "json",
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // pip246 warns of ONEOF_CONFLICT: compatible.
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let all = findings(&report);
    assert_eq!(all.len(), 1, "{report}");
    assert_eq!(all[0]["rule"], "ONEOF_CONFLICT", "{report}");
    all[0].clone()
}

#[test]
fn a_oneof_of_8000_members_gets_its_example_or_says_the_budget_ran_out() {
    let strings = oneof_of_eight_thousand("oneof-strings", "syntax = \"proto3\";", "string");
    assert_eq!(
        strings["example"]["writer"], "f1: \"a\" f2: \"a\"",
        "{strings}"
    );

    // Members whose pairs all read the same: the search tries pairs until its budget ends.
    let alike = oneof_of_eight_thousand(
        "oneof-alike",
        "syntax = \"proto2\";\nenum One { ONE = 0; }",
        "One",
    );
    assert!(alike.get("example").is_none(), "{alike}");
    let why = alike["no_example"]
        .as_str()
        .expect("why there is no example");
    assert!(
        why.starts_with("the search's budget ran out after trying "),
        "{why}"
    );
}
