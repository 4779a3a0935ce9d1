//! REPEATED_TO_SINGULAR: a repeated scalar field became singular.

use super::describe::labelled_type;
use super::{FieldPair, Violation};

pub(crate) fn repeated_to_singular(pair: &FieldPair) -> Option<Violation> {
    let writer_type = &pair.writer_type;
    (pair.writer.is_repeated() && writer_type.is_scalar() && !pair.reader.is_repeated()).then(
        || {
            Violation::on_fields(
                pair,
                format!("repeated {writer_type}"),
                labelled_type(pair.reader),
            )
        },
    )
}
