//! Strategies over histories (docs/rules.md#strategies), report contents and bounds, deep schemas.

use std::sync::{Mutex, OnceLock};

use protocompat::report::TEXT_LIMIT;
use protocompat::schema_ref::short_sha256;
use protocompat::{check, check_code, Direction, Requested, RuleId, SchemaRef, Strategy};
use protocompat_testkit::schema_from_text;

const MONEY_AND_PRICE: &str =
    "message Money { int64 cents = 1; }\nmessage Price { int64 cents = 1; }\n";

/// v1 has `Money total = 2`, v2 drops it, v3 brings it back as `Price total = 2`: v3 conflicts
/// with v1 only.
fn history() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let version = |field: &str| {
        schema_from_text(
            &format!("syntax = \"proto3\";\npackage shop;\nmessage Order {{ int64 id = 1; {field} }}\n{MONEY_AND_PRICE}"),
            "shop.Order",
        )
    };
    (
        version("Money total = 2;"),
        version(""),
        version("Price total = 2;"),
    )
}

#[test]
fn transitive_strategies_find_the_conflict_with_an_old_version_only() {
    let (v1, v2, v3) = history();
    for strategy in [
        Strategy::BackwardTransitive,
        Strategy::ForwardTransitive,
        Strategy::FullTransitive,
    ] {
        let report = check(&[&v1, &v2], &v3, strategy).unwrap();
        assert!(!report.compatible, "{strategy}");
        assert!(report
            .failures
            .iter()
            .all(|f| f.rule == RuleId::FieldKindChanged
                && f.path == "shop.Order.total"
                && f.existing.as_ref().unwrap().which == SchemaRef::Existing(0)
                && f.existing.as_ref().unwrap().sha256 == short_sha256(&v1)));
        // The latest version alone, as the broker passes it for the non-transitive strategy.
        assert!(
            check(&[&v2], &v3, strategy).unwrap().compatible,
            "{strategy}"
        );
    }
}

#[test]
fn every_schema_passed_is_compared_and_order_only_renumbers() {
    let (v1, v2, v3) = history();
    for strategy in [
        Strategy::Backward,
        Strategy::Forward,
        Strategy::Full,
        Strategy::FullTransitive,
    ] {
        let oldest_first = check(&[&v1, &v2], &v3, strategy).unwrap();
        let newest_first = check(&[&v2, &v1], &v3, strategy).unwrap();
        assert!(
            !oldest_first.compatible && !newest_first.compatible,
            "{strategy}"
        );
        assert_eq!(oldest_first.failures.len(), newest_first.failures.len());
        assert!(newest_first
            .failures
            .iter()
            .all(|f| f.existing.as_ref().unwrap().which == SchemaRef::Existing(1)));
    }
}

#[test]
fn directions_follow_the_strategy() {
    let (v1, _, v3) = history();
    let directions = |strategy| -> Vec<Direction> {
        check(&[&v1], &v3, strategy)
            .unwrap()
            .failures
            .iter()
            .filter_map(|f| f.direction)
            .collect()
    };
    assert_eq!(
        directions(Strategy::Backward),
        [Direction::ExistingWritesNewReads]
    );
    assert_eq!(
        directions(Strategy::Forward),
        [Direction::NewWritesExistingReads]
    );
    assert_eq!(
        directions(Strategy::Full),
        [
            Direction::ExistingWritesNewReads,
            Direction::NewWritesExistingReads
        ]
    );
}

#[test]
fn strategies_that_compare_nothing() {
    let (v1, _, v3) = history();
    assert!(
        check(&[&v1], &v3, Strategy::AlwaysCompatible)
            .unwrap()
            .compatible
    );

    let rejected = check(&[&v3], &v3, Strategy::AlwaysIncompatible).unwrap();
    assert!(!rejected.compatible);
    assert_eq!(rejected.failures[0].rule, RuleId::AlwaysIncompatible);

    let undefined = check(&[&v1], &v1, Strategy::Undefined).unwrap();
    assert_eq!(undefined.failures[0].rule, RuleId::UnknownStrategy);

    let unknown = check_code(&[&v1], &v1, 42).unwrap();
    assert_eq!(unknown.failures[0].rule, RuleId::UnknownStrategy);
    assert!(
        unknown.render_text().contains("strategy code 42"),
        "{}",
        unknown.render_text()
    );
}

#[test]
fn an_empty_history_passes_every_comparing_strategy() {
    let (_, _, v3) = history();
    for strategy in Strategy::all().filter(|s| !s.directions().is_empty()) {
        let report = check(&[], &v3, strategy).unwrap();
        assert!(
            report.compatible && report.failures.is_empty(),
            "{strategy}"
        );
    }
}

#[test]
fn native_codes_and_names_round_trip() {
    for (code, strategy) in Strategy::all().enumerate() {
        assert_eq!(strategy.code(), code as i32);
        assert_eq!(Strategy::from_code(code as i32), Some(strategy));
        assert_eq!(strategy.name().parse::<Strategy>(), Ok(strategy));
        assert_eq!(
            strategy
                .name()
                .to_lowercase()
                .replace('_', "-")
                .parse::<Strategy>(),
            Ok(strategy)
        );
    }
    assert_eq!(Strategy::from_code(9), None);
    assert_eq!(Strategy::from_code(-1), None);
    assert!("SIDEWAYS"
        .parse::<Strategy>()
        .unwrap_err()
        .contains("FULL_TRANSITIVE"));
}

#[test]
fn a_native_code_is_typed_once_and_an_unknown_one_kept_for_the_report() {
    for strategy in Strategy::all() {
        assert_eq!(
            Requested::from_code(strategy.code()),
            Requested::Known(strategy)
        );
        assert_eq!(Requested::from(strategy).name(), strategy.name());
    }
    assert_eq!(Requested::from_code(42), Requested::UnknownCode(42));
    assert_eq!(Requested::from_code(42).name(), "strategy code 42");

    // An unknown code is still rejected only after the proposed schema is validated.
    let (v1, _, _) = history();
    let error = check(&[&v1], b"not schema data", Requested::UnknownCode(42)).unwrap_err();
    assert_eq!(error.rule_id(), "SCHEMA_RECONSTRUCTION_FAILED", "{error}");
}

#[test]
fn a_finding_names_everything_rules_md_asks_for() {
    let old = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; }\n",
        "shop.Order",
    );
    let new = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { Id id = 1; }\nmessage Id { string value = 1; }\n",
        "shop.Order",
    );
    let report = check(&[&old], &new, Strategy::Backward).unwrap();
    let finding = &report.failures[0];
    assert_eq!(finding.rule, RuleId::FieldKindChanged);
    assert_eq!(finding.strategy, "BACKWARD");
    assert_eq!(finding.direction, Some(Direction::ExistingWritesNewReads));
    assert_eq!(
        finding.existing.as_ref().unwrap().sha256,
        short_sha256(&old)
    );
    assert_eq!(finding.path, "shop.Order.id");
    assert_eq!(finding.field_number, Some(1));
    assert_eq!(
        (finding.writer.as_str(), finding.reader.as_str()),
        ("int64", "message shop.Id")
    );
    assert_eq!(
        finding.render(),
        format!(
            "FIELD_KIND_CHANGED shop.Order.id (field 1): writer=int64 reader=message shop.Id \
             [BACKWARD, existing[0] {}: existing writes, new reads]",
            short_sha256(&old)
        )
    );
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["compatible"], false);
    assert_eq!(json["failures"][0]["rule"], "FIELD_KIND_CHANGED");
    assert_eq!(
        json["failures"][0]["direction"],
        "existing_writes_new_reads"
    );
    assert_eq!(json["failures"][0]["existing"]["index"], 0);
}

#[test]
fn warnings_are_listed_apart_and_logged() {
    static RECORDS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    struct Capture;
    impl log::Log for Capture {
        fn enabled(&self, _: &log::Metadata) -> bool {
            true
        }
        fn log(&self, record: &log::Record) {
            let line = format!("{} {}", record.level(), record.args());
            RECORDS
                .get_or_init(Default::default)
                .lock()
                .unwrap()
                .push(line);
        }
        fn flush(&self) {}
    }
    static LOGGER: Capture = Capture;
    let _ = log::set_logger(&LOGGER);
    log::set_max_level(log::LevelFilter::Warn);

    let old = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int32 qty = 1; }\n",
        "shop.Order",
    );
    let new = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 qty = 1; }\n",
        "shop.Order",
    );
    let report = check(&[&old], &new, Strategy::Backward).unwrap();
    assert!(report.compatible && report.failures.is_empty());
    assert_eq!(report.warnings.len(), 1);
    assert!(report.render_text().contains(
        "warning: SCALAR_TYPE_CHANGED shop.Order.qty (field 1): writer=int32 reader=int64"
    ));
    let records = RECORDS.get_or_init(Default::default).lock().unwrap();
    assert!(
        records
            .iter()
            .any(|r| r.starts_with("WARN") && r.contains("SCALAR_TYPE_CHANGED shop.Order.qty")),
        "{records:?}"
    );
}

#[test]
fn text_report_stays_within_4_kib_and_counts_what_it_leaves_out() {
    let fields = |kind: &str| {
        (1..=300)
            .map(|i| format!("{kind} f{i} = {i};"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let old = schema_from_text(
        &format!(
            "syntax = \"proto3\";\npackage shop;\nmessage Order {{ {} }}\nmessage Other {{}}\n",
            fields("int64")
        ),
        "shop.Order",
    );
    let new = schema_from_text(
        &format!(
            "syntax = \"proto3\";\npackage shop;\nmessage Order {{ {} }}\nmessage Other {{}}\n",
            fields("Other")
        ),
        "shop.Order",
    );
    let report = check(&[&old], &new, Strategy::Full).unwrap();
    assert_eq!(report.total_failures, 600);
    // Only the first findings are held; the rest are counted (docs/rules.md#results).
    assert_eq!(report.failures.len(), protocompat::report::KEPT_FINDINGS);
    let text = report.render_text();
    assert!(text.len() <= TEXT_LIMIT, "{} bytes", text.len());
    assert!(text.starts_with("Incompatible PROTOBUF_NATIVE schema"));
    assert!(text.contains("600 violations"));
    let shown = text
        .lines()
        .filter(|l| l.starts_with("FIELD_KIND_CHANGED"))
        .count();
    assert!(shown > 10, "{text}");
    assert!(
        text.ends_with(&format!("… and {} more findings not shown", 600 - shown)),
        "{text}"
    );
}

/// A chain of 5,000 messages, each holding the next: the walk must reach the end without
/// growing the stack, and the finding's path names the root, how many fields it leaves out,
/// and the last ones.
#[test]
fn a_5000_deep_chain_of_messages_is_walked_to_the_end() {
    const DEPTH: usize = 5000;
    let chain = |last: &str| {
        let mut proto =
            String::from("syntax = \"proto3\";\npackage deep;\nenum Unit { UNIT_UNKNOWN = 0; }\n");
        for i in 0..DEPTH {
            proto.push_str(&format!("message M{i} {{ M{} next = 1; }}\n", i + 1));
        }
        proto.push_str(&format!("message M{DEPTH} {{ {last} value = 1; }}\n"));
        schema_from_text(&proto, "deep.M0")
    };
    let old = chain("int32");
    let new = chain("Unit");
    // A thread with a small stack proves the walk does not recurse per level.
    let report = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || check(&[&old], &new, Strategy::Full).unwrap())
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(report.failures.len(), 2);
    let path = &report.failures[0].path;
    assert!(path.len() <= 512, "{path}");
    let (head, tail) = path.split_once(" more).").expect(path);
    let skipped: usize = head
        .strip_prefix("deep.M0.…(")
        .expect(path)
        .parse()
        .unwrap();
    assert!(
        tail.starts_with("next.") && tail.ends_with(".next.value"),
        "{path}"
    );
    assert_eq!(skipped + tail.matches("next").count(), DEPTH, "{path}");
    assert!(report.render_text().len() <= TEXT_LIMIT);
}
