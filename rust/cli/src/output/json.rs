//! For tools: the engine's report, versioned, with each finding's source position and each
//! existing schema's name. docs/cli.md ("Reading the report", `json`) documents every field; a change that breaks
//! a reader raises `reportVersion`. Strings are the inputs' own, JSON-escaped: every control
//! character, DEL, C1 and line or bidirectional control is a `\u` escape, never raw.

use serde_json::{json, Value};

use super::Run;
use crate::fix::{FindingFix, Status, Tried};

/// Raised whenever a field is removed or changes meaning; added fields keep it.
pub const REPORT_VERSION: u32 = 1;

pub fn render(run: &Run) -> String {
    let mut report = serde_json::to_value(run.report).expect("a report serializes");
    // Each kept finding's change, by the finding's index, failures first.
    let mut change_of = vec![0usize; run.report.failures.len() + run.report.warnings.len()];
    for (number, change) in run.changes().iter().enumerate() {
        for index in change.indices() {
            change_of[index] = number;
        }
    }
    let failures = run.report.failures.len();
    for (key, list, offset) in [
        ("failures", &run.report.failures, 0),
        ("warnings", &run.report.warnings, failures),
    ] {
        let Some(Value::Array(items)) = report.get_mut(key) else {
            continue;
        };
        for (at, (item, finding)) in items.iter_mut().zip(list).enumerate() {
            item["change"] = json!(change_of[offset + at]);
            item["location"] = json!(run.position(finding));
            item["existing_location"] = json!(run.existing_position(finding));
            if let Some(entry) = run.fix_of(finding) {
                item["fixes"] = fixes(entry);
                item["fix_status"] = status(&entry.status, &entry.tried);
            }
            if let Some(existing) = item.get_mut("existing").filter(|e| e.is_object()) {
                let index = existing["index"].as_u64().unwrap_or_default() as usize;
                existing["version"] = json!(run.existing.get(index).and_then(|e| e.version));
            }
        }
    }
    let mut out = json!({ "reportVersion": REPORT_VERSION, "failed": run.failed() });
    let (Value::Object(out_fields), Value::Object(fields)) = (&mut out, report) else {
        unreachable!("both are objects");
    };
    out_fields.extend(fields);
    out["inputs"] = json!({
        "new": run.new.label,
        "existing": run.existing.iter().enumerate().map(|(index, e)| json!({
            "index": index,
            "label": e.label,
            "version": e.version,
        })).collect::<Vec<_>>(),
    });
    out["changes"] = json!(run
        .changes()
        .iter()
        .map(|change| {
            let findings = run.findings_of(change);
            json!({
                "rule": findings[0].rule,
                "severity": findings[0].severity,
                "path": findings[0].path,
                "directions": findings.iter().map(|f| f.direction).collect::<Vec<_>>(),
                "findings": change.indices().collect::<Vec<_>>(),
                "message": run.render_change(change),
                "examples": super::change::change_examples(run.report, change),
            })
        })
        .collect::<Vec<_>>());
    out["topic"] = json!(run.topic);
    out["notes"] = json!(run.notes);
    if !run.fixed.is_empty() {
        out["fixed"] = json!(run
            .fixed
            .iter()
            .map(|o| json!({
                "finding": o.finding,
                "summary": o.summary,
                "fix_status": status(&o.status, &[]),
            }))
            .collect::<Vec<_>>());
    }
    crate::safe::json(serde_json::to_string_pretty(&out).expect("JSON renders"))
}

/// A finding's remedies as shown: its fix, then its advice, each `{summary, edits}` (advice
/// has no edits).
fn fixes(entry: &FindingFix) -> Value {
    let mut shown: Vec<Value> = entry.fix.iter().map(|fix| json!(fix)).collect();
    shown.extend(
        entry
            .advice
            .iter()
            .map(|advice| json!({ "summary": advice, "edits": [] })),
    );
    Value::Array(shown)
}

/// `{status, by?, why?, tried}`: what became of a finding's fix ([`Status`]).
fn status(status: &Status, tried: &[Tried]) -> Value {
    let mut value = json!(status);
    value["tried"] = json!(tried);
    value
}

/// Bad input: `{"reportVersion": 1, "error": {"file", "rule", "message"}}`.
pub fn error(file: Option<&str>, rule: Option<&str>, message: &str) -> String {
    let error = json!({
        "reportVersion": REPORT_VERSION,
        "error": { "file": file, "rule": rule, "message": message },
    });
    crate::safe::json(serde_json::to_string_pretty(&error).expect("JSON renders"))
}
