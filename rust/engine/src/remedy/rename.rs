//! A type that was only renamed: `pip246` compares message and enum types by name, so the
//! remedy is the old name back, where the new type is the old one field for field (value for
//! value) and sits in the same scope.

use crate::model::{EnumRef, FieldRef, Kind, MessageRef};

use super::declare::field_type;
use super::{Edit, Remedy, Site};

/// `scope.Name` → (`scope`, `Name`).
fn split(full: &str) -> (&str, &str) {
    full.rsplit_once('.').unwrap_or(("", full))
}

/// The remedy that gives the new field's type its old name back, if the type was only renamed.
pub(crate) fn renamed_type(site: &Site, new: FieldRef<'_>, old: FieldRef<'_>) -> Option<Remedy> {
    if new.cardinality() != old.cardinality() || new.is_map() || old.is_map() {
        return None;
    }
    let (now, before, same) = match (new.kind(), old.kind()) {
        (Kind::Message(n), Kind::Message(o)) => (n.full_name(), o.full_name(), same_message(n, o)),
        (Kind::Enum(n), Kind::Enum(o)) => (n.full_name(), o.full_name(), same_enum(n, o)),
        _ => return None,
    };
    let ((scope_now, _), (scope_before, name)) = (split(now), split(before));
    if !same || scope_now != scope_before || now == before || !site.reserved.claim_name(before, now)
    {
        return None;
    }
    Some(Remedy::edits(
        format!(
            "{now} is {before} renamed: give it its old name back (types are compared by name)"
        ),
        vec![Edit::RenameType {
            type_name: now.to_owned(),
            name: name.to_owned(),
        }],
    ))
}

/// The same fields by number, each with the same cardinality and type (a message or an enum
/// type by kind: their own renames are findings of their own). Names may differ: fields are
/// matched by number, and a renamed field keeps its data.
fn same_message(a: MessageRef<'_>, b: MessageRef<'_>) -> bool {
    a.fields().len() == b.fields().len()
        && a.fields().all(|f| {
            b.field(f.number()).is_some_and(|g| {
                f.cardinality() == g.cardinality()
                    && match (f.kind(), g.kind()) {
                        (Kind::Message(_), Kind::Message(_)) | (Kind::Enum(_), Kind::Enum(_)) => {
                            true
                        }
                        _ => field_type(f) == field_type(g),
                    }
            })
        })
}

/// The same numbers (names may differ, as aliases may).
fn same_enum(a: EnumRef<'_>, b: EnumRef<'_>) -> bool {
    let numbers = |e: EnumRef<'_>| {
        let mut n: Vec<i32> = e.values().map(|(_, n)| n).collect();
        n.sort_unstable();
        n.dedup();
        n
    };
    numbers(a) == numbers(b)
}
