//! One message pair of a walk, visited: charged, its rules picked, its message rules run, its
//! fields matched by number and each field pair visited (field rules, the enums they name, the
//! message pair they lead to), then the guard's message rules; the way back asked alongside.

use std::collections::VecDeque;

use super::record::{At, Findings, Voice};
use super::seen::SeenPairs;
use crate::budget::{findings_units, weight, Allowance};
use crate::error::CheckError;
use crate::model::{FieldRef, MessageRef};
use crate::rules::{Check, FieldCheck, FieldPair, MessageCheck, MessagePair, Profile, Rule};

/// `Ok(false)`: the allowance could not pay, and the walk stops.
type Paid = Result<bool, CheckError>;

/// A message pair waiting in the queue: writer, reader, and its step in the walk's paths.
pub(super) type Queued<'a> = (MessageRef<'a>, MessageRef<'a>, usize);

/// What a walk keeps from one pair to the next: where findings go, which pairs were met, and
/// the lists each pair fills again (kept, so that a walk of many pairs allocates once).
pub(super) struct Visitor<'a, 'b, 'm, 'w> {
    profile: &'static Profile,
    allowance: &'w mut Allowance<'m>,
    pub findings: Findings<'a, 'b>,
    /// Whether the way back still has to be asked: until it finds something.
    pub ask_back: bool,
    pub queue: VecDeque<Queued<'a>>,
    /// The message pairs queued so far: the way back reaches the same pairs, each the other
    /// way round.
    compared: SeenPairs,
    /// The enum rules, the profile's own first, each with whose it is.
    enum_rules: Vec<(&'static Rule, Voice)>,
    enums_compared: SeenPairs,
    /// The field rules that apply to the pair being compared, picked once per pair, the
    /// profile's own first. A rule's scope reads both sides alike, so the same rules apply on
    /// the way back.
    field_rules: Vec<(&'static Rule, FieldCheck, Voice)>,
    /// The profile's message rules that apply to the pair, and the guard's, which run once
    /// the profile's own have all spoken; the way back asks the same rules.
    own_messages: Vec<(&'static Rule, MessageCheck)>,
    guard_messages: Vec<(&'static Rule, MessageCheck)>,
    /// The pair's fields matched by number, looked up once for every rule, in the writer's
    /// order, and the same pairs the other way round in the reader's order.
    matched: Vec<(FieldRef<'a>, FieldRef<'a>)>,
    matched_back: Vec<(FieldRef<'a>, FieldRef<'a>)>,
    violations: Vec<crate::rules::Violation>,
}

impl<'a, 'b, 'm, 'w> Visitor<'a, 'b, 'm, 'w> {
    pub(super) fn new(
        profile: &'static Profile,
        allowance: &'w mut Allowance<'m>,
        findings: Findings<'a, 'b>,
        ask_back: bool,
        roots: (MessageRef<'a>, MessageRef<'a>),
    ) -> Visitor<'a, 'b, 'm, 'w> {
        let enum_rules = profile
            .rules
            .iter()
            .map(|r| (r, Voice::Own))
            .chain(profile.guard.iter().map(|r| (r, Voice::Guard)))
            .filter(|(r, _)| matches!(r.check, Check::Enums(_)))
            .collect();
        let mut compared = SeenPairs::default();
        compared.insert(roots.0.id(), roots.1.id());
        Visitor {
            profile,
            allowance,
            findings,
            ask_back,
            queue: VecDeque::from([(roots.0, roots.1, 0)]),
            compared,
            enum_rules,
            enums_compared: SeenPairs::default(),
            field_rules: Vec::with_capacity(profile.rules.len() + profile.guard.len()),
            own_messages: Vec::new(),
            guard_messages: Vec::new(),
            matched: Vec::new(),
            matched_back: Vec::new(),
            violations: Vec::new(),
        }
    }

    /// Runs a message rule on `pair` and records what it found; the lookups by name it made
    /// are charged with it.
    #[inline]
    fn message_rule(
        &mut self,
        pair: &MessagePair<'_, 'a>,
        step: usize,
        (rule, check): (&'static Rule, MessageCheck),
        voice: Voice,
    ) -> Paid {
        check(pair, &mut self.violations);
        let lookups = pair.take_lookup_steps();
        pay!(self
            .allowance
            .once(lookups.saturating_mul(weight::NAME_LOOKUP_STEP)));
        if self.violations.is_empty() {
            return Ok(true);
        }
        self.record_all(rule, voice, step)
    }

    /// Records the findings a message rule left in `violations`.
    #[cold]
    fn record_all(&mut self, rule: &'static Rule, voice: Voice, step: usize) -> Paid {
        let mut violations = std::mem::take(&mut self.violations);
        for violation in violations.drain(..) {
            let at = At::Pair(step);
            pay!(self
                .findings
                .record(self.allowance, rule, voice, at, violation));
        }
        self.violations = violations;
        Ok(true)
    }

    /// Compares the pair at `step`: charged for the pair, every field of both sides and each
    /// field pair matched by number, then every rule of the profile that applies to it.
    pub(super) fn visit(&mut self, (writer, reader, step): Queued<'a>) -> Paid {
        // The pair, and every field of both sides: matching reads the writer's, and the message
        // rules read them all (required fields, names, oneofs).
        pay!(self.allowance.each_way(1, weight::MESSAGE_PAIR, false));
        let fields = writer.fields().len() + reader.fields().len();
        pay!(self.allowance.each_way(fields, weight::FIELD_READ, true));
        // And the text of the fields, which the rules compare with the other side's (a matched
        // field's name, its default): one message paired by structure with many others
        // compares its text in each pair. Two texts compared read at most the shorter twice.
        let text = 2 * u64::from(writer.text_bytes().min(reader.text_bytes()));
        pay!(self
            .allowance
            .each_way(1, text.div_ceil(weight::TEXT_BYTES_PER_UNIT), false));
        // Taken out of the visitor while the pair's rules borrow it, and put back for the next.
        let mut matched = std::mem::take(&mut self.matched);
        matched.clear();
        matched.extend(
            writer
                .fields()
                .filter_map(|w| reader.field(w.number()).map(|r| (w, r))),
        );
        let paid = self.visit_matched(writer, reader, step, &matched);
        self.matched = matched;
        paid
    }

    /// The pair's rules, once its fields are matched: the profile's own message rules, then
    /// each field pair, then the guard's message rules, which stay silent where the profile's
    /// own spoke.
    fn visit_matched(
        &mut self,
        writer: MessageRef<'a>,
        reader: MessageRef<'a>,
        step: usize,
        matched: &[(FieldRef<'a>, FieldRef<'a>)],
    ) -> Paid {
        pay!(self
            .allowance
            .each_way(matched.len(), weight::COMPARISON, true));
        let pair = MessagePair::new(writer, reader, matched);
        self.field_rules.clear();
        self.own_messages.clear();
        self.guard_messages.clear();
        self.findings.flagged.reset();
        let profile = self.profile;
        for rule in profile.rules.iter().filter(|r| r.applies_to(&pair)) {
            match rule.check {
                Check::Messages(check) => {
                    self.own_messages.push((rule, check));
                    pay!(self.message_rule(&pair, step, (rule, check), Voice::Own));
                }
                Check::Fields(check) => self.field_rules.push((rule, check, Voice::Own)),
                // The roots and what each side holds are looked at before any pair, enums
                // where a field pair meets them.
                Check::Roots(_) | Check::Enums(_) | Check::Reachable { .. } => {}
            }
        }
        for rule in profile.guard.iter().filter(|r| r.applies_to(&pair)) {
            match rule.check {
                Check::Messages(check) => self.guard_messages.push((rule, check)),
                Check::Fields(check) => self.field_rules.push((rule, check, Voice::Guard)),
                Check::Roots(_) | Check::Enums(_) | Check::Reachable { .. } => {}
            }
        }
        if self.ask_back {
            pay!(self.messages_back(&pair));
        }
        for &(writer_field, reader_field) in matched {
            pay!(self.field_pair(step, writer_field, reader_field));
        }
        for at in 0..self.guard_messages.len() {
            let rule = self.guard_messages[at];
            pay!(self.message_rule(&pair, step, rule, Voice::Guard));
        }
        Ok(true)
    }

    /// Whether the way back finds anything with the pair's message rules: asked, and charged,
    /// without recording (the way back is walked on its own once it finds something).
    fn messages_back(&mut self, pair: &MessagePair<'_, 'a>) -> Paid {
        let back = &mut self.matched_back;
        back.clear();
        back.extend(pair.matched.iter().map(|&(w, r)| (r, w)));
        // A message's fields are consecutive rows in declaration order.
        if !back.windows(2).all(|w| w[0].0.id() < w[1].0.id()) {
            back.sort_unstable_by_key(|(field, _)| field.id());
        }
        let back = pair.back(&self.matched_back);
        let mut back_units = 0u64;
        let violations = &mut self.violations;
        self.ask_back = !self
            .own_messages
            .iter()
            .chain(&self.guard_messages)
            .any(|(_, check)| {
                check(&back, violations);
                let found = !violations.is_empty();
                back_units = back_units.saturating_add(findings_units(violations.iter()));
                violations.clear();
                found
            });
        let lookups = back.take_lookup_steps();
        pay!(self.allowance.once(
            lookups
                .saturating_mul(weight::NAME_LOOKUP_STEP)
                .saturating_add(back_units)
        ));
        Ok(true)
    }

    /// One pair of fields matched by number: the field rules, the enums the fields name and
    /// the message pair they lead to.
    fn field_pair(
        &mut self,
        step: usize,
        writer_field: FieldRef<'a>,
        reader_field: FieldRef<'a>,
    ) -> Paid {
        if writer_field.same_scalar_declaration(&reader_field) {
            // Checked, not assumed, wherever debug assertions run (the test suite).
            debug_assert!(self.field_rules.iter().all(|(_, check, _)| {
                let fields = FieldPair::new(writer_field, reader_field);
                check(&fields).is_none() && check(&fields.back()).is_none()
            }));
            return Ok(true);
        }
        let fields = FieldPair::new(writer_field, reader_field);
        let has_guard = !self.profile.guard.is_empty();
        // Whether the profile's own rules found something at this field, so that its guard
        // stays silent there.
        let mut guarded = false;
        if has_guard && self.findings.flagged.holds_any_field() {
            let name = reader_field.name();
            pay!(self.allowance.once(name.len() as u64 * weight::NAME_BYTE));
            guarded = self.findings.flagged.holds_field(name);
        }
        for at in 0..self.field_rules.len() {
            let (rule, check, voice) = self.field_rules[at];
            if voice == Voice::Guard && guarded {
                continue;
            }
            if let Some(violation) = check(&fields) {
                guarded |= voice == Voice::Own && has_guard;
                pay!(self
                    .findings
                    .record(self.allowance, rule, voice, At::Pair(step), violation));
            }
        }
        if self.ask_back {
            let back = fields.back();
            self.ask_back = !self
                .field_rules
                .iter()
                .any(|(_, check, _)| check(&back).is_some());
        }
        pay!(self.enums(step, &fields, guarded));
        if let Some((next_writer, next_reader)) = fields.messages(self.profile.types) {
            if self.compared.insert(next_writer.id(), next_reader.id()) {
                let next = self.findings.paths.push(step, (writer_field, reader_field));
                self.queue.push_back((next_writer, next_reader, next));
            }
        }
        Ok(true)
    }

    /// The enums two fields name, compared the first time any field pair meets them. A guard's
    /// enum rules are left for another field meeting the same enums where the profile's own
    /// rules spoke here, so that a pair of enums first met there is still compared.
    fn enums(&mut self, step: usize, fields: &FieldPair<'a>, guarded: bool) -> Paid {
        let wanted = self
            .enum_rules
            .iter()
            .any(|&(_, voice)| !(voice == Voice::Guard && guarded));
        if !wanted {
            return Ok(true);
        }
        let Some((w, r)) = fields.enums() else {
            return Ok(true);
        };
        if !self.enums_compared.insert(w.id(), r.id()) {
            return Ok(true);
        }
        // Comparing two enums reads all their values: charged like fields, so many pairs of
        // large enums cannot cost more than the budget allows.
        let values = w.values().len() + r.values().len();
        pay!(self.allowance.each_way(values, weight::ENUM_VALUE, true));
        // The merge by name compares the values' names: one enum paired by structure with many
        // others compares them in each pair.
        let names = u64::from(w.value_name_bytes()) + u64::from(r.value_name_bytes());
        pay!(self
            .allowance
            .each_way(1, names.div_ceil(weight::TEXT_BYTES_PER_UNIT), false));
        for at in 0..self.enum_rules.len() {
            let (rule, voice) = self.enum_rules[at];
            let Check::Enums(check) = rule.check else {
                continue;
            };
            if voice == Voice::Guard && guarded {
                continue;
            }
            check(w, r, &mut self.violations);
            let mut violations = std::mem::take(&mut self.violations);
            for mut violation in violations.drain(..) {
                // About the field that met the enums, and charged with its name, as every
                // finding is.
                violation.field = Some(fields.reader.name().to_owned());
                violation.number = Some(fields.reader.number());
                pay!(self
                    .findings
                    .record(self.allowance, rule, voice, At::Pair(step), violation));
            }
            self.violations = violations;
            if self.ask_back {
                check(r, w, &mut self.violations);
                self.ask_back = self.violations.is_empty();
                self.violations.clear();
            }
        }
        Ok(true)
    }
}
