//! SCALAR_TYPE_CHANGED (a warning in `pip246`): one scalar type became another.

use crate::model::Kind;

use super::{FieldPair, Violation};

pub(crate) fn scalar_type_changed(pair: &FieldPair) -> Option<Violation> {
    match (&pair.writer_type, &pair.reader_type) {
        (Kind::Scalar(writer), Kind::Scalar(reader)) if writer != reader => Some(
            Violation::on_fields(pair, writer.name().to_owned(), reader.name().to_owned()),
        ),
        _ => None,
    }
}
