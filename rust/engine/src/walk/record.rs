//! Where every finding of a walk goes: [`Findings::record`] charges it, lets the guard silence
//! it, keeps it in the verdict with its path and gives it its example. One place, so that no
//! kind of rule can be recorded without being charged or without meeting the guard.

use std::collections::HashSet;

use super::paths::{Paths, PATH_LIMIT};
use super::verdict::Verdict;
use crate::budget::{findings_units, weight, Allowance};
use crate::error::CheckError;
use crate::example::{self, ExampleBudget, Subject};
use crate::model::MessageRef;
use crate::rules::{Rule, Violation};
use crate::text::bound;

/// Why a finding about one schema alone has no example.
const ONE_SIDE: &str = "it is about what one schema holds (extension ranges, a MessageSet, an \
                        enum Java reads as closed), not about a field the two schemas share";

/// Whose rule made a finding (docs/rules.md#no-silent-data-loss).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Voice {
    /// The profile's own: where one speaks in a pair, the guard stays silent.
    Own,
    /// The guard's: silent where the profile's own rules spoke in the same pair.
    Guard,
}

/// Where a finding was made, which gives its path and its example.
pub(super) enum At<'p> {
    /// The two roots: the verdict is final without walking (the reader root's name).
    Roots,
    /// What one schema holds on its own, at the path that reached it: no example, since the
    /// two schemas share nothing there.
    OneSide(&'p str),
    /// The message pair queued at this step of the walk.
    Pair(usize),
}

/// What a walk has found so far, and what deciding where the next finding goes needs.
pub(super) struct Findings<'a, 'b> {
    pub verdict: Verdict,
    pub paths: Paths<'a>,
    /// The (writer, reader) roots of the walk.
    roots: (MessageRef<'a>, MessageRef<'a>),
    /// The check's budget for examples, when kept findings about data get one
    /// (docs/rules.md#examples).
    examples: Option<&'b ExampleBudget>,
    /// Where the profile's own rules spoke in the pair being compared; kept only when the
    /// profile has a guard to silence there.
    pub flagged: Flagged,
    has_guard: bool,
}

impl<'a, 'b> Findings<'a, 'b> {
    pub(super) fn new(
        roots: (MessageRef<'a>, MessageRef<'a>),
        examples: Option<&'b ExampleBudget>,
        has_guard: bool,
    ) -> Findings<'a, 'b> {
        Findings {
            verdict: Verdict::default(),
            paths: Paths::new(roots.0.full_name()),
            roots,
            examples,
            flagged: Flagged::default(),
            has_guard,
        }
    }

    /// Records what `rule` found at `at`: charged first (a finding found is paid for whether or
    /// not the guard lets it through), then silenced if it is the guard's where the profile
    /// spoke, else counted, kept while there is room, and illustrated. `Ok(false)` when the
    /// allowance cannot pay: the walk stops.
    pub(super) fn record(
        &mut self,
        allowance: &mut Allowance<'_>,
        rule: &'static Rule,
        voice: Voice,
        at: At<'_>,
        violation: Violation,
    ) -> Result<bool, CheckError> {
        // A finding about one side is worked out once per schema; a pair copies it.
        let units = match at {
            At::OneSide(_) => weight::FINDING,
            At::Roots | At::Pair(_) => findings_units([&violation]),
        };
        if !allowance.once(units)? {
            return Ok(false);
        }
        // The guard meets the profile's own rules pair by pair: what one schema holds, or
        // different roots, are nobody's field.
        if self.has_guard && matches!(at, At::Pair(_)) {
            match voice {
                Voice::Own => self.flagged.add(&violation.field),
                // Hashed for the look-up, as the finding's text was.
                Voice::Guard if self.flagged.holds(&violation.field) => return Ok(true),
                Voice::Guard => {}
            }
        }
        // What an example is searched for, taken before the verdict takes the finding.
        let subject = match at {
            At::Pair(_) if self.examples.is_some() && rule.id.is_about_data() => {
                Some(Subject::of(&violation))
            }
            _ => None,
        };
        let (paths, roots) = (&self.paths, self.roots);
        let path = |field: Option<&str>| match at {
            At::Roots => bound(roots.1.full_name(), PATH_LIMIT),
            At::OneSide(path) => path.to_owned(),
            At::Pair(step) => paths.render(step, field),
        };
        let Some(kept) = self.verdict.record(rule, path, violation) else {
            return Ok(true);
        };
        let Some(budget) = self.examples else {
            return Ok(true);
        };
        match (at, subject) {
            (At::OneSide(_), _) => kept.example = Some(Err(ONE_SIDE.to_owned())),
            (At::Pair(step), Some(subject)) => {
                kept.example = Some(match example::too_deep(paths.depth(step)) {
                    Some(why) => Err(why),
                    None => example::of(roots, &paths.trail(step), &subject, budget),
                });
            }
            _ => {}
        }
        Ok(true)
    }
}

/// Where the profile's own rules found something in the pair being compared: the fields'
/// names, and the message itself. A guard reports nothing there
/// (docs/rules.md#no-silent-data-loss). A hash set, since a pair may hold a finding for every
/// one of its fields and each is looked up for every field.
#[derive(Default)]
pub(super) struct Flagged {
    fields: HashSet<String>,
    message: bool,
}

impl Flagged {
    fn add(&mut self, field: &Option<String>) {
        match field {
            Some(name) => {
                self.fields.insert(name.clone());
            }
            None => self.message = true,
        }
    }

    fn holds(&self, field: &Option<String>) -> bool {
        match field {
            Some(name) => self.holds_field(name),
            None => self.message,
        }
    }

    pub(super) fn holds_any_field(&self) -> bool {
        !self.fields.is_empty()
    }

    pub(super) fn holds_field(&self, name: &str) -> bool {
        self.fields.contains(name)
    }

    /// Empty for the next pair: a fresh set where one was used, since clearing a set costs
    /// its capacity, which one large pair may have grown for every later pair.
    pub(super) fn reset(&mut self) {
        if !self.fields.is_empty() {
            self.fields = HashSet::new();
        }
        self.message = false;
    }
}
