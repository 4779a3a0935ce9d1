//! FIELD_NUMBER_CHANGED: a field name exists in both messages with different numbers.

use super::{MessagePair, Violation};

pub(crate) fn field_number_changed(pair: &MessagePair, found: &mut Vec<Violation>) {
    for writer in pair.writer.fields() {
        let Some(reader) = pair.reader.field_named(writer.name()) else {
            continue;
        };
        if reader.number() != writer.number() {
            found.push(Violation {
                field: Some(writer.name().to_owned()),
                number: Some(writer.number()),
                writer: format!("number {}", writer.number()),
                reader: format!("number {}", reader.number()),
            });
        }
    }
}
