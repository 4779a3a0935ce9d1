//! REPEATED_TO_SINGULAR: a repeated scalar field became singular.

use super::describe::labelled_type;
use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::remedy;

pub(crate) const REPEATED_TO_SINGULAR: Spec = Spec {
    id: RuleId::RepeatedToSingular,
    description: "a repeated scalar field became singular",
    hint: "keep the field repeated; add a singular field beside it",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(repeated_to_singular)),
    plan: remedy::retype::keep_old_add_new,
};

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
