//! ENUM_VALUE_NOT_READABLE: every value the other side writes stays readable.

use crate::model::{EnumRef, Kind};

use super::declare::ident;
use super::edit::{EnumOption, Value};
use super::{Edit, Remedy, Site};

const ROLLOUT: &str = "old consumers read an enum closed and cannot hold the new values: \
                       upgrade every consumer before any producer writes them";

fn enum_of(field: Option<crate::model::FieldRef<'_>>) -> Option<EnumRef<'_>> {
    match field?.kind() {
        Kind::Enum(e) => Some(e),
        _ => None,
    }
}

pub(crate) fn enum_value_not_readable(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (enum_of(site.new_field), enum_of(site.old_field)) else {
        return Vec::new();
    };
    let finding = site.finding;
    let enum_name = new.full_name().to_owned();
    let editions = site.new_message.file().syntax().is_edition();
    if finding.writer.starts_with("open enum ") {
        // An open writer, a closed reader.
        if !editions || (!site.new_is_writer && new.first_number() != 0) {
            return if site.new_is_writer {
                vec![Remedy::advice(format!(
                    "keep enum {enum_name} closed, as the old readers have it (its proto2 file, or \
                     `features.enum_type = CLOSED` in an edition)"
                ))]
            } else {
                vec![Remedy::advice(ROLLOUT)]
            };
        }
        let value = if site.new_is_writer { "CLOSED" } else { "OPEN" };
        return vec![Remedy::edits(
            format!("declare enum {enum_name} {value} as the old side has it"),
            vec![Edit::SetEnumOption {
                enum_name,
                option: EnumOption::EnumType,
                value: ident(value),
            }],
        )];
    }
    if finding.reader.ends_with(" lacks it") {
        if site.new_is_writer {
            return vec![Remedy::advice(ROLLOUT)];
        }
        let mut edits = Vec::new();
        let mut readable = new.values_by_number().map(|(_, n)| n).peekable();
        for (name, number) in old.values_by_number() {
            while readable.next_if(|&n| n < number).is_some() {}
            let added = edits
                .iter()
                .any(|e| matches!(e, Edit::AddEnumValue { number: n, .. } if *n == number));
            if readable.peek() != Some(&number) && !added {
                if new.number_named(name).is_some() {
                    return Vec::new();
                }
                edits.push(Edit::AddEnumValue {
                    enum_name: enum_name.clone(),
                    name: name.to_owned(),
                    number,
                });
            }
        }
        if edits.is_empty() {
            return Vec::new();
        }
        return vec![Remedy::edits(
            format!(
                "keep every value the old side writes in enum {enum_name}; mark the ones you no \
                 longer want `[deprecated = true]`"
            ),
            edits,
        )];
    }
    // A value renumbered: its old number back.
    let Some((name, _)) = finding.writer.split_once(" = ") else {
        return Vec::new();
    };
    let Some(number) = old.number_named(name) else {
        return Vec::new();
    };
    let mut edits = vec![Edit::SetEnumNumber {
        enum_name: enum_name.clone(),
        value: name.to_owned(),
        number,
    }];
    let mut summary = format!("give {name} its old number {number} in enum {enum_name}");
    match new.value_named_by(number).filter(|holder| *holder != name) {
        None => {}
        // Two values swapped: each gets its old number back.
        Some(holder) => match old.number_named(holder) {
            Some(before) if before != number => {
                summary.push_str(&format!(", and {holder} its old number {before}"));
                edits.push(Edit::SetEnumNumber {
                    enum_name: enum_name.clone(),
                    value: holder.to_owned(),
                    number: before,
                });
            }
            // A new name for the old number: both names stand for it, as aliases.
            _ => {
                summary.push_str(&format!(
                    "; {holder}, a new name for {number}, becomes its alias"
                ));
                if !site.reserved.allows_aliases(&enum_name) {
                    edits.push(Edit::SetEnumOption {
                        enum_name: enum_name.clone(),
                        option: EnumOption::AllowAlias,
                        value: Value::Bool(true),
                    });
                }
            }
        },
    }
    vec![Remedy::edits(summary, edits)]
}
