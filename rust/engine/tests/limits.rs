//! Resource limits: a schema or check past one is refused with RESOURCE_LIMIT_EXCEEDED, naming
//! the limit and the property that raises it, before the work is done.

mod support;

use protocompat::{Bounds, CheckError, Checker, Limits, Strategy};
use support::schema_from_text;

fn schema(fields: usize) -> Vec<u8> {
    let body: String = (1..=fields)
        .map(|i| format!("int64 f{i} = {i}; "))
        .collect();
    schema_from_text(
        &format!(
            "syntax = \"proto3\";\npackage shop;\nmessage Order {{ {body} }}\nmessage Extra {{}}\n"
        ),
        "shop.Order",
    )
}

fn refused(limits: Limits, existing: &[&[u8]], proposed: &[u8]) -> String {
    let checker = Checker::with_limits(Bounds::DEFAULT, limits);
    match checker.check(existing, proposed, Strategy::FullTransitive.code()) {
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
            "-Dprotocompat.limit.maxSchemaBytes=N",
        ),
        (
            Limits {
                max_messages: 1,
                ..Limits::DEFAULT
            },
            "has 2 messages, over the limit of 1 (-Dprotocompat.limit.maxMessages=N",
        ),
        (
            Limits {
                max_fields: 2,
                ..Limits::DEFAULT
            },
            "has 3 fields, over the limit of 2 (-Dprotocompat.limit.maxFields=N",
        ),
        (
            Limits {
                max_files: 0,
                ..Limits::DEFAULT
            },
            "has 1 files, over the limit of 0 (-Dprotocompat.limit.maxFiles=N",
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
        message.contains("-Dprotocompat.limit.maxFieldComparisons=N"),
        "{message}"
    );
    // The defaults let it through.
    let checker = Checker::new(Bounds::DEFAULT);
    assert!(
        checker
            .check(&existing, &proposed, Strategy::FullTransitive.code())
            .unwrap()
            .compatible
    );
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
