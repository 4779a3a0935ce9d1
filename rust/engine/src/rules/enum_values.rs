//! ENUM_VALUE_NOT_READABLE (`conservative`): an enum pair reached through matched fields,
//! compared by numbers whatever the enums are called, with their open or closed behaviour:
//!
//! | writer | reader | |
//! |---|---|---|
//! | closed | closed | every writer number must be a reader number |
//! | closed | open | allowed |
//! | open | open | allowed: unknown numbers stay representable |
//! | open | closed | rejected: an open writer may write any number |
//!
//! Aliases count once; a value name kept with another number is rejected as detectable
//! renumbering, whatever the behaviour. Numbers are `i32`, so the whole range is compared. The
//! model keeps each enum's values sorted by number and by name, so a pair costs one merge.

use crate::model::EnumRef;
use crate::text::bound;

use super::Violation;
use super::{Check, RuleId, Scope, Spec};
use crate::remedy;

pub(crate) const ENUM_VALUE_NOT_READABLE: Spec = Spec {
    id: RuleId::EnumValueNotReadable,
    description: "an enum number the writer may write is not one the reader can hold, or a value name changed its number",
    hint: "keep every old enum value with its number",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Enums(enum_value_not_readable)),
    plan: remedy::enums::enum_value_not_readable,
};

/// Numbers or names listed in a finding before "…".
const LISTED: usize = 8;

pub(crate) fn enum_value_not_readable(
    writer: EnumRef<'_>,
    reader: EnumRef<'_>,
    found: &mut Vec<Violation>,
) {
    let same_values = writer.values().len() == reader.values().len()
        && writer.values().zip(reader.values()).all(|(w, r)| w == r);
    if !same_values {
        renumbered(writer, reader, found);
    }
    match (writer.is_closed(), reader.is_closed()) {
        (false, true) => found.push(Violation {
            field: None,
            number: None,
            writer: format!("open enum {}", writer.full_name()),
            reader: format!("closed enum {}", reader.full_name()),
        }),
        (true, true) if !same_values => {
            let missing = missing_numbers(writer, reader);
            if !missing.is_empty() {
                let more = if missing.len() > LISTED { ", …" } else { "" };
                let listed: Vec<String> = missing
                    .iter()
                    .take(LISTED)
                    .map(|&(name, n)| format!("{name} = {n}"))
                    .collect();
                found.push(Violation {
                    field: None,
                    number: None,
                    writer: bound(
                        &format!(
                            "closed enum {} writes {}{more}",
                            writer.full_name(),
                            listed.join(", ")
                        ),
                        240,
                    ),
                    reader: format!("closed enum {} lacks it", reader.full_name()),
                });
            }
        }
        _ => {}
    }
}

/// The writer's numbers the reader lacks, each once with its first name, up to one more than
/// a finding lists: one merge of the two enums' values by number.
fn missing_numbers<'a>(writer: EnumRef<'a>, reader: EnumRef<'_>) -> Vec<(&'a str, i32)> {
    let mut missing = Vec::new();
    let mut readable = reader.values_by_number().map(|(_, n)| n).peekable();
    let mut last = None;
    for (name, number) in writer.values_by_number() {
        if last == Some(number) {
            continue;
        }
        last = Some(number);
        while readable.next_if(|&n| n < number).is_some() {}
        if readable.peek() != Some(&number) {
            missing.push((name, number));
            if missing.len() > LISTED {
                break;
            }
        }
    }
    missing
}

/// A value name on both sides with different numbers: one merge of the two enums' values by
/// name (unique within an enum).
fn renumbered(writer: EnumRef<'_>, reader: EnumRef<'_>, found: &mut Vec<Violation>) {
    let mut theirs = reader.values_by_name().peekable();
    let mut listed = 0;
    for (name, number) in writer.values_by_name() {
        while theirs.next_if(|&(n, _)| n < name).is_some() {}
        let Some(&(_, other)) = theirs.peek().filter(|(n, _)| *n == name) else {
            continue;
        };
        if other == number {
            continue;
        }
        found.push(Violation {
            field: None,
            number: None,
            writer: format!("{} = {number}", bound(name, 100)),
            reader: format!("{} = {other}", bound(name, 100)),
        });
        listed += 1;
        if listed == LISTED {
            break;
        }
    }
}
