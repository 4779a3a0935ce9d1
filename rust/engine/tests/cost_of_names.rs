//! What a check is charged for the names it handles in every pair: a finding for the bytes of
//! its text, a field looked up by name for the steps of its search. The `cost` fuzz target
//! found both uncharged: 9,000 required fields named with a kilobyte each, added against 300
//! tiny versions, took 6.7 s of CPU inside the work budget (2.2 ns per unit), and 9,000
//! renamed fields with such names 3.3 s (RELIABILITY.md, "Fuzzing for cost").

mod support;

use protocompat::{Bounds, Checker, Schema, Strategy, PROFILES};
use support::schema_from_text;

/// The units a FULL check of `proposed` against `existing` is charged beyond decoding both.
fn pair_units(profile: &'static protocompat::Profile, existing: &[u8], proposed: &[u8]) -> u64 {
    let checker = Checker::new(Bounds::NONE).with_profile(profile);
    checker
        .check(&[existing], proposed, Strategy::Full)
        .expect("a verdict");
    let decodes =
        Schema::decode(existing).unwrap().work() + Schema::decode(proposed).unwrap().work();
    checker.stats().last_check_work - decodes
}

fn order(syntax: &str, body: &str) -> Vec<u8> {
    schema_from_text(
        &format!("syntax = \"{syntax}\";\npackage shop;\nmessage Order {{ {body} }}\n"),
        "shop.Order",
    )
}

/// `count` required fields added, named with `name_bytes` bytes each: a finding about each, its
/// name in the finding's text.
#[test]
fn a_finding_is_charged_for_the_bytes_of_its_text() {
    const COUNT: usize = 64;
    let existing = order("proto2", "optional int32 id = 1;");
    let added = |name_bytes: usize| {
        let body: String = (2..2 + COUNT)
            .map(|i| format!("required int32 {:x<name_bytes$} = {i}; ", format!("r{i}_")))
            .collect();
        order("proto2", &format!("optional int32 id = 1; {body}"))
    };
    let (short, long) = (added(8), added(1_000));
    for profile in PROFILES {
        let (short, long) = (
            pair_units(profile, &existing, &short),
            pair_units(profile, &existing, &long),
        );
        // At least the name, 992 bytes longer, in one finding about each field, at 2 units a
        // byte; the rest of the pair's work does not depend on the names' length.
        assert!(
            long >= short + (COUNT * 992 * 2) as u64,
            "{}: {short} units with short names, {long} with long ones",
            profile.name
        );
    }
}

/// `conservative`'s FIELD_NUMBER_CHANGED looks up by name each field whose name changed (did it
/// move to another number?): every field renamed is a search of the other side's fields, both
/// ways, where the same fields with their names kept need none. Nothing is found either way.
#[test]
fn a_field_looked_up_by_name_is_charged_for_each_step() {
    const COUNT: usize = 1_024;
    let named = |prefix: char| {
        let body: String = (1..=COUNT)
            .map(|i| format!("int32 {prefix}{i:04} = {i}; "))
            .collect();
        order("proto3", &body)
    };
    let existing = named('a');
    let profile = protocompat::Profile::named("conservative").unwrap();
    let kept = pair_units(profile, &existing, &named('a'));
    let renamed = pair_units(profile, &existing, &named('b'));
    // Both ways, each of the 1,024 fields a binary search of 1,024: 11 steps, 50 units each.
    let steps = 2 * COUNT as u64 * 11;
    assert!(
        renamed >= kept + steps * 50,
        "{kept} units with the names kept, {renamed} with every field renamed"
    );
}
