//! A change as the reports show it: one entry for a change found in both directions
//! ([`protocompat::change`]), naming both, with one example per direction and its fix once
//! (or each direction's, where the two differ).

use protocompat::text::printable;
use protocompat::{Change, Finding};

use super::{example_inline, example_lines, fix_inline, Run};

impl<'a> Run<'a> {
    /// The changes of the kept findings, failures' first ([`protocompat::Report::changes`]).
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// A change's findings: the first, and the other direction's where it was found both ways.
    pub fn findings_of(&self, change: &Change) -> Vec<&'a Finding> {
        let report = self.report;
        change
            .indices()
            .filter_map(|index| report.finding(index))
            .collect()
    }

    /// Whether a change is a warning (both its findings are, or it would be two changes).
    pub fn is_warning(&self, change: &Change) -> bool {
        change.first >= self.report.failures.len()
    }

    /// A change on one line, names and values made printable: a change found one way as its
    /// finding ([`Run::render`]), one found both ways as `RULE path (field N): existing=…
    /// new=… [STRATEGY, NAME sha: both directions]`.
    pub fn render_change(&self, change: &Change) -> String {
        printable(&self.report.render_change(change, &|index| self.name(index))).into_owned()
    }

    /// The lines under a change, indented by the caller: its example, and its fix. A change
    /// found both ways has each direction's example under the direction's name, then the fix
    /// once; where the two directions' fixes differ (one made, one left), each direction's
    /// fix goes under its example.
    pub fn change_lines(&self, change: &Change) -> Vec<String> {
        let findings = self.findings_of(change);
        let [first, reverse] = findings[..] else {
            let finding = findings[0];
            let mut lines = example_lines(finding);
            lines.extend(self.fix_lines(finding));
            return lines;
        };
        let fixes = [self.fix_lines(first), self.fix_lines(reverse)];
        let same_fix = fixes[0] == fixes[1];
        let mut lines = Vec::new();
        for (finding, fix) in [first, reverse].into_iter().zip(&fixes) {
            let mut under = example_lines(finding);
            if !same_fix {
                under.extend(fix.iter().cloned());
            }
            if under.is_empty() {
                continue;
            }
            if let Some(direction) = finding.direction {
                lines.push(format!("{direction}:"));
            }
            lines.extend(under.into_iter().map(|line| format!("  {line}")));
        }
        if same_fix {
            lines.extend(fixes[0].iter().cloned());
        }
        lines
    }

    /// A change on one line with its examples and fix ([`example_inline`], [`fix_inline`]), for
    /// formats with one line per finding: each direction's example after the direction's name,
    /// and the fix once where both directions have the same.
    pub fn render_change_inline(&self, change: &Change) -> String {
        let mut line = self.render_change(change);
        let findings = self.findings_of(change);
        if let [only] = findings[..] {
            line.push_str(&example_inline(only));
            if let Some(entry) = self.fix_of(only) {
                line.push_str(&fix_inline(entry));
            }
            return line;
        }
        let fixes: Vec<String> = findings
            .iter()
            .map(|f| self.fix_of(f).map(fix_inline).unwrap_or_default())
            .collect();
        let same_fix = fixes.iter().all(|fix| *fix == fixes[0]);
        for (finding, fix) in findings.iter().zip(&fixes) {
            let mut said = example_inline(finding);
            if !same_fix {
                said.push_str(fix);
            }
            if let (Some(direction), Some(rest)) = (finding.direction, said.strip_prefix(" — ")) {
                line.push_str(&format!(" — {direction}: {rest}"));
            }
        }
        if same_fix {
            line.push_str(&fixes[0]);
        }
        line
    }
}
