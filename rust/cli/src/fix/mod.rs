//! Remedies as a user sees them: the engine's [`protocompat::remedy`] plans edits to the new
//! schema's declarations; here they are placed in its `.proto` source (`place`), shown with
//! `file:line:column` under each finding, and applied by `check --fix` (`apply`), whose files
//! are written all or none (`write`).

mod apply;
mod place;
mod source;
mod write;

use protocompat::remedy::{Edit, Planner, Remedy};
use protocompat::{Finding, Limits};
use serde::Serialize;

use crate::input::Loaded;

pub use apply::{apply, restore};
use place::TextEdit;
use source::{line_column, Source};

/// One remedy of a finding, as shown.
#[derive(Debug, Clone, Serialize)]
pub struct Fix {
    pub summary: String,
    pub edits: Vec<ShownEdit>,
    /// The placed edits, for `--fix`; empty where the source does not say where.
    #[serde(skip)]
    placed: Vec<TextEdit>,
}

impl Fix {
    pub fn is_applicable(&self) -> bool {
        !self.placed.is_empty()
    }
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

/// The remedies of a run's findings, planned only when asked for.
pub struct Fixes<'a> {
    planner: Planner<'a>,
    source: Option<Source<'a>>,
}

impl<'a> Fixes<'a> {
    pub fn new(new: &'a Loaded, existing: &'a [Loaded], limits: &Limits) -> Fixes<'a> {
        let data: Vec<&[u8]> = existing.iter().map(|e| e.data.as_slice()).collect();
        Fixes {
            planner: Planner::new(&data, &new.data, limits),
            source: new.sources.as_ref().map(Source::new),
        }
    }

    pub fn of(&self, finding: &Finding) -> Vec<Fix> {
        self.planner
            .remedies(finding)
            .into_iter()
            .map(|remedy| self.shown(remedy))
            .collect()
    }

    fn shown(&self, remedy: Remedy) -> Fix {
        let placed = self
            .source
            .as_ref()
            .and_then(|source| place::place(source, &remedy.edits).map(|p| (source, p)));
        match placed {
            Some((source, placed)) if !remedy.edits.is_empty() => Fix {
                summary: remedy.summary,
                edits: placed.iter().map(|edit| show(source, edit)).collect(),
                placed,
            },
            _ => Fix {
                summary: remedy.summary,
                edits: remedy.edits.iter().map(declaration).collect(),
                placed: Vec::new(),
            },
        }
    }

    pub(crate) fn source(&self) -> Option<&Source<'a>> {
        self.source.as_ref()
    }
}

fn declaration(edit: &Edit) -> ShownEdit {
    ShownEdit::Declaration {
        declaration: edit.to_string(),
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
