//! FIELD_KIND_CHANGED: an enum or message field changed its kind or its type name.

use super::{FieldPair, Violation};

pub(crate) fn field_kind_changed(pair: &FieldPair) -> Option<Violation> {
    let (writer, reader) = (&pair.writer_type, &pair.reader_type);
    let involves_named_type = !writer.is_scalar() || !reader.is_scalar();
    (involves_named_type && writer != reader)
        .then(|| Violation::on_fields(pair, writer.to_string(), reader.to_string()))
}
