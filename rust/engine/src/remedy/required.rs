//! Remedies for required fields: keep one that was required, make a new one optional, or,
//! where only the order of rollout helps, say which side to upgrade first.

use crate::model::{FieldRef, Syntax};

use super::declare::{declaration, ident, same_type};
use super::edit::{FieldOption, Label};
use super::{Edit, Remedy, Site};

const ROLLOUT: &str = "otherwise only old consumers reading new data break: upgrade every \
                       consumer before any producer (BACKWARD would accept it, and gives up old \
                       consumers reading new data)";

/// The edit that makes `field` of the new side optional, or required.
pub(crate) fn presence(site: &Site, field: FieldRef<'_>, required: bool) -> Option<Edit> {
    // A oneof's members take no label: one that must be required leaves the oneof by hand.
    if required && field.oneof().is_some() {
        return None;
    }
    let (message, name) = (site.message(), field.name().to_owned());
    match site.new_syntax() {
        Syntax::Proto3 => None,
        Syntax::Proto2 => Some(Edit::SetLabel {
            message,
            field: name,
            label: if required {
                Label::Required
            } else {
                Label::Optional
            },
        }),
        _ => Some(Edit::SetOption {
            message,
            field: name,
            option: FieldOption::FieldPresence,
            value: ident(if required {
                "LEGACY_REQUIRED"
            } else {
                "EXPLICIT"
            }),
        }),
    }
}

fn make_optional(site: &Site, field: FieldRef<'_>) -> Vec<Remedy> {
    presence(site, field, false)
        .map(|edit| {
            Remedy::edits(
                format!(
                    "declare field {} optional, and check for it in the code that needs it",
                    field.name()
                ),
                vec![edit],
            )
        })
        .into_iter()
        .collect()
}

fn make_required(site: &Site, field: FieldRef<'_>) -> Vec<Remedy> {
    presence(site, field, true)
        .map(|edit| Remedy::edits(format!("keep field {} required", field.name()), vec![edit]))
        .into_iter()
        .collect()
}

/// The old field declared again in the new message, as it was.
fn restore(site: &Site, old: FieldRef<'_>) -> Vec<Remedy> {
    if site.new_message.field_named(old.name()).is_some()
        || site.new_message.field(old.number()).is_some()
        || !site.reserved.can_name_type_of(old)
        || !site
            .reserved
            .claim(site.new_message.full_name(), old.number(), old.name())
    {
        return Vec::new();
    }
    declaration(old, site.new_syntax(), old.name(), old.number(), &[])
        .map(|declared| {
            Remedy::edits(
                format!("keep the required field {} as it was", old.name()),
                vec![Edit::AddField {
                    message: site.message(),
                    oneof: None,
                    field: declared,
                }],
            )
        })
        .into_iter()
        .collect()
}

/// REQUIRED_FIELD_ADDED: the reader requires a field the writer lacks.
pub(crate) fn required_field_added(site: &Site) -> Vec<Remedy> {
    match (site.new_is_writer, site.new_field, site.old_field) {
        (false, Some(new), _) => make_optional(site, new),
        (true, None, Some(old)) => restore(site, old),
        _ => Vec::new(),
    }
}

/// REQUIRED_FIELD_REMOVED: the writer has a required field the reader lacks.
pub(crate) fn required_field_removed(site: &Site) -> Vec<Remedy> {
    match (site.new_is_writer, site.new_field, site.old_field) {
        (false, None, Some(old)) => restore(site, old),
        (true, Some(new), _) => make_optional(site, new),
        _ => Vec::new(),
    }
}

/// REQUIRED_LABEL_CHANGED: the old label back.
pub(crate) fn required_label_changed(site: &Site) -> Vec<Remedy> {
    if let (Some(new), Some(old)) = (site.new_field, site.old_field) {
        if !same_type(old, new) {
            // The type changed too: that finding's fix keeps the old field, label and all.
            return Vec::new();
        }
    }
    match (site.new_field, site.old_field) {
        (Some(new), Some(old)) if old.is_required() => make_required(site, new),
        (Some(new), Some(_)) => make_optional(site, new),
        _ => Vec::new(),
    }
}

/// REQUIRED_FIELD_NOT_GUARANTEED: the reader requires what the writer may leave out.
pub(crate) fn required_field_not_guaranteed(site: &Site) -> Vec<Remedy> {
    let mut remedies = match (site.new_is_writer, site.new_field, site.old_field) {
        (false, Some(new), _) => make_optional(site, new),
        (true, Some(new), Some(_)) => make_required(site, new),
        (true, None, Some(old)) => restore(site, old),
        _ => Vec::new(),
    };
    if site.new_is_writer {
        remedies.push(Remedy::advice(ROLLOUT));
    }
    remedies
}
