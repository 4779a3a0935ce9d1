//! What a check prints, in the format a reader asked for: text for people, versioned JSON for
//! tools, GitHub workflow annotations, JUnit XML for CI dashboards.

mod github;
mod json;
mod junit;
mod text;

use clap::ValueEnum;
use protocompat::text::printable;
use protocompat::{Finding, Report, Strategy};

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
        }
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
