//! What `audit` prints: each topic's verdict, its findings and examples, as text or JSON.

use protocompat::text::printable;
use protocompat::Report;
use serde_json::{json, Value};

use super::TopicAudit;
use crate::args::AuditArgs;
use crate::safe;

/// A version's failures named as the broker's report names them, but with versions, a change
/// found in both directions once; each change's examples indented under it, as `check` shows
/// them.
fn findings(report: &Report, versions: &[i64]) -> Vec<String> {
    let name = |index: usize| match versions.get(index) {
        Some(version) => format!("version {version}"),
        None => format!("existing[{index}]"),
    };
    let mut lines = Vec::new();
    let failures = report.changes();
    let failures = failures
        .iter()
        .filter(|change| change.first < report.failures.len());
    for change in failures {
        lines.push(printable(&report.render_change(change, &name)).into_owned());
        lines.extend(
            crate::output::change_examples(report, change)
                .into_iter()
                .map(|l| format!("    {l}")),
        );
    }
    let unlisted = report.total_failures - report.failures.len();
    if unlisted > 0 {
        lines.push(format!("… and {unlisted} more"));
    }
    lines
}

/// The versions an upload of `version` was compared with, for naming its findings.
fn compared_versions(audit: &TopicAudit, version: i64) -> Vec<i64> {
    let before: Vec<i64> = audit
        .versions
        .iter()
        .copied()
        .filter(|v| *v < version)
        .collect();
    if audit.strategy.is_transitive() {
        before
    } else {
        before.last().copied().into_iter().collect()
    }
}

/// For people: topics named by the broker are made printable, like every other text of its.
pub(super) fn text(args: &AuditArgs, audits: &[TopicAudit], skipped: &[String]) -> String {
    let mut lines = Vec::new();
    for audit in audits {
        let versions = match audit.versions.len() {
            1 => "1 version".to_owned(),
            n => format!("{n} versions"),
        };
        let topic = printable(&audit.topic);
        if !audit.conflicts() {
            lines.push(format!(
                "ok        {topic} ({versions}, {})",
                audit.strategy.name()
            ));
            continue;
        }
        lines.push(format!(
            "CONFLICTS {topic} ({versions}, {})",
            audit.strategy.name()
        ));
        for (version, report) in &audit.uploads {
            lines.push(format!(
                "  version {version} would be refused today: {}",
                report.summary()
            ));
            let compared = compared_versions(audit, *version);
            lines.extend(
                findings(report, &compared)
                    .into_iter()
                    .map(|l| format!("    {l}")),
            );
        }
        if let Some(report) = &audit.consumer {
            lines.push(format!(
                "  a consumer with the latest schema is refused: {}",
                report.summary()
            ));
            lines.extend(
                findings(report, &audit.versions)
                    .into_iter()
                    .map(|l| format!("    {l}")),
            );
        }
        lines.extend(
            audit
                .unreadable
                .iter()
                .map(|u| format!("  cannot check {u}")),
        );
    }
    lines.extend(skipped.iter().map(|s| format!("skipped   {s}")));
    let conflicting = audits.iter().filter(|a| a.conflicts()).count();
    let topics = match audits.len() {
        1 => "1 topic".to_owned(),
        n => format!("{n} topics"),
    };
    lines.push(format!(
        "{topics} with PROTOBUF_NATIVE schemas at {}, {conflicting} with a history the profile {} refuses",
        printable(&args.admin_url),
        args.profile.name
    ));
    lines.join("\n")
}

pub(super) fn json_report(args: &AuditArgs, audits: &[TopicAudit], skipped: &[String]) -> String {
    let topics: Vec<Value> = audits
        .iter()
        .map(|audit| {
            json!({
                "topic": audit.topic,
                "strategy": audit.strategy.name(),
                "versions": audit.versions,
                "conflicts": audit.conflicts(),
                "refusedUploads": audit.uploads.iter().map(|(version, report)| json!({
                    "version": version,
                    "comparedWith": compared_versions(audit, *version),
                    "report": report,
                })).collect::<Vec<_>>(),
                "consumerWithLatest": audit.consumer.as_ref().map(|report| json!({
                    "refused": true,
                    "report": report,
                })),
                "unreadable": audit.unreadable,
            })
        })
        .collect();
    safe::json(
        serde_json::to_string_pretty(&json!({
            "reportVersion": 1,
            "adminUrl": args.admin_url,
            "profile": args.profile.name,
            "failed": audits.iter().any(|a| a.conflicts()),
            "topics": topics,
            "skipped": skipped,
        }))
        .expect("JSON renders"),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::Command;
    use super::*;
    use clap::Parser;
    use protocompat::{
        Direction, Example, Finding, NamedSchema, Outcome, RuleId, SchemaRef, Strategy,
    };

    /// A topic whose version 2 is refused, with an example holding an escape sequence.
    fn conflicting() -> TopicAudit {
        let finding = Finding {
            rule: RuleId::FieldNumberChanged,
            severity: protocompat::Severity::Failure,
            strategy: "FULL".to_owned(),
            direction: Some(Direction::ExistingWritesNewReads),
            existing: Some(NamedSchema::new(SchemaRef::Existing(0), "bab686181224")),
            path: "shop.Order.note".to_owned(),
            field_number: Some(4),
            writer: "number 4".to_owned(),
            reader: "number 5".to_owned(),
            example: Some(Example {
                writer: "note: \"\u{1b}[2J\"".to_owned(),
                bytes: "22025b4a".to_owned(),
                reader: "keeps shop.Order.note only as unknown field 4".to_owned(),
                outcome: Outcome::Unknown {
                    path: "shop.Order.note".to_owned(),
                    number: 4,
                },
            }),
            no_example: None,
        };
        let report = Report {
            compatible: false,
            strategy: "FULL".to_owned(),
            profile: "pip246",
            existing_schemas: 1,
            new_schema_sha256: "d5675e93d237".into(),
            total_failures: 1,
            total_warnings: 0,
            failures: vec![finding],
            warnings: Vec::new(),
        };
        TopicAudit {
            topic: "persistent://t/ns/orders".to_owned(),
            strategy: Strategy::Full,
            versions: vec![1, 2],
            uploads: vec![(2, report)],
            consumer: None,
            unreadable: Vec::new(),
        }
    }

    #[test]
    fn the_text_shows_each_example_under_its_finding() {
        let args = Command::parse_from(["audit", "--admin-url", "http://broker:8080"]).args;
        let out = text(&args, &[conflicting()], &[]);
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[2].starts_with("    FIELD_NUMBER_CHANGED shop.Order.note (field 4)"),
            "{out}"
        );
        assert_eq!(
            lines[3..6],
            [
                "        writer: { note: \"\\u{1b}[2J\" }",
                "        bytes:  22 02 5b 4a",
                "        reader: keeps shop.Order.note only as unknown field 4",
            ],
            "{out}"
        );
    }

    #[test]
    fn the_json_carries_each_example() {
        let args = Command::parse_from(["audit", "--admin-url", "http://broker:8080"]).args;
        let out = json_report(&args, &[conflicting()], &[]);
        assert!(!out.contains('\u{1b}'), "{out}");
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let finding = &json["topics"][0]["refusedUploads"][0]["report"]["failures"][0];
        assert_eq!(
            finding["example"],
            serde_json::json!({
                "writer": "note: \"\u{1b}[2J\"",
                "bytes": "22025b4a",
                "reader": "keeps shop.Order.note only as unknown field 4",
                "outcome": {"kind": "unknown", "path": "shop.Order.note", "number": 4},
            }),
            "{out}"
        );
    }
}
