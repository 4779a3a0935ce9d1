//! Runs every case of `tests/fixtures/compat` through the engine, in both directions and under
//! FULL, and checks that every rule ID of the profile fires in each direction somewhere.

mod support;

use protocompat::PIP246;
use support::cases::{case_names, read_expect, root_messages, rules_fired, Case, DIRECTIONS};
use support::{fixtures, schema_data};

fn cases() -> Vec<Case> {
    let root = fixtures().join("compat");
    case_names(&root, &[])
        .into_iter()
        .map(|name| {
            let dir = root.join(&name);
            let expect = read_expect(&dir);
            let root_file = expect["root_file"].as_str().unwrap();
            let (old_root, new_root) = root_messages(&expect);
            Case {
                old: schema_data(&dir.join("old"), root_file, old_root),
                new: schema_data(&dir.join("new"), root_file, new_root),
                name,
                expect,
            }
        })
        .collect()
}

#[test]
fn every_case_gives_its_expected_findings_in_both_directions() {
    let cases = cases();
    assert!(cases.len() >= 30, "fixture cases went missing");
    let problems: Vec<String> = cases
        .iter()
        .flat_map(Case::compare_both_directions)
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn full_is_the_union_of_both_directions() {
    let problems: Vec<String> = cases().iter().flat_map(Case::compare_full).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn full_in_one_traversal_reports_what_separate_walks_report() {
    let problems: Vec<String> = cases()
        .iter()
        .flat_map(Case::compare_full_with_separate_walks)
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_rule_fires_in_each_direction_somewhere() {
    let cases = cases();
    for (direction, _) in DIRECTIONS {
        let fired = rules_fired(&cases, direction);
        for rule in PIP246.rules {
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
    let problems: Vec<String> = cases().iter().flat_map(Case::compare_with_itself).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
