//! Each format given findings with examples made by hand (the engine's own examples are
//! pinned by the golden files): where the example goes, and that the text the schemas put in
//! it, escapes and all, comes out inert.

use super::*;
use protocompat::text::is_unsafe_char;
use protocompat::{Direction, Example, NamedSchema, Outcome, RuleId, SchemaRef, Severity};

/// A string value from a schema that sets a window title, hides behind a right-to-left
/// override, and starts a workflow command on a line of its own.
const WRITER: &str = "note: \"\u{1b}]0;owned\u{7}\u{202e}gnp.exe\n::error::pwned\"";
const WRITER_SHOWN: &str = "{ note: \"\\u{1b}]0;owned\\u{7}\\u{202e}gnp.exe\\n::error::pwned\" }";
const READER: &str = "reads shop.Order.note as \"100%\u{9b}31m\"";
const READER_SHOWN: &str = "reads shop.Order.note as \"100%\\u{9b}31m\"";
const NO_EXAMPLE: &str = "its smallest message takes 300 bytes\u{2028}";
const NO_EXAMPLE_SHOWN: &str = "its smallest message takes 300 bytes\\u{2028}";

fn finding(rule: RuleId, severity: Severity, path: &str) -> Finding {
    Finding {
        rule,
        severity,
        strategy: "FULL".to_owned(),
        direction: Some(Direction::ExistingWritesNewReads),
        existing: Some(NamedSchema::new(SchemaRef::Existing(0), "bab686181224")),
        path: path.to_owned(),
        field_number: Some(4),
        writer: "number 4".to_owned(),
        reader: "number 5".to_owned(),
        example: None,
        no_example: None,
    }
}

/// A failure with an example, a failure about no data (no example, nothing said), and a
/// warning whose example could not be made.
fn report() -> Report {
    let mut with = finding(
        RuleId::FieldNumberChanged,
        Severity::Failure,
        "shop.Order.note",
    );
    with.example = Some(Example {
        writer: WRITER.to_owned(),
        bytes: "088080808010".to_owned(),
        reader: READER.to_owned(),
        outcome: Outcome::Value {
            path: "shop.Order.note".to_owned(),
            written: "\"\u{1b}\"".to_owned(),
            read: "\"\"".to_owned(),
        },
    });
    let mut root = finding(RuleId::RootMessageChanged, Severity::Failure, "shop.Order");
    root.field_number = None;
    let mut without = finding(
        RuleId::ScalarTypeChanged,
        Severity::Warning,
        "shop.Order.id",
    );
    without.no_example = Some(NO_EXAMPLE.to_owned());
    Report {
        compatible: false,
        strategy: "FULL".to_owned(),
        profile: "pip246",
        existing_schemas: 1,
        new_schema_sha256: "d5675e93d237".into(),
        total_failures: 2,
        total_warnings: 1,
        failures: vec![with, root],
        warnings: vec![without],
    }
}

fn loaded(label: &str) -> Loaded {
    Loaded {
        data: Vec::new(),
        label: label.to_owned(),
        version: None,
        sources: None,
    }
}

/// `format`'s output for [`report`].
fn rendered(format: Format) -> String {
    let report = report();
    let (new, existing) = (loaded("new.proto"), [loaded("old.proto")]);
    let run = Run::new(&report, Strategy::Full, &new, &existing, &[], false);
    let out = render(format, &run);
    // Nothing but our newlines, before the last net (`safe::lines`) is even cast.
    assert!(
        !out.chars().any(|c| c != '\n' && is_unsafe_char(c)),
        "{out:?}"
    );
    out
}

/// The lines of `text` from the one starting `start`, `n` of them.
fn lines_from<'t>(text: &'t str, start: &str, n: usize) -> Vec<&'t str> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starts with {start:?}: {text}"));
    lines[at..(at + n).min(lines.len())].to_vec()
}

#[test]
fn text_shows_each_example_indented_under_its_finding() {
    let out = rendered(Format::Text);
    assert_eq!(
        lines_from(&out, "FIELD_NUMBER_CHANGED", 5)[1..],
        [
            format!("    writer: {WRITER_SHOWN}"),
            "    bytes:  08 80 80 80 80 10".to_owned(),
            format!("    reader: {READER_SHOWN}"),
            "ROOT_MESSAGE_CHANGED shop.Order: writer=number 4 reader=number 5 \
             [FULL, existing[0] bab686181224: existing writes, new reads]"
                .to_owned(),
        ],
        "{out}"
    );
    // The finding about no data is followed by the next finding, the warning by why it
    // has no example.
    assert_eq!(
        lines_from(&out, "warning: SCALAR_TYPE_CHANGED", 3)[1..],
        [
            format!("    no example: {NO_EXAMPLE_SHOWN}"),
            "new: new.proto (schema data sha256 d5675e93d237)".to_owned()
        ],
        "{out}"
    );
    assert!(!out.lines().any(|l| l.starts_with("::")), "{out}");
}

#[test]
fn json_carries_each_example_exact_and_escaped() {
    let out = rendered(Format::Json);
    assert!(out.contains("\\u202e") && out.contains("\\u001b"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["reportVersion"], 1);
    let example = &json["failures"][0]["example"];
    assert_eq!(
        example,
        &serde_json::json!({
            "writer": WRITER,
            "bytes": "088080808010",
            "reader": READER,
            "outcome": {
                "kind": "value",
                "path": "shop.Order.note",
                "written": "\"\u{1b}\"",
                "read": "\"\"",
            },
        }),
        "{out}"
    );
    assert!(json["failures"][0].get("no_example").is_none(), "{out}");
    // A finding about no data has neither field.
    for key in ["example", "no_example"] {
        assert!(json["failures"][1].get(key).is_none(), "{out}");
    }
    assert_eq!(json["warnings"][0]["no_example"], NO_EXAMPLE, "{out}");
    assert!(json["warnings"][0].get("example").is_none(), "{out}");
    // What the CLI adds to a finding is still there.
    assert!(json["failures"][0].get("location").is_some(), "{out}");
}

#[test]
fn github_annotations_carry_the_example_on_their_one_line() {
    let out = rendered(Format::Github);
    let commands: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    // Three annotations, then the pause around the text report: nothing of the example
    // starts a command of its own.
    assert_eq!(commands.len(), 5, "{out}");
    assert_eq!(
        commands[0],
        format!(
            "::error title=FIELD_NUMBER_CHANGED::FIELD_NUMBER_CHANGED shop.Order.note \
             (field 4): writer=number 4 reader=number 5 [FULL, existing[0] bab686181224: \
             existing writes, new reads] — e.g. writer {WRITER_SHOWN} \
             (bytes 08 80 80 80 80 10): {}",
            READER_SHOWN.replace('%', "%25")
        ),
        "{out}"
    );
    assert!(!commands[1].contains(" — "), "{out}");
    assert!(
        commands[2].starts_with("::warning title=SCALAR_TYPE_CHANGED::")
            && commands[2].ends_with(&format!("] — no example: {NO_EXAMPLE_SHOWN}")),
        "{out}"
    );
    // The text report for the log has the examples in its own layout.
    assert!(
        out.contains(&format!("\n    writer: {WRITER_SHOWN}\n")),
        "{out}"
    );
}

#[test]
fn junit_failures_carry_the_example_on_each_finding_line() {
    let out = rendered(Format::Junit);
    let doc = roxmltree::Document::parse(&out).expect("well-formed XML");
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    let body: Vec<&str> = failure.text().unwrap().lines().collect();
    assert_eq!(body.len(), 2, "{out}");
    assert!(
        body[0].ends_with(&format!(
            "] — e.g. writer {WRITER_SHOWN} (bytes 08 80 80 80 80 10): {READER_SHOWN}"
        )),
        "{out}"
    );
    assert!(body[1].ends_with("existing writes, new reads]"), "{out}");
    // The message is the headline: the first finding alone.
    let message = failure.attribute("message").unwrap();
    assert!(
        message.starts_with("FIELD_NUMBER_CHANGED") && message.ends_with("new reads]"),
        "{message}"
    );
    let warnings = doc
        .descendants()
        .filter(|n| n.has_tag_name("system-out"))
        .find_map(|n| n.text().filter(|t| t.starts_with("warning: ")))
        .expect("the warning");
    assert!(
        warnings.ends_with(&format!("] — no example: {NO_EXAMPLE_SHOWN}")),
        "{out}"
    );
}

/// [`report`] with the failure with an example found the other way too, as FULL finds a
/// renumbered field: two findings, one change.
fn both_ways() -> Report {
    let mut report = report();
    let mut reverse = report.failures[0].clone();
    reverse.direction = Some(Direction::NewWritesExistingReads);
    reverse.field_number = Some(5);
    std::mem::swap(&mut reverse.writer, &mut reverse.reader);
    reverse.example = None;
    reverse.no_example = Some(NO_EXAMPLE.to_owned());
    report.failures.push(reverse);
    report.total_failures += 1;
    report
}

fn rendered_both_ways(format: Format) -> String {
    let report = both_ways();
    let (new, existing) = (loaded("new.proto"), [loaded("old.proto")]);
    let run = Run::new(&report, Strategy::Full, &new, &existing, &[], false);
    let out = render(format, &run);
    assert!(
        !out.chars().any(|c| c != '\n' && is_unsafe_char(c)),
        "{out:?}"
    );
    out
}

#[test]
fn a_change_found_both_ways_is_one_entry_with_each_direction_s_example() {
    let out = rendered_both_ways(Format::Text);
    // Counted per direction, as the broker counts; the changes are the entries below.
    assert!(
        out.starts_with(
            "new.proto: Incompatible under FULL (profile pip246): 3 violations, 1 warning \
             in 3 changes against 1 existing schema\n"
        ),
        "{out}"
    );
    assert_eq!(out.matches("FIELD_NUMBER_CHANGED").count(), 1, "{out}");
    assert_eq!(
        lines_from(&out, "FIELD_NUMBER_CHANGED", 7),
        [
            "FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 \
             new=number 5 [FULL, existing[0] bab686181224: both directions]"
                .to_owned(),
            "    existing writes, new reads:".to_owned(),
            format!("      writer: {WRITER_SHOWN}"),
            "      bytes:  08 80 80 80 80 10".to_owned(),
            format!("      reader: {READER_SHOWN}"),
            "    new writes, existing reads:".to_owned(),
            format!("      no example: {NO_EXAMPLE_SHOWN}"),
        ],
        "{out}"
    );

    let github = rendered_both_ways(Format::Github);
    let annotations: Vec<&str> = github
        .lines()
        .filter(|l| l.starts_with("::error") || l.starts_with("::warning"))
        .collect();
    assert_eq!(annotations.len(), 3, "{github}");
    assert!(
        annotations[0].contains("both directions] — existing writes, new reads: e.g. writer ")
            && annotations[0].ends_with(&format!(
                " — new writes, existing reads: no example: {NO_EXAMPLE_SHOWN}"
            )),
        "{github}"
    );

    let junit = rendered_both_ways(Format::Junit);
    let doc = roxmltree::Document::parse(&junit).expect("well-formed XML");
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert_eq!(failure.text().unwrap().lines().count(), 2, "{junit}");
}

#[test]
fn json_keeps_each_direction_and_names_its_change() {
    let out = rendered_both_ways(Format::Json);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    // Counted and listed per direction, as before.
    assert_eq!(json["total_failures"], 3, "{out}");
    assert_eq!(json["failures"].as_array().unwrap().len(), 3, "{out}");
    let changes: Vec<u64> = json["failures"]
        .as_array()
        .unwrap()
        .iter()
        .chain(json["warnings"].as_array().unwrap())
        .map(|f| f["change"].as_u64().unwrap())
        .collect();
    assert_eq!(changes, [0, 1, 0, 2], "{out}");
    assert_eq!(
        json["changes"][0],
        serde_json::json!({
            "rule": "FIELD_NUMBER_CHANGED",
            "severity": "failure",
            "path": "shop.Order.note",
            "directions": ["existing_writes_new_reads", "new_writes_existing_reads"],
            "findings": [0, 2],
            // The text report's line and examples, what the inputs put in them made printable.
            "message": "FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] bab686181224: both directions]",
            "examples": [
                "existing writes, new reads:",
                "  writer: { note: \"\\u{1b}]0;owned\\u{7}\\u{202e}gnp.exe\\n::error::pwned\" }",
                "  bytes:  08 80 80 80 80 10",
                "  reader: reads shop.Order.note as \"100%\\u{9b}31m\"",
                "new writes, existing reads:",
                "  no example: its smallest message takes 300 bytes\\u{2028}",
            ],
        }),
        "{out}"
    );
    assert_eq!(
        json["changes"][2]["findings"],
        serde_json::json!([3]),
        "{out}"
    );
}

#[test]
fn bytes_are_spaced_only_when_they_are_hex() {
    assert_eq!(spaced_hex(""), "(none: an empty message is no bytes)");
    assert_eq!(spaced_hex("08"), "08");
    assert_eq!(spaced_hex("0a1B"), "0a 1B");
    assert_eq!(spaced_hex("0a1"), "0a1");
    assert_eq!(spaced_hex("0\u{1b}"), "0\\u{1b}");
}
