//! FIELD_NUMBER_CHANGED: a field name exists in both messages with different numbers.

use crate::model::FieldRef;

use super::{Check, RuleId, Scope, Spec};
use super::{MessagePair, Violation};
use crate::remedy;

pub(crate) const FIELD_NUMBER_CHANGED: Spec = Spec {
    id: RuleId::FieldNumberChanged,
    description: "a field name is in both messages with different numbers",
    hint: "give the field its old number back",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Messages(field_number_changed)),
    plan: remedy::keep::field_number_changed,
};

pub(crate) fn field_number_changed(pair: &MessagePair, found: &mut Vec<Violation>) {
    if pair.reader.fields().len() < pair.writer.fields().len() {
        return from_the_reader(pair, found);
    }
    // Names are unique in a message: a writer field whose number the reader gives to a field
    // of the same name is settled by the match by number alone, which is every field of a
    // message that kept its fields. Only the others are looked up by name, in the reader's
    // fields sorted by name: a large reader message that many writer messages meet (types
    // pair by structure under `conservative`) is sorted once, not mapped again for each.
    let mut matched = pair.matched.iter().peekable();
    for writer in pair.writer.fields() {
        let settled = match matched.next_if(|(w, _)| w.id() == writer.id()) {
            Some((_, reader)) => reader.name() == writer.name(),
            None => false,
        };
        if settled {
            continue;
        }
        if let Some(reader) = pair.field_named(pair.reader, writer.name()) {
            renumbered(writer, reader, found);
        }
    }
}

/// The same findings, in the same order, from the reader's side: a small reader message met by
/// a large writer message costs the reader's fields, not the writer's.
fn from_the_reader(pair: &MessagePair, found: &mut Vec<Violation>) {
    let mut pairs: Vec<(FieldRef<'_>, FieldRef<'_>)> = pair
        .reader
        .fields()
        .filter_map(|reader| Some((pair.field_named(pair.writer, reader.name())?, reader)))
        .collect();
    pairs.sort_unstable_by_key(|(writer, _)| writer.id());
    for (writer, reader) in pairs {
        renumbered(writer, reader, found);
    }
}

fn renumbered(writer: FieldRef<'_>, reader: FieldRef<'_>, found: &mut Vec<Violation>) {
    if reader.number() != writer.number() {
        found.push(Violation {
            field: Some(writer.name().to_owned()),
            number: Some(writer.number()),
            writer: format!("number {}", writer.number()),
            reader: format!("number {}", reader.number()),
        });
    }
}
