//! TYPE_CHANGED (`conservative`): a matched field changed its scalar type, or moved between
//! scalar, enum and message. Rejected even where the wire types agree (`int32` → `int64`,
//! `string` ↔ `bytes`): whether the values survive depends on what producers write, which
//! the registry cannot know. Enum and message types are compared by structure, not by name
//! (their own rules), and a message becoming a group is MESSAGE_ENCODING_CHANGED.

use crate::model::Kind;

use super::{map, FieldPair, Violation};
use super::{Check, RuleId, Scope, Spec};
use crate::remedy;

pub(crate) const TYPE_CHANGED: Spec = Spec {
    id: RuleId::TypeChanged,
    description:
        "a matched field changed its scalar type, or moved between scalar, enum and message",
    hint: "keep the old type; add the new type as a new field",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(type_changed)),
    plan: remedy::retype::keep_old_add_new,
};

pub(crate) fn type_changed(pair: &FieldPair) -> Option<Violation> {
    let changed = match (&pair.writer_type, &pair.reader_type) {
        (Kind::Scalar(writer), Kind::Scalar(reader)) => writer != reader,
        (Kind::Enum(_), Kind::Enum(_)) => false,
        (Kind::Message(_) | Kind::Group(_), Kind::Message(_) | Kind::Group(_)) => false,
        _ => true,
    };
    // MAP_CHANGED says what changed when a map is involved, its key included.
    let changed = changed && !map::map_changes(pair) && !pair.is_map_key();
    changed.then(|| {
        Violation::on_fields(
            pair,
            pair.writer_type.to_string(),
            pair.reader_type.to_string(),
        )
    })
}
