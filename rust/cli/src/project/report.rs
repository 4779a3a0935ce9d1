//! The report of a project's checks: each topic's own report, in the asked format, under the
//! topic's name, and a last word on them all.

use protocompat::text::printable;
use serde_json::{json, Value};

use super::plan::TopicCheck;
use crate::output::{github_data, github_property, xml_escape, Format};

/// What a topic's check came to, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Compatible,
    /// The baseline lacks the root: nothing to compare, as the broker takes a first schema.
    New,
    Incompatible,
    /// The project lists it, but its file is gone from the work tree.
    Gone,
    /// Bad input: the topic's check could not be made.
    Error,
}

impl Status {
    pub fn exit(self) -> u8 {
        match self {
            Status::Compatible | Status::New => 0,
            Status::Incompatible => 1,
            Status::Gone | Status::Error => crate::console::EXIT_BAD_INPUT,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Status::Compatible => "compatible",
            Status::New => "new",
            Status::Incompatible => "incompatible",
            Status::Gone => "gone",
            Status::Error => "error",
        }
    }
}

pub struct TopicResult {
    pub check: TopicCheck,
    pub status: Status,
    /// The check's own report, in the asked format.
    pub output: Option<String>,
    /// Why there is none: a gone topic's or a refused check's message.
    pub message: Option<String>,
}

pub fn render(format: Format, file: &str, results: &[TopicResult]) -> String {
    match format {
        Format::Text => text(file, results),
        Format::Json => json_report(file, results),
        Format::Github => github(file, results),
        Format::Junit => junit(file, results),
    }
}

/// `topic NAME, against BASELINE` over each report, whose first line names the root and the
/// file; `topic NAME: ROOT in FILE, against BASELINE` over a topic that has no report.
fn heading(result: &TopicResult) -> String {
    let check = &result.check;
    let what = match result.output {
        Some(_) => String::new(),
        None => format!(
            ": {} in {}",
            printable(&check.root),
            printable(check.file.as_deref().unwrap_or(&check.new_input))
        ),
    };
    format!(
        "topic {}{what}, against {}",
        printable(&check.topic),
        printable(&check.baseline)
    )
}

fn tally(file: &str, results: &[TopicResult]) -> String {
    let mut counts: Vec<String> = Vec::new();
    for status in [
        Status::Error,
        Status::Gone,
        Status::Incompatible,
        Status::New,
        Status::Compatible,
    ] {
        let n = results.iter().filter(|r| r.status == status).count();
        if n > 0 {
            counts.push(format!("{n} {}", status.name()));
        }
    }
    format!(
        "{}: {} topic{}: {}",
        printable(file),
        results.len(),
        if results.len() == 1 { "" } else { "s" },
        counts.join(", ")
    )
}

fn text(file: &str, results: &[TopicResult]) -> String {
    let mut out = String::new();
    for result in results {
        out.push_str(&heading(result));
        out.push('\n');
        match (result.status, &result.output, &result.message) {
            (Status::New, Some(report), _) => {
                out.push_str("NEW: the baseline lacks this schema; it passes, as a topic's first schema does\n");
                out.push_str(report);
            }
            (_, Some(report), _) => out.push_str(report),
            (status, None, message) => out.push_str(&format!(
                "{}: {}",
                status.name().to_ascii_uppercase(),
                printable(message.as_deref().unwrap_or(""))
            )),
        }
        out.push_str("\n\n");
    }
    out.push_str(&tally(file, results));
    out
}

fn json_report(file: &str, results: &[TopicResult]) -> String {
    let worst = results.iter().map(|r| r.status.exit()).max().unwrap_or(0);
    let topics: Vec<Value> = results
        .iter()
        .map(|r| {
            let mut topic = json!({
                "topic": r.check.topic,
                "root": r.check.root,
                "file": r.check.file,
                "baseline": r.check.baseline,
                "status": r.status.name(),
            });
            if let Some(report) = &r.output {
                topic["report"] = serde_json::from_str(report).unwrap_or(Value::Null);
            }
            if let Some(message) = &r.message {
                topic["error"] = json!({ "message": message });
            }
            topic
        })
        .collect();
    let report = json!({
        "reportVersion": 1,
        "project": file,
        "failed": worst != 0,
        "exitStatus": worst,
        "topics": topics,
    });
    crate::safe::json(serde_json::to_string_pretty(&report).expect("JSON renders"))
}

/// Each check's annotations and log as `check` gives them, a notice for a new topic, an
/// error for one that could not be checked.
fn github(file: &str, results: &[TopicResult]) -> String {
    let mut lines = Vec::new();
    for result in results {
        match (&result.output, &result.message) {
            (Some(report), _) => {
                if result.status == Status::New {
                    lines.push(format!(
                        "::notice title=protocompat::{}",
                        github_data(&format!(
                            "{}: new schema, nothing to compare",
                            heading(result)
                        ))
                    ));
                }
                lines.push(report.clone());
            }
            (None, message) => lines.push(format!(
                "::error file={},title=protocompat::{}",
                github_property(&printable(file)),
                github_data(&format!(
                    "{}: {}",
                    heading(result),
                    printable(message.as_deref().unwrap_or(""))
                ))
            )),
        }
    }
    lines.push(github_data(&tally(file, results)));
    lines.join("\n")
}

/// One XML document: each check's test suites, and a suite of one case for a topic that could
/// not be checked.
fn junit(file: &str, results: &[TopicResult]) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors) = (0usize, 0usize, 0usize);
    for result in results {
        match &result.output {
            Some(report) => {
                // `check`'s document: one <testsuites> around its suites.
                let Some(start) = report.find("<testsuite ") else {
                    continue;
                };
                let end = report.rfind("</testsuites>").unwrap_or(report.len());
                let inner = &report[start..end];
                tests += inner.matches("<testcase ").count();
                failures += inner.matches("<failure ").count();
                errors += inner.matches("<error ").count();
                suites.push_str("  ");
                suites.push_str(inner.trim_end());
                suites.push('\n');
            }
            None => {
                tests += 1;
                errors += 1;
                suites.push_str(&format!(
                    "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n    \
                     <testcase classname=\"protocompat\" name=\"{}\">\n      \
                     <error type=\"{}\" message=\"{}\"/>\n    </testcase>\n  </testsuite>\n",
                    xml_escape(&heading(result)),
                    xml_escape(&printable(&result.check.topic)),
                    result.status.name().to_ascii_uppercase(),
                    xml_escape(&printable(result.message.as_deref().unwrap_or("")))
                ));
            }
        }
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"protocompat {}\" \
         tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n{suites}</testsuites>",
        xml_escape(&printable(file))
    )
}
