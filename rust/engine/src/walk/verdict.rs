//! What `canRead` found for one writer/reader pair: the first findings of each severity, kept
//! with their paths, and how many in all.

use crate::budget::Cost;
use crate::example::Example;
use crate::rules::{Rule, Severity, Violation};
use crate::text::bound;

/// Findings of each severity kept per compared pair and per report: more than a 4 KiB text
/// can show. The rest are counted, never held (docs/rules.md#results).
pub const KEPT_FINDINGS: usize = 64;
/// Longest writer or reader description kept in a finding.
const DESCRIPTION_LIMIT: usize = 256;

/// A rule's finding with the path of the pair it was found in.
pub(crate) struct Found {
    pub rule: &'static Rule,
    /// The path from the root, the finding's field included.
    pub path: String,
    pub number: Option<u32>,
    pub writer: String,
    pub reader: String,
    /// The finding's example, or why it has none; `None` when examples were not asked for or
    /// the finding is not about data (docs/rules.md#examples).
    pub example: Option<Result<Example, String>>,
}

/// What `canRead` found for one writer/reader pair: the first findings and how many in all.
#[derive(Default)]
pub(crate) struct Verdict {
    pub found: Vec<Found>,
    pub failures: usize,
    pub warnings: usize,
    /// What the walk cost, which a check charges again whenever it takes the verdict from the
    /// cache.
    pub cost: Cost,
}

impl Verdict {
    pub(crate) fn is_empty(&self) -> bool {
        self.failures == 0 && self.warnings == 0
    }

    /// Roughly what the verdict takes in memory, for the byte-bounded result cache.
    pub(crate) fn weight(&self) -> usize {
        std::mem::size_of::<Verdict>()
            + self
                .found
                .iter()
                .map(|f| {
                    let example = match &f.example {
                        Some(Ok(example)) => example.weight(),
                        Some(Err(why)) => why.len(),
                        None => 0,
                    };
                    std::mem::size_of::<Found>()
                        + f.path.len()
                        + f.writer.len()
                        + f.reader.len()
                        + example
                })
                .sum::<usize>()
    }

    /// Counts a finding and keeps it if there is room; the kept one is returned, for its
    /// example.
    pub(super) fn record(
        &mut self,
        rule: &'static Rule,
        path: impl FnOnce(Option<&str>) -> String,
        v: Violation,
    ) -> Option<&mut Found> {
        let seen = match rule.severity {
            Severity::Failure => &mut self.failures,
            Severity::Warning => &mut self.warnings,
        };
        *seen += 1;
        if *seen <= KEPT_FINDINGS {
            self.found.push(Found {
                rule,
                path: path(v.field.as_deref()),
                number: v.number,
                writer: bound(&v.writer, DESCRIPTION_LIMIT),
                reader: bound(&v.reader, DESCRIPTION_LIMIT),
                example: None,
            });
            return self.found.last_mut();
        }
        None
    }

    /// Counts `more` findings of `severity` that are not kept.
    pub(super) fn count(&mut self, severity: Severity, more: usize) {
        match severity {
            Severity::Failure => self.failures += more,
            Severity::Warning => self.warnings += more,
        }
    }
}
