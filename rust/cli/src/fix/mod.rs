//! Remedies as a user sees them: the engine's [`protocompat::remedy`] plans and proves edits to
//! the new schema's declarations; here they are placed in its `.proto` source (`place`), made
//! together as `check --fix` would make them (`status`), shown with `file:line:column` under
//! each finding, and written by `check --fix` (`apply`), all files or none (`write`), which
//! compiles the result and holds it against the edits it meant to make (`verify`).

mod apply;
mod place;
mod source;
mod status;
mod verify;
mod write;

use protocompat::remedy::{print, Edit, Planner, Recheck, Remedy};
use protocompat::{Finding, Report};
use serde::Serialize;

use crate::input::Loaded;

pub use apply::{write, Written};
use place::TextEdit;
use source::{line_column, Source};
pub use status::Status;
pub use verify::verify;

/// A proven remedy of a finding, as shown.
#[derive(Debug, Clone, Serialize)]
pub struct Fix {
    pub summary: String,
    pub edits: Vec<ShownEdit>,
    /// The placed edits, for `--fix`; empty where the source does not say where.
    #[serde(skip)]
    placed: Vec<TextEdit>,
    /// The edits by declaration, as the engine proved them.
    #[serde(skip)]
    remedy: Remedy,
}

impl Fix {
    /// Whether its edits have places in the new side's source, so `--fix` can make them.
    pub fn is_placed(&self) -> bool {
        !self.placed.is_empty()
    }
}

/// A candidate the re-check refused, and why (`kind`: `adds_finding`, `finding_stays`,
/// `not_writable`, `not_applicable`, `schema_refused`, `budget`).
#[derive(Debug, Clone, Serialize)]
pub struct Tried {
    pub summary: String,
    pub why: String,
    pub kind: &'static str,
}

/// What a finding's remedies came to: its proven fix and what became of it, advice, and the
/// candidates refused on the way.
#[derive(Debug, Clone)]
pub struct FindingFix {
    pub status: Status,
    pub fix: Option<Fix>,
    /// What helps where no edit does, or besides the fix.
    pub advice: Vec<String>,
    pub tried: Vec<Tried>,
}

/// An edit with its place in the new side's source (1-based, end exclusive, as editors and
/// LSP-style tools take it), or, where the new side is not `.proto` source, the declaration to
/// write.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ShownEdit {
    Placed {
        file: String,
        line: u32,
        column: u32,
        end_line: u32,
        end_column: u32,
        text: String,
        /// What the text there was: empty for an insertion.
        #[serde(skip)]
        was: String,
    },
    Declaration {
        declaration: String,
    },
}

impl ShownEdit {
    /// `order.proto:5:21: write `5` in place of `6``, or the declaration to write.
    pub fn describe(&self) -> String {
        match self {
            ShownEdit::Placed {
                file,
                line,
                column,
                text,
                was,
                ..
            } => {
                let change = match (was.is_empty(), text.trim().is_empty()) {
                    (true, _) => format!("insert `{}`", one_line(text)),
                    (false, true) => format!("delete `{}`", one_line(was)),
                    (false, false) => {
                        format!("write `{}` in place of `{}`", one_line(text), one_line(was))
                    }
                };
                format!("{file}:{line}:{column}: {change}")
            }
            ShownEdit::Declaration { declaration } => declaration.clone(),
        }
    }
}

/// Text across lines shown on one: lines trimmed and joined with ` ⏎ `.
fn one_line(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ⏎ ")
}

/// Which fixes `--fix` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scope {
    /// Warnings' fixes too (`--fix-warnings`), not only failures'.
    pub warnings: bool,
}

/// The fixes of a run's findings, planned, proven and made together once.
pub struct Fixes<'a> {
    source: Option<Source<'a>>,
    planner: Planner<'a>,
    /// One per finding, in the report's order: failures, then warnings.
    list: Vec<FindingFix>,
}

impl<'a> Fixes<'a> {
    pub fn plan(new: &'a Loaded, report: &Report, recheck: Recheck<'a>, scope: Scope) -> Fixes<'a> {
        let planner = Planner::new(&recheck, report);
        let source = new.sources.as_ref().map(Source::new);
        let mut fixes = Fixes {
            source,
            planner,
            list: Vec::new(),
        };
        let findings: Vec<(&Finding, bool)> = report
            .failures
            .iter()
            .map(|f| (f, false))
            .chain(report.warnings.iter().map(|w| (w, true)))
            .collect();
        for &(finding, warning) in &findings {
            let planned = fixes.planner.plan(finding);
            let fix = planned.fix.map(|remedy| fixes.shown(remedy));
            let tried = planned
                .refused
                .into_iter()
                .map(|r| Tried {
                    summary: r.remedy.summary,
                    why: r.why,
                    kind: r.kind.name(),
                })
                .collect::<Vec<_>>();
            let status = match (&fix, warning && !scope.warnings) {
                (Some(_), false) => Status::Fix,
                (Some(_), true) => Status::Suggested,
                (None, _) if !tried.is_empty() => Status::Unproven,
                (None, _) => Status::Advice,
            };
            fixes.list.push(FindingFix {
                status,
                fix,
                advice: planned.advice.into_iter().map(|a| a.summary).collect(),
                tried,
            });
        }
        status::together(&mut fixes, &findings);
        fixes
    }

    fn shown(&self, remedy: Remedy) -> Fix {
        let placed = self
            .source
            .as_ref()
            .and_then(|source| place::place(source, &remedy.edits).map(|p| (source, p)));
        match placed {
            Some((source, placed)) => Fix {
                summary: remedy.summary.clone(),
                edits: placed.iter().map(|edit| show(source, edit)).collect(),
                placed,
                remedy,
            },
            None => Fix {
                summary: remedy.summary.clone(),
                edits: remedy.edits.iter().map(declaration).collect(),
                placed: Vec::new(),
                remedy,
            },
        }
    }

    /// What became of each finding's remedies, in the report's order.
    pub fn list(&self) -> &[FindingFix] {
        &self.list
    }

    pub(crate) fn source(&self) -> Option<&Source<'a>> {
        self.source.as_ref()
    }

    /// The fixes `--fix` makes, each once, in the report's order.
    pub fn to_make(&self) -> Vec<&Fix> {
        self.list
            .iter()
            .filter(|f| f.status == Status::Fix)
            .filter_map(|f| f.fix.as_ref())
            .collect()
    }

    /// The edits of [`Fixes::to_make`], each once: what the files must say afterwards.
    pub fn intended(&self) -> Vec<Edit> {
        let mut edits: Vec<Edit> = Vec::new();
        for fix in self.to_make() {
            for edit in &fix.remedy.edits {
                if !edits.contains(edit) {
                    edits.push(edit.clone());
                }
            }
        }
        edits
    }
}

fn declaration(edit: &Edit) -> ShownEdit {
    ShownEdit::Declaration {
        declaration: print::edit(edit).unwrap_or_else(|e| e.to_string()),
    }
}

fn show(source: &Source, edit: &TextEdit) -> ShownEdit {
    let text = source.text(edit.file).unwrap_or_default();
    let (line, column) = line_column(text, edit.span.0);
    let (end_line, end_column) = line_column(text, edit.span.1);
    ShownEdit::Placed {
        file: source.file_name(edit.file),
        line,
        column,
        end_line,
        end_column,
        text: edit.text.clone(),
        was: text[edit.span.0..edit.span.1].to_owned(),
    }
}
