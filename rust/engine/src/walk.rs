//! `canRead(W, R)`: walks every message pair reachable from the two roots through fields
//! matched by number, and applies every rule of a [`Profile`] to each pair once: each ordered
//! (writer, reader) pair of messages, and of enums, that matched fields refer to. Which types
//! are paired is the profile's choice (same full name, or any two: [`Types`]).
//!
//! Breadth-first with an explicit queue, so recursive types terminate (each pair is compared
//! once) and a chain thousands of messages deep costs heap, not stack. What one pair's walk
//! holds stays bounded whatever the schemas produce: a path is a parent index per queued pair,
//! rendered (and cut) only for the findings that are kept, and only the first
//! [`KEPT_FINDINGS`] findings of each severity are kept; the rest are counted.

use std::collections::{HashSet, VecDeque};

use crate::example::{self, Example, ExampleBudget, Subject};
use crate::model::{FieldRef, MessageRef};

use crate::budget::Budget;
use crate::error::CheckError;
use crate::rules::{
    Check, FieldCheck, FieldPair, MessageCheck, MessagePair, Profile, Rule, Severity, Types,
    Violation,
};
use crate::text::bound;

/// Findings of each severity kept per compared pair and per report: more than a 4 KiB text
/// can show. The rest are counted, never held (docs/rules.md#results).
pub const KEPT_FINDINGS: usize = 64;
/// Longest path kept in a finding; a longer one keeps its root and its last fields.
const PATH_LIMIT: usize = 512;
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
    /// The field comparisons the walk cost, which a check charges again whenever it takes
    /// the verdict from the cache.
    pub comparisons: usize,
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
    fn record(
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
}

/// One queued message pair's place in the walk: the pair it was reached from, and through
/// which reader field. Index 0 is the root pair.
struct Step<'a> {
    parent: usize,
    /// The (writer, reader) fields it was reached through.
    field: Option<(FieldRef<'a>, FieldRef<'a>)>,
}

struct Paths<'a> {
    root: String,
    steps: Vec<Step<'a>>,
}

impl<'a> Paths<'a> {
    /// `root.a.b.field`, at most [`PATH_LIMIT`] bytes: past that the root, `…`, and as many of
    /// the last names as fit.
    fn render(&self, mut step: usize, field: Option<&str>) -> String {
        let mut names: Vec<&str> = field.into_iter().collect();
        while let Some((_, through)) = &self.steps[step].field {
            names.push(through.name());
            step = self.steps[step].parent;
        }
        let full: usize = self.root.len() + names.iter().map(|n| n.len() + 1).sum::<usize>();
        if full <= PATH_LIMIT {
            let mut path = self.root.clone();
            for name in names.iter().rev() {
                path.push('.');
                path.push_str(name);
            }
            return path;
        }
        let head = bound(&self.root, PATH_LIMIT / 4);
        let mut tail: Vec<String> = Vec::new();
        let mut room = PATH_LIMIT - head.len() - 32;
        for name in &names {
            let name = bound(name, PATH_LIMIT / 4);
            if name.len() + 1 > room {
                break;
            }
            room -= name.len() + 1;
            tail.push(name);
        }
        let skipped = names.len() - tail.len();
        tail.reverse();
        format!("{head}.…({skipped} more).{}", tail.join("."))
    }

    /// The (writer, reader) fields from the roots to the pair at `step`.
    fn trail(&self, mut step: usize) -> Vec<(FieldRef<'a>, FieldRef<'a>)> {
        let mut trail = Vec::new();
        while let Some(through) = self.steps[step].field {
            trail.push(through);
            step = self.steps[step].parent;
        }
        trail.reverse();
        trail
    }
}

/// Why a finding about one schema alone has no example.
const ONE_SIDE: &str = "it is about what one schema holds (extension ranges, a MessageSet, an \
                        enum Java reads as closed), not about a field the two schemas share";

/// The roots of the walk and the check's budget for examples, when it was asked for them.
type Examples<'a, 'b> = Option<((MessageRef<'a>, MessageRef<'a>), &'b ExampleBudget)>;

/// Gives a kept finding about data its example, when the walk was asked for them.
fn illustrate<'a>(
    found: Option<&mut Found>,
    examples: Examples<'a, '_>,
    paths: &Paths<'a>,
    step: usize,
    subject: &Subject,
) {
    if let (Some(found), Some((roots, budget))) = (found, examples) {
        if found.rule.id.is_about_data() {
            found.example = Some(example::of(roots, &paths.trail(step), subject, budget));
        }
    }
}

/// How many field pairs the walk compares between two looks at the memory budget.
const MEMORY_CHECK_EVERY: usize = 4096;

/// `Ok(None)` when comparing would take more than `budget` field pairs (what it used is taken
/// off); an error when the check holds more memory than `memory` allows.
pub(crate) fn can_read(
    profile: &'static Profile,
    writer: MessageRef<'_>,
    reader: MessageRef<'_>,
    budget: &mut usize,
    memory: &Budget,
    examples: Option<&ExampleBudget>,
) -> Result<Option<Verdict>, CheckError> {
    let before = *budget;
    let walked = walk(profile, (writer, reader), budget, memory, false, examples)?;
    Ok(walked.map(|walked| Verdict {
        comparisons: before - *budget,
        ..walked.verdict
    }))
}

/// [`can_read`] both ways, `writer` to `reader` and back, as FULL strategies ask: one traversal
/// compares every message pair, matches its fields and works out their types once for both
/// directions. The way back is only asked whether it finds anything: its findings would need
/// paths in the order its own walk reaches the pairs, so when it finds something it is walked
/// again on its own, and its verdict is exactly what [`can_read`] gives. Charges `budget` as the
/// two walks would.
pub(crate) fn can_read_both_ways(
    profile: &'static Profile,
    writer: MessageRef<'_>,
    reader: MessageRef<'_>,
    budget: &mut usize,
    memory: &Budget,
    examples: Option<&ExampleBudget>,
) -> Result<Option<(Verdict, Verdict)>, CheckError> {
    let before = *budget;
    let Some(walked) = walk(profile, (writer, reader), budget, memory, true, examples)? else {
        return Ok(None);
    };
    // Every charge was twice the one-way walk's, and the way back costs what the way there
    // does: it compares the same pairs, each the other way round.
    let half = (before - *budget) / 2;
    let forth = Verdict {
        comparisons: half,
        ..walked.verdict
    };
    if !walked.back_finds {
        let back = Verdict {
            comparisons: half,
            ..Verdict::default()
        };
        return Ok(Some((forth, back)));
    }
    // The way back's half of what was charged, charged again by its own walk.
    *budget += half;
    Ok(can_read(profile, reader, writer, budget, memory, examples)?.map(|back| (forth, back)))
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
    (writer, reader): (MessageRef<'a>, MessageRef<'a>),
    budget: &mut usize,
    memory: &Budget,
    both_ways: bool,
    examples: Option<&ExampleBudget>,
) -> Result<Option<Walked>, CheckError> {
    let (rules, guard) = (profile.rules, profile.guard);
    let examples: Examples = examples.map(|budget| ((writer, reader), budget));
    let mut verdict = Verdict::default();
    // Whether the way back still has to be asked: until it finds something.
    let mut ask_back = both_ways;
    let roots = MessagePair {
        writer,
        reader,
        matched: &[],
    };
    for rule in rules {
        if let Check::Roots(check) = rule.check {
            if let Some(violation) = check(&roots) {
                // Different root messages are different types: comparing their fields
                // would only add noise to a verdict that is already final.
                let path = bound(reader.full_name(), PATH_LIMIT);
                verdict.record(rule, |_| path, violation);
                let back_finds = both_ways && check(&roots.back(&[])).is_some();
                return Ok(Some(Walked {
                    verdict,
                    back_finds,
                }));
            }
        }
    }
    for rule in rules.iter().chain(guard) {
        if let Check::Reachable {
            worth_looking,
            message,
            field,
        } = rule.check
        {
            let mut found = false;
            for (side, root) in [(Side::Writer, writer), (Side::Reader, reader)] {
                if !worth_looking(root) {
                    continue;
                }
                reachable(
                    root,
                    message,
                    field,
                    |path: &dyn Fn() -> String, number, what| {
                        found = true;
                        let (writer, reader) = match side {
                            Side::Writer => (what, String::new()),
                            Side::Reader => (String::new(), what),
                        };
                        let violation = Violation {
                            field: None,
                            number,
                            writer,
                            reader,
                        };
                        if let Some(kept) = verdict.record(rule, |_| path(), violation) {
                            if examples.is_some() {
                                kept.example = Some(Err(ONE_SIDE.to_owned()));
                            }
                        }
                    },
                );
            }
            // Both graphs are the way back's too, sides swapped.
            ask_back &= !found;
        }
    }
    // Each matched field pair is compared once each way.
    let charge = if both_ways { 2 } else { 1 };
    // Each with whether it is a guard's.
    let enum_rules: Vec<(&'static Rule, bool)> = rules
        .iter()
        .map(|r| (r, false))
        .chain(guard.iter().map(|r| (r, true)))
        .filter(|(r, _)| matches!(r.check, Check::Enums(_)))
        .collect();
    let mut enums_compared = SeenPairs::default();

    let mut paths = Paths {
        root: writer.full_name().to_owned(),
        steps: vec![Step {
            parent: 0,
            field: None,
        }],
    };
    // The way back reaches the same pairs, each the other way round.
    let mut compared = SeenPairs::default();
    let mut queue: VecDeque<(MessageRef, MessageRef, usize)> = VecDeque::new();
    compared.insert(writer.id(), reader.id());
    queue.push_back((writer, reader, 0));

    let mut violations = Vec::new();
    // The field rules that apply to the pair being compared, picked once per pair. A rule's
    // scope reads both sides alike, so the same rules apply on the way back.
    // Each with whether it is a guard's, the profile's own first.
    let mut field_rules: Vec<(&'static Rule, FieldCheck, bool)> =
        Vec::with_capacity(rules.len() + guard.len());
    // The guard's message rules that apply to the pair, run once its own have all spoken.
    let mut guard_messages: Vec<(&'static Rule, MessageCheck)> = Vec::new();
    // Where the profile's own rules found something in the pair: the fields' names, `None`
    // for the message itself. A guard reports nothing there (docs/rules.md#no-silent-data-loss).
    let mut flagged: Vec<Option<String>> = Vec::new();
    // The pair's fields matched by number, looked up once for every rule, in the writer's
    // order, and the same pairs the other way round in the reader's order.
    let mut matched: Vec<(FieldRef, FieldRef)> = Vec::new();
    let mut matched_back: Vec<(FieldRef, FieldRef)> = Vec::new();
    while let Some((writer, reader, step)) = queue.pop_front() {
        if profile.types == Types::ByStructure {
            // A message may meet many others when types pair by structure, and the message
            // rules read every field of both sides (required fields, names): that is work too.
            let fields = writer.fields().len() + reader.fields().len();
            if !spend(budget, fields * charge) {
                return Ok(None);
            }
        }
        matched.clear();
        for writer_field in writer.fields() {
            let Some(reader_field) = reader.field(writer_field.number()) else {
                continue;
            };
            let Some(left) = budget.checked_sub(charge) else {
                return Ok(None);
            };
            *budget = left;
            if left % MEMORY_CHECK_EVERY < charge {
                memory.check("while comparing fields")?;
            }
            matched.push((writer_field, reader_field));
        }
        let pair = MessagePair {
            writer,
            reader,
            matched: &matched,
        };
        field_rules.clear();
        guard_messages.clear();
        flagged.clear();
        for rule in rules.iter().filter(|r| r.applies_to(&pair)) {
            match rule.check {
                Check::Messages(check) => {
                    check(&pair, &mut violations);
                    for violation in violations.drain(..) {
                        if !guard.is_empty() {
                            flagged.push(violation.field.clone());
                        }
                        let subject = Subject::of(&violation);
                        let kept = verdict.record(rule, |f| paths.render(step, f), violation);
                        illustrate(kept, examples, &paths, step, &subject);
                    }
                }
                Check::Fields(check) => field_rules.push((rule, check, false)),
                Check::Roots(_) | Check::Enums(_) | Check::Reachable { .. } => {}
            }
        }
        for rule in guard.iter().filter(|r| r.applies_to(&pair)) {
            match rule.check {
                Check::Messages(check) => guard_messages.push((rule, check)),
                Check::Fields(check) => field_rules.push((rule, check, true)),
                Check::Roots(_) | Check::Enums(_) | Check::Reachable { .. } => {}
            }
        }
        if ask_back {
            matched_back.clear();
            matched_back.extend(matched.iter().map(|&(w, r)| (r, w)));
            // A message's fields are consecutive rows in declaration order.
            if !matched_back.windows(2).all(|w| w[0].0.id() < w[1].0.id()) {
                matched_back.sort_unstable_by_key(|(field, _)| field.id());
            }
            let back = pair.back(&matched_back);
            ask_back = !rules.iter().chain(guard).any(|rule| match rule.check {
                Check::Messages(check) if rule.applies_to(&back) => {
                    check(&back, &mut violations);
                    let found = !violations.is_empty();
                    violations.clear();
                    found
                }
                _ => false,
            });
        }
        for &(writer_field, reader_field) in &matched {
            if writer_field.same_scalar_declaration(&reader_field) {
                // Checked, not assumed, wherever debug assertions run (the test suite).
                debug_assert!(field_rules.iter().all(|(_, check, _)| {
                    let fields = FieldPair::new(writer_field, reader_field);
                    check(&fields).is_none() && check(&fields.back()).is_none()
                }));
                continue;
            }
            let fields = FieldPair::new(writer_field, reader_field);
            // Whether the profile's own rules found something at this field, so that its
            // guard stays silent there.
            let mut guarded = !guard.is_empty()
                && flagged
                    .iter()
                    .any(|name| name.as_deref() == Some(reader_field.name()));
            for &(rule, check, of_guard) in &field_rules {
                if of_guard && guarded {
                    continue;
                }
                if let Some(violation) = check(&fields) {
                    if !of_guard && !guard.is_empty() {
                        guarded = true;
                        flagged.push(violation.field.clone());
                    }
                    let subject = Subject::of(&violation);
                    let kept = verdict.record(rule, |f| paths.render(step, f), violation);
                    illustrate(kept, examples, &paths, step, &subject);
                }
            }
            if ask_back {
                let back = fields.back();
                ask_back = !field_rules
                    .iter()
                    .any(|(_, check, _)| check(&back).is_some());
            }
            // A guard's enum rules are left for another field meeting the same enums, so that
            // a pair of enums first met where the profile's own rules spoke is still compared.
            let enums_wanted = enum_rules
                .iter()
                .any(|&(_, of_guard)| !(of_guard && guarded));
            if enums_wanted {
                if let Some((w, r)) = fields.enums() {
                    if enums_compared.insert(w.id(), r.id()) {
                        // Comparing two enums reads all their values: charged like fields, so
                        // many pairs of large enums cannot cost more than the budget allows.
                        if !spend(budget, (w.values().len() + r.values().len()) * charge) {
                            return Ok(None);
                        }
                        for &(rule, of_guard) in &enum_rules {
                            let Check::Enums(check) = rule.check else {
                                continue;
                            };
                            if of_guard && guarded {
                                continue;
                            }
                            check(w, r, &mut violations);
                            for mut violation in violations.drain(..) {
                                violation.field = Some(reader_field.name().to_owned());
                                violation.number = Some(reader_field.number());
                                let subject = Subject::of(&violation);
                                let kept =
                                    verdict.record(rule, |f| paths.render(step, f), violation);
                                illustrate(kept, examples, &paths, step, &subject);
                            }
                            if ask_back {
                                check(r, w, &mut violations);
                                ask_back = violations.is_empty();
                                violations.clear();
                            }
                        }
                    }
                }
            }
            if let Some((next_writer, next_reader)) = fields.messages(profile.types) {
                if compared.insert(next_writer.id(), next_reader.id()) {
                    paths.steps.push(Step {
                        parent: step,
                        field: Some((writer_field, reader_field)),
                    });
                    queue.push_back((next_writer, next_reader, paths.steps.len() - 1));
                }
            }
        }
        for &(rule, check) in &guard_messages {
            check(&pair, &mut violations);
            for violation in violations.drain(..) {
                if !flagged.contains(&violation.field) {
                    let subject = Subject::of(&violation);
                    let kept = verdict.record(rule, |f| paths.render(step, f), violation);
                    illustrate(kept, examples, &paths, step, &subject);
                }
            }
        }
    }
    Ok(Some(Walked {
        verdict,
        back_finds: both_ways && !ask_back,
    }))
}

/// Takes `units` of work off `budget`; false, leaving it as it was, if there are not that many.
fn spend(budget: &mut usize, units: usize) -> bool {
    match budget.checked_sub(units) {
        Some(left) => {
            *budget = left;
            true
        }
        None => false,
    }
}

/// Which side of a pair a reachable finding is on.
#[derive(Clone, Copy)]
enum Side {
    Writer,
    Reader,
}

/// Every message reachable from `root` through its fields, matched or not, each once, with
/// the findings of `message` and `field` reported with their paths (rendered only for the
/// findings that are kept).
fn reachable<'a>(
    root: MessageRef<'a>,
    message: fn(MessageRef) -> Option<String>,
    field: fn(FieldRef) -> Option<String>,
    mut found: impl FnMut(&dyn Fn() -> String, Option<u32>, String),
) {
    let mut paths = Paths {
        root: root.full_name().to_owned(),
        steps: vec![Step {
            parent: 0,
            field: None,
        }],
    };
    let mut seen = Seen::default();
    seen.insert(root.id());
    let mut queue: VecDeque<(MessageRef<'a>, usize)> = VecDeque::from([(root, 0)]);
    while let Some((at, step)) = queue.pop_front() {
        if let Some(what) = message(at) {
            found(&|| paths.render(step, None), None, what);
        }
        for f in at.fields() {
            if let Some(what) = field(f) {
                found(
                    &|| paths.render(step, Some(f.name())),
                    Some(f.number()),
                    what,
                );
            }
            if let Some(next) = f.kind().message() {
                if seen.insert(next.id()) {
                    paths.steps.push(Step {
                        parent: step,
                        field: Some((f, f)),
                    });
                    queue.push_back((next, paths.steps.len() - 1));
                }
            }
        }
    }
}

/// Rows of one model already seen, one bit each.
#[derive(Default)]
struct Seen {
    bits: Vec<u64>,
}

impl Seen {
    /// Whether `id` was not seen before.
    fn insert(&mut self, id: u32) -> bool {
        let id = id as usize;
        let (word, bit) = (id / 64, 1u64 << (id % 64));
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let new = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        new
    }
}

/// (writer row, reader row) pairs already compared. Most writer types meet one reader type
/// only (always, where types are paired by name), so the first reader of each writer is kept
/// in a bit set and a table; only further readers go to a hash set.
#[derive(Default)]
struct SeenPairs {
    writers: Seen,
    first_reader: Vec<u32>,
    more: HashSet<(u32, u32)>,
}

impl SeenPairs {
    /// Whether the pair was not compared before.
    fn insert(&mut self, writer: u32, reader: u32) -> bool {
        if self.writers.insert(writer) {
            let at = writer as usize;
            if at >= self.first_reader.len() {
                self.first_reader.resize(at + 1, 0);
            }
            self.first_reader[at] = reader;
            return true;
        }
        self.first_reader[writer as usize] != reader && self.more.insert((writer, reader))
    }
}
