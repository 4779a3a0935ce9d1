//! `canRead(W, R)`: walks every message pair reachable from the two roots through fields
//! matched by number, and applies every rule of [`RULES`] to each pair once.
//!
//! Breadth-first with an explicit queue, so recursive types terminate (each pair is compared
//! once) and a chain thousands of messages deep costs heap, not stack.

use std::collections::{HashSet, VecDeque};

use prost_reflect::MessageDescriptor;

use crate::rules::{Check, FieldPair, MessagePair, Rule, TypeRef, Violation, RULES};

/// A rule's finding with the path of the pair it was found in.
pub(crate) struct Found {
    pub rule: &'static Rule,
    pub path: String,
    pub violation: Violation,
}

/// `None` when comparing would take more than `budget` field pairs (what it used is taken off).
pub(crate) fn can_read(
    writer: &MessageDescriptor,
    reader: &MessageDescriptor,
    budget: &mut usize,
) -> Option<Vec<Found>> {
    let mut found = Vec::new();
    let roots = MessagePair { writer, reader };
    for rule in RULES {
        if let Check::Roots(check) = rule.check {
            if let Some(violation) = check(&roots) {
                // Different root messages are different types: comparing their fields
                // would only add noise to a verdict that is already final.
                found.push(Found {
                    rule,
                    path: reader.full_name().to_owned(),
                    violation,
                });
                return Some(found);
            }
        }
    }

    let mut compared: HashSet<String> = HashSet::new();
    let mut queue: VecDeque<(MessageDescriptor, MessageDescriptor, String)> = VecDeque::new();
    compared.insert(writer.full_name().to_owned());
    queue.push_back((
        writer.clone(),
        reader.clone(),
        writer.full_name().to_owned(),
    ));

    let mut violations = Vec::new();
    while let Some((writer, reader, path)) = queue.pop_front() {
        let pair = MessagePair {
            writer: &writer,
            reader: &reader,
        };
        let rules: Vec<&'static Rule> = RULES.iter().filter(|r| r.applies_to(&pair)).collect();
        for &rule in &rules {
            if let Check::Messages(check) = rule.check {
                check(&pair, &mut violations);
                found.extend(violations.drain(..).map(|violation| Found {
                    rule,
                    path: path.clone(),
                    violation,
                }));
            }
        }
        for writer_field in writer.fields() {
            let Some(reader_field) = reader.get_field(writer_field.number()) else {
                continue;
            };
            *budget = budget.checked_sub(1)?;
            let fields = FieldPair::new(&writer_field, &reader_field);
            for &rule in &rules {
                if let Check::Fields(check) = rule.check {
                    if let Some(violation) = check(&fields) {
                        found.push(Found {
                            rule,
                            path: path.clone(),
                            violation,
                        });
                    }
                }
            }
            if let Some((w, r)) = TypeRef::same_message(&fields.writer_type, &fields.reader_type) {
                if compared.insert(w.full_name().to_owned()) {
                    let child_path = format!("{path}.{}", reader_field.name());
                    queue.push_back((w.clone(), r.clone(), child_path));
                }
            }
        }
    }
    Some(found)
}
