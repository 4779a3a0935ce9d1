//! ROOT_MESSAGE_CHANGED: the two schemas describe different root messages.

use super::{MessagePair, Violation};

pub(crate) fn root_message_changed(pair: &MessagePair) -> Option<Violation> {
    let (writer, reader) = (pair.writer.full_name(), pair.reader.full_name());
    (writer != reader).then(|| Violation {
        field: None,
        number: None,
        writer: writer.to_owned(),
        reader: reader.to_owned(),
    })
}
