//! SCALAR_TYPE_CHANGED (a warning in `pip246`): one scalar type became another.

use crate::model::Kind;

use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::remedy;

pub(crate) const SCALAR_TYPE_CHANGED: Spec = Spec {
    id: RuleId::ScalarTypeChanged,
    description:
        "a matched scalar field changed its scalar type (a warning: the check still passes)",
    hint: "keep the old type; add the new type as a new field",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(scalar_type_changed)),
    plan: remedy::retype::keep_old_add_new,
};

pub(crate) fn scalar_type_changed(pair: &FieldPair) -> Option<Violation> {
    match (&pair.writer_type, &pair.reader_type) {
        (Kind::Scalar(writer), Kind::Scalar(reader)) if writer != reader => Some(
            Violation::on_fields(pair, writer.name().to_owned(), reader.name().to_owned()),
        ),
        _ => None,
    }
}
