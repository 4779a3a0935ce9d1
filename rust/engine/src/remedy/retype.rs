//! Remedies for a field whose type, kind, cardinality or map shape changed: protobuf's own
//! idiom, keep the old field as it was and add the new one beside it.

use crate::model::Kind;

use super::declare::kept_deprecated;
use super::edit::FieldOption;
use super::{Edit, Remedy, Site};

/// The new declaration keeps its type under a fresh number and name; the old declaration comes
/// back under its own, `[deprecated = true]`.
pub(crate) fn keep_old_add_new(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (site.new_field, site.old_field) else {
        return Vec::new();
    };
    let (new_message, old_message) = (site.new_message, site.old_message);
    if matches!(new.kind(), Kind::Group(_)) {
        // A group's field name is its type's: renaming one is renaming the type.
        return vec![Remedy::advice(format!(
            "keep field {} as the old side declares it; a group cannot be renamed in place, so \
             write the new type by hand as a new field with a new number and a new name",
            old.name()
        ))];
    }
    // The new map's own entry is renamed with it.
    let renamed_entry = new.is_map() && new.name() == old.name();
    if old.is_map() && !renamed_entry && map_entry_taken(site, old.name()) {
        return vec![Remedy::advice(format!(
            "keep field {} a map, as it was: write the old `map<…>` declaration in place of the \
             repeated field, and remove the hand-written entry message (the map declares it)",
            old.name()
        ))];
    }
    // A new map's entry type is renamed with it: an old field of that type could not name it.
    let entry_of_new = new.is_map()
        && !old.is_map()
        && old.kind().message().map(|m| m.full_name())
            == new.kind().message().map(|m| m.full_name());
    if entry_of_new {
        return vec![Remedy::advice(format!(
            "keep field {} the repeated message it was: write the hand-written entry message \
             and the repeated field back in place of the map",
            old.name()
        ))];
    }
    if let Some(renamed) = super::rename::renamed_type(site, new, old) {
        return vec![renamed];
    }
    if !site.reserved.can_name_type_of(old) {
        let old_type = old
            .kind()
            .message()
            .map(|m| m.full_name().to_owned())
            .or_else(|| match old.kind() {
                Kind::Enum(e) => Some(e.full_name().to_owned()),
                _ => None,
            })
            .unwrap_or_default();
        return vec![Remedy::advice(format!(
            "field {}'s old type {old_type} is not declared in the new schema: if it was only \
             renamed, give it its old name back (types are compared by name); else declare it \
             again, keep the field as it was, and add the new type as a new field",
            old.name()
        ))];
    }
    if !site
        .reserved
        .claim(new_message.full_name(), old.number(), old.name())
    {
        return Vec::new();
    }
    let Some((fresh, number)) = site.reserved.fresh(new_message, old_message, new.name()) else {
        return Vec::new();
    };
    // The old name, unless another field of the new message has it now.
    let taken = new_message
        .field_named(old.name())
        .is_some_and(|f| f.id() != new.id());
    if taken {
        return Vec::new();
    }
    let syntax = site.new_syntax();
    let Some(restored) = kept_deprecated(old, syntax) else {
        return vec![Remedy::advice(format!(
            "keep field {} as the old side declares it (a group, or a label this syntax \
             cannot write), and add the new type as a new field",
            old.name()
        ))];
    };
    // The author's new name stays where no version of the message gives it to another field;
    // only a field that kept the old name needs another.
    let keeps_name = new.name() != old.name() && old_message.field_named(new.name()).is_none();
    let name = if keeps_name {
        new.name().to_owned()
    } else {
        fresh
    };
    let message = site.message();
    // Both name the field as the new schema has it now: the number first.
    let mut edits = vec![Edit::SetNumber {
        message: message.clone(),
        field: new.name().to_owned(),
        number,
    }];
    if !keeps_name {
        edits.push(Edit::SetName {
            message: message.clone(),
            field: new.name().to_owned(),
            name: name.clone(),
        });
    }
    let mut summary = format!(
        "keep field {} as it was, deprecated, and add the new declaration as field {name} = \
         {number}",
        old.name()
    );
    // A new field cannot be required: no data written before it has it.
    if new.is_required() {
        if let Some(optional) = super::required::presence(site, new, false) {
            edits.push(optional);
            summary.push_str(", optional (data written before it lacks it)");
        }
    }
    // The old field goes back into its oneof where the new message still has it.
    let oneof = old
        .oneof()
        .filter(|o| new_message.fields().any(|f| f.oneof() == Some(*o)));
    let mut restored = restored;
    if let Some(oneof) = oneof {
        summary.push_str(&format!(", both in oneof {oneof}"));
        // A oneof's members say no label and no presence of their own.
        restored.label = None;
        restored
            .options
            .retain(|(option, _)| *option != FieldOption::FieldPresence);
    }
    edits.push(Edit::AddField {
        message,
        oneof: oneof.map(str::to_owned),
        field: restored,
    });
    vec![Remedy::edits(summary, edits)]
}

/// Whether the new message declares a type named as the map's entry would be
/// (`counts` → `CountsEntry`): the map cannot come back beside it.
fn map_entry_taken(site: &Site, map: &str) -> bool {
    let nested = format!(
        "{}.{}",
        site.new_message.full_name(),
        super::descriptor::map_entry(map)
    );
    site.reserved.declares(&nested)
}
