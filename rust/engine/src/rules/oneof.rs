//! ONEOF_CONFLICT (`conservative`): the reader's real oneof joins fields the writer keeps
//! apart. For each real reader oneof, its members the writer also has must, if two or more,
//! all belong to one real writer oneof; otherwise the writer may set several of them and the
//! reader keeps only the last. Moving one field into a new oneof, splitting a writer's oneof
//! and renaming a oneof are allowed. Synthetic oneofs (proto3 `optional`) are not oneofs here.

use crate::text::bound;

use super::{Check, RuleId, Scope, Spec};
use super::{MessagePair, Violation};
use crate::remedy;

pub(crate) const ONEOF_CONFLICT: Spec = Spec {
    id: RuleId::OneofConflict,
    description: "a reader's oneof holds fields the writer does not keep in one oneof",
    hint: "keep the fields in or out of the oneof as before",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Messages(oneof_conflict)),
    plan: remedy::oneof::oneof_conflict,
};

/// Members listed in a finding before "…".
const LISTED: usize = 8;

pub(crate) fn oneof_conflict(pair: &MessagePair, found: &mut Vec<Violation>) {
    // Most messages have no oneof, or members that keep theirs: settled without allocating.
    let in_reader_oneofs = pair
        .matched
        .iter()
        .filter(|(_, reader)| reader.oneof_id().is_some());
    if in_reader_oneofs.clone().nth(1).is_none() {
        return;
    }
    let mut first_writer_oneof: Option<(u32, Option<u32>)> = None;
    let all_in_one_writer_oneof = in_reader_oneofs.clone().all(|(writer, reader)| {
        let (r, w) = (reader.oneof_id(), writer.oneof_id());
        match first_writer_oneof {
            // One reader oneof so far, fed by one writer oneof.
            Some((seen, from)) => seen == r.unwrap_or_default() && from == w && w.is_some(),
            None => {
                first_writer_oneof = Some((r.unwrap_or_default(), w));
                w.is_some()
            }
        }
    });
    if all_in_one_writer_oneof {
        return;
    }
    // The matched fields in a reader oneof, grouped by it.
    let mut members: Vec<(u32, usize)> = pair
        .matched
        .iter()
        .enumerate()
        .filter_map(|(at, (_, reader))| reader.oneof_id().map(|oneof| (oneof, at)))
        .collect();
    members.sort_unstable();
    for group in members.chunk_by(|a, b| a.0 == b.0) {
        if group.len() < 2 {
            continue;
        }
        let first = pair.matched[group[0].1].0.oneof_id();
        let apart = first.is_none()
            || group
                .iter()
                .any(|&(_, at)| pair.matched[at].0.oneof_id() != first);
        if !apart {
            continue;
        }
        let (_, reader) = pair.matched[group[0].1];
        let oneof = reader.oneof().unwrap_or_default();
        let writer: Vec<String> = group
            .iter()
            .take(LISTED)
            .map(|&(_, at)| {
                let field = pair.matched[at].0;
                match field.oneof() {
                    Some(name) => format!("{} in oneof {}", field.name(), name),
                    None => format!("{} outside any oneof", field.name()),
                }
            })
            .collect();
        let reader_members: Vec<&str> = group
            .iter()
            .take(LISTED)
            .map(|&(_, at)| pair.matched[at].1.name())
            .collect();
        let more = if group.len() > LISTED { ", …" } else { "" };
        found.push(Violation {
            field: Some(oneof.to_owned()),
            number: None,
            writer: bound(&format!("{}{more}", writer.join(", ")), 240),
            reader: bound(
                &format!("oneof {oneof} {{ {}{more} }}", reader_members.join(", ")),
                240,
            ),
        });
    }
}
