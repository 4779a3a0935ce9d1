//! SCALAR_TYPE_CHANGED (a warning in `pip246`): one scalar type became another.

use super::describe::TypeRef;
use super::{FieldPair, Violation};

pub(crate) fn scalar_type_changed(pair: &FieldPair) -> Option<Violation> {
    match (&pair.writer_type, &pair.reader_type) {
        (TypeRef::Scalar(writer), TypeRef::Scalar(reader)) if writer != reader => Some(
            Violation::on_fields(pair, (*writer).to_owned(), (*reader).to_owned()),
        ),
        _ => None,
    }
}
