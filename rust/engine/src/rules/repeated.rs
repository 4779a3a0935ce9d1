//! REPEATED_TO_SINGULAR: a repeated scalar field became singular.

use prost_reflect::Cardinality;

use super::describe::labelled_type;
use super::{FieldPair, Violation};

pub(crate) fn repeated_to_singular(pair: &FieldPair) -> Option<Violation> {
    let writer_repeated = pair.writer.cardinality() == Cardinality::Repeated;
    let reader_repeated = pair.reader.cardinality() == Cardinality::Repeated;
    let writer_type = &pair.writer_type;
    (writer_repeated && writer_type.is_scalar() && !reader_repeated).then(|| {
        Violation::on_fields(
            pair,
            format!("repeated {writer_type}"),
            labelled_type(pair.reader),
        )
    })
}
