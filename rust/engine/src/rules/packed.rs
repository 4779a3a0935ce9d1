//! PACKED_TO_EXPANDED: a packed repeated field became an expanded repeated field.

use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::remedy;

pub(crate) const PACKED_TO_EXPANDED: Spec = Spec {
    id: RuleId::PackedToExpanded,
    description: "a packed repeated field became an expanded one",
    hint: "declare the old packing on the field",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(packed_to_expanded)),
    plan: remedy::keep::packing_changed,
};

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
