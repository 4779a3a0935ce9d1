//! SYNTAX_CHANGED: a compared message pair is declared in files of different syntax (proto2,
//! proto3, or an edition).

use super::{MessagePair, Violation};

pub(crate) fn syntax_changed(pair: &MessagePair, found: &mut Vec<Violation>) {
    let writer = pair.writer.file().syntax();
    let reader = pair.reader.file().syntax();
    if writer != reader {
        found.push(Violation {
            field: None,
            number: None,
            writer: writer.name().to_owned(),
            reader: reader.name().to_owned(),
        });
    }
}
