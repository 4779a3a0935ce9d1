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
//! renumbering, whatever the behaviour. Numbers are `i32`, so the whole range is compared.

use crate::model::EnumRef;
use crate::text::bound;

use super::Violation;

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
            let readable = numbers(reader);
            let missing: Vec<i32> = numbers(writer)
                .into_iter()
                .filter(|n| readable.binary_search(n).is_err())
                .collect();
            if !missing.is_empty() {
                let listed: Vec<String> = missing
                    .iter()
                    .take(LISTED)
                    .map(|&n| match writer.value_named_by(n) {
                        Some(name) => format!("{name} = {n}"),
                        None => n.to_string(),
                    })
                    .collect();
                let more = if missing.len() > LISTED { ", …" } else { "" };
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

/// The declared numbers, aliases once, sorted.
fn numbers(e: EnumRef<'_>) -> Vec<i32> {
    let mut numbers: Vec<i32> = e.values().map(|(_, n)| n).collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// A value name on both sides with different numbers.
fn renumbered(writer: EnumRef<'_>, reader: EnumRef<'_>, found: &mut Vec<Violation>) {
    // Few values: a scan. Many: the reader's names sorted once.
    let mut by_name: Vec<(&str, i32)> = reader.values().collect();
    by_name.sort_unstable();
    let mut listed = 0;
    for (name, number) in writer.values() {
        let at = by_name.partition_point(|(n, _)| *n < name);
        let Some(&(_, other)) = by_name.get(at).filter(|(n, _)| *n == name) else {
            continue;
        };
        // An alias may carry the name once more with the writer's number.
        let kept = by_name[at..]
            .iter()
            .take_while(|(n, _)| *n == name)
            .any(|(_, n)| *n == number);
        if kept || listed == LISTED {
            continue;
        }
        listed += 1;
        found.push(Violation {
            field: None,
            number: None,
            writer: format!("{} = {number}", bound(name, 100)),
            reader: format!("{} = {other}", bound(name, 100)),
        });
    }
}
