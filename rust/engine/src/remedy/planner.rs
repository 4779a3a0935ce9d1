//! The planner: candidate remedies per finding from the two schemas' declarations, each proven
//! by a re-check ([`super::prove`]) before it is offered, and the fixes of a check made
//! together, as `--fix` makes them.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use crate::limits::Limits;
use crate::model::{Schema, SchemaData};
use crate::report::{Finding, Report};
use crate::schema_ref::SchemaRef;
use crate::strategy::Direction;

use super::fresh::Reserved;
use super::prove::{Proof, Recheck};
use super::site::Site;
use super::{retype, unfixable, Edit, Planned, Refused, Remedy};

/// What became of one fix when the fixes of a check are made together ([`Planner::combine`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Together {
    /// Made with the others, which it does not undo.
    Made,
    /// Not needed: the fix of the entry at this index, made before it, removes its finding too.
    Covered(usize),
    /// Left out: with the fixes made before it, it does not hold (the reason).
    Refused(String),
}

/// Plans remedies for the findings of one check: candidates per finding from the two schemas'
/// declarations, each proven by a re-check ([`super::prove`]) before it is offered. The new schema
/// is decoded once, each existing one the first time a finding names it.
pub struct Planner<'d> {
    new: Option<Decoded>,
    existing: Vec<(&'d [u8], OnceCell<Option<Decoded>>)>,
    limits: Limits,
    proof: Proof<'d>,
}

struct Decoded {
    schema: Schema,
    reserved: Reserved,
}

impl Decoded {
    fn of(data: &[u8], limits: &Limits) -> Option<Decoded> {
        let schema = Schema::decode_within(data, limits).ok()?;
        let reserved = SchemaData::parse(data)
            .map(|d| Reserved::of(&d.descriptor_set))
            .unwrap_or_default();
        Some(Decoded { schema, reserved })
    }
}

impl<'d> Planner<'d> {
    /// `report`: what the check of `recheck`'s schemas found, which re-checks compare with.
    pub fn new(recheck: &Recheck<'d>, report: &Report) -> Planner<'d> {
        Planner {
            new: Decoded::of(recheck.new, &recheck.limits),
            existing: recheck
                .existing
                .iter()
                .map(|&data| (data, OnceCell::new()))
                .collect(),
            limits: recheck.limits,
            proof: Proof::new(recheck, report),
        }
    }

    fn existing(&self, index: usize) -> Option<&Decoded> {
        let (data, decoded) = self.existing.get(index)?;
        decoded
            .get_or_init(|| Decoded::of(data, &self.limits))
            .as_ref()
    }

    /// How many re-checks planning has made so far.
    pub fn rechecks(&self) -> u64 {
        self.proof.rechecks()
    }

    /// The candidate remedies for `finding`, in the order they are tried; some may be advice.
    fn candidates(&self, finding: &Finding) -> Vec<Remedy> {
        let old = match finding.existing.as_ref().map(|e| e.which) {
            Some(SchemaRef::Existing(index)) => self.existing(index),
            _ => None,
        };
        let site = match (&self.new, old, finding.direction) {
            (Some(new), Some(old), Some(direction)) => Site::of(
                finding,
                (&new.schema, &new.reserved),
                &old.schema,
                direction == Direction::NewWritesExistingReads,
            ),
            _ => None,
        };
        match &site {
            Some(site) if site.retyped => retype::keep_old_add_new(site),
            Some(site) => (finding.rule.spec().plan)(site),
            None => unfixable::without_site(finding),
        }
    }

    /// What to write instead of what `finding` is about: each candidate tried by a re-check
    /// until one holds; advice where none does.
    pub fn plan(&self, finding: &Finding) -> Planned {
        let mut planned = Planned::default();
        for candidate in self.candidates(finding) {
            if candidate.edits.is_empty() {
                planned.advice.push(candidate);
            } else if planned.fix.is_none() {
                match self.proof.prove(&candidate.edits, &[finding]) {
                    Ok(()) => planned.fix = Some(candidate),
                    Err(refusal) => planned.refused.push(Refused {
                        remedy: candidate,
                        why: refusal.why,
                        kind: refusal.kind,
                    }),
                }
            }
        }
        if planned.fix.is_none() && planned.advice.is_empty() {
            let found = if planned.refused.is_empty() {
                "no edit found"
            } else {
                "no edit tried holds"
            };
            planned.advice.push(Remedy::advice(format!(
                "{found}: {} (docs/rules.md#{})",
                finding.rule.hint(),
                finding.rule.id().to_ascii_lowercase()
            )));
        }
        planned
    }

    /// The fixes `fixes` (each with the finding it is for, in the order they are to be made)
    /// made together: the first that hold with those before them are made, the rest are left
    /// out with why, and a fix whose finding an earlier one removes is not needed. One re-check
    /// when they all hold together, one per fix otherwise.
    pub fn combine(&self, fixes: &[(&Finding, &Remedy)]) -> Vec<Together> {
        let targets: Vec<&Finding> = fixes.iter().map(|(f, _)| *f).collect();
        let all = union(fixes.iter().map(|(_, r)| r.edits.as_slice()));
        if fixes.len() > 1 && self.proof.prove(&all, &targets).is_ok() {
            return self.attribute(fixes, &vec![true; fixes.len()]);
        }
        let mut made: Vec<Edit> = Vec::new();
        let mut made_for: Vec<&Finding> = Vec::new();
        let mut taken = vec![false; fixes.len()];
        let mut refused: HashMap<usize, String> = HashMap::new();
        for (index, (finding, remedy)) in fixes.iter().enumerate() {
            if !made.is_empty() && self.proof.leaves(&made, finding) == Ok(false) {
                continue;
            }
            let with = union([made.as_slice(), &remedy.edits]);
            let mut wanted = made_for.clone();
            wanted.push(finding);
            match self.proof.prove(&with, &wanted) {
                Ok(()) => {
                    made = with;
                    made_for = wanted;
                    taken[index] = true;
                }
                Err(refusal) => {
                    let why = format!("with the fixes made before it, {}", refusal.why);
                    refused.insert(index, why);
                }
            }
        }
        let mut together = self.attribute(fixes, &taken);
        for (index, why) in refused {
            together[index] = Together::Refused(why);
        }
        together
    }

    /// Each fix `taken` is made; each other is covered by the first taken fix before it whose
    /// edits (with those before it) remove its finding.
    fn attribute(&self, fixes: &[(&Finding, &Remedy)], taken: &[bool]) -> Vec<Together> {
        let steps = steps(fixes, |index| taken[index]);
        fixes
            .iter()
            .enumerate()
            .map(|(index, (finding, remedy))| {
                if taken[index] {
                    return Together::Made;
                }
                // The same edits as a fix made: the same fix, for this finding too.
                if let Some((by, _)) = fixes[..index]
                    .iter()
                    .enumerate()
                    .find(|(i, (_, r))| taken[*i] && r.edits == remedy.edits)
                {
                    return Together::Covered(by);
                }
                self.first_removing(&steps, finding).map_or_else(
                    || Together::Refused("not made".to_owned()),
                    Together::Covered,
                )
            })
            .collect()
    }

    /// For each of `findings` (ones with no fix of their own), the index of the fix of `fixes`
    /// whose making, with those made before it, removes it, once `together` says which were
    /// made. The made fixes' steps are worked out once for all of them.
    pub fn covered_by(
        &self,
        fixes: &[(&Finding, &Remedy)],
        together: &[Together],
        findings: &[&Finding],
    ) -> Vec<Option<usize>> {
        let steps = steps(fixes, |index| together[index] == Together::Made);
        let Some((_, all)) = steps.last() else {
            return vec![None; findings.len()];
        };
        findings
            .iter()
            .map(|finding| {
                if self.proof.leaves(all, finding) != Ok(false) {
                    return None;
                }
                self.first_removing(&steps, finding)
            })
            .collect()
    }

    fn first_removing(&self, steps: &[(usize, Vec<Edit>)], finding: &Finding) -> Option<usize> {
        steps
            .iter()
            .find(|(_, edits)| self.proof.leaves(edits, finding) == Ok(false))
            .map(|(by, _)| *by)
    }
}

/// The fixes made, each with the edits of it and of those made before it.
fn steps(fixes: &[(&Finding, &Remedy)], made: impl Fn(usize) -> bool) -> Vec<(usize, Vec<Edit>)> {
    let mut prefix: Vec<Edit> = Vec::new();
    let mut steps = Vec::new();
    for (index, (_, remedy)) in fixes.iter().enumerate() {
        if made(index) {
            prefix = union([prefix.as_slice(), &remedy.edits]);
            steps.push((index, prefix.clone()));
        }
    }
    steps
}

/// The edits of `lists` in order, each once.
fn union<'r>(lists: impl IntoIterator<Item = &'r [Edit]>) -> Vec<Edit> {
    let mut seen: HashSet<&Edit> = HashSet::new();
    let mut edits = Vec::new();
    for list in lists {
        for edit in list {
            if seen.insert(edit) {
                edits.push(edit.clone());
            }
        }
    }
    edits
}
