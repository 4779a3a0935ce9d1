//! A number and a name no version of a message has used: for the new field a remedy adds
//! beside the old one. The compact model keeps no `reserved` ranges (no rule reads them), so
//! they are read here from the new schema's descriptors, only when a remedy is planned.
//!
//! Every lookup here is a hash lookup or a binary search: a schema may reserve hundreds of
//! thousands of names or ranges, and remedies are planned for every check, `--fix` or not.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use prost::Message as _;
use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorSet};

use crate::model::{FieldRef, Kind, MessageRef};

/// The largest field number protobuf allows, and the range it keeps for itself.
const MAX_NUMBER: u32 = 536_870_911;
const PROTOBUF_RESERVED: std::ops::RangeInclusive<u32> = 19_000..=19_999;

/// The most names `name_v2`, `name_v3`, … one search tries before it gives up (and the remedy
/// becomes advice). Each name tried and found taken is a name the schema declares or reserves,
/// so a search only runs long on a schema that reserves that many names in a row, and all the
/// searches of a check together try at most as many names as the schemas hold, plus one per
/// remedy. The bound is a backstop, for a search that would otherwise run on: at some 100 ns a
/// name, it costs a remedy a tenth of a second at most, less than reading a schema of that many
/// names takes, so a generated schema that reserves 160,000 names in a row (a few milliseconds
/// of search) still gets the first free one. A 16 MiB schema, the default limit, holds about
/// 1.2 million such names.
const MAX_NAME_TRIES: u32 = 1 << 20;

/// Per message (by full name): the numbers it reserves or leaves to extensions, as inclusive
/// ranges, and the names it reserves.
#[derive(Default)]
pub(crate) struct Reserved {
    messages: HashMap<String, Taken>,
    /// What remedies of this check already gave out: per message the last number, and per
    /// field its new name and number, so that two findings' remedies never give one number
    /// twice, and two findings about one field (FULL's two directions) get the same edit.
    given: RefCell<Given>,
    /// Every enum the new side declares, by full name, with whether it allows aliases.
    enums: HashMap<String, bool>,
}

/// A message's reserved and extension numbers, and its reserved names.
#[derive(Default)]
struct Taken {
    /// Inclusive ranges, sorted and merged where they overlap or touch, for a binary search.
    ranges: Vec<(u32, u32)>,
    names: HashSet<String>,
}

impl Taken {
    fn new(mut ranges: Vec<(u32, u32)>, names: &[String]) -> Taken {
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (start, end) in ranges {
            match merged.last_mut() {
                Some((_, last)) if start <= last.saturating_add(1) => *last = (*last).max(end),
                _ => merged.push((start, end)),
            }
        }
        Taken {
            ranges: merged,
            names: names.iter().cloned().collect(),
        }
    }

    fn holds(&self, number: u32) -> bool {
        let after = self.ranges.partition_point(|&(start, _)| start <= number);
        after > 0 && self.ranges[after - 1].1 >= number
    }

    /// The highest number reserved or left to extensions.
    fn highest(&self) -> Option<u32> {
        self.ranges.last().map(|&(_, end)| end)
    }
}

#[derive(Default)]
struct Given {
    last: HashMap<String, u32>,
    fields: HashMap<(String, String), (String, u32)>,
    /// Old fields declared again, by message and number: their names.
    restored: HashMap<(String, u32), String>,
    /// Types given back their old names: old full name → the type renamed to it.
    renamed: HashMap<String, String>,
    /// Fields, by message and name, for which no free name was found within
    /// [`MAX_NAME_TRIES`]: not searched again for the next finding about them.
    nameless: HashSet<(String, String)>,
}

impl Reserved {
    pub(crate) fn of(descriptor_set: &[u8]) -> Reserved {
        let mut reserved = Reserved::default();
        let Ok(set) = FileDescriptorSet::decode(descriptor_set) else {
            return reserved;
        };
        for file in &set.file {
            let scope = match file.package() {
                "" => String::new(),
                package => format!("{package}."),
            };
            let mut pending: Vec<(String, &DescriptorProto)> = file
                .message_type
                .iter()
                .map(|m| (scope.clone(), m))
                .collect();
            reserved.enums.extend(
                file.enum_type
                    .iter()
                    .map(|e| (format!("{scope}{}", e.name()), aliases(e))),
            );
            while let Some((scope, message)) = pending.pop() {
                let full = format!("{scope}{}", message.name());
                reserved.enums.extend(
                    message
                        .enum_type
                        .iter()
                        .map(|e| (format!("{full}.{}", e.name()), aliases(e))),
                );
                pending.extend(message.nested_type.iter().map(|n| (format!("{full}."), n)));
                // Descriptor ranges are end-exclusive.
                let ranges = message
                    .reserved_range
                    .iter()
                    .map(|r| (r.start(), r.end()))
                    .chain(message.extension_range.iter().map(|r| (r.start(), r.end())))
                    .filter(|(start, end)| start < end && *start > 0)
                    .map(|(start, end)| (start as u32, end as u32 - 1))
                    .collect();
                reserved
                    .messages
                    .insert(full, Taken::new(ranges, &message.reserved_name));
            }
        }
        reserved
    }

    fn of_message(&self, message: &str) -> Option<&Taken> {
        self.messages.get(message)
    }

    /// A new name and number for `field` of `new` ([`Reserved::name`], [`Reserved::number`]),
    /// the same each time it is asked, and never a number given to another field.
    pub(crate) fn fresh(
        &self,
        new: MessageRef<'_>,
        old: MessageRef<'_>,
        field: &str,
    ) -> Option<(String, u32)> {
        let key = (new.full_name().to_owned(), field.to_owned());
        if let Some(given) = self.given.borrow().fields.get(&key) {
            return Some(given.clone());
        }
        let mut number = self.number(new, old)?;
        let mut given = self.given.borrow_mut();
        if let Some(&last) = given.last.get(&key.0) {
            number = number.max(last.checked_add(1)?);
            if PROTOBUF_RESERVED.contains(&number) {
                number = PROTOBUF_RESERVED.end() + 1;
            }
        }
        if number > MAX_NUMBER || given.nameless.contains(&key) {
            return None;
        }
        let Some(name) = self.name(new, old, field) else {
            given.nameless.insert(key);
            return None;
        };
        given.last.insert(key.0.clone(), number);
        given.fields.insert(key, (name.clone(), number));
        Some((name, number))
    }

    /// The lowest number above every number `sides` use or the new side reserves: above them
    /// all, so that no older version's field is read into it.
    fn number(&self, new: MessageRef<'_>, old: MessageRef<'_>) -> Option<u32> {
        let reserved = self.of_message(new.full_name()).and_then(Taken::highest);
        let used = new
            .fields()
            .chain(old.fields())
            .map(|f| f.number())
            .chain(reserved)
            .max()
            .unwrap_or(0);
        let mut next = used.checked_add(1)?;
        if PROTOBUF_RESERVED.contains(&next) {
            next = PROTOBUF_RESERVED.end() + 1;
        }
        (next <= MAX_NUMBER).then_some(next)
    }

    /// `name_v2` (or `_v3`, …): a name neither side has and the new side does not reserve;
    /// none if the first [`MAX_NAME_TRIES`] are all taken.
    fn name(&self, new: MessageRef<'_>, old: MessageRef<'_>, name: &str) -> Option<String> {
        let names = self.of_message(new.full_name()).map(|t| &t.names);
        first_free(name, MAX_NAME_TRIES, |candidate| {
            new.field_named(candidate).is_some()
                || old.field_named(candidate).is_some()
                || names.is_some_and(|n| n.contains(candidate))
        })
    }

    /// Claims `number` in `message` for the old field `name` a remedy declares again: false if
    /// another remedy of this check declares another field there already.
    pub(crate) fn claim(&self, message: &str, number: u32, name: &str) -> bool {
        let mut given = self.given.borrow_mut();
        let claimed = given
            .restored
            .entry((message.to_owned(), number))
            .or_insert_with(|| name.to_owned());
        claimed == name
    }

    /// Claims the old full name `before` for the type now called `now`: false if the new side
    /// declares a type of that name, or another rename of this check took it.
    pub(crate) fn claim_name(&self, before: &str, now: &str) -> bool {
        if self.messages.contains_key(before) || self.enums.contains_key(before) {
            return false;
        }
        let mut given = self.given.borrow_mut();
        let claimed = given
            .renamed
            .entry(before.to_owned())
            .or_insert_with(|| now.to_owned());
        claimed == now
    }

    /// Whether the new side's enum of that full name says `option allow_alias = true;`.
    pub(crate) fn allows_aliases(&self, enum_name: &str) -> bool {
        self.enums.get(enum_name).copied().unwrap_or(false)
    }

    /// Whether the new side declares a message of that full name.
    pub(crate) fn declares(&self, message: &str) -> bool {
        self.messages.contains_key(message)
    }

    /// Whether the new side declares every message and enum `field`'s type names (a map's key
    /// and value), so that the field can be written again there.
    pub(crate) fn can_name_type_of(&self, field: FieldRef<'_>) -> bool {
        match field.kind() {
            Kind::Scalar(_) => true,
            Kind::Enum(e) => self.enums.contains_key(e.full_name()),
            Kind::Message(m) if field.is_map() => m.fields().all(|f| self.can_name_type_of(f)),
            Kind::Message(m) | Kind::Group(m) => self.declares(m.full_name()),
        }
    }

    /// Whether the new side reserves the number (or leaves it to extensions).
    pub(crate) fn holds(&self, new: MessageRef<'_>, number: u32) -> bool {
        self.of_message(new.full_name())
            .is_some_and(|t| t.holds(number))
    }
}

/// The first of `base_v2`, `base_v3`, … (`tries` of them) that is not `taken`. One buffer is
/// reused for every candidate: a long search allocates once.
fn first_free(base: &str, tries: u32, taken: impl Fn(&str) -> bool) -> Option<String> {
    let mut candidate = String::with_capacity(base.len() + 12);
    (2..2u64 + u64::from(tries)).find_map(|version| {
        candidate.clear();
        let _ = write!(candidate, "{base}_v{version}");
        (!taken(&candidate)).then(|| candidate.clone())
    })
}

fn aliases(e: &EnumDescriptorProto) -> bool {
    e.options.as_ref().is_some_and(|o| o.allow_alias())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_free_name_is_found_past_the_taken_ones() {
        let taken: HashSet<String> = (2..=50).map(|v| format!("a_v{v}")).collect();
        let free = first_free("a", 100, |c| taken.contains(c));
        assert_eq!(free.as_deref(), Some("a_v51"));
    }

    #[test]
    fn the_search_for_a_name_stops_after_its_tries() {
        let asked = std::cell::Cell::new(0);
        let free = first_free("a", 10, |_| {
            asked.set(asked.get() + 1);
            true
        });
        assert_eq!(free, None);
        assert_eq!(asked.get(), 10);
        let taken: HashSet<String> = (2..=11).map(|v| format!("a_v{v}")).collect();
        assert_eq!(first_free("a", 10, |c| taken.contains(c)), None);
        assert_eq!(
            first_free("a", 11, |c| taken.contains(c)).as_deref(),
            Some("a_v12")
        );
    }

    #[test]
    fn reserved_ranges_are_merged_and_searched() {
        let taken = Taken::new(
            vec![(20, 30), (5, 5), (1, 3), (4, 4), (25, 40), (100, 100)],
            &[],
        );
        assert_eq!(taken.ranges, [(1, 5), (20, 40), (100, 100)]);
        for (number, held) in [
            (1, true),
            (5, true),
            (6, false),
            (19, false),
            (20, true),
            (33, true),
            (40, true),
            (41, false),
            (99, false),
            (100, true),
            (101, false),
        ] {
            assert_eq!(taken.holds(number), held, "{number}");
        }
        assert_eq!(taken.highest(), Some(100));
        assert!(!Taken::default().holds(1));
        assert_eq!(Taken::default().highest(), None);
    }
}
