//! The search for examples has a budget of its own (docs/rules.md#examples): a oneof of
//! thousands of members, whose pairs once were all made up front (4 GiB and more for 8,000
//! members), is checked with examples in the heap a check without them takes; a search that
//! runs out says so; the check's total stops many such findings adding up; and the verdict never
//! changes. Heap is measured with the metered allocator, per thread, so the figures do not
//! depend on what other tests do.

use protocompat::budget::MeteredAllocator;
use protocompat::{Bounds, Checker, Report, Strategy};
use protocompat_testkit::{schema_data_without_source_info, tempdir};

#[global_allocator]
static ALLOCATOR: MeteredAllocator<std::alloc::System> = MeteredAllocator(std::alloc::System);

/// Heap a search may add to a check's peak: its candidates are a few messages at a time.
const SEARCH_HEAP: usize = 1 << 20;

/// Field number `i` (from 1), stepping over the 19000-19999 protobuf reserves.
fn number(i: usize) -> usize {
    if i >= 19_000 {
        i + 1_000
    } else {
        i
    }
}

/// Schema data of `proto` (file `t.proto`, package `t`, root `t.Root`), without source info
/// as a Java client uploads it.
fn data(proto: &str) -> Vec<u8> {
    let dir = tempdir();
    std::fs::write(dir.join("t.proto"), proto).unwrap();
    let data = schema_data_without_source_info(&dir, "t.proto", "t.Root");
    std::fs::remove_dir_all(&dir).unwrap();
    data
}

/// `message Root` with `oneofs` groups of `members` fields of type `ty` each, every group in a
/// oneof `choice<k>` or not.
fn members(header: &str, ty: &str, oneofs: usize, members: usize, in_oneof: bool) -> Vec<u8> {
    data(&members_text(header, ty, oneofs, members, in_oneof))
}

fn members_text(header: &str, ty: &str, oneofs: usize, members: usize, in_oneof: bool) -> String {
    let mut proto = format!("{header}\npackage t;\nmessage Root {{\n");
    let mut next = 0;
    for k in 0..oneofs {
        if in_oneof {
            proto.push_str(&format!("  oneof choice{k} {{\n"));
        }
        let label = if in_oneof || header.contains("proto3") {
            ""
        } else {
            "optional "
        };
        for _ in 0..members {
            next += 1;
            proto.push_str(&format!("    {label}{ty} f{next} = {};\n", number(next)));
        }
        if in_oneof {
            proto.push_str("  }\n");
        }
    }
    proto.push_str("}\n");
    proto
}

/// Members that read alike whichever is set: a closed enum of one value, whose only value is
/// its default. Every pair of them reads the same, so the search tries pair after pair.
const ALIKE: &str = "syntax = \"proto2\";\nenum One { ONE = 0; }";

/// The report of `new` against `old`, with examples or not, and the heap the check held at its
/// peak.
fn check(strategy: Strategy, old: &[&[u8]], new: &[u8], examples: bool) -> (Report, usize) {
    let checker = Checker::new(Bounds::NONE).with_examples(examples);
    let report = checker.check(old, new, strategy).expect("a verdict");
    (report, checker.stats().last_check_peak_bytes)
}

/// The verdict and the findings, examples left out.
fn verdict(report: &Report) -> (bool, usize, usize, Vec<String>) {
    let findings = report.failures.iter().chain(&report.warnings);
    (
        report.compatible,
        report.total_failures,
        report.total_warnings,
        findings.map(|f| f.render()).collect(),
    )
}

#[test]
fn the_issues_8000_members_moved_into_a_oneof_get_an_example_in_bounded_heap() {
    let old = members("syntax = \"proto3\";", "string", 1, 8_000, false);
    let new = members("syntax = \"proto3\";", "string", 1, 8_000, true);
    let (without, plain_peak) = check(Strategy::Full, &[&old], &new, false);
    let (with, peak) = check(Strategy::Full, &[&old], &new, true);
    assert_eq!(verdict(&with), verdict(&without));
    assert_eq!(with.warnings.len(), 1, "{:?}", verdict(&with));
    let finding = &with.warnings[0];
    assert_eq!(finding.rule.to_string(), "ONEOF_CONFLICT");
    let example = finding.example.as_ref().expect("an example");
    assert_eq!(example.writer, "f1: \"a\" f2: \"a\"");
    assert_eq!(example.reader, "reads t.Root.f1 as \"\", not \"a\"");
    println!("8,000 members: peak heap {plain_peak} bytes without examples, {peak} with");
    assert!(
        peak <= plain_peak + SEARCH_HEAP,
        "{peak} bytes with examples, {plain_peak} without"
    );
}

#[test]
fn a_search_that_runs_out_of_budget_says_so_and_the_verdict_stays() {
    let old = members(ALIKE, "One", 1, 8_000, false);
    let new = members(ALIKE, "One", 1, 8_000, true);
    let (without, plain_peak) = check(Strategy::Full, &[&old], &new, false);
    let (with, peak) = check(Strategy::Full, &[&old], &new, true);
    assert_eq!(verdict(&with), verdict(&without));
    assert_eq!(with.warnings.len(), 1, "{:?}", verdict(&with));
    let finding = &with.warnings[0];
    assert!(finding.example.is_none());
    let why = finding
        .no_example
        .as_deref()
        .expect("why there is no example");
    let tried: usize = why
        .strip_prefix("the search's budget ran out after trying ")
        .and_then(|rest| rest.strip_suffix(" messages along this path without finding one"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{why}"));
    // Each pair is read back under a message of 8,000 fields, each looked at for required
    // ones: a few hundred pairs of the 32 million fit in a finding's budget.
    assert!((10..=1_000).contains(&tried), "{why}");
    println!(
        "8,000 members that read alike: peak heap {plain_peak} bytes without examples, {peak} with"
    );
    assert!(
        peak <= plain_peak + SEARCH_HEAP,
        "{peak} bytes with examples, {plain_peak} without"
    );
}

#[test]
fn the_checks_total_stops_many_searches_adding_up() {
    // Thirty oneofs of 120 members that read alike, in two existing schemas: 60 findings
    // (30 per compared pair) whose searches would each spend all of their own budget.
    let old = members(ALIKE, "One", 30, 120, false);
    let new = members(ALIKE, "One", 30, 120, true);
    let history: [&[u8]; 2] = [&old, &old];
    let (without, _) = check(Strategy::FullTransitive, &history, &new, false);
    let (with, _) = check(Strategy::FullTransitive, &history, &new, true);
    assert_eq!(verdict(&with), verdict(&without));
    assert_eq!(with.warnings.len(), 60, "{:?}", verdict(&with));
    let reasons: Vec<&str> = with
        .warnings
        .iter()
        .map(|f| f.no_example.as_deref().expect("no example"))
        .collect();
    let own = reasons
        .iter()
        .filter(|why| why.starts_with("the search's budget ran out after trying "))
        .count();
    let check_total = "the check's budget for examples ran out before this finding's search \
                       found one (earlier findings used it)";
    let shared = reasons.iter().filter(|why| **why == check_total).count();
    // The check's total is twenty findings' budgets: the rest are not searched at all.
    assert_eq!(own + shared, 60, "{reasons:?}");
    assert_eq!(own, 20, "{own} searched, {shared} not: {reasons:?}");
}

#[test]
fn examples_cut_short_by_the_checks_total_are_not_remembered() {
    let reasons = |report: &Report| -> Vec<String> {
        let findings = report.failures.iter().chain(&report.warnings);
        findings
            .map(|f| f.no_example.clone().unwrap_or_default())
            .collect()
    };
    let text = members_text(ALIKE, "One", 30, 120, false);
    // Two existing schemas that differ in bytes only: the first uses up the check's total,
    // and the second's examples are cut short by it.
    let (first, second) = (data(&text), data(&(text.clone() + "message Other {}\n")));
    let new = members(ALIKE, "One", 30, 120, true);
    let checker = Checker::new(Bounds::DEFAULT).with_examples(true);
    let history = checker
        .check(&[&first, &second], &new, Strategy::FullTransitive)
        .unwrap();
    let check_total = "the check's budget for examples ran out before this finding's search \
                       found one (earlier findings used it)";
    assert!(
        reasons(&history)
            .iter()
            .filter(|why| *why == check_total)
            .count()
            >= 30
    );
    // Checked alone, the second schema's findings are searched with a budget of their own,
    // as a checker without caches finds them, not remembered from the check before.
    let alone = checker
        .check(&[&second], &new, Strategy::FullTransitive)
        .unwrap();
    let fresh = Checker::new(Bounds::NONE)
        .with_examples(true)
        .check(&[&second], &new, Strategy::FullTransitive)
        .unwrap();
    assert_eq!(reasons(&alone), reasons(&fresh));
    assert!(reasons(&alone)[0].starts_with("the search's budget ran out after trying "));
}
