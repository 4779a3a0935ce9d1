//! FIELD_NUMBER_CHANGED: a field name exists in both messages with different numbers.

use std::collections::HashMap;

use crate::model::FieldRef;

use super::{MessagePair, Violation};

/// Up to this many name comparisons, unmatched names are looked up by scanning the reader's
/// fields; past it, through a map of the reader's names, so that messages of thousands of
/// renamed fields cost linear time, not quadratic.
const SCANNED_COMPARISONS: usize = 1024;

pub(crate) fn field_number_changed(pair: &MessagePair, found: &mut Vec<Violation>) {
    // Names are unique in a message: a writer field whose number the reader gives to a field
    // of the same name is settled by the match by number alone, which is every field of a
    // message that kept its fields. Only the others are looked up by name.
    let mut matched = pair.matched.iter().peekable();
    let mut unsettled: Vec<FieldRef<'_>> = Vec::new();
    for writer in pair.writer.fields() {
        let settled = match matched.next_if(|(w, _)| w.id() == writer.id()) {
            Some((_, reader)) => reader.name() == writer.name(),
            None => false,
        };
        if !settled {
            unsettled.push(writer);
        }
    }
    if unsettled.is_empty() {
        return;
    }
    let reader_fields = pair.reader.fields().len();
    let by_name: Option<HashMap<&str, u32>> =
        (unsettled.len().saturating_mul(reader_fields) > SCANNED_COMPARISONS).then(|| {
            pair.reader
                .fields()
                .map(|r| (r.name(), r.number()))
                .collect()
        });
    for writer in unsettled {
        let reader_number = match &by_name {
            Some(map) => map.get(writer.name()).copied(),
            None => pair.reader.field_named(writer.name()).map(|r| r.number()),
        };
        let Some(reader_number) = reader_number else {
            continue;
        };
        if reader_number != writer.number() {
            found.push(Violation {
                field: Some(writer.name().to_owned()),
                number: Some(writer.number()),
                writer: format!("number {}", writer.number()),
                reader: format!("number {reader_number}"),
            });
        }
    }
}
