//! A topic's report (the `json` format `check` writes) as what the editor shows: one diagnostic
//! per change, at its declaration, with its proven fixes as edits and its examples for the
//! hover. The wording is the text report's: the change's line is the diagnostic's message.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Range, TextEdit, Uri,
};
use serde_json::Value;

use super::documents::{uri_of, Text};

/// Where a rule is described; the anchor is the rule ID in lower case. An editor's
/// `initializationOptions.rulesUrl` replaces it (a copy of docs/rules.md of one's own).
pub const RULES_URL: &str = "https://github.com/ORG/protocompat/blob/main/docs/rules.md";

/// One finding shown in one file.
#[derive(Clone, Debug)]
pub struct Entry {
    pub diagnostic: Diagnostic,
    /// Proven fixes: a title and the edits by file.
    pub fixes: Vec<Fix>,
    /// A failure's fix is preferred; a warning's is offered only.
    pub preferred: bool,
    /// The hover's text: the change's line and its examples.
    pub hover: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    pub title: String,
    pub edits: BTreeMap<PathBuf, Vec<TextEdit>>,
}

/// How a path in a report is read: its file's text (an open buffer or the disk), and the
/// absolute path of a report's relative one.
pub trait Files {
    fn text(&self, path: &Path) -> Option<Arc<Text>>;
    fn absolute(&self, shown: &str) -> PathBuf;
}

/// The entries of one topic's report, by absolute file path.
pub fn entries(
    report: &Value,
    topic: &str,
    rules_url: &str,
    files: &dyn Files,
) -> BTreeMap<PathBuf, Vec<Entry>> {
    let mut out: BTreeMap<PathBuf, Vec<Entry>> = BTreeMap::new();
    let findings: Vec<&Value> = ["failures", "warnings"]
        .iter()
        .flat_map(|list| report[list].as_array().into_iter().flatten())
        .collect();
    let labels: Vec<&str> = report["inputs"]["existing"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["label"].as_str().unwrap_or(""))
        .collect();
    for change in report["changes"].as_array().into_iter().flatten() {
        let of_change: Vec<&Value> = change["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| findings.get(i.as_u64()? as usize).copied())
            .collect();
        let Some(first) = of_change.first() else {
            continue;
        };
        let Some(location) = first.get("location").filter(|l| l.is_object()) else {
            continue;
        };
        let Some(file) = location["file"].as_str() else {
            continue;
        };
        let path = files.absolute(file);
        let Some(text) = files.text(&path) else {
            continue;
        };
        let at = text.range(number(&location["line"]), number(&location["column"]), None);
        let rule = change["rule"].as_str().unwrap_or("");
        let failure = change["severity"] == "failure";
        let message = change["message"].as_str().unwrap_or(rule).to_owned();
        let examples: Vec<&str> = change["examples"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let related = first
            .get("existing_location")
            .filter(|l| l.is_object())
            .and_then(|old| {
                let index = first["existing"]["index"].as_u64().unwrap_or(0) as usize;
                related(old, labels.get(index).copied().unwrap_or(""), files)
            });
        let diagnostic = Diagnostic {
            range: at,
            severity: Some(if failure {
                DiagnosticSeverity::ERROR
            } else {
                DiagnosticSeverity::WARNING
            }),
            code: Some(NumberOrString::String(rule.to_owned())),
            code_description: format!("{rules_url}#{}", rule.to_lowercase())
                .parse::<Uri>()
                .ok()
                .map(|href| CodeDescription { href }),
            source: Some("protocompat".into()),
            message,
            related_information: related.map(|r| vec![r]),
            tags: None,
            data: None,
        };
        let mut fixes: Vec<Fix> = Vec::new();
        for finding in &of_change {
            for fix in finding["fixes"].as_array().into_iter().flatten() {
                if let Some(fix) = fix_of(fix, files) {
                    if !fixes.contains(&fix) {
                        fixes.push(fix);
                    }
                }
            }
        }
        let mut hover = format!("**{topic}**: {}", diagnostic.message);
        if !examples.is_empty() {
            hover.push_str("\n\n```text\n");
            for line in &examples {
                hover.push_str(line);
                hover.push('\n');
            }
            hover.push_str("```");
        }
        out.entry(path).or_default().push(Entry {
            diagnostic,
            fixes,
            preferred: failure,
            hover,
        });
    }
    out
}

/// The old declaration. A git baseline's lines are those at the ref, which no URI of the work
/// tree opens: the location is the work-tree file, and the message says where the line is.
fn related(old: &Value, label: &str, files: &dyn Files) -> Option<DiagnosticRelatedInformation> {
    let file = old["file"].as_str()?;
    let (line, column) = (number(&old["line"]), number(&old["column"]));
    let path = files.absolute(file);
    let uri = uri_of(&path)?;
    let at_ref = label.contains("#ref=");
    let text = if at_ref { None } else { files.text(&path) };
    let range = match &text {
        Some(text) => text.range(line, column, None),
        None => Range::new(
            lsp_types::Position::new(line.saturating_sub(1), column.saturating_sub(1)),
            lsp_types::Position::new(line.saturating_sub(1), column.saturating_sub(1)),
        ),
    };
    let message = if at_ref {
        let tree = label.split(':').next().unwrap_or(label);
        format!(
            "the existing declaration, in {tree} at {file}:{line}:{column} (the line at the ref)"
        )
    } else {
        format!("the existing declaration ({label})")
    };
    Some(DiagnosticRelatedInformation {
        location: Location::new(uri, range),
        message,
    })
}

/// A fix with edits, as edits by file; advice (no edits) is no code action.
fn fix_of(fix: &Value, files: &dyn Files) -> Option<Fix> {
    let edits = fix["edits"].as_array()?;
    if edits.is_empty() {
        return None;
    }
    let mut by_file: BTreeMap<PathBuf, Vec<TextEdit>> = BTreeMap::new();
    for edit in edits {
        let path = files.absolute(edit["file"].as_str()?);
        let text = files.text(&path)?;
        let at = text.range(
            number(&edit["line"]),
            number(&edit["column"]),
            Some((number(&edit["end_line"]), number(&edit["end_column"]))),
        );
        by_file.entry(path).or_default().push(TextEdit {
            range: at,
            new_text: edit["text"].as_str()?.to_owned(),
        });
    }
    Some(Fix {
        title: format!("protocompat: {}", fix["summary"].as_str()?),
        edits: by_file,
    })
}

fn number(value: &Value) -> u32 {
    value.as_u64().unwrap_or(1).min(u32::MAX as u64) as u32
}

/// Where a compile error is, from its message (`order.proto:5:1: expected ';'`).
#[derive(Debug, PartialEq)]
pub struct ErrorAt {
    /// The file as the message writes it.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// Where `file:line:col` starts in the message.
    pub from: usize,
}

pub fn compile_error_at(message: &str) -> Option<ErrorAt> {
    let mut offset = 0;
    while let Some(at) = message[offset..].find(".proto:") {
        let at = offset + at;
        let head = &message[offset..at + ".proto".len()];
        let start = head
            .rfind(|c: char| c.is_whitespace() || c == '`' || c == '(' || c == '\'')
            .map_or(0, |i| i + 1);
        let file = &head[start..];
        let rest = &message[at + ".proto:".len()..];
        let mut parts = rest.splitn(3, ':');
        let line = parts.next().and_then(|p| p.parse().ok());
        let column = parts.next().and_then(|p| p.parse().ok());
        if let (Some(line), Some(column), Some(_)) = (line, column, parts.next()) {
            if !file.is_empty() {
                return Some(ErrorAt {
                    file: file.to_owned(),
                    line,
                    column,
                    from: offset + start,
                });
            }
        }
        offset = at + ".proto:".len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compile_error_names_its_place() {
        let message =
            "x.proto: does not compile: order.proto:5:1: expected ';' or '[', but found '}'";
        let at = compile_error_at(message).unwrap();
        assert_eq!(
            (at.file.as_str(), at.line, at.column),
            ("order.proto", 5, 1)
        );
        assert_eq!(
            &message[at.from..],
            "order.proto:5:1: expected ';' or '[', but found '}'"
        );
        let at = compile_error_at(
            "could not compile `order.proto` (bad/order.proto): bad/order.proto:5:1: Expected \";\".",
        )
        .unwrap();
        assert_eq!(
            (at.file.as_str(), at.line, at.column),
            ("bad/order.proto", 5, 1)
        );
        assert_eq!(compile_error_at("cannot read x.proto: gone"), None);
    }
}
