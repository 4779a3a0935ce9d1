//! A change as the reports show it: one entry for a change found in both directions
//! ([`protocompat::change`]), naming both, with one example per direction and its fix once
//! (or each direction's, where the two differ).

use protocompat::text::printable;
use protocompat::{Change, Finding, Report};

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
        let side = |finding: &Finding| Side {
            direction: finding.direction.map(|d| d.to_string()).unwrap_or_default(),
            example: example_lines(finding),
            fix: self.fix_lines(finding),
        };
        both_ways([side(first), side(reverse)])
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

/// The examples under a change, without fixes, for a report shown with none (`audit`): a
/// finding's example lines, or each direction's under its name.
pub fn change_examples(report: &Report, change: &Change) -> Vec<String> {
    let findings: Vec<&Finding> = change
        .indices()
        .filter_map(|index| report.finding(index))
        .collect();
    match findings[..] {
        [first, reverse] => {
            let side = |finding: &Finding| Side {
                direction: finding.direction.map(|d| d.to_string()).unwrap_or_default(),
                example: example_lines(finding),
                fix: Vec::new(),
            };
            both_ways([side(first), side(reverse)])
        }
        [only] => example_lines(only),
        _ => Vec::new(),
    }
}

/// What one direction of a change shows under it: its name, its example's lines and its fix's.
#[derive(Debug, Clone, Default)]
pub(super) struct Side {
    pub direction: String,
    pub example: Vec<String>,
    pub fix: Vec<String>,
}

/// The lines under a change found both ways: each direction's name with its example under it,
/// then the fix once where both directions say the same; where they differ (one fix made, the
/// other left out, say), each direction's fix goes under its own example, so neither is lost.
pub(super) fn both_ways(sides: [Side; 2]) -> Vec<String> {
    let same_fix = sides[0].fix == sides[1].fix;
    let mut lines = Vec::new();
    for side in &sides {
        let mut under = side.example.clone();
        if !same_fix {
            under.extend(side.fix.iter().cloned());
        }
        if under.is_empty() {
            continue;
        }
        lines.push(format!("{}:", side.direction));
        lines.extend(under.into_iter().map(|line| format!("  {line}")));
    }
    if same_fix {
        lines.extend(sides[0].fix.iter().cloned());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(direction: &str, example: &[&str], fix: &[&str]) -> Side {
        let owned = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect();
        Side {
            direction: direction.to_owned(),
            example: owned(example),
            fix: owned(fix),
        }
    }

    #[test]
    fn the_same_fix_both_ways_is_said_once_after_both_examples() {
        let fix = [
            "fix: give field note its old number 4",
            "  a.proto:8:17: write `4`",
        ];
        let lines = both_ways([
            side(
                "existing writes, new reads",
                &["writer: { note: \"a\" }"],
                &fix,
            ),
            side("new writes, existing reads", &["no example: why"], &fix),
        ]);
        assert_eq!(
            lines,
            [
                "existing writes, new reads:",
                "  writer: { note: \"a\" }",
                "new writes, existing reads:",
                "  no example: why",
                "fix: give field note its old number 4",
                "  a.proto:8:17: write `4`",
            ]
        );
    }

    #[test]
    fn fixes_that_differ_each_stay_under_their_direction() {
        let lines = both_ways([
            side("existing writes, new reads", &[], &["fix: keep it"]),
            side(
                "new writes, existing reads",
                &[],
                &["fix, which --fix leaves out (overlaps): keep it"],
            ),
        ]);
        assert_eq!(
            lines,
            [
                "existing writes, new reads:",
                "  fix: keep it",
                "new writes, existing reads:",
                "  fix, which --fix leaves out (overlaps): keep it",
            ]
        );
    }

    #[test]
    fn without_examples_or_fixes_nothing_is_under_a_change() {
        let lines = both_ways([side("a", &[], &[]), side("b", &[], &[])]);
        assert!(lines.is_empty(), "{lines:?}");
    }
}
