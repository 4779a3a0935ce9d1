//! CARDINALITY_CHANGED (`conservative`): a matched field moved between singular and repeated,
//! either way. A singular reader keeps only the last of a repeated writer's values; a repeated
//! reader of a singular message field would merge what the writer meant to replace.

use super::describe::labelled_type;
use super::{map, FieldPair, Violation};
use super::{Check, RuleId, Scope, Spec};
use crate::remedy;

pub(crate) const CARDINALITY_CHANGED: Spec = Spec {
    id: RuleId::CardinalityChanged,
    description: "a matched field moved between singular and repeated",
    hint: "keep the old cardinality; add the new shape as a new field",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(cardinality_changed)),
    plan: remedy::retype::keep_old_add_new,
};

pub(crate) fn cardinality_changed(pair: &FieldPair) -> Option<Violation> {
    if map::map_changes(pair) {
        return None;
    }
    (pair.writer.is_repeated() != pair.reader.is_repeated())
        .then(|| Violation::on_fields(pair, labelled_type(pair.writer), labelled_type(pair.reader)))
}
