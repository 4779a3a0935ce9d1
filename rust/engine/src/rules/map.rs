//! MAP_CHANGED (`conservative`): a map must stay a map with the same key type; its value is
//! compared by the field rules, through the entry messages. A map never becomes a repeated
//! entry message or anything else, even where the wire bytes would match: map semantics (last
//! key wins, entries unordered) are not those of a list.

use crate::model::{FieldRef, Kind};

use super::describe::labelled_type;
use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::remedy;

pub(crate) const MAP_CHANGED: Spec = Spec {
    id: RuleId::MapChanged,
    description: "a map became something else or changed its key type",
    hint: "keep the old declaration; add a changed map as a new field",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(map_changed)),
    plan: remedy::retype::keep_old_add_new,
};

pub(crate) fn map_changed(pair: &FieldPair) -> Option<Violation> {
    let changed =
        map_changes(pair) || (pair.writer_is_map && key_kind(pair.writer) != key_kind(pair.reader));
    changed.then(|| Violation::on_fields(pair, shown(pair.writer), shown(pair.reader)))
}

/// A map on exactly one side: MAP_CHANGED is the finding, and the type and cardinality rules
/// say nothing more about the field.
pub(crate) fn map_changes(pair: &FieldPair) -> bool {
    pair.writer_is_map != pair.reader_is_map
}

fn entry_field(map: FieldRef<'_>, number: u32) -> Option<FieldRef<'_>> {
    map.kind().message()?.field(number)
}

/// Keys are scalars (protobuf allows integers, bool and string), compared as such.
fn key_kind(map: FieldRef<'_>) -> Option<Kind<'_>> {
    entry_field(map, 1).map(|key| key.kind())
}

/// `map<string, int64>`, or the field's labelled type when it is not a map.
fn shown(field: FieldRef<'_>) -> String {
    if !field.is_map() {
        return labelled_type(field);
    }
    let part = |number| {
        entry_field(field, number).map_or_else(
            || "?".to_owned(),
            |f| match f.kind() {
                // The entry's own name says nothing; the value's type does.
                Kind::Message(m) | Kind::Group(m) => m.full_name().to_owned(),
                Kind::Enum(e) => e.full_name().to_owned(),
                Kind::Scalar(s) => s.name().to_owned(),
            },
        )
    };
    format!("map<{}, {}>", part(1), part(2))
}
