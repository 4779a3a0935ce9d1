//! Proven before shown: a candidate remedy is applied to the new schema in memory and the check
//! is made again, under the same profile, strategy, history and limits. It holds only if each
//! finding it is for is gone and nothing appears that was not there before (no failure, no
//! warning): a remedy that trades one finding for another is refused, with the finding it adds.
//!
//! Re-checks draw on a budget of their own ([`PROOF_WORK`]), so that a history an uploader
//! made costly can make planning slow by at most that much: what is left unproven when it runs
//! out is said, never shown as a fix.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::checker::{Bounds, Checker};
use crate::limits::Limits;
use crate::model::SchemaData;
use crate::report::{Finding, Report};
use crate::rules::{Profile, RuleId};
use crate::schema_ref::SchemaRef;
use crate::strategy::{Direction, Strategy};

use super::descriptor::{apply, Tree};
use super::edit::Edit;
use super::print;

/// Work units all re-checks of one planning may spend together: about a second of one core at
/// the cost model's rate (RELIABILITY.md, "The cost model"), dozens of re-checks of a real
/// schema against a real history, and what a schema at the limits takes for a few. A re-check
/// is started only while what is left covers one more check as costly as the first.
pub const PROOF_WORK: u64 = 1_000_000_000;

/// What a check is compared again: the schemas, the strategy, the profile and limits of the
/// check whose findings are being remedied, and what that check cost.
pub struct Recheck<'d> {
    pub existing: Vec<&'d [u8]>,
    pub new: &'d [u8],
    pub strategy: Strategy,
    pub profile: &'static Profile,
    pub limits: Limits,
    /// The work units the check that found the findings was charged: what one re-check
    /// costs, near enough.
    pub work: u64,
}

/// Why the re-check refused a candidate, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RefusalKind {
    /// A finding appears that was not there before.
    AddsFinding,
    /// The finding it is for is still there.
    FindingStays,
    /// A name it would write is not an identifier.
    NotWritable,
    /// Its edits cannot be made to the new schema (protoc would refuse them).
    NotApplicable,
    /// The schema it makes is refused by the check (a limit, a bad schema).
    SchemaRefused,
    /// Not tried: the re-checks' budget is spent.
    Budget,
}

impl RefusalKind {
    /// As the JSON report names it.
    pub fn name(self) -> &'static str {
        match self {
            RefusalKind::AddsFinding => "adds_finding",
            RefusalKind::FindingStays => "finding_stays",
            RefusalKind::NotWritable => "not_writable",
            RefusalKind::NotApplicable => "not_applicable",
            RefusalKind::SchemaRefused => "schema_refused",
            RefusalKind::Budget => "budget",
        }
    }
}

/// A refusal: its kind, and the sentence that says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub why: String,
}

fn refusal(kind: RefusalKind, why: impl Into<String>) -> Refusal {
    Refusal {
        kind,
        why: why.into(),
    }
}

/// A finding as re-checks recognise it: everything but its example and the digest of the
/// new schema, which every edit changes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    rule: RuleId,
    direction: Option<Direction>,
    existing: Option<usize>,
    path: String,
    number: Option<u32>,
    writer: String,
    reader: String,
}

impl Key {
    fn of(finding: &Finding) -> Key {
        Key {
            rule: finding.rule,
            direction: finding.direction,
            existing: finding.existing.as_ref().and_then(|e| match e.which {
                SchemaRef::Existing(index) => Some(index),
                SchemaRef::New => None,
            }),
            path: finding.path.clone(),
            number: finding.field_number,
            writer: finding.writer.clone(),
            reader: finding.reader.clone(),
        }
    }
}

/// The findings of one check, as keys, with the counts past the kept ones.
struct Findings {
    keys: HashSet<Key>,
    /// The kept findings in report order, each named, with whether it is a warning.
    listed: Vec<(Key, String, bool)>,
    failures: usize,
    warnings: usize,
}

impl Findings {
    fn of(report: &Report) -> Findings {
        let listed: Vec<(Key, String, bool)> = report
            .failures
            .iter()
            .map(|f| (f, false))
            .chain(report.warnings.iter().map(|w| (w, true)))
            .map(|(f, warning)| (Key::of(f), short(f), warning))
            .collect();
        Findings {
            keys: listed.iter().map(|(k, _, _)| k.clone()).collect(),
            listed,
            failures: report.total_failures,
            warnings: report.total_warnings,
        }
    }

    fn holds(&self, finding: &Finding) -> bool {
        self.keys.contains(&Key::of(finding))
    }
}

/// A finding named in a refusal's sentence, bounded.
fn short(finding: &Finding) -> String {
    crate::text::bound(&finding.short(), 200)
}

/// What a re-check found, or why none was made; shared by the findings that ask again.
type Outcome = Rc<Result<Findings, Refusal>>;

/// The new schema as edits apply to it.
struct Base {
    data: SchemaData,
    tree: Tree,
}

pub(crate) struct Proof<'d> {
    checker: Checker,
    existing: Vec<&'d [u8]>,
    strategy: Strategy,
    /// `Err`: why no edit of the new schema can be tried.
    base: Result<Base, Refusal>,
    before: Findings,
    /// A re-check's likely cost, and what is left to spend.
    per_check: u64,
    left: Cell<u64>,
    /// What each set of edits was found to leave, so that a remedy two findings share (FULL's
    /// two directions) is checked once.
    tried: RefCell<HashMap<Vec<Edit>, Outcome>>,
    /// How many re-checks were made, for the closing figures.
    rechecks: Cell<u64>,
}

impl<'d> Proof<'d> {
    pub(crate) fn new(recheck: &Recheck<'d>, report: &Report) -> Proof<'d> {
        let base = SchemaData::parse(recheck.new)
            .map_err(|e| {
                let why = format!("the new schema's data cannot be read again: {}", e.message);
                refusal(RefusalKind::NotApplicable, why)
            })
            .and_then(|data| {
                let tree = Tree::parse(&data.descriptor_set).map_err(|e| {
                    let why = format!("the new schema's descriptors cannot be edited: {e}");
                    refusal(RefusalKind::NotApplicable, why)
                })?;
                Ok(Base { data, tree })
            });
        Proof {
            checker: Checker::with_limits(Bounds::DEFAULT, recheck.limits)
                .with_profile(recheck.profile),
            existing: recheck.existing.clone(),
            strategy: recheck.strategy,
            base,
            before: Findings::of(report),
            per_check: recheck.work.max(1),
            left: Cell::new(PROOF_WORK),
            tried: RefCell::new(HashMap::new()),
            rechecks: Cell::new(0),
        }
    }

    /// How many re-checks were made so far.
    pub(crate) fn rechecks(&self) -> u64 {
        self.rechecks.get()
    }

    /// `Ok` if `edits` remove every one of `targets` and add no finding; else why not.
    pub(crate) fn prove(&self, edits: &[Edit], targets: &[&Finding]) -> Result<(), Refusal> {
        let after = self.after(edits);
        let after = after.as_ref().as_ref().map_err(Clone::clone)?;
        if let Some(target) = targets.iter().find(|t| after.holds(t)) {
            let why = format!("the re-check still finds {}", short(target));
            return Err(refusal(RefusalKind::FindingStays, why));
        }
        self.adds_nothing(after)
    }

    /// Whether the check with `edits` made still finds `finding`; `Err` when it cannot tell.
    pub(crate) fn leaves(&self, edits: &[Edit], finding: &Finding) -> Result<bool, Refusal> {
        let after = self.after(edits);
        let after = after.as_ref().as_ref().map_err(Clone::clone)?;
        Ok(after.holds(finding))
    }

    /// Whether `after` holds nothing `before` did not. Strictly: a warning of `pip246`'s guard
    /// that the profile's own finding at the same place kept unsaid before (docs/rules.md,
    /// "No silent data loss") counts as added too, since the user sees it only after the fix.
    fn adds_nothing(&self, after: &Findings) -> Result<(), Refusal> {
        if let Some((_, named, warning)) = after
            .listed
            .iter()
            .find(|(key, _, _)| !self.before.keys.contains(key))
        {
            let kind = if *warning { "warning" } else { "failure" };
            let why = format!("it adds {named} (a {kind})");
            return Err(refusal(RefusalKind::AddsFinding, why));
        }
        if after.failures > self.before.failures || after.warnings > self.before.warnings {
            let why = format!(
                "it adds findings past the first ones listed ({} failures and {} warnings \
                 after it, {} and {} before)",
                after.failures, after.warnings, self.before.failures, self.before.warnings
            );
            return Err(refusal(RefusalKind::AddsFinding, why));
        }
        Ok(())
    }

    /// The findings of the check of the new schema with `edits` made, or why there are none;
    /// worked out once per set of edits (a spent budget stays spent, so its answer keeps).
    fn after(&self, edits: &[Edit]) -> Outcome {
        if let Some(known) = self.tried.borrow().get(edits) {
            return known.clone();
        }
        let outcome = Rc::new(self.recheck(edits));
        self.tried
            .borrow_mut()
            .insert(edits.to_vec(), outcome.clone());
        outcome
    }

    fn recheck(&self, edits: &[Edit]) -> Result<Findings, Refusal> {
        print::check(edits).map_err(|e| {
            refusal(
                RefusalKind::NotWritable,
                format!("it cannot be written: {e}"),
            )
        })?;
        let base = self.base.as_ref().map_err(Clone::clone)?;
        if self.left.get() < self.per_check {
            return Err(refusal(
                RefusalKind::Budget,
                "not tried: the re-checks' budget is spent (a costly history), so this edit is \
                 not proven",
            ));
        }
        let mut tree = base.tree.clone();
        apply(&mut tree, edits).map_err(|e| {
            refusal(
                RefusalKind::NotApplicable,
                format!("it cannot be made: {e}"),
            )
        })?;
        let data = SchemaData {
            descriptor_set: tree.encode(),
            root_message: base.data.root_message.clone(),
            root_file: base.data.root_file.clone(),
        }
        .to_json();
        self.rechecks.set(self.rechecks.get() + 1);
        let checked = self
            .checker
            .check(&self.existing, data.as_bytes(), self.strategy);
        let spent = self.checker.stats().last_check_work;
        self.left.set(self.left.get().saturating_sub(spent));
        let report = checked.map_err(|e| {
            let why = format!(
                "the schema it makes is refused: {}",
                crate::text::bound(&e.to_string(), 300)
            );
            refusal(RefusalKind::SchemaRefused, why)
        })?;
        Ok(Findings::of(&report))
    }
}
