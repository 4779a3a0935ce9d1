//! What a check prints, in the format a reader asked for: text for people, versioned JSON for
//! tools, GitHub workflow annotations, JUnit XML for CI dashboards. Text, GitHub and JUnit show
//! each change once however many directions found it (`change`); JSON keeps each direction's
//! finding and says which change it belongs to.

mod change;
mod github;
mod json;
mod junit;
pub mod paint;
mod text;

use clap::ValueEnum;
use protocompat::remedy::Recheck;
use protocompat::text::printable;
use protocompat::{Change, Finding, Limits, Profile, Report, Strategy};

use crate::fix::{FindingFix, Fixes, Scope, Status};
use crate::input::Loaded;
use crate::locate::{Index, Position};

pub use change::change_examples;
/// The escapes of GitHub workflow commands and of XML, for reports made of several checks.
pub use github::{data as github_data, property as github_property};
pub use junit::escape as xml_escape;
pub use paint::Painted;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    /// GitHub Actions' workflow commands (`github-actions`, Buf's name, is taken too).
    #[value(alias = "github-actions")]
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
    /// What `--fix` made of the findings of the check before this one, which it edited.
    pub fixed: Vec<Outcome>,
    /// The topic whose history was compared (`--admin-url`), which the report names first.
    pub topic: Option<String>,
    /// The report's changes ([`Report::changes`]), worked out once.
    changes: Vec<Change>,
}

/// What `--fix` made of one finding's fix, said in the report of the check after it.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The finding, on one line, printable.
    pub finding: String,
    pub status: Status,
    /// The fix's summary, where it had one; else the advice.
    pub summary: String,
}

/// How a run's fixes are planned: the check's profile and limits, what it cost, and which
/// fixes `--fix` makes.
pub struct FixSetup {
    pub profile: &'static Profile,
    pub limits: Limits,
    pub work: u64,
    pub scope: Scope,
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
            fixed: Vec::new(),
            topic: None,
            changes: report.changes(),
        }
    }

    /// The report's first line, leading with what the user named: the topic (with
    /// `--admin-url`), the root message and the new schema's input, then the verdict, the
    /// strategy and profile, and the counts ([`Report::counts`]). The schema's digest, which
    /// means nothing to most readers, is left to the `new:` line at the end.
    pub fn header(&self) -> String {
        let mut lead = Vec::new();
        if let Some(topic) = &self.topic {
            lead.push(printable(topic).into_owned());
        }
        let label = printable(&self.new.label);
        lead.push(match &self.new_root {
            Some(root) => format!("{} in {label}", printable(root)),
            None => label.into_owned(),
        });
        let verdict = if self.report.compatible {
            "Compatible"
        } else {
            "Incompatible"
        };
        format!(
            "{}: {verdict} under {} (profile {}): {}",
            lead.join(": "),
            printable(&self.report.strategy),
            self.report.profile,
            self.report.counts()
        )
    }

    /// This run, showing each finding's remedies: planned, proven by re-checks and settled as
    /// `--fix` would make them.
    pub fn with_fixes(mut self, setup: FixSetup) -> Run<'a> {
        let recheck = Recheck {
            existing: self.existing.iter().map(|e| e.data.as_slice()).collect(),
            new: &self.new.data,
            strategy: self.strategy,
            profile: setup.profile,
            limits: setup.limits,
            work: setup.work,
        };
        self.fixes = Some(Fixes::plan(self.new, self.report, recheck, setup.scope));
        self
    }

    /// The fixes of this run, when they are shown.
    pub fn fixes(&self) -> Option<&Fixes<'a>> {
        self.fixes.as_ref()
    }

    /// What became of `finding`'s remedies; `None` when they are not shown.
    pub fn fix_of(&self, finding: &Finding) -> Option<&FindingFix> {
        let index = self
            .findings()
            .position(|(f, _)| std::ptr::eq(f, finding))?;
        self.fixes.as_ref()?.list().get(index)
    }

    /// The finding at `index` of [`Run::findings`], short: `RULE path (field N) [direction]`.
    pub fn short(&self, index: usize) -> String {
        self.findings()
            .nth(index)
            .map(|(f, _)| printable(&f.short()).into_owned())
            .unwrap_or_default()
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

    /// A finding's remedies as lines of their own ([`fix_lines`]).
    pub fn fix_lines(&self, finding: &Finding) -> Vec<String> {
        self.fix_of(finding)
            .map(|entry| fix_lines(self, entry))
            .unwrap_or_default()
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

    /// Where the existing schema the finding compares declares what it is about, where that
    /// schema was compiled from `.proto` source: for a git baseline, the work-tree path with
    /// the line at the ref.
    pub fn existing_position(&self, finding: &Finding) -> Option<Position> {
        let protocompat::SchemaRef::Existing(i) = finding.existing.as_ref()?.which else {
            return None;
        };
        let index = self.existing_index.get(i)?.as_ref()?;
        let root = self.existing_root.as_deref().or(self.new_root.as_deref())?;
        index
            .locate(root, &finding.path)
            .map(|(position, _)| position)
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
        self.report.unlisted()
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

/// A finding's remedies as lines of their own, to go under its example: the fix and what
/// `--fix` makes of it (`fix: summary`, each edit indented: `file:line:col: write … in place of
/// …`, or the declaration to write), the candidates the re-check refused, and advice.
pub fn fix_lines(run: &Run, entry: &FindingFix) -> Vec<String> {
    let mut lines = Vec::new();
    let fix_with = |lead: String, lines: &mut Vec<String>| {
        if let Some(fix) = &entry.fix {
            lines.push(format!("{lead}{}", printable(&fix.summary)));
            lines.extend(
                fix.edits
                    .iter()
                    .map(|edit| format!("  {}", printable(&edit.describe()))),
            );
        }
    };
    match &entry.status {
        Status::Fix | Status::Applied => fix_with("fix: ".to_owned(), &mut lines),
        Status::Suggested => fix_with(
            "suggested fix (a warning: --fix leaves it, --fix-warnings makes it): ".to_owned(),
            &mut lines,
        ),
        Status::Covered { by } => {
            let same = covering_fix(run, *by).is_some_and(|other| {
                entry.fix.as_ref().map(|f| &f.summary) == Some(&other.summary)
                    && entry.fix.as_ref().map(|f| f.edits.len()) == Some(other.edits.len())
            });
            if same {
                fix_with("fix: ".to_owned(), &mut lines);
            } else {
                lines.push(format!(
                    "fix: made by the fix of {}, which removes this finding too",
                    run.short(*by)
                ));
            }
        }
        Status::Left { why } => fix_with(
            format!("fix, which --fix leaves out ({}): ", printable(why)),
            &mut lines,
        ),
        Status::Unproven => {
            lines.push("no fix: the re-check refused every edit tried".to_owned());
        }
        Status::Advice => {}
    }
    if let Status::Covered { .. } = entry.status {
        // Another fix removes it: what was tried for it alone, or advised, is beside the point.
        return lines;
    }
    for tried in &entry.tried {
        lines.push(format!(
            "  tried: {}: refused, {}",
            printable(&tried.summary),
            printable(&tried.why)
        ));
    }
    lines.extend(
        entry
            .advice
            .iter()
            .map(|advice| format!("advice: {}", printable(advice))),
    );
    lines
}

fn covering_fix<'r>(run: &'r Run, by: usize) -> Option<&'r crate::fix::Fix> {
    run.fixes()?.list().get(by)?.fix.as_ref()
}

/// A finding's fix on one line, for formats with one line per finding:
/// ` — fix: summary (edit; edit)`, ` — suggested fix: …`, or the advice.
pub fn fix_inline(entry: &FindingFix) -> String {
    let lead = match &entry.status {
        Status::Fix | Status::Applied | Status::Covered { .. } => "fix",
        Status::Suggested => "suggested fix (a warning)",
        Status::Left { .. } => "fix (--fix leaves it out)",
        Status::Unproven | Status::Advice => {
            return entry
                .advice
                .first()
                .map(|a| format!(" — advice: {}", printable(a)))
                .unwrap_or_default();
        }
    };
    let Some(fix) = &entry.fix else {
        return String::new();
    };
    let mut line = format!(" — {lead}: {}", printable(&fix.summary));
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

/// The text report in spans, each marked with the colour of what it is ([`paint`]).
pub fn painted(run: &Run) -> Painted {
    text::painted(run)
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
