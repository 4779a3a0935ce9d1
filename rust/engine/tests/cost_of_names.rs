//! What a check is charged for the names it handles in every pair: a finding for the bytes of
//! its text, a field looked up by name for the steps of its search. The `cost` fuzz target
//! found both uncharged: 9,000 required fields named with a kilobyte each, added against 300
//! tiny versions, took 6.7 s of CPU inside the work budget (2.2 ns per unit), and 9,000
//! renamed fields with such names 3.3 s (RELIABILITY.md, "Fuzzing for cost").
//!
//! And what it does with full names: types are compared by the ids of their full names, never
//! by their text, so a field pair costs the same whatever the names; building the full names,
//! once per schema, is charged to its decode. The security review found both uncharged: 1,000
//! fields typed by a message with a 31 KB full name (31 messages named with a kilobyte, nested)
//! took 6.0 s per upload against 2,000 versions, 2.4 to 4.6 ns per unit.

use protocompat::model::full_name_bytes_read;
use protocompat::{Bounds, Checker, RuleId, Schema, Strategy, PROFILES};
use protocompat_testkit::shapes::nested_long_names;
use protocompat_testkit::{schema_data, schema_from_text, tempdir};

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

/// The full-name bytes a cold FULL_TRANSITIVE check of variant 3 against variants 0 to 2 reads,
/// each variant a message with a 31 KB full name whose `fields` fields are typed by itself.
fn full_names_read_by_a_check(profile: &'static protocompat::Profile, fields: usize) -> u64 {
    let existing: Vec<Vec<u8>> = (0..3).map(|v| nested_long_names(v, fields)).collect();
    let existing: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
    let proposed = nested_long_names(3, fields);
    let checker = Checker::new(Bounds::NONE).with_profile(profile);
    let before = full_name_bytes_read();
    let report = checker
        .check(&existing, &proposed, Strategy::FullTransitive)
        .expect("a verdict");
    let read = full_name_bytes_read() - before;
    assert_eq!(report.total_failures, 0, "{}", report.summary());
    read
}

/// Every field pair of the shape the security review found asks whether the two fields name the
/// same type (FIELD_KIND_CHANGED, and which types the walk pairs): by id, the text of the 31 KB
/// full name is never read for it. A hundred times the fields read no more of it, where reading
/// it for each pair read a hundred times as much.
#[test]
fn a_field_pair_reads_no_full_name_whatever_its_length() {
    for profile in PROFILES {
        let few = full_names_read_by_a_check(profile, 10);
        let many = full_names_read_by_a_check(profile, 1_000);
        assert_eq!(
            many, few,
            "{}: {few} bytes of full names read with 10 fields a pair, {many} with 1,000",
            profile.name
        );
    }
}

/// Nesting makes full names many times the bytes of the schema: each of the 31 nested messages
/// builds its full name from its scope's, about 500 KB from 31 KB of names. Decoding is charged
/// at least a unit for each byte built.
#[test]
fn a_decode_is_charged_for_the_full_names_it_builds() {
    let data = nested_long_names(0, 1);
    let schema = Schema::decode(&data).expect("decodes");
    // Read in order, outermost first: the root is the last of the chain.
    let built: u64 = (0..=schema.root().id())
        .map(|id| schema.model().message(id).full_name().len() as u64)
        .sum();
    assert!(built > 400_000, "{built} bytes of full names");
    assert!(
        schema.work() >= built + 2 * data.len() as u64,
        "decoding {} bytes that build {built} bytes of full names is charged {} units",
        data.len(),
        schema.work()
    );
}

/// A type's id is its full name's: `a.b.C` is the same type whether `b` is a package or a
/// message, and another name is another type, in any two schemas.
#[test]
fn types_are_the_same_exactly_when_their_full_names_are() {
    let schema = |types: &str, order: &str| {
        let dir = tempdir();
        std::fs::write(dir.join("types.proto"), types).unwrap();
        std::fs::write(dir.join("order.proto"), order).unwrap();
        let data = schema_data(&dir, "order.proto", "a.R");
        std::fs::remove_dir_all(&dir).unwrap();
        data
    };
    let package_b = schema(
        "syntax = \"proto3\"; package a.b; message C { int32 x = 1; }",
        "syntax = \"proto3\"; package a; import \"types.proto\"; message R { b.C c = 1; }",
    );
    let message_b = |name: &str| {
        schema(
            "syntax = \"proto3\"; package z;",
            &format!(
                "syntax = \"proto3\"; package a; message b {{ message {name} {{ int32 x = 1; }} }} \
                 message R {{ b.{name} c = 1; }}"
            ),
        )
    };
    for profile in PROFILES {
        let checker = Checker::new(Bounds::NONE).with_profile(profile);
        let same = checker
            .check(&[&package_b], &message_b("C"), Strategy::Full)
            .expect("a verdict");
        assert_eq!(same.total_failures, 0, "{}", same.summary());
        if profile.name == "pip246" {
            let renamed = checker
                .check(&[&package_b], &message_b("D"), Strategy::Full)
                .expect("a verdict");
            let rules: Vec<RuleId> = renamed.failures.iter().map(|f| f.rule).collect();
            assert_eq!(rules, [RuleId::FieldKindChanged, RuleId::FieldKindChanged]);
        }
    }
}

/// `conservative` pairs types by structure, so one message or enum is compared with many on
/// the other side, and each time the rules compare its text byte for byte: its fields' names
/// and declared defaults, its values' names. Every pair is charged for that text, whatever it
/// holds: here 8 writer messages each meet 8 reader messages, all holding a string field whose
/// default is 8 bytes, then 8,000.
#[test]
fn a_pair_is_charged_for_the_text_its_rules_compare() {
    const SIDE: usize = 8;
    let side = |prefix: char, writer: bool, default_bytes: usize| {
        let default = "d".repeat(default_bytes);
        let mut text = String::new();
        for m in 0..SIDE {
            text.push_str(&format!(
                "message {prefix}{m} {{ optional string s = 1 [default = \"{default}\"]; }}\n"
            ));
        }
        let fields: String = (0..SIDE * SIDE)
            .map(|i| {
                let m = if writer { i / SIDE } else { i % SIDE };
                format!("optional {prefix}{m} f{i} = {}; ", i + 1)
            })
            .collect();
        format!("syntax = \"proto2\";\npackage shop;\n{text}message Order {{ {fields} }}\n")
    };
    let profile = protocompat::Profile::named("conservative").unwrap();
    let units = |default_bytes: usize| {
        let writer = schema_from_text(&side('A', true, default_bytes), "shop.Order");
        let reader = schema_from_text(&side('B', false, default_bytes), "shop.Order");
        pair_units(profile, &writer, &reader)
    };
    let (short, long) = (units(8), units(8_000));
    // Each of the 64 message pairs, both ways, holds 7,992 bytes more on each side, a unit for
    // every 8 of them.
    let more = (SIDE * SIDE * 2 * 2 * 7_992 / 8) as u64;
    assert!(
        long >= short + more,
        "{short} units with 8-byte defaults, {long} with 8,000-byte ones"
    );
}
