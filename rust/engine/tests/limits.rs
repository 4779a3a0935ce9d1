//! Resource limits: a schema or check past one is refused with RESOURCE_LIMIT_EXCEEDED, naming
//! the limit and the setting that raises it, before the work is done (the broker and the CLI
//! each spell the setting their own way: `-Dprotocompat.limit.X`, `--limit X`).

use protocompat::{Bounds, CheckError, Checker, Limits, Schema, Strategy, PROFILES};
use protocompat_testkit::{
    put_len, root_file_with_enum_values, schema_from_text, schema_of_files, tiny_root_file,
    unimported_file,
};

fn schema(fields: usize) -> Vec<u8> {
    let body: String = (1..=fields)
        .map(|i| format!("int64 f{i} = {i}; "))
        .collect();
    schema_from_text(
        &format!(
            "syntax = \"proto3\";\npackage shop;\nmessage Order {{ {body} }}\nmessage Extra {{}}\n\
             enum Status {{ S0 = 0; S1 = 1; }}\n"
        ),
        "shop.Order",
    )
}

fn refused(limits: Limits, existing: &[&[u8]], proposed: &[u8]) -> String {
    let checker = Checker::with_limits(Bounds::DEFAULT, limits);
    match checker.check(existing, proposed, Strategy::FullTransitive) {
        Err(e) => {
            assert_eq!(e.rule_id(), "RESOURCE_LIMIT_EXCEEDED", "{e}");
            e.to_string()
        }
        Ok(report) => panic!("expected a refusal, got {}", report.render_text()),
    }
}

#[test]
fn each_limit_names_itself_and_its_property() {
    let small = schema(3);
    let cases = [
        (
            Limits {
                max_schema_bytes: 100,
                ..Limits::DEFAULT
            },
            "(limit.maxSchemaBytes=N raises it)",
        ),
        (
            Limits {
                max_messages: 1,
                ..Limits::DEFAULT
            },
            "has 2 messages, over the limit of 1 (limit.maxMessages=N",
        ),
        (
            Limits {
                max_fields: 2,
                ..Limits::DEFAULT
            },
            "has 3 fields, over the limit of 2 (limit.maxFields=N",
        ),
        (
            Limits {
                max_files: 0,
                ..Limits::DEFAULT
            },
            "has 1 files, over the limit of 0 (limit.maxFiles=N",
        ),
        (
            Limits {
                max_enum_values: 1,
                ..Limits::DEFAULT
            },
            "has 2 enum values, over the limit of 1 (limit.maxEnumValues=N",
        ),
        (
            Limits {
                max_name_length: 10,
                ..Limits::DEFAULT
            },
            // The longest name is the file's own, `order.proto`.
            "a name in the descriptor set is 11 bytes long, over the limit of 10: \
             the name of file `order.proto` (limit.maxNameLength=N raises it)",
        ),
    ];
    for (limits, says) in cases {
        let message = refused(limits, &[], &small);
        assert!(
            message.starts_with("RESOURCE_LIMIT_EXCEEDED: new schema"),
            "{message}"
        );
        assert!(message.contains(says), "{message}");
    }
}

#[test]
fn work_per_check_is_bounded_over_the_whole_history() {
    let history: Vec<Vec<u8>> = (1..=10).map(|n| schema(20 + n)).collect();
    let existing: Vec<&[u8]> = history.iter().map(Vec::as_slice).collect();
    let proposed = schema(40);
    // 10 versions x 2 directions x about 25 matched fields: far more than 100.
    let message = refused(
        Limits {
            max_field_comparisons: 100,
            ..Limits::DEFAULT
        },
        &existing,
        &proposed,
    );
    assert!(
        message
            .contains("checking against 10 existing schemas needs more than 100 field comparisons"),
        "{message}"
    );
    assert!(
        message.contains("(limit.maxFieldComparisons=N raises it)"),
        "{message}"
    );
    // The defaults let it through.
    let checker = Checker::new(Bounds::DEFAULT);
    assert!(
        checker
            .check(&existing, &proposed, Strategy::FullTransitive)
            .unwrap()
            .compatible
    );
}

/// FULL walks both directions in one traversal, and walks the way back again when it finds
/// something: the work it may do is still exactly what the two directions need on their own,
/// in field comparisons and in units (each direction's findings charged to it alone).
#[test]
fn full_needs_the_work_of_both_directions_exactly() {
    let retyped = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int32 f1 = 1; int64 f2 = 2; \
         int64 f3 = 3; string f4 = 4; }\nmessage Extra {}\nenum Status { S0 = 0; S1 = 1; }\n",
        "shop.Order",
    );
    // Renamed types, which `conservative` pairs and compares: a message and an enum.
    let with_types = |message: &str, status: &str| {
        schema_from_text(
            &format!(
                "syntax = \"proto3\";\npackage shop;\n\
                 message Order {{ int64 f1 = 1; {message} line = 2; {status} status = 3; }}\n\
                 message {message} {{ int64 qty = 1; string sku = 2; }}\n\
                 enum {status} {{ S0 = 0; S1 = 1; S2 = 2; }}\n"
            ),
            "shop.Order",
        )
    };
    let passes = |limits: Limits, profile, existing: &[u8], proposed: &[u8], strategy| {
        Checker::with_limits(Bounds::NONE, limits)
            .with_profile(profile)
            .check(&[existing], proposed, strategy)
            .is_ok()
    };
    // The fewest comparisons, and units, a check of `proposed` against `existing` passes with.
    let comparisons = |profile, existing: &[u8], proposed: &[u8], strategy: Strategy| {
        least_passing(1_000, |limit| {
            let limits = Limits {
                max_field_comparisons: limit,
                ..Limits::DEFAULT
            };
            passes(limits, profile, existing, proposed, strategy)
        })
    };
    let units = |profile, existing: &[u8], proposed: &[u8], strategy: Strategy| {
        least_passing(1 << 30, |limit| {
            let limits = Limits {
                max_check_work: limit,
                ..Limits::DEFAULT
            };
            passes(limits, profile, existing, proposed, strategy)
        })
    };
    // Nothing found either way, then the way back finding retyped fields (walked twice), then
    // renamed types.
    let pairs = [
        (schema(4), schema(5)),
        (schema(4), retyped),
        (with_types("Line", "Status"), with_types("Item", "State")),
    ];
    for profile in PROFILES {
        for (case, (existing, proposed)) in pairs.iter().enumerate() {
            let backward = comparisons(profile, existing, proposed, Strategy::Backward);
            let forward = comparisons(profile, existing, proposed, Strategy::Forward);
            let full = comparisons(profile, existing, proposed, Strategy::Full);
            assert_eq!(full, backward + forward, "{} case {case}", profile.name);
            let expected = match (profile.name, case) {
                // Four matched fields, and every field of both sides: 4 + 5 or 4 + 4.
                (_, 0) => 4 + 9,
                (_, 1) => 4 + 8,
                // Order (3 + 3 fields, 3 matched); `pip246` does not enter the renamed types.
                ("pip246", _) => 6 + 3,
                // Also Line/Item (2 + 2, 2 matched), and the two enums' values (3 + 3).
                (_, _) => (6 + 3) + (4 + 2) + 6,
            };
            assert_eq!(backward, expected, "{} case {case}", profile.name);

            // Both schemas are decoded once whatever the strategy; each direction costs the
            // rest.
            let decodes = Schema::decode(existing).unwrap().work() as usize
                + Schema::decode(proposed).unwrap().work() as usize;
            let backward = units(profile, existing, proposed, Strategy::Backward);
            let forward = units(profile, existing, proposed, Strategy::Forward);
            let full = units(profile, existing, proposed, Strategy::Full);
            assert_eq!(
                full - decodes,
                (backward - decodes) + (forward - decodes),
                "{} case {case}: units",
                profile.name
            );
        }
    }
}

#[test]
fn a_refusal_for_size_is_fast_and_reads_nothing_else() {
    // Not JSON at all: the size is refused before any parsing.
    let huge = vec![b'x'; (16 << 20) + 1];
    let message = match protocompat::check(&[], &huge, Strategy::Full) {
        Err(CheckError::Schema(e)) => e.to_string(),
        other => panic!("{other:?}"),
    };
    assert!(
        message.contains("schema data has 16777217 bytes, over the limit of 16777216"),
        "{message}"
    );
}

fn refused_by_default(data: &[u8]) -> String {
    match protocompat::check(&[], data, Strategy::Full) {
        Err(e) => {
            assert_eq!(e.rule_id(), "RESOURCE_LIMIT_EXCEEDED", "{e}");
            e.to_string()
        }
        Ok(report) => panic!("expected a refusal, got {}", report.render_text()),
    }
}

#[test]
fn enum_values_are_limited() {
    let data = schema_of_files(&[&root_file_with_enum_values(800_000)]);
    assert!(data.len() < Limits::DEFAULT.max_schema_bytes);
    let message = refused_by_default(&data);
    assert!(
        message.contains(
            "the descriptor set has 800000 enum values, over the limit of 100000 \
             (limit.maxEnumValues=N raises it)"
        ),
        "{message}"
    );
}

#[test]
fn name_length_is_limited() {
    let mut root = Vec::new();
    put_len(1, b"order.proto", &mut root);
    put_len(2, "p".repeat(20_000).as_bytes(), &mut root);
    let message = refused_by_default(&schema_of_files(&[&root]));
    assert!(
        message.contains(
            "a name in the descriptor set is 20000 bytes long, over the limit of 1024: \
             a package in file `order.proto` (limit.maxNameLength=N raises it)"
        ),
        "{message}"
    );
}

/// The review's case: schema data just under maxSchemaBytes, almost all of it empty messages
/// in a file the root does not import. Counted, not decoded: refused before prost sees it.
#[test]
fn millions_of_messages_in_an_unimported_file_are_refused() {
    let data = schema_of_files(&[&tiny_root_file(), &unimported_file(6_000_000, 0)]);
    assert!(data.len() > 15_000_000 && data.len() < Limits::DEFAULT.max_schema_bytes);
    let message = refused_by_default(&data);
    assert!(
        message.contains(
            "the descriptor set has 6000001 messages, over the limit of 50000 \
             (limit.maxMessages=N raises it)"
        ),
        "{message}"
    );
}

/// The least limit under `high` that `passes`, which a larger limit never makes fail.
fn least_passing(high: usize, passes: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, high);
    assert!(passes(high) && !passes(low));
    while high - low > 1 {
        let middle = (low + high) / 2;
        if passes(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    high
}

/// The fewest units of work (`limit.maxCheckWork`) a cold FULL_TRANSITIVE check passes with.
fn least_work(existing: &[&[u8]], proposed: &[u8]) -> usize {
    least_passing(1 << 40, |limit| {
        let limits = Limits {
            max_check_work: limit,
            ..Limits::DEFAULT
        };
        Checker::with_limits(Bounds::NONE, limits)
            .check(existing, proposed, Strategy::FullTransitive)
            .is_ok()
    })
}

/// A check is charged what it would cost cold, whether the caches answer it or not: a broker
/// that has seen the history refuses exactly what a fresh broker and the CLI refuse.
#[test]
fn work_per_check_is_counted_the_same_warm_and_cold() {
    let history: Vec<Vec<u8>> = (1..=10).map(|n| schema(20 + n)).collect();
    let existing: Vec<&[u8]> = history.iter().map(Vec::as_slice).collect();
    let proposed = schema(40);
    let least = least_work(&existing, &proposed);
    for (limit, passes) in [(least, true), (least - 1, false)] {
        let checker = Checker::with_limits(
            Bounds::DEFAULT,
            Limits {
                max_check_work: limit,
                ..Limits::DEFAULT
            },
        );
        for round in ["cold", "warm"] {
            let result = checker.check(&existing, &proposed, Strategy::FullTransitive);
            match result {
                Ok(report) => assert!(passes && report.compatible, "{round} at {limit}"),
                Err(e) => {
                    assert!(!passes, "{round} at {limit}: {e}");
                    let text = e.to_string();
                    assert!(
                        text.contains("checking against 10 existing schemas needs more than")
                            && text.contains("(limit.maxCheckWork=N raises it)"),
                        "{text}"
                    );
                }
            }
        }
        // The second round found every schema and every pair remembered.
        assert!(checker.stats().schemas >= 11, "{limit}");
    }
    // Field comparisons too: a remembered verdict costs what its walk did.
    let checker = Checker::with_limits(
        Bounds::DEFAULT,
        Limits {
            max_field_comparisons: 100,
            ..Limits::DEFAULT
        },
    );
    for round in ["cold", "warm"] {
        let error = checker
            .check(&existing, &proposed, Strategy::FullTransitive)
            .expect_err(round);
        assert!(
            error.to_string().contains("limit.maxFieldComparisons"),
            "{round}: {error}"
        );
    }
}

/// A history whose work is past the limit stops before the rest of it is read: each schema's
/// bytes are weighed before it is decoded.
#[test]
fn a_long_history_stops_before_it_is_decoded() {
    let history: Vec<Vec<u8>> = (1..=50).map(|n| schema(200 + n)).collect();
    let proposed = schema(300);
    let existing: Vec<&[u8]> = history.iter().take(2).map(Vec::as_slice).collect();
    // Room for the new schema and two existing ones, not fifty.
    let limit = least_work(&existing, &proposed);
    let checker = Checker::with_limits(
        Bounds::NONE,
        Limits {
            max_check_work: limit,
            ..Limits::DEFAULT
        },
    );
    let all: Vec<&[u8]> = history.iter().map(Vec::as_slice).collect();
    let mut source = protocompat_testkit::Counting {
        existing: &all,
        proposed: &proposed,
        copies: 0,
    };
    let error = checker
        .check_source(&mut source, Strategy::FullTransitive)
        .expect_err("fifty versions need more");
    assert!(error.to_string().contains("limit.maxCheckWork"), "{error}");
    assert!(source.copies <= 4, "{} schemas copied", source.copies);
}
