//! What became of each finding's fix when the fixes are made together, as `--fix` makes them:
//! the fixes of failures (and of warnings with `--fix-warnings`), each placed in the source
//! without overlapping another, then proven together by the engine ([`Planner::combine`]).

use protocompat::remedy::{Remedy, Together};
use protocompat::Finding;
use serde::Serialize;

use super::apply::overlaps;
use super::place::TextEdit;
use super::Fixes;

/// A finding's fix, as `--fix` treats it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Proven, alone and with the other fixes: `--fix` makes it.
    Fix,
    /// A warning's fix, proven: the broker accepts the change as it is, so `--fix` leaves it
    /// and `--fix-warnings` makes it.
    Suggested,
    /// Made by this `--fix`.
    Applied,
    /// Not needed: the fix of the finding at `by` (its place in the report, failures first)
    /// removes this one too.
    Covered { by: usize },
    /// Proven alone, but `--fix` leaves it out (why): it does not hold with the fixes before
    /// it, or it cannot be placed in the source.
    Left { why: String },
    /// Every edit tried was refused by the re-check (`tried` says why); advice instead.
    Unproven,
    /// No edit of the new schema helps: advice.
    Advice,
}

/// Settles the fixes marked [`Status::Fix`] as `--fix` would make them: a fix without a place
/// in editable source, or whose edits overlap one taken before it, is left; the rest are
/// proven together, and those that do not hold with the ones before them are left too.
pub(super) fn together(fixes: &mut Fixes, findings: &[(&Finding, bool)]) {
    let editable = fixes.source.as_ref().is_some_and(|s| s.editable());
    let mut candidates: Vec<usize> = Vec::new();
    let mut placed: Vec<&TextEdit> = Vec::new();
    let mut left: Vec<(usize, String)> = Vec::new();
    for (index, entry) in fixes.list.iter().enumerate() {
        let (Status::Fix, Some(fix)) = (&entry.status, &entry.fix) else {
            continue;
        };
        if editable {
            if !fix.is_placed() {
                left.push((
                    index,
                    "its edits have no place in the source: make them by hand".to_owned(),
                ));
                continue;
            }
            let fresh: Vec<&TextEdit> = fix.placed.iter().filter(|e| !placed.contains(e)).collect();
            if fresh.iter().any(|e| placed.iter().any(|p| overlaps(p, e))) {
                left.push((
                    index,
                    "its edits overlap those of a fix before it in the source: run --fix again \
                     once that one is made"
                        .to_owned(),
                ));
                continue;
            }
            placed.extend(fresh);
        }
        candidates.push(index);
    }
    let items: Vec<(&Finding, &Remedy)> = candidates
        .iter()
        .filter_map(|&i| Some((findings[i].0, &fixes.list[i].fix.as_ref()?.remedy)))
        .collect();
    let together = fixes.planner.combine(&items);
    // A failure no fix of its own removes may go with the fixes made.
    let unfixed: Vec<usize> = (0..fixes.list.len())
        .filter(|&i| {
            !findings[i].1 && matches!(fixes.list[i].status, Status::Advice | Status::Unproven)
        })
        .collect();
    let asked: Vec<&Finding> = unfixed.iter().map(|&i| findings[i].0).collect();
    let covered: Vec<(usize, Status)> = unfixed
        .iter()
        .zip(fixes.planner.covered_by(&items, &together, &asked))
        .filter_map(|(&i, by)| {
            Some((
                i,
                Status::Covered {
                    by: candidates[by?],
                },
            ))
        })
        .collect();
    let settled: Vec<(usize, Status)> = candidates
        .iter()
        .zip(together)
        .map(|(&index, outcome)| {
            let status = match outcome {
                Together::Made => Status::Fix,
                Together::Covered(by) => Status::Covered { by: candidates[by] },
                Together::Refused(why) => Status::Left { why },
            };
            (index, status)
        })
        .chain(left.into_iter().map(|(i, why)| (i, Status::Left { why })))
        .chain(covered)
        .collect();
    for (index, status) in settled {
        fixes.list[index].status = status;
    }
}
