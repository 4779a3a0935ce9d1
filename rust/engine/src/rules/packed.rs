//! PACKED_TO_EXPANDED: a packed repeated field became an expanded repeated field.

use prost_reflect::{Cardinality, FieldDescriptor};

use super::{FieldPair, Violation};

pub(crate) fn packed_to_expanded(pair: &FieldPair) -> Option<Violation> {
    let repeated = |f: &FieldDescriptor| f.cardinality() == Cardinality::Repeated;
    // prost-reflect's is_packed already applies proto3's default packing of numeric
    // scalars and enums, and ignores `packed` where the type cannot be packed.
    (repeated(pair.writer)
        && pair.writer.is_packed()
        && repeated(pair.reader)
        && !pair.reader.is_packed())
    .then(|| {
        Violation::on_fields(
            pair,
            format!("repeated {} (packed)", pair.writer_type),
            format!("repeated {} (expanded)", pair.reader_type),
        )
    })
}
