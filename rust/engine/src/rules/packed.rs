//! PACKED_TO_EXPANDED: a packed repeated field became an expanded repeated field.

use super::{FieldPair, Violation};

pub(crate) fn packed_to_expanded(pair: &FieldPair) -> Option<Violation> {
    // `is_packed` reads the effective encoding: proto3's default packing of numeric scalars
    // and enums, `[packed = …]`, or `features.repeated_field_encoding`, and never for a type
    // that cannot be packed.
    (pair.writer.is_packed() && pair.reader.is_repeated() && !pair.reader.is_packed()).then(|| {
        Violation::on_fields(
            pair,
            format!("repeated {} (packed)", pair.writer_type),
            format!("repeated {} (expanded)", pair.reader_type),
        )
    })
}
