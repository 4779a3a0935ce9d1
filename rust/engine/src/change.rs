//! One change, however many directions found it. FULL and the transitive strategies compare a
//! pair of schemas both ways, and a change that breaks both (a field renumbered, a type
//! swapped) is found once in each direction: two findings that a reader takes for two
//! problems. A [`Change`] puts them back together for showing; the findings stay as they are,
//! counted per direction as the broker counts them.

use std::collections::HashMap;

use crate::report::Finding;
use crate::rules::{RuleId, Severity};
use crate::schema_ref::{NamedSchema, SchemaRef};
use crate::strategy::Direction;

/// One finding, or the two findings of one change: the same rule, at the same path, against
/// the same existing schema, with the same severity, one in each direction, each side showing
/// the same declaration both times (the writer of one is the reader of the other). Findings of
/// different severities are never one change: the broker refuses one and accepts the other, so
/// they ask different things of the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The first finding of the change: its index among the findings grouped.
    pub first: usize,
    /// The other direction's finding, where the strategy found the change both ways.
    pub reverse: Option<usize>,
}

impl Change {
    /// The indices of its findings, the first first.
    pub fn indices(&self) -> impl Iterator<Item = usize> {
        std::iter::once(self.first).chain(self.reverse)
    }
}

/// The changes among `findings`, in the order of each change's first finding. Each finding is
/// in exactly one change. Linear in the findings (a report keeps at most a few dozen), whatever
/// they hold.
pub fn group(findings: &[&Finding]) -> Vec<Change> {
    // Findings waiting for their other direction, by what a pair has in common.
    let mut open: HashMap<(RuleId, Severity, &str, usize), Vec<usize>> = HashMap::new();
    let mut changes: Vec<Change> = Vec::with_capacity(findings.len());
    // Where each finding's change is, so its pair is found in one step.
    let mut change_of: Vec<usize> = Vec::with_capacity(findings.len());
    for (index, finding) in findings.iter().enumerate() {
        let key = match (finding.direction, existing_index(finding)) {
            (Some(_), Some(existing)) => Some((
                finding.rule,
                finding.severity,
                finding.path.as_str(),
                existing,
            )),
            _ => None,
        };
        let paired = key.as_ref().and_then(|key| {
            let waiting = open.get_mut(key)?;
            let at = waiting
                .iter()
                .position(|&other| is_reverse(findings[other], finding))?;
            Some(waiting.remove(at))
        });
        match paired {
            Some(other) => {
                let change = change_of[other];
                changes[change].reverse = Some(index);
                change_of.push(change);
            }
            None => {
                if let Some(key) = key {
                    open.entry(key).or_default().push(index);
                }
                change_of.push(changes.len());
                changes.push(Change {
                    first: index,
                    reverse: None,
                });
            }
        }
    }
    changes
}

fn existing_index(finding: &Finding) -> Option<usize> {
    match finding.existing.as_ref()?.which {
        SchemaRef::Existing(index) => Some(index),
        SchemaRef::New => None,
    }
}

/// Whether `b` is `a` seen from the other direction: the other direction, and each side the
/// same declaration (the text both show of the existing schema, and of the new one).
fn is_reverse(a: &Finding, b: &Finding) -> bool {
    a.direction.is_some()
        && b.direction.is_some()
        && a.direction != b.direction
        && a.writer == b.reader
        && a.reader == b.writer
}

/// A change's findings as the sides see them: the existing schema's declaration and the new
/// one's, whichever direction each finding was found in.
pub struct Sides<'f> {
    pub existing: &'f str,
    pub new: &'f str,
    /// The field's number in the existing schema and in the new one, where the finding has one.
    pub existing_number: Option<u32>,
    pub new_number: Option<u32>,
}

/// The sides of a change found both ways, from its two findings (in either order).
pub fn sides<'f>(a: &'f Finding, b: &'f Finding) -> Sides<'f> {
    let (existing_writes, new_writes) = match a.direction {
        Some(Direction::ExistingWritesNewReads) => (a, b),
        _ => (b, a),
    };
    Sides {
        existing: &existing_writes.writer,
        new: &existing_writes.reader,
        // A finding's number is its writer's.
        existing_number: existing_writes.field_number,
        new_number: new_writes.field_number,
    }
}

/// `RULE path (field N): existing=… new=… [STRATEGY, NAME sha: both directions]`: a change found
/// both ways on one line, each side named by its schema rather than by who writes, with the
/// existing schema at `index` called `name(index)`.
pub fn render_both(a: &Finding, b: &Finding, name: &dyn Fn(usize) -> String) -> String {
    let sides = sides(a, b);
    let mut line = format!("{} {}{}", a.rule, a.path, numbers(&sides));
    match (sides.existing.is_empty(), sides.new.is_empty()) {
        (true, true) => {}
        (false, true) => line.push_str(&format!(": existing={}", sides.existing)),
        (true, false) => line.push_str(&format!(": new={}", sides.new)),
        (false, false) => {
            line.push_str(&format!(": existing={} new={}", sides.existing, sides.new))
        }
    }
    line.push_str(&format!(" [{}", a.strategy));
    if let Some(NamedSchema {
        which: SchemaRef::Existing(index),
        sha256,
    }) = &a.existing
    {
        line.push_str(&format!(", {} {sha256}", name(*index)));
    }
    line.push_str(": both directions]");
    line
}

/// `RULE path (field N) [both directions]`: a change found both ways named in a sentence,
/// unbounded and unescaped, as [`Finding::short`] names one finding.
pub fn short_both(a: &Finding, b: &Finding) -> String {
    format!(
        "{} {}{} [both directions]",
        a.rule,
        a.path,
        numbers(&sides(a, b))
    )
}

/// ` (field N)`, or ` (field N → M)` where the number is not the same on both sides.
fn numbers(sides: &Sides) -> String {
    match (sides.existing_number, sides.new_number) {
        (Some(old), Some(new)) if old != new => format!(" (field {old} → {new})"),
        (Some(number), _) | (None, Some(number)) => format!(" (field {number})"),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(
        rule: RuleId,
        severity: Severity,
        path: &str,
        direction: Direction,
        existing: usize,
        (writer, reader): (&str, &str),
    ) -> Finding {
        Finding {
            rule,
            severity,
            strategy: "FULL".to_owned(),
            direction: Some(direction),
            existing: Some(NamedSchema::new(
                SchemaRef::Existing(existing),
                "b2bd95d49882",
            )),
            path: path.to_owned(),
            field_number: Some(4),
            writer: writer.to_owned(),
            reader: reader.to_owned(),
            example: None,
            no_example: None,
        }
    }

    use Direction::{ExistingWritesNewReads as Ewnr, NewWritesExistingReads as Nwer};
    use RuleId::{FieldNumberChanged as Renumbered, ScalarTypeChanged as Retyped};
    use Severity::{Failure, Warning};

    fn groups(findings: &[Finding]) -> Vec<Vec<usize>> {
        let refs: Vec<&Finding> = findings.iter().collect();
        group(&refs).iter().map(|c| c.indices().collect()).collect()
    }

    #[test]
    fn one_change_found_both_ways_is_one_change_at_its_first_finding() {
        let a = ("number 4", "number 5");
        let b = ("number 5", "number 4");
        let findings = [
            finding(Renumbered, Failure, "shop.Order.note", Ewnr, 0, a),
            finding(Renumbered, Failure, "shop.Order.qty", Ewnr, 0, a),
            finding(Renumbered, Failure, "shop.Order.note", Nwer, 0, b),
            finding(
                Retyped,
                Warning,
                "shop.Order.id",
                Nwer,
                0,
                ("string", "int64"),
            ),
        ];
        assert_eq!(groups(&findings), vec![vec![0, 2], vec![1], vec![3]]);
    }

    #[test]
    fn what_differs_in_more_than_direction_stays_apart() {
        let a = ("int64", "string");
        let b = ("string", "int64");
        let apart = [
            // Another existing schema: another pair, another change.
            [
                finding(Retyped, Warning, "p.M.id", Ewnr, 0, a),
                finding(Retyped, Warning, "p.M.id", Nwer, 1, b),
            ],
            // A failure one way and a warning the other: the broker's verdicts differ.
            [
                finding(Retyped, Failure, "p.M.id", Ewnr, 0, a),
                finding(Retyped, Warning, "p.M.id", Nwer, 0, b),
            ],
            // The same direction twice.
            [
                finding(Retyped, Warning, "p.M.id", Ewnr, 0, a),
                finding(Retyped, Warning, "p.M.id", Ewnr, 0, a),
            ],
            // Sides that are not each other's: not the same declarations.
            [
                finding(Retyped, Warning, "p.M.id", Ewnr, 0, a),
                finding(Retyped, Warning, "p.M.id", Nwer, 0, ("string", "int32")),
            ],
            // Another rule.
            [
                finding(Retyped, Warning, "p.M.id", Ewnr, 0, a),
                finding(Renumbered, Warning, "p.M.id", Nwer, 0, b),
            ],
        ];
        for pair in &apart {
            assert_eq!(groups(pair), vec![vec![0], vec![1]], "{pair:#?}");
        }
    }

    #[test]
    fn a_third_finding_waits_for_a_partner_of_its_own() {
        let a = ("int64", "string");
        let b = ("string", "int64");
        let findings = [
            finding(Retyped, Warning, "p.M.id", Ewnr, 0, a),
            finding(Retyped, Warning, "p.M.id", Nwer, 0, b),
            finding(Retyped, Warning, "p.M.id", Nwer, 0, b),
        ];
        assert_eq!(groups(&findings), vec![vec![0, 1], vec![2]]);
    }

    #[test]
    fn both_ways_name_each_schema_side_and_both_numbers() {
        let mut a = finding(
            Renumbered,
            Failure,
            "shop.Order.note",
            Nwer,
            0,
            ("number 5", "number 4"),
        );
        a.field_number = Some(5);
        let b = finding(
            Renumbered,
            Failure,
            "shop.Order.note",
            Ewnr,
            0,
            ("number 4", "number 5"),
        );
        assert_eq!(
            render_both(&a, &b, &|i| format!("version {i}")),
            "FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 \
             new=number 5 [FULL, version 0 b2bd95d49882: both directions]"
        );
    }
}
