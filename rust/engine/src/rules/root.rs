//! ROOT_MESSAGE_CHANGED: the two schemas describe different root messages.

use super::{MessagePair, Violation};

pub(crate) fn root_message_changed(pair: &MessagePair) -> Option<Violation> {
    (pair.writer.name_id() != pair.reader.name_id()).then(|| Violation {
        field: None,
        number: None,
        writer: pair.writer.full_name().to_owned(),
        reader: pair.reader.full_name().to_owned(),
    })
}
