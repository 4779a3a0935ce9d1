//! The result of a check: every finding, rendered as bounded text for the broker or as JSON.

use serde::Serialize;

use crate::change::{self, Change};
use crate::example::Example;
use crate::rules::{RuleId, Severity};
use crate::schema_ref::{NamedSchema, SchemaDigest, SchemaRef};
use crate::strategy::Direction;
use crate::text;
use crate::walk::Verdict;
pub use crate::walk::KEPT_FINDINGS;

/// The broker shows our message in `pulsar-admin` output and client exceptions; past this
/// size it stops being read and starts being a problem for logs.
pub const TEXT_LIMIT: usize = 4096;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: RuleId,
    pub severity: Severity,
    pub strategy: String,
    /// `None` for findings of the strategy itself (ALWAYS_INCOMPATIBLE, UNKNOWN_STRATEGY).
    pub direction: Option<Direction>,
    /// The existing schema of the compared pair; `None` for findings of the strategy.
    pub existing: Option<NamedSchema>,
    /// `pkg.Order.items.price`: the root message, then field names along the walk.
    pub path: String,
    pub field_number: Option<u32>,
    pub writer: String,
    pub reader: String,
    /// What the finding means for the data (docs/rules.md#examples): given when the checker was
    /// asked for examples ([`crate::Checker::with_examples`]) and the finding is about data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<Example>,
    /// Why a finding about data has no example, when examples were asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_example: Option<String>,
}

impl Finding {
    /// One line: `RULE path (field N): writer=… reader=… [STRATEGY, existing[i] sha: direction]`,
    /// where `existing[i]` is the schema's index among those compared, oldest first.
    pub fn render(&self) -> String {
        self.render_naming(&|index| format!("existing[{index}]"))
    }

    /// `RULE path (field N) [direction]`: the finding named in a sentence, unbounded and
    /// unescaped (the caller bounds it or makes it printable).
    pub fn short(&self) -> String {
        let mut text = format!("{} {}", self.rule, self.path);
        if let Some(number) = self.field_number {
            text.push_str(&format!(" (field {number})"));
        }
        if let Some(direction) = self.direction {
            text.push_str(&format!(" [{direction}]"));
        }
        text
    }

    /// [`Finding::render`], with the existing schema at `index` called `name(index)`: a caller
    /// that knows Pulsar's version numbers names the version.
    pub fn render_naming(&self, name: &dyn Fn(usize) -> String) -> String {
        let mut line = format!("{} {}", self.rule, self.path);
        if let Some(number) = self.field_number {
            line.push_str(&format!(" (field {number})"));
        }
        // A finding about one side only (UNSUPPORTED_FEATURE in one schema) shows that side
        // only; a strategy's rejection compares no sides and shows its reason alone.
        match (self.writer.is_empty(), self.reader.is_empty()) {
            (true, true) => {}
            (true, false) if self.direction.is_none() => {
                line.push_str(&format!(": {}", self.reader))
            }
            (false, true) => line.push_str(&format!(": writer={}", self.writer)),
            (true, false) => line.push_str(&format!(": reader={}", self.reader)),
            (false, false) => {
                line.push_str(&format!(": writer={} reader={}", self.writer, self.reader))
            }
        }
        line.push_str(&format!(" [{}", self.strategy));
        if let Some(NamedSchema {
            which: SchemaRef::Existing(index),
            sha256,
        }) = &self.existing
        {
            line.push_str(&format!(", {} {sha256}", name(*index)));
        }
        if let Some(direction) = self.direction {
            line.push_str(&format!(": {direction}"));
        }
        line.push(']');
        line
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub compatible: bool,
    pub strategy: String,
    /// The rule profile the check ran (`pip246`, ...).
    pub profile: &'static str,
    /// How many existing schemas the caller passed.
    pub existing_schemas: usize,
    /// The first 12 hex digits of the SHA-256 of the proposed schema's data.
    pub new_schema_sha256: SchemaDigest,
    /// How many failures the check found; the first [`KEPT_FINDINGS`] are in `failures`.
    pub total_failures: usize,
    /// How many warnings the check found; the first [`KEPT_FINDINGS`] are in `warnings`.
    pub total_warnings: usize,
    pub failures: Vec<Finding>,
    pub warnings: Vec<Finding>,
}

impl Report {
    pub(crate) fn new(
        strategy: String,
        profile: &'static str,
        existing_schemas: usize,
        new_schema_sha256: impl Into<SchemaDigest>,
    ) -> Report {
        Report {
            compatible: true,
            strategy,
            profile,
            existing_schemas,
            new_schema_sha256: new_schema_sha256.into(),
            total_failures: 0,
            total_warnings: 0,
            failures: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Rejects the check for its strategy alone (ALWAYS_INCOMPATIBLE, UNKNOWN_STRATEGY): one
    /// failure on the proposed schema's root message, `why` as the reader's side.
    pub(crate) fn reject(&mut self, rule: RuleId, root: &str, why: &str) {
        self.count(1, 0);
        self.keep(Finding {
            rule,
            severity: Severity::Failure,
            strategy: self.strategy.clone(),
            direction: None,
            existing: None,
            path: root.to_owned(),
            field_number: None,
            writer: String::new(),
            reader: why.to_owned(),
            example: None,
            no_example: None,
        });
    }

    /// Adds what `canRead` found for one compared pair: the new schema and existing schema
    /// #`existing` (whose digest is `sha256`, worked out only if there is a finding), in
    /// `direction`.
    pub(crate) fn add_verdict(
        &mut self,
        existing: usize,
        sha256: &SchemaDigest,
        direction: Direction,
        verdict: &Verdict,
    ) {
        if verdict.is_empty() {
            // Most pairs find nothing: nothing is copied for them.
            return;
        }
        self.count(verdict.failures, verdict.warnings);
        let schema = NamedSchema::new(SchemaRef::Existing(existing), sha256.as_str());
        for found in &verdict.found {
            // A long history of pairs with findings fills the lists early: nothing more is
            // copied for the rest, which a check is charged only a fixed amount for.
            if !self.has_room(found.rule.severity) {
                continue;
            }
            self.keep(Finding {
                rule: found.rule.id,
                severity: found.rule.severity,
                strategy: self.strategy.clone(),
                direction: Some(direction),
                existing: Some(schema.clone()),
                path: found.path.clone(),
                field_number: found.number,
                writer: found.writer.clone(),
                reader: found.reader.clone(),
                example: found.example.clone().and_then(Result::ok),
                no_example: found.example.clone().and_then(Result::err),
            });
        }
    }

    /// Counts more findings, kept or not: the verdict follows the count, not the lists.
    fn count(&mut self, failures: usize, warnings: usize) {
        self.total_failures += failures;
        self.total_warnings += warnings;
        self.compatible = self.total_failures == 0;
    }

    fn has_room(&self, severity: Severity) -> bool {
        match severity {
            Severity::Failure => self.failures.len() < KEPT_FINDINGS,
            Severity::Warning => self.warnings.len() < KEPT_FINDINGS,
        }
    }

    /// Keeps a counted finding if its list has room ([`KEPT_FINDINGS`]).
    fn keep(&mut self, finding: Finding) {
        let list = match finding.severity {
            Severity::Failure => &mut self.failures,
            Severity::Warning => &mut self.warnings,
        };
        if list.len() < KEPT_FINDINGS {
            list.push(finding);
        }
    }

    /// The kept findings, failures first: the order [`Report::changes`] indexes.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.failures.iter().chain(&self.warnings)
    }

    /// The kept finding at `index` of [`Report::findings`].
    pub fn finding(&self, index: usize) -> Option<&Finding> {
        self.failures
            .get(index)
            .or_else(|| self.warnings.get(index.checked_sub(self.failures.len())?))
    }

    /// The kept findings as changes: a change found in both directions is one
    /// ([`crate::change`]), indexed as [`Report::findings`]. Failures' changes come first.
    pub fn changes(&self) -> Vec<Change> {
        let findings: Vec<&Finding> = self.findings().collect();
        change::group(&findings)
    }

    /// How many findings were counted but not kept.
    pub fn unlisted(&self) -> usize {
        self.total_failures + self.total_warnings - self.failures.len() - self.warnings.len()
    }

    /// The first line of [`Report::render_text`].
    pub fn summary(&self) -> String {
        let verdict = if self.compatible {
            "Compatible"
        } else {
            "Incompatible"
        };
        format!(
            "{verdict} PROTOBUF_NATIVE schema {} under {} (profile {}): {}",
            self.new_schema_sha256,
            self.strategy,
            self.profile,
            self.counts()
        )
    }

    /// `5 violations, 2 warnings in 4 changes against 1 existing schema`: the findings counted
    /// per direction, as the broker counts them (violations only when there are any), and, where
    /// some change was found in both directions and every finding is listed, how many changes
    /// they make (the lines that list them).
    pub fn counts(&self) -> String {
        let mut counts = String::new();
        if !self.compatible {
            counts.push_str(&format!("{}, ", count(self.total_failures, "violation")));
        }
        counts.push_str(&count(self.total_warnings, "warning"));
        if self.unlisted() == 0 {
            let changes = self.changes().len();
            if changes < self.failures.len() + self.warnings.len() {
                counts.push_str(&format!(" in {}", count(changes, "change")));
            }
        }
        counts.push_str(&format!(
            " against {}",
            count(self.existing_schemas, "existing schema")
        ));
        counts
    }

    /// A change on one line, as [`Finding::render_naming`] shows one finding, and a change
    /// found both ways as [`change::render_both`] does.
    pub fn render_change(&self, change: &Change, name: &dyn Fn(usize) -> String) -> String {
        let first = self.finding(change.first).expect("a change of this report");
        match change.reverse.and_then(|i| self.finding(i)) {
            Some(reverse) => change::render_both(first, reverse, name),
            None => first.render_naming(name),
        }
    }

    /// The summary line, then one line per change (a change found in both directions is one
    /// line: [`crate::change`]), failures' first, within [`TEXT_LIMIT`] bytes; the findings
    /// that do not fit are counted in a last line. Each line ends with its rule's one-line hint
    /// ([`crate::rules::RuleId::hint`]): the same text for every finding of a rule, so the
    /// broker computes nothing for it and an input cannot make it longer.
    pub fn render_text(&self) -> String {
        let changes = self.changes();
        let hinted = |change: &Change| {
            let first = self.finding(change.first).expect("a change of this report");
            let mut line = String::new();
            if first.severity == Severity::Warning {
                line.push_str("warning: ");
            }
            line.push_str(&self.render_change(change, &|index| format!("existing[{index}]")));
            line.push_str(" (fix: ");
            line.push_str(first.rule.hint());
            line.push(')');
            line
        };
        bounded_lines(
            &self.summary(),
            changes.iter(),
            hinted,
            |change| change.indices().count(),
            self.unlisted(),
            TEXT_LIMIT,
        )
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Joins `first` and the lines `render` makes of `items` with newlines into at most `limit`
/// bytes, ending with a line that says how many findings were left out (`weight` of each item
/// that did not fit, plus `unlisted` that were never given). A line longer than a quarter of
/// the limit is cut. Once a line does not fit, the rest are counted, not rendered.
pub fn bounded_lines<T>(
    first: &str,
    items: impl Iterator<Item = T>,
    render: impl Fn(T) -> String,
    weight: impl Fn(&T) -> usize,
    unlisted: usize,
    limit: usize,
) -> String {
    // Room kept for the "… N more" line.
    const TAIL: usize = 64;
    let budget = limit.saturating_sub(TAIL);
    let mut joined = text::bound(first, budget / 4);
    let mut omitted = 0usize;
    let mut items = items;
    while let Some(item) = items.next() {
        let counted = weight(&item);
        let line = render(item);
        let line = text::bound(&line, budget / 4);
        if joined.len() + 1 + line.len() <= budget {
            joined.push('\n');
            joined.push_str(&line);
        } else {
            omitted = counted + items.map(|item| weight(&item)).sum::<usize>();
            break;
        }
    }
    omitted += unlisted;
    if omitted > 0 {
        let plural = if omitted == 1 { "" } else { "s" };
        joined.push_str(&format!("\n… and {omitted} more finding{plural} not shown"));
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PIP246;
    use crate::walk::Found;

    fn found(rule: RuleId, path: &str) -> Found {
        Found {
            rule: PIP246.rules.iter().find(|r| r.id == rule).unwrap(),
            path: path.to_owned(),
            number: Some(2),
            writer: "int64".to_owned(),
            reader: "string".to_owned(),
            example: None,
        }
    }

    #[test]
    fn a_verdict_becomes_findings_named_after_its_pair() {
        let mut report = Report::new("FULL".to_owned(), "pip246", 3, "d5675e93d237".to_owned());
        report.add_verdict(
            1,
            &"b2bd95d49882".into(),
            Direction::NewWritesExistingReads,
            &Verdict::default(),
        );
        assert_eq!((report.total_failures, report.total_warnings), (0, 0));

        let verdict = Verdict {
            found: vec![
                found(RuleId::FieldKindChanged, "shop.Order.total"),
                found(RuleId::ScalarTypeChanged, "shop.Order.id"),
            ],
            // More than were kept: the report counts them all.
            failures: 5,
            warnings: 1,
            cost: Default::default(),
        };
        report.add_verdict(
            1,
            &"b2bd95d49882".into(),
            Direction::NewWritesExistingReads,
            &verdict,
        );
        assert!(!report.compatible);
        assert_eq!((report.total_failures, report.total_warnings), (5, 1));
        assert_eq!(
            report.failures[0].render(),
            "FIELD_KIND_CHANGED shop.Order.total (field 2): writer=int64 reader=string \
             [FULL, existing[1] b2bd95d49882: new writes, existing reads]"
        );
        assert_eq!(report.warnings[0].rule, RuleId::ScalarTypeChanged);
        assert_eq!(report.warnings[0].severity, Severity::Warning);
    }

    #[test]
    fn a_change_found_both_ways_is_one_line_and_still_two_findings() {
        let mut report = Report::new("FULL".to_owned(), "pip246", 1, "d5675e93d237".to_owned());
        let one_way = |writer: &str, reader: &str| Verdict {
            found: vec![Found {
                writer: writer.to_owned(),
                reader: reader.to_owned(),
                ..found(RuleId::FieldKindChanged, "shop.Order.total")
            }],
            failures: 1,
            warnings: 0,
            cost: Default::default(),
        };
        let sha = "b2bd95d49882".into();
        report.add_verdict(
            0,
            &sha,
            Direction::ExistingWritesNewReads,
            &one_way("string", "enum shop.Currency"),
        );
        report.add_verdict(
            0,
            &sha,
            Direction::NewWritesExistingReads,
            &one_way("enum shop.Currency", "string"),
        );
        // Counted per direction, as the broker counts; listed once.
        assert_eq!(report.total_failures, 2);
        assert_eq!(report.failures.len(), 2);
        let text = report.render_text();
        assert_eq!(
            text,
            "Incompatible PROTOBUF_NATIVE schema d5675e93d237 under FULL (profile pip246): \
             2 violations, 0 warnings in 1 change against 1 existing schema\n\
             FIELD_KIND_CHANGED shop.Order.total (field 2): existing=string \
             new=enum shop.Currency [FULL, existing[0] b2bd95d49882: both directions] \
             (fix: keep the old field; add the new type as a new field)"
        );
    }

    #[test]
    fn a_rejection_names_the_root_and_the_strategy() {
        let mut report = Report::new(
            "ALWAYS_INCOMPATIBLE".to_owned(),
            "pip246",
            1,
            "d5675e93d237".to_owned(),
        );
        report.reject(RuleId::AlwaysIncompatible, "shop.Order", "no");
        assert!(!report.compatible);
        assert_eq!(
            report.failures[0].render(),
            "ALWAYS_INCOMPATIBLE shop.Order: no [ALWAYS_INCOMPATIBLE]"
        );
        // The first line names the strategy and the profile that decided.
        assert_eq!(
            report.summary(),
            "Incompatible PROTOBUF_NATIVE schema d5675e93d237 under ALWAYS_INCOMPATIBLE \
             (profile pip246): 1 violation, 0 warnings against 1 existing schema"
        );
        assert!(report.to_json().contains("\"profile\": \"pip246\""));
    }

    #[test]
    fn lines_past_the_limit_are_counted_not_rendered() {
        let rendered = std::cell::Cell::new(0);
        let text = bounded_lines(
            "summary",
            0..100,
            |i| {
                rendered.set(rendered.get() + 1);
                format!("line {i} {}", "x".repeat(90))
            },
            |_| 1,
            5,
            1024,
        );
        let shown = text.lines().count() - 2;
        assert_eq!(rendered.get(), shown + 1, "{text}");
        assert!(
            text.ends_with(&format!(
                "… and {} more findings not shown",
                100 - shown + 5
            )),
            "{text}"
        );
        assert!(text.len() <= 1024);
    }
}
