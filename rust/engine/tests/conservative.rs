//! The `conservative` profile (docs/rules.md#conservative) over every shared fixture: its own cases
//! (`tests/fixtures/conservative`) under both profiles, and every rule of the profile shown in
//! each direction somewhere in the compat, Editions and conservative cases, whose
//! `expect.json` each carry a `conservative` block (`fixtures.rs` and `editions.rs` check
//! theirs).

use protocompat::{Finding, Profile, Severity, CONSERVATIVE, PIP246, PROFILES};
use protocompat_testkit::cases::{
    compiled_cases, editions_cases, problems, rules_fired, Case, DIRECTIONS,
};
use protocompat_testkit::raw::file_features as raw_file_features;
use protocompat_testkit::{
    edition_file, fixtures, put_len, schema_from_text, schema_of_files, sorted_keys,
};
use serde_json::{json, Value};

fn cases() -> Vec<Case> {
    compiled_cases("conservative")
}

#[test]
fn every_case_gives_its_expected_findings_under_each_profile() {
    let cases = cases();
    assert!(cases.len() >= 17, "conservative cases went missing");
    let problems = problems(&cases, |c, p| {
        let mut problems = c.compare_both_directions(p);
        problems.extend(c.compare_full(p));
        problems.extend(c.compare_full_with_separate_walks(p));
        problems.extend(c.compare_with_itself(p));
        problems
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_rule_of_the_profile_fires_in_each_direction_somewhere() {
    let mut all = compiled_cases("compat");
    all.extend(editions_cases());
    all.extend(cases());
    for (direction, _) in DIRECTIONS {
        let fired = rules_fired(&all, &CONSERVATIVE, direction);
        for rule in CONSERVATIVE.rules {
            assert!(
                fired.contains(rule.id.id()),
                "no fixture shows {} in direction {direction} under conservative",
                rule.id
            );
        }
    }
}

/// docs/rules.md#no-silent-data-loss: in every direction of every fixture, each finding
/// of `conservative` is a `pip246` warning with the same rule ID and path, unless `pip246`
/// already reports something at that path, or fails on a field holding it (its walk stops where
/// a field's type changed: docs/rules.md#decisions); and the guard never changes a
/// `pip246` verdict.
#[test]
fn pip246_reports_every_conservative_finding_or_one_of_its_own_at_that_path() {
    let mut all = compiled_cases("compat");
    all.extend(editions_cases());
    all.extend(cases());
    let mut carried = 0;
    for case in &all {
        for (direction, strategy) in DIRECTIONS {
            let strict = case.run(&CONSERVATIVE, strategy).unwrap();
            let default = case.run(&PIP246, strategy).unwrap();
            let own = |f: &&Finding| !PIP246.guard.iter().any(|g| g.id == f.rule);
            let own_failures = default.failures.iter().filter(own).count();
            assert_eq!(
                default.compatible,
                own_failures == 0,
                "{} {direction}: the guard changed the verdict",
                case.name
            );
            for finding in strict.failures.iter().chain(&strict.warnings) {
                let as_warning = default.warnings.iter().any(|w| {
                    w.rule == finding.rule
                        && w.path == finding.path
                        && w.severity == Severity::Warning
                });
                let own_there = default
                    .failures
                    .iter()
                    .chain(&default.warnings)
                    .filter(own)
                    .any(|f| f.path == finding.path);
                let fails_above = default.failures.iter().filter(own).any(|f| {
                    finding
                        .path
                        .strip_prefix(f.path.as_str())
                        .is_some_and(|rest| rest.starts_with('.'))
                });
                assert!(
                    as_warning || own_there || fails_above,
                    "{} {direction}: conservative finds {} {}, pip246 says nothing there:\n{}",
                    case.name,
                    finding.rule,
                    finding.path,
                    default.render_text()
                );
                carried += usize::from(as_warning);
            }
        }
    }
    assert!(carried >= 20, "only {carried} findings carried over");
}

/// Rewrites the block of the profile named by `PROTOCOMPAT_WRITE_EXPECT` in every case's
/// `expect.json` with what the engine finds now. For a new case or a changed rule: review the
/// diff line by line before committing it, since the tests then hold the engine to it.
#[test]
#[ignore]
fn write_expectations() {
    let Ok(name) = std::env::var("PROTOCOMPAT_WRITE_EXPECT") else {
        return;
    };
    let profile = Profile::named(&name).unwrap();
    for (folder, cases) in [
        ("compat", compiled_cases("compat")),
        ("editions", editions_cases()),
        ("conservative", cases()),
    ] {
        for case in cases {
            let path = fixtures().join(folder).join(&case.name).join("expect.json");
            let mut expect = case.expect.clone();
            let mut block = serde_json::Map::new();
            for (direction, strategy) in DIRECTIONS {
                let report = case.run(profile, strategy).unwrap();
                block.insert(
                    direction.to_owned(),
                    json!({
                        "compatible": report.compatible,
                        "failures": sorted_keys(&report.failures),
                        "warnings": sorted_keys(&report.warnings),
                    }),
                );
            }
            let target: &mut Value = if profile.name == "pip246" {
                &mut expect
            } else {
                &mut expect[profile.name]
            };
            for (direction, value) in block {
                target[direction] = value;
            }
            let text = serde_json::to_string_pretty(&expect).unwrap() + "\n";
            std::fs::write(&path, text).unwrap();
        }
    }
}

/// ENUM_VALUE_NOT_READABLE compares closed enums' numbers over the whole `int32` range, each
/// alias once.
#[test]
fn closed_enums_compare_numbers_at_both_ends_of_the_range() {
    let schema = |values: &str| {
        schema_from_text(
            &format!(
                "syntax = \"proto2\"; package shop;\n\
                 message Order {{ optional Status status = 1; }}\n\
                 enum Status {{ option allow_alias = true; {values} }}"
            ),
            "shop.Order",
        )
    };
    let both_ends = schema("LOW = -2147483648; ZERO = 0; HIGH = 2147483647;");
    let aliased = schema("LOW = -2147483648; MIN = -2147483648; ZERO = 0; HIGH = 2147483647;");
    let no_high = schema("LOW = -2147483648; ZERO = 0;");
    let checker = protocompat_testkit::cases::checker(&CONSERVATIVE);
    let backward = |old: &[u8], new: &[u8]| {
        checker
            .check(&[old], new, protocompat::Strategy::Backward)
            .unwrap()
    };
    assert!(backward(&both_ends, &aliased).compatible);
    assert!(backward(&aliased, &both_ends).compatible);
    let lost = backward(&both_ends, &no_high);
    assert!(!lost.compatible);
    assert_eq!(
        lost.failures[0].writer,
        "closed enum shop.Status writes HIGH = 2147483647"
    );
    assert!(backward(&no_high, &both_ends).compatible);
}

/// An edition 2023 `order.proto` declaring `Order { int64 id = 1; }`, with `file_features` as
/// its file's `options.features` (serialized FeatureSet fields).
fn edition_order(file_features: &[u8]) -> Vec<u8> {
    use prost_types::{field_descriptor_proto::Type, DescriptorProto, FieldDescriptorProto};
    let file = prost_types::FileDescriptorProto {
        name: Some("order.proto".into()),
        package: Some("shop".into()),
        syntax: Some("editions".into()),
        message_type: vec![DescriptorProto {
            name: Some("Order".into()),
            field: vec![FieldDescriptorProto {
                name: Some("id".into()),
                number: Some(1),
                label: Some(1),
                r#type: Some(Type::Int64 as i32),
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    // Edition 2023, then options { features { … } }.
    schema_of_files(&[&edition_file(file, 1000, &raw_file_features(file_features))])
}

/// A FeatureSet field: `number` with the varint `value`, or with `bytes` as its contents.
fn feature(number: u32, value: Result<u64, &[u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    match value {
        Ok(v) => {
            prost::encoding::encode_varint(u64::from(number) << 3, &mut out);
            prost::encoding::encode_varint(v, &mut out);
        }
        Err(bytes) => put_len(number, bytes, &mut out),
    }
    out
}

/// Features the checker cannot interpret, an extension of FeatureSet that is no language's or a
/// Java feature past the ones it knows, are UNSUPPORTED_FEATURE for `conservative` wherever
/// either root reaches them; protobuf's languages' own extensions and the known Java features
/// are not. The default profile reads all of them as before.
#[test]
fn features_the_checker_cannot_interpret_are_unsupported() {
    let plain = edition_order(&[]);
    let cases = [
        ("an unknown extension", feature(5000, Ok(1)), true),
        (
            "a Java feature past nest_in_file_class",
            feature(1001, Err(&feature(6, Ok(1)))),
            true,
        ),
        ("Go's features", feature(1002, Err(&[])), false),
        (
            "Java's large_enum",
            feature(1001, Err(&feature(3, Ok(1)))),
            false,
        ),
    ];
    for (what, features, unsupported) in cases {
        let marked = edition_order(&features);
        for profile in PROFILES {
            let report = protocompat_testkit::cases::checker(profile)
                .check(&[&plain], &marked, protocompat::Strategy::Full)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let expected: Vec<String> = if unsupported && **profile == CONSERVATIVE {
                vec!["UNSUPPORTED_FEATURE shop.Order".into(); 2]
            } else {
                vec![]
            };
            assert_eq!(
                sorted_keys(&report.failures),
                expected,
                "{what}, {}",
                profile.name
            );
            if let Some(finding) = report.failures.first() {
                assert!(
                    finding.reader.contains("cannot interpret")
                        || finding.writer.contains("cannot interpret"),
                    "{}",
                    report.render_text()
                );
            }
        }
    }
}
