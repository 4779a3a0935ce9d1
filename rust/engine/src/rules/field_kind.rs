//! FIELD_KIND_CHANGED: an enum or message field changed its kind or its type name.

use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::remedy;

pub(crate) const FIELD_KIND_CHANGED: Spec = Spec {
    id: RuleId::FieldKindChanged,
    description: "a matched enum or message field changed its kind or its type's full name",
    hint: "keep the old field; add the new type as a new field",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(field_kind_changed)),
    plan: remedy::retype::keep_old_add_new,
};

pub(crate) fn field_kind_changed(pair: &FieldPair) -> Option<Violation> {
    let (writer, reader) = (&pair.writer_type, &pair.reader_type);
    let involves_named_type = !writer.is_scalar() || !reader.is_scalar();
    (involves_named_type && writer != reader)
        .then(|| Violation::on_fields(pair, writer.to_string(), reader.to_string()))
}
