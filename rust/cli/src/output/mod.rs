//! What a check prints, in the format a reader asked for: text for people, versioned JSON for
//! tools, GitHub workflow annotations, JUnit XML for CI dashboards.

mod github;
mod json;
mod junit;
mod text;

use clap::ValueEnum;
use protocompat::text::printable;
use protocompat::{Finding, Limits, Report, Strategy};

use crate::fix::{Fix, Fixes};
use crate::input::Loaded;
use crate::locate::{Index, Position};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Github,
    Junit,
}

/// A finished check and what the user gave it.
pub struct Run<'a> {
    pub report: &'a Report,
    pub strategy: Strategy,
    pub new: &'a Loaded,
    /// The existing schemas compared, in the order the engine got them.
    pub existing: &'a [Loaded],
    /// Said after the findings: why fewer schemas were compared than given, and the like.
    pub notes: &'a [String],
    pub fail_on_warning: bool,
    new_index: Option<Index<'a>>,
    existing_index: Vec<Option<Index<'a>>>,
    /// The root message of the new schema and of the existing ones: where finding paths start.
    new_root: Option<String>,
    existing_root: Option<String>,
    /// Each finding's remedies, where they are shown ([`Run::with_fixes`]).
    fixes: Option<Fixes<'a>>,
}

impl<'a> Run<'a> {
    pub fn new(
        report: &'a Report,
        strategy: Strategy,
        new: &'a Loaded,
        existing: &'a [Loaded],
        notes: &'a [String],
        fail_on_warning: bool,
    ) -> Run<'a> {
        Run {
            report,
            strategy,
            new,
            existing,
            notes,
            fail_on_warning,
            new_index: new.sources.as_ref().map(Index::new),
            existing_index: existing
                .iter()
                .map(|e| e.sources.as_ref().map(Index::new))
                .collect(),
            new_root: crate::input::root_of(&new.data).map(|r| r.0),
            existing_root: existing
                .iter()
                .find_map(|e| crate::input::root_of(&e.data))
                .map(|r| r.0),
            fixes: None,
        }
    }

    /// This run, showing each finding's remedies (planned within the check's `limits`).
    pub fn with_fixes(mut self, limits: &Limits) -> Run<'a> {
        self.fixes = Some(Fixes::new(self.new, self.existing, limits));
        self
    }

    /// The remedies of `finding`; none when they are not shown.
    pub fn fixes(&self, finding: &Finding) -> Vec<Fix> {
        self.fixes.as_ref().map_or_else(Vec::new, |f| f.of(finding))
    }

    pub fn fix_source(&self) -> Option<&Fixes<'a>> {
        self.fixes.as_ref()
    }

    /// Whether the run fails the build: incompatible, or any warning with --fail-on-warning.
    pub fn failed(&self) -> bool {
        !self.report.compatible || (self.fail_on_warning && self.report.total_warnings > 0)
    }

    /// How an existing schema is called: its Pulsar version where known, else its index.
    pub fn name(&self, index: usize) -> String {
        match self.existing.get(index).and_then(|e| e.version) {
            Some(version) => format!("version {version}"),
            None => format!("existing[{index}]"),
        }
    }

    /// A finding on one line: names and values from the schemas made printable.
    pub fn render(&self, finding: &Finding) -> String {
        printable(&finding.render_naming(&|index| self.name(index))).into_owned()
    }

    /// [`Run::render`], then the finding's example and first remedy on the same line
    /// ([`example_inline`], [`fix_inline`]).
    pub fn render_with_example(&self, finding: &Finding) -> String {
        let mut line = self.render(finding);
        line.push_str(&example_inline(finding));
        line.push_str(&fix_inline(&self.fixes(finding)));
        line
    }

    /// Where a finding is written: in the new schema's source if its path is there, else in
    /// the existing schema's, else at the deepest part of the path the new schema has.
    pub fn position(&self, finding: &Finding) -> Option<Position> {
        // A strategy's own rejection is about no declaration.
        finding.existing.as_ref()?;
        let root = self.new_root.as_deref()?;
        let in_new = self
            .new_index
            .as_ref()
            .and_then(|index| index.locate(root, &finding.path));
        if let Some((position, true)) = &in_new {
            return Some(position.clone());
        }
        let existing = finding
            .existing
            .as_ref()
            .and_then(|schema| match schema.which {
                protocompat::SchemaRef::Existing(i) => self.existing_index.get(i)?.as_ref(),
                protocompat::SchemaRef::New => None,
            });
        if let Some(index) = existing {
            let root = self.existing_root.as_deref().unwrap_or(root);
            if let Some((position, true)) = index.locate(root, &finding.path) {
                return Some(position);
            }
        }
        in_new.map(|(position, _)| position)
    }

    /// Every kept finding with whether it is a warning, failures first.
    pub fn findings(&self) -> impl Iterator<Item = (&'a Finding, bool)> {
        let report = self.report;
        report
            .failures
            .iter()
            .map(|f| (f, false))
            .chain(report.warnings.iter().map(|w| (w, true)))
    }

    /// How many findings were counted but not kept.
    pub fn unlisted(&self) -> usize {
        let report = self.report;
        report.total_failures + report.total_warnings
            - report.failures.len()
            - report.warnings.len()
    }

    /// What the strategy asks of the compared schemas, in words.
    pub fn obligation(&self) -> Option<String> {
        use protocompat::Direction::*;
        let schemas = match self.existing.len() {
            0 => return None,
            1 => self.name(0),
            n => format!("each of the {n} existing schemas"),
        };
        let directions = self.strategy.directions();
        let reads = directions.contains(&ExistingWritesNewReads);
        let is_read = directions.contains(&NewWritesExistingReads);
        Some(match (reads, is_read) {
            (true, true) => format!(
                "{}: the new schema must read data written with {schemas}, and be read by it",
                self.strategy.name()
            ),
            (true, false) => format!(
                "{}: the new schema must read data written with {schemas}",
                self.strategy.name()
            ),
            (false, true) => format!(
                "{}: data the new schema writes must be read by {schemas}",
                self.strategy.name()
            ),
            (false, false) => return None,
        })
    }
}

/// A finding's example as lines of their own, to go under the finding's line (indented by
/// the caller): `writer: …`, `bytes:  …` (hex, a space between bytes), `reader: …`; or the one
/// line `no example: …` saying why a finding about data has none; or nothing, for a finding
/// not about data or a check run with `--no-examples`. The writer's text holds names and
/// values from the schemas: every string is made printable, so each stays one inert line.
pub fn example_lines(finding: &Finding) -> Vec<String> {
    if let Some(example) = &finding.example {
        vec![
            format!("writer: {}", printable(&braced(&example.writer))),
            format!("bytes:  {}", spaced_hex(&example.bytes)),
            format!("reader: {}", printable(&example.reader)),
        ]
    } else if let Some(why) = &finding.no_example {
        vec![format!("no example: {}", printable(why))]
    } else {
        Vec::new()
    }
}

/// A finding's example in one line, to append to the finding's own line where a format has
/// one line per finding (a GitHub annotation, a JUnit failure's line):
/// ` — e.g. writer … (bytes …): …`, or ` — no example: …`, or nothing; printable as
/// [`example_lines`] is.
pub fn example_inline(finding: &Finding) -> String {
    if let Some(example) = &finding.example {
        format!(
            " — e.g. writer {} (bytes {}): {}",
            printable(&braced(&example.writer)),
            spaced_hex(&example.bytes),
            printable(&example.reader)
        )
    } else if let Some(why) = &finding.no_example {
        format!(" — no example: {}", printable(why))
    } else {
        String::new()
    }
}

/// A finding's remedies as lines of their own, to go under its example: `fix: summary`, then
/// each edit indented (`file:line:col: write … in place of …`, or the declaration to write).
pub fn fix_lines(fixes: &[Fix]) -> Vec<String> {
    let mut lines = Vec::new();
    for fix in fixes {
        lines.push(format!("fix: {}", printable(&fix.summary)));
        lines.extend(
            fix.edits
                .iter()
                .map(|edit| format!("  {}", printable(&edit.describe()))),
        );
    }
    lines
}

/// A finding's first remedy on one line, for formats with one line per finding:
/// ` — fix: summary (edit; edit)`, or nothing.
pub fn fix_inline(fixes: &[Fix]) -> String {
    let Some(fix) = fixes.first() else {
        return String::new();
    };
    let mut line = format!(" — fix: {}", printable(&fix.summary));
    if !fix.edits.is_empty() {
        let edits: Vec<String> = fix.edits.iter().map(|e| e.describe()).collect();
        line.push_str(&format!(" ({})", printable(&edits.join("; "))));
    }
    line
}

/// The writer's message in braces, as text format writes a message inside another: an empty
/// one is `{ }`, not nothing.
fn braced(text: &str) -> String {
    if text.is_empty() {
        "{ }".to_owned()
    } else {
        format!("{{ {text} }}")
    }
}

/// `0880` as `08 80`, one byte a group, the way hex dumps print; anything but an even run of
/// hex digits (which the engine does not give) is shown as it is, made printable.
fn spaced_hex(hex: &str) -> String {
    if hex.is_empty() {
        return "(none: an empty message is no bytes)".to_owned();
    }
    if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return printable(hex).into_owned();
    }
    let pairs: Vec<&str> = (0..hex.len())
        .step_by(2)
        .map(|start| &hex[start..start + 2])
        .collect();
    pairs.join(" ")
}

/// The report of a run in `format`.
pub fn render(format: Format, run: &Run) -> String {
    match format {
        Format::Text => text::render(run),
        Format::Json => json::render(run),
        Format::Github => github::render(run),
        Format::Junit => junit::render(run),
    }
}

/// Bad input in `format`, for stdout; `None` where stderr alone says it (text).
pub fn render_error(
    format: Format,
    file: Option<&str>,
    rule: Option<&str>,
    message: &str,
) -> Option<String> {
    match format {
        Format::Text => None,
        Format::Json => Some(json::error(file, rule, message)),
        Format::Github => Some(github::error(file, rule, message)),
        Format::Junit => Some(junit::error(file, rule, message)),
    }
}

#[cfg(test)]
mod tests;
