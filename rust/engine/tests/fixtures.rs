//! Runs every case of `tests/fixtures/compat` through the engine, in both directions and under
//! FULL, and checks that every rule ID of the profile fires in each direction somewhere.

mod support;

use std::collections::BTreeSet;
use std::fs;

use protocompat::rules::RULES;
use protocompat::{check, Report, Strategy};
use serde_json::Value;
use support::{fixtures, schema_data, sorted_keys};

struct Case {
    name: String,
    old: Vec<u8>,
    new: Vec<u8>,
    expect: Value,
}

fn cases() -> Vec<Case> {
    let root = fixtures().join("compat");
    let mut names: Vec<String> = fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let dir = root.join(&name);
            let expect: Value =
                serde_json::from_str(&fs::read_to_string(dir.join("expect.json")).unwrap())
                    .unwrap_or_else(|e| panic!("{name}/expect.json: {e}"));
            let root_file = expect["root_file"].as_str().unwrap();
            let old_root = expect["root_message"].as_str().unwrap();
            let new_root = expect["new_root_message"].as_str().unwrap_or(old_root);
            Case {
                old: schema_data(&dir.join("old"), root_file, old_root),
                new: schema_data(&dir.join("new"), root_file, new_root),
                name,
                expect,
            }
        })
        .collect()
}

fn expected(case: &Case, direction: &str, list: &str) -> Vec<String> {
    let mut keys: Vec<String> = case.expect[direction][list]
        .as_array()
        .unwrap_or_else(|| panic!("{}: {direction}.{list} missing", case.name))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    keys.sort();
    keys
}

fn run(case: &Case, strategy: Strategy) -> Report {
    check(&[case.old.as_slice()], &case.new, strategy)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

/// Compares one direction; returns a description of each disagreement.
fn compare(case: &Case, direction: &str, report: &Report) -> Vec<String> {
    let mut problems = Vec::new();
    for (list, actual) in [
        ("failures", &report.failures),
        ("warnings", &report.warnings),
    ] {
        let want = expected(case, direction, list);
        let got = sorted_keys(actual);
        if want != got {
            problems.push(format!(
                "{} {direction} {list}: expected {want:?}, got {got:?}\n  report:\n{}",
                case.name,
                report.render_text()
            ));
        }
    }
    let want_compatible = case.expect[direction]["compatible"].as_bool().unwrap();
    if report.compatible != want_compatible {
        problems.push(format!(
            "{} {direction}: expected compatible={want_compatible}",
            case.name
        ));
    }
    problems
}

#[test]
fn every_case_gives_its_expected_findings_in_both_directions() {
    let cases = cases();
    assert!(cases.len() >= 30, "fixture cases went missing");
    let mut problems = Vec::new();
    for case in &cases {
        // BACKWARD: canRead(existing = old, new).
        problems.extend(compare(
            case,
            "old_writes_new_reads",
            &run(case, Strategy::Backward),
        ));
        // FORWARD: canRead(new, existing = old).
        problems.extend(compare(
            case,
            "new_writes_old_reads",
            &run(case, Strategy::Forward),
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn full_is_the_union_of_both_directions() {
    for case in cases() {
        let full = run(&case, Strategy::Full);
        let mut want = expected(&case, "old_writes_new_reads", "failures");
        want.extend(expected(&case, "new_writes_old_reads", "failures"));
        want.sort();
        assert_eq!(sorted_keys(&full.failures), want, "{}", case.name);
        let both_compatible = case.expect["old_writes_new_reads"]["compatible"]
            .as_bool()
            .unwrap()
            && case.expect["new_writes_old_reads"]["compatible"]
                .as_bool()
                .unwrap();
        assert_eq!(full.compatible, both_compatible, "{}", case.name);
    }
}

#[test]
fn every_rule_fires_in_each_direction_somewhere() {
    let cases = cases();
    for direction in ["old_writes_new_reads", "new_writes_old_reads"] {
        let fired: BTreeSet<String> = cases
            .iter()
            .flat_map(|c| {
                let mut keys = expected(c, direction, "failures");
                keys.extend(expected(c, direction, "warnings"));
                keys
            })
            .map(|k| k.split(' ').next().unwrap().to_owned())
            .collect();
        for rule in RULES {
            assert!(
                fired.contains(rule.id.id()),
                "no fixture shows {} in direction {direction}",
                rule.id
            );
        }
    }
}

#[test]
fn a_schema_is_compatible_with_itself_in_every_case() {
    for case in cases() {
        for data in [&case.old, &case.new] {
            let report = check(&[data.as_slice()], data, Strategy::Full).unwrap();
            assert!(
                report.failures.is_empty() && report.warnings.is_empty(),
                "{}: {}",
                case.name,
                report.render_text()
            );
        }
    }
}
