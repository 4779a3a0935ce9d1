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
//! each message pair, every field of both its messages, each matched field pair, every value
//! of both enums of an enum pair, each finding. What one schema holds on its own is looked at
//! once per schema, not per pair (`reachable`).

mod paths;
mod reachable;
mod seen;
mod verdict;

use std::collections::{HashSet, VecDeque};

pub(crate) use reachable::{reached_weight, Side};
pub use verdict::KEPT_FINDINGS;
pub(crate) use verdict::{Found, Verdict};

use crate::budget::{findings_units, weight, Allowance};
use crate::error::CheckError;
use crate::example::{self, ExampleBudget, Subject};
use crate::model::{FieldRef, MessageRef};
use crate::rules::{
    Check, FieldCheck, FieldPair, MessageCheck, MessagePair, Profile, Rule, Violation,
};
use crate::text::bound;
use paths::{Paths, PATH_LIMIT};
use seen::SeenPairs;

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
            found.example = Some(match example::too_deep(paths.depth(step)) {
                Some(why) => Err(why),
                None => example::of(roots, &paths.trail(step), subject, budget),
            });
        }
    }
}

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

/// Where the profile's own rules found something in the pair being compared: the fields'
/// names, and the message itself. A guard reports nothing there
/// (docs/rules.md#no-silent-data-loss). A hash set, since a pair may hold a finding for every
/// one of its fields and each is looked up for every field.
#[derive(Default)]
struct Flagged {
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

    fn holds_any_field(&self) -> bool {
        !self.fields.is_empty()
    }

    fn holds_field(&self, name: &str) -> bool {
        self.fields.contains(name)
    }

    /// Empty for the next pair: a fresh set where one was used, since clearing a set costs
    /// its capacity, which one large pair may have grown for every later pair.
    fn reset(&mut self) {
        if !self.fields.is_empty() {
            self.fields = HashSet::new();
        }
        self.message = false;
    }
}

/// What a message rule's look at a pair cost beyond the pair's own charges: the findings it
/// made and the fields it looked up by name.
fn spent(pair: &MessagePair, violations: &[Violation]) -> u64 {
    findings_units(violations).saturating_add(
        pair.take_lookup_steps()
            .saturating_mul(weight::NAME_LOOKUP_STEP),
    )
}

/// Stops the walk (`Ok(None)`) when the allowance cannot pay.
macro_rules! pay {
    ($spent:expr) => {
        if !$spent? {
            return Ok(None);
        }
    };
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
    let (writer, reader) = (writer_side.root(), reader_side.root());
    let (rules, guard) = (profile.rules, profile.guard);
    let examples: Examples = examples.map(|budget| ((writer, reader), budget));
    let mut verdict = Verdict::default();
    // Whether the way back still has to be asked: until it finds something.
    let mut ask_back = both_ways;
    let roots = MessagePair::new(writer, reader, &[]);
    for rule in rules {
        if let Check::Roots(check) = rule.check {
            if let Some(violation) = check(&roots) {
                // Different root messages are different types: comparing their fields
                // would only add noise to a verdict that is already final.
                pay!(allowance.once(findings_units([&violation])));
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
            for (on_writer, of) in [(true, writer_side), (false, reader_side)] {
                let reached = of.reached(rule, worth_looking, message, field);
                found |= reached.total > 0;
                // Worked out once per schema; a pair copies what it keeps.
                pay!(allowance.once(reached.kept.len() as u64 * weight::FINDING));
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
                    if let Some(kept) = verdict.record(rule, |_| one.path.clone(), violation) {
                        if examples.is_some() {
                            kept.example = Some(Err(ONE_SIDE.to_owned()));
                        }
                    }
                }
                verdict.count(rule.severity, reached.total - reached.kept.len());
            }
            // Both graphs are the way back's too, sides swapped.
            ask_back &= !found;
        }
    }
    // Each with whether it is a guard's.
    let enum_rules: Vec<(&'static Rule, bool)> = rules
        .iter()
        .map(|r| (r, false))
        .chain(guard.iter().map(|r| (r, true)))
        .filter(|(r, _)| matches!(r.check, Check::Enums(_)))
        .collect();
    let mut enums_compared = SeenPairs::default();

    let mut paths = Paths::new(writer.full_name());
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
    // The profile's message rules that apply to the pair, and the guard's, run once the
    // profile's own have all spoken; the way back asks the same rules (their scope reads both
    // sides alike).
    let mut own_messages: Vec<(&'static Rule, MessageCheck)> = Vec::new();
    let mut guard_messages: Vec<(&'static Rule, MessageCheck)> = Vec::new();
    let mut flagged = Flagged::default();
    // The pair's fields matched by number, looked up once for every rule, in the writer's
    // order, and the same pairs the other way round in the reader's order.
    let mut matched: Vec<(FieldRef, FieldRef)> = Vec::new();
    let mut matched_back: Vec<(FieldRef, FieldRef)> = Vec::new();
    while let Some((writer, reader, step)) = queue.pop_front() {
        // The pair, and every field of both sides: matching reads the writer's, and the message
        // rules read them all (required fields, names, oneofs).
        pay!(allowance.each_way(1, weight::MESSAGE_PAIR, false));
        let fields = writer.fields().len() + reader.fields().len();
        pay!(allowance.each_way(fields, weight::FIELD_READ, true));
        matched.clear();
        matched.extend(
            writer
                .fields()
                .filter_map(|w| reader.field(w.number()).map(|r| (w, r))),
        );
        pay!(allowance.each_way(matched.len(), weight::COMPARISON, true));
        let pair = MessagePair::new(writer, reader, &matched);
        field_rules.clear();
        own_messages.clear();
        guard_messages.clear();
        flagged.reset();
        for rule in rules.iter().filter(|r| r.applies_to(&pair)) {
            match rule.check {
                Check::Messages(check) => {
                    own_messages.push((rule, check));
                    check(&pair, &mut violations);
                    pay!(allowance.once(spent(&pair, &violations)));
                    for violation in violations.drain(..) {
                        if !guard.is_empty() {
                            flagged.add(&violation.field);
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
            let mut back_units = 0u64;
            ask_back = !own_messages
                .iter()
                .chain(&guard_messages)
                .any(|(_, check)| {
                    check(&back, &mut violations);
                    let found = !violations.is_empty();
                    back_units = back_units.saturating_add(findings_units(&violations));
                    violations.clear();
                    found
                });
            pay!(allowance.once(spent(&back, &[]).saturating_add(back_units)));
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
            let mut guarded = false;
            if !guard.is_empty() && flagged.holds_any_field() {
                let name = reader_field.name();
                pay!(allowance.once(name.len() as u64 * weight::NAME_BYTE));
                guarded = flagged.holds_field(name);
            }
            for &(rule, check, of_guard) in &field_rules {
                if of_guard && guarded {
                    continue;
                }
                if let Some(violation) = check(&fields) {
                    pay!(allowance.once(findings_units([&violation])));
                    if !of_guard && !guard.is_empty() {
                        guarded = true;
                        flagged.add(&violation.field);
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
                        let values = w.values().len() + r.values().len();
                        pay!(allowance.each_way(values, weight::ENUM_VALUE, true));
                        for &(rule, of_guard) in &enum_rules {
                            let Check::Enums(check) = rule.check else {
                                continue;
                            };
                            if of_guard && guarded {
                                continue;
                            }
                            check(w, r, &mut violations);
                            // Each finding is about the field that met the enums, and is charged
                            // with its name, as every finding is.
                            for violation in &mut violations {
                                violation.field = Some(reader_field.name().to_owned());
                                violation.number = Some(reader_field.number());
                            }
                            pay!(allowance.once(findings_units(&violations)));
                            for violation in violations.drain(..) {
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
                    let next = paths.push(step, (writer_field, reader_field));
                    queue.push_back((next_writer, next_reader, next));
                }
            }
        }
        for &(rule, check) in &guard_messages {
            check(&pair, &mut violations);
            pay!(allowance.once(spent(&pair, &violations)));
            for violation in violations.drain(..) {
                // Hashed for the look-up, as the finding's text was.
                if !flagged.holds(&violation.field) {
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
