//! `canRead(W, R)`: walks every message pair reachable from the two roots through fields
//! matched by number, and applies every rule of a [`Profile`] to each pair once: each ordered
//! (writer, reader) pair of messages, and of enums, that matched fields refer to. Which types
//! are paired is the profile's choice (same full name, or any two: `rules::Types`).
//!
//! Breadth-first with an explicit queue, so recursive types terminate (each pair is compared
//! once) and a chain thousands of messages deep costs heap, not stack. What one pair's walk
//! holds stays bounded whatever the schemas produce: a path is a parent index per queued pair,
//! rendered (and cut) only for the findings that are kept (`paths`), and only the first
//! [`KEPT_FINDINGS`] findings of each severity are kept; the rest are counted (`verdict`).
//!
//! What it costs is charged as it goes ([`Allowance`], the cost model in `crate::budget`):
//! each message pair, every field of both its messages and the text they hold (names,
//! defaults), each matched field pair, every value of both enums of an enum pair and their
//! names, each finding. What one schema holds on its own is looked at
//! once per schema, not per pair (`reachable`).
//!
//! - this file: the roots, what each side holds on its own, then the queue of message pairs;
//! - `pair`: one message pair visited, rule kind by rule kind, field pair by field pair;
//! - `record`: where every finding goes, charged, met by the guard, kept and illustrated;
//! - `paths`, `seen`, `verdict`: where a pair is, what was met, what was found.

/// Stops the walk when the allowance cannot pay (`$spent` is `Ok(false)`): returns `Ok(false)`,
/// or `Ok($stopped)`.
macro_rules! pay {
    ($spent:expr) => {
        pay!($spent, false)
    };
    ($spent:expr, $stopped:expr) => {
        if !$spent? {
            return Ok($stopped);
        }
    };
}

mod pair;
mod paths;
mod reachable;
mod record;
mod seen;
mod verdict;

pub(crate) use reachable::{reached_weight, Side};
#[cfg(test)]
pub(crate) use verdict::Found;
pub(crate) use verdict::Verdict;
pub use verdict::KEPT_FINDINGS;

use crate::budget::Allowance;
use crate::error::CheckError;
use crate::example::ExampleBudget;
use crate::rules::{Check, MessagePair, Profile, Violation};
use pair::Visitor;
use record::{At, Findings, Voice};

/// `Ok(None)` when comparing would take more than `allowance` allows; an error when the check
/// holds more memory or uses more CPU time than its budgets allow.
pub(crate) fn can_read(
    profile: &'static Profile,
    writer: &Side,
    reader: &Side,
    allowance: &mut Allowance<'_>,
    examples: Option<&ExampleBudget>,
) -> Result<Option<Verdict>, CheckError> {
    let walked = walk(profile, (writer, reader), allowance, false, examples)?;
    Ok(walked.map(|walked| Verdict {
        cost: allowance.forth(),
        ..walked.verdict
    }))
}

/// [`can_read`] both ways, `writer` to `reader` and back, as FULL strategies ask: one traversal
/// compares every message pair, matches its fields and works out their types once for both
/// directions. The way back is only asked whether it finds anything: its findings would need
/// paths in the order its own walk reaches the pairs, so when it finds something it is walked
/// again on its own, and its verdict is exactly what [`can_read`] gives. Each verdict costs
/// what its direction's walk alone costs; `allowance` must charge each way (`ways` 2).
pub(crate) fn can_read_both_ways(
    profile: &'static Profile,
    writer: &Side,
    reader: &Side,
    allowance: &mut Allowance<'_>,
    examples: Option<&ExampleBudget>,
) -> Result<Option<(Verdict, Verdict)>, CheckError> {
    let Some(walked) = walk(profile, (writer, reader), allowance, true, examples)? else {
        return Ok(None);
    };
    let forth = Verdict {
        cost: allowance.forth(),
        ..walked.verdict
    };
    if !walked.back_finds {
        let back = Verdict {
            cost: allowance.back(),
            ..Verdict::default()
        };
        return Ok(Some((forth, back)));
    }
    // The way back's share of what was charged, charged again by its own walk.
    let mut alone = allowance.alone_after();
    Ok(can_read(profile, reader, writer, &mut alone, examples)?.map(|back| (forth, back)))
}

/// What one traversal found: the verdict of `writer` to `reader`, and, when the way back was
/// asked too, whether it finds anything.
struct Walked {
    verdict: Verdict,
    back_finds: bool,
}

/// `examples`: the check's budget for examples, when kept findings about data get one
/// (docs/rules.md#examples).
fn walk<'a>(
    profile: &'static Profile,
    (writer_side, reader_side): (&'a Side, &'a Side),
    allowance: &mut Allowance<'_>,
    both_ways: bool,
    examples: Option<&ExampleBudget>,
) -> Result<Option<Walked>, CheckError> {
    let roots = (writer_side.root(), reader_side.root());
    let has_guard = !profile.guard.is_empty();
    let mut findings = Findings::new(roots, examples, has_guard);
    let root_pair = MessagePair::new(roots.0, roots.1, &[]);
    for rule in profile.rules {
        let Check::Roots(check) = rule.check else {
            continue;
        };
        if let Some(violation) = check(&root_pair) {
            // Different root messages are different types: comparing their fields would only
            // add noise to a verdict that is already final.
            pay!(
                findings.record(allowance, rule, Voice::Own, At::Roots, violation),
                None
            );
            let back_finds = both_ways && check(&root_pair.back(&[])).is_some();
            return Ok(Some(Walked {
                verdict: findings.verdict,
                back_finds,
            }));
        }
    }
    let mut ask_back = both_ways;
    for (rule, voice) in profile
        .rules
        .iter()
        .map(|r| (r, Voice::Own))
        .chain(profile.guard.iter().map(|r| (r, Voice::Guard)))
    {
        let Check::Reachable {
            worth_looking,
            message,
            field,
        } = rule.check
        else {
            continue;
        };
        let mut found = false;
        for (on_writer, of) in [(true, writer_side), (false, reader_side)] {
            let reached = of.reached(rule, worth_looking, message, field);
            found |= reached.total > 0;
            for one in &reached.kept {
                let what = one.what.clone();
                let (writer, reader) = if on_writer {
                    (what, String::new())
                } else {
                    (String::new(), what)
                };
                let violation = Violation {
                    field: None,
                    number: one.number,
                    writer,
                    reader,
                };
                let at = At::OneSide(&one.path);
                pay!(findings.record(allowance, rule, voice, at, violation), None);
            }
            findings
                .verdict
                .count(rule.severity, reached.total - reached.kept.len());
        }
        // Both graphs are the way back's too, sides swapped.
        ask_back &= !found;
    }
    let mut visitor = Visitor::new(profile, allowance, findings, ask_back, roots);
    while let Some(queued) = visitor.queue.pop_front() {
        pay!(visitor.visit(queued), None);
    }
    Ok(Some(Walked {
        back_finds: both_ways && !visitor.ask_back,
        verdict: visitor.findings.verdict,
    }))
}
