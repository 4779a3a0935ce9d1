//! Runs every case of `tests/fixtures/compat` through the engine under every profile, in both
//! directions and under FULL, and checks that every rule ID of the default profile fires in
//! each direction somewhere (`conservative.rs` does the same for its profile).

use protocompat::PIP246;
use protocompat_testkit::cases::{compiled_cases, problems, rules_fired, Case, DIRECTIONS};

fn cases() -> Vec<Case> {
    compiled_cases("compat")
}

#[test]
fn every_case_gives_its_expected_findings_in_both_directions() {
    let cases = cases();
    assert!(cases.len() >= 30, "fixture cases went missing");
    let problems = problems(&cases, Case::compare_both_directions);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn full_is_the_union_of_both_directions() {
    let problems = problems(&cases(), Case::compare_full);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn full_in_one_traversal_reports_what_separate_walks_report() {
    let problems = problems(&cases(), Case::compare_full_with_separate_walks);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_rule_fires_in_each_direction_somewhere() {
    let cases = cases();
    for (direction, _) in DIRECTIONS {
        let fired = rules_fired(&cases, &PIP246, direction);
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
    let problems = problems(&cases(), Case::compare_with_itself);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
