//! Remedies that keep what the old field said: its number, its default, its packing, its
//! UTF-8 validation, its encoding, declared on the new field.

use crate::model::{FieldRef, Kind, Syntax};

use super::declare::{
    default_value, ident, kept_deprecated, packable, packing, same_shape, same_type,
};
use super::edit::{FieldOption, FileOption, Value};
use super::print;
use super::{Edit, Remedy, Site};

fn set_option(site: &Site, field: FieldRef<'_>, (option, value): (FieldOption, Value)) -> Edit {
    Edit::SetOption {
        message: site.message(),
        field: field.name().to_owned(),
        option,
        value,
    }
}

/// FIELD_NUMBER_CHANGED: the old number back. A field of the new side that took that number
/// moves too: to its own old number if the old side had it by name, else to a fresh one.
pub(crate) fn field_number_changed(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (site.new_field, site.old_field) else {
        return Vec::new();
    };
    let number = old.number();
    if !same_shape(old, new) {
        // A new field under an old name: it gets a name of its own, and the old field stays.
        return renamed_beside_old(site, new, old);
    }
    if site.reserved.holds(site.new_message, number) {
        return vec![Remedy::advice(format!(
            "{} reserves number {number}: take it out of `reserved` and give field {} its \
             old number {number}",
            site.message(),
            new.name()
        ))];
    }
    let mut remedies = Vec::new();
    let holder = site
        .new_message
        .field(number)
        .filter(|f| f.id() != new.id());
    // The old field renamed, keeping its number and data, and a new field under its old name:
    // the new field takes a name of its own, and nobody's data moves.
    if let Some(holder) =
        holder.filter(|h| site.old_message.field_named(h.name()).is_none() && same_shape(old, *h))
    {
        if let Some((name, _)) = site
            .reserved
            .fresh(site.new_message, site.old_message, new.name())
        {
            remedies.push(Remedy::edits(
                format!(
                    "field {} = {number} is {} renamed, and keeps its data: give the new field \
                     {} = {} a name of its own, {name}",
                    holder.name(),
                    old.name(),
                    new.name(),
                    new.number()
                ),
                vec![Edit::SetName {
                    message: site.message(),
                    field: new.name().to_owned(),
                    name,
                }],
            ));
        }
    }
    let mut edits = vec![Edit::SetNumber {
        message: site.message(),
        field: new.name().to_owned(),
        number,
    }];
    let mut summary = format!("give field {} its old number {number}", new.name());
    if let Some(holder) = holder {
        let to = match site.old_message.field_named(holder.name()) {
            Some(before) if before.number() != number => Some(before.number()),
            _ => site
                .reserved
                .fresh(site.new_message, site.old_message, holder.name())
                .map(|(_, number)| number),
        };
        let Some(to) = to else {
            return remedies;
        };
        summary.push_str(&format!(
            ", and give field {} (which took {number}) number {to}",
            holder.name()
        ));
        edits.push(Edit::SetNumber {
            message: site.message(),
            field: holder.name().to_owned(),
            number: to,
        });
    }
    remedies.push(Remedy::edits(summary, edits));
    remedies
}

/// The new field renamed (its number kept), the old one declared again, deprecated.
fn renamed_beside_old(site: &Site, new: FieldRef<'_>, old: FieldRef<'_>) -> Vec<Remedy> {
    let taken = site.new_message.field(old.number()).is_some()
        || site.reserved.holds(site.new_message, old.number())
        || !site.reserved.can_name_type_of(old)
        || !site
            .reserved
            .claim(site.new_message.full_name(), old.number(), old.name());
    let Some((name, _)) = site
        .reserved
        .fresh(site.new_message, site.old_message, new.name())
        .filter(|_| !taken)
    else {
        return Vec::new();
    };
    let Some(restored) = kept_deprecated(old, site.new_syntax()) else {
        return Vec::new();
    };
    vec![Remedy::edits(
        format!(
            "field {} = {} is a new field with another type: name it {name}, and keep the old \
             field {} = {} as it was, deprecated",
            new.name(),
            new.number(),
            old.name(),
            old.number()
        ),
        vec![
            Edit::SetName {
                message: site.message(),
                field: new.name().to_owned(),
                name,
            },
            Edit::AddField {
                message: site.message(),
                oneof: None,
                field: restored,
            },
        ],
    )]
}

/// DEFAULT_VALUE_CHANGED, DEFAULT_CHANGED: the old default, declared.
pub(crate) fn default_changed(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (site.new_field, site.old_field) else {
        return Vec::new();
    };
    if !same_type(old, new) {
        // The type changed too: that finding's fix keeps the old field, default and all.
        return Vec::new();
    }
    if site.new_syntax() == Syntax::Proto3 {
        return vec![Remedy::advice(
            "proto3 cannot declare a default: keep the old file's syntax (proto2), or move to an \
             edition, where the field can keep `[default = …]` with explicit presence",
        )];
    }
    let value = match (old.kind(), new.kind()) {
        // An enum's default is written by name, and the new enum may name the number otherwise.
        (Kind::Enum(before), Kind::Enum(now)) => {
            let number = match old.declared_default() {
                Some(name) => before.number_named(name),
                None => Some(before.first_number()),
            };
            match number.and_then(|n| now.value_named_by(n)) {
                Some(name) => ident(name),
                None => return Vec::new(),
            }
        }
        _ => match default_value(old) {
            Some(value) => value,
            None => return Vec::new(),
        },
    };
    let Ok(written) = print::option(FieldOption::Default.name(), &value) else {
        return Vec::new();
    };
    vec![Remedy::edits(
        format!(
            "declare the old default on field {}: `[{written}]`",
            new.name()
        ),
        vec![set_option(site, new, (FieldOption::Default, value))],
    )]
}

/// PACKED_TO_EXPANDED: the old packing, declared.
pub(crate) fn packing_changed(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (site.new_field, site.old_field) else {
        return Vec::new();
    };
    if !same_type(old, new) || !packable(new) {
        // The type changed too: that finding's fix keeps the old field, packing and all.
        return Vec::new();
    }
    let option = packing(old.is_packed(), site.new_syntax());
    let Ok(written) = print::option(option.0.name(), &option.1) else {
        return Vec::new();
    };
    vec![Remedy::edits(
        format!(
            "declare the old encoding on field {}: `[{written}]`",
            new.name()
        ),
        vec![set_option(site, new, option)],
    )]
}

/// UTF8_VALIDATION_ADDED: the new side validates as the old side did.
pub(crate) fn utf8_validation_added(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (site.new_field, site.old_field) else {
        return Vec::new();
    };
    let validates = old.validates_utf8();
    match site.new_syntax() {
        Syntax::Proto3 => vec![Remedy::advice(
            "proto3 always validates UTF-8: move the file to an edition instead, with \
             `features.utf8_validation = NONE` where the old side did not validate",
        )],
        Syntax::Proto2 => vec![Remedy::edits(
            format!(
                "declare the old side's check in the file: `option java_string_check_utf8 = {validates};`"
            ),
            vec![Edit::SetFileOption {
                message: site.message(),
                option: FileOption::JavaStringCheckUtf8,
                value: Value::Bool(validates),
            }],
        )],
        _ => {
            let value = if validates { "VERIFY" } else { "NONE" };
            vec![Remedy::edits(
                format!(
                    "declare the old side's validation on field {}: `[features.utf8_validation = {value}]`",
                    new.name()
                ),
                vec![set_option(site, new, (FieldOption::Utf8Validation, ident(value)))],
            )]
        }
    }
}

/// MESSAGE_ENCODING_CHANGED: the old encoding, declared (an edition), or the group kept.
pub(crate) fn message_encoding_changed(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (site.new_field, site.old_field) else {
        return Vec::new();
    };
    if !site.new_syntax().is_edition() || !matches!(new.kind(), Kind::Message(_)) {
        return vec![Remedy::advice(format!(
            "keep field {} encoded as the old side has it: in proto2 a group stays a group",
            new.name()
        ))];
    }
    let value = if old.is_delimited() {
        "DELIMITED"
    } else {
        "LENGTH_PREFIXED"
    };
    vec![Remedy::edits(
        format!(
            "declare the old encoding on field {}: `[features.message_encoding = {value}]`",
            new.name()
        ),
        vec![set_option(
            site,
            new,
            (FieldOption::MessageEncoding, ident(value)),
        )],
    )]
}
