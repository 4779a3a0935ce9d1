//! Proven before shown (docs/rules.md#remedies): a remedy is offered only once a re-check of
//! the new schema with its edits made finds its finding gone and nothing new; fixes made
//! together are proven together, in order; and re-checks stop at their budget.

use protocompat::remedy::{Planner, Recheck, Together, PROOF_WORK};
use protocompat::{check, Finding, Limits, Report, RuleId, Strategy, PIP246};
use protocompat_testkit::schema_from_text;

const OLD: &str = "syntax = \"proto2\";\npackage shop;\n\
                   message Order { required int64 id = 1; optional string note = 2; }\n";
/// `id` renumbered, and still required.
const NEW: &str = "syntax = \"proto2\";\npackage shop;\n\
                   message Order { optional string note = 2; required int64 id = 3; }\n";

fn recheck<'d>(old: &'d [u8], new: &'d [u8], work: u64) -> Recheck<'d> {
    Recheck {
        existing: vec![old],
        new,
        strategy: Strategy::Full,
        profile: &PIP246,
        limits: Limits::DEFAULT,
        work,
    }
}

fn first(report: &Report, rule: RuleId) -> &Finding {
    report
        .failures
        .iter()
        .find(|f| f.rule == rule)
        .unwrap_or_else(|| panic!("{rule}: {report:#?}"))
}

#[test]
fn each_fix_offered_is_proven_and_fixes_made_together_are_proven_in_order() {
    let (old, new) = (
        schema_from_text(OLD, "shop.Order"),
        schema_from_text(NEW, "shop.Order"),
    );
    let report = check(&[&old], &new, Strategy::Full).unwrap();
    let planner = Planner::new(&recheck(&old, &new, 1), &report);
    let renumbered = first(&report, RuleId::FieldNumberChanged);
    let added = first(&report, RuleId::RequiredFieldAdded);
    let number = planner.plan(renumbered).fix.expect("its old number back");
    let optional = planner.plan(added).fix.expect("the field made optional");
    assert!(planner.rechecks() >= 2, "each fix was checked again");
    // Its number back removes every finding about `id`, so making it optional is not needed.
    let together = planner.combine(&[(renumbered, &number), (added, &optional)]);
    assert_eq!(together[0], Together::Made);
    assert_eq!(together[1], Together::Covered(0));
    // The other way round, the two contradict: `optional` at the old number changes the label.
    let together = planner.combine(&[(added, &optional), (renumbered, &number)]);
    assert_eq!(together[0], Together::Made);
    match &together[1] {
        Together::Refused(why) => assert!(
            why.contains("REQUIRED_LABEL_CHANGED shop.Order.id"),
            "{why}"
        ),
        other => panic!("{other:?}"),
    }
}

/// A re-check is started only while the budget left covers one more as costly as the check
/// was: where the check alone spent it all, no candidate is tried, and none is offered.
#[test]
fn no_candidate_is_offered_past_the_budget() {
    let (old, new) = (
        schema_from_text(OLD, "shop.Order"),
        schema_from_text(NEW, "shop.Order"),
    );
    let report = check(&[&old], &new, Strategy::Full).unwrap();
    let planner = Planner::new(&recheck(&old, &new, PROOF_WORK + 1), &report);
    let planned = planner.plan(first(&report, RuleId::FieldNumberChanged));
    assert_eq!(planned.fix, None);
    assert_eq!(planner.rechecks(), 0);
    assert!(
        planned.refused.iter().all(|r| r.why.contains("budget")),
        "{planned:#?}"
    );
    assert!(!planned.refused.is_empty() && !planned.advice.is_empty());
}
