//! A number and a name no version of a message has used: for the new field a remedy adds
//! beside the old one. The compact model keeps no `reserved` ranges (no rule reads them), so
//! they are read here from the new schema's descriptors, only when a remedy is planned.

use std::cell::RefCell;
use std::collections::HashMap;

use prost::Message as _;
use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorSet};

use crate::model::{FieldRef, Kind, MessageRef};

/// The largest field number protobuf allows, and the range it keeps for itself.
const MAX_NUMBER: u32 = 536_870_911;
const PROTOBUF_RESERVED: std::ops::RangeInclusive<u32> = 19_000..=19_999;

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

/// A message's reserved and extension ranges (inclusive), and its reserved names.
type Taken = (Vec<(u32, u32)>, Vec<String>);

#[derive(Default)]
struct Given {
    last: HashMap<String, u32>,
    fields: HashMap<(String, String), (String, u32)>,
    /// Old fields declared again, by message and number: their names.
    restored: HashMap<(String, u32), String>,
    /// Types given back their old names: old full name → the type renamed to it.
    renamed: HashMap<String, String>,
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
                    .insert(full, (ranges, message.reserved_name.clone()));
            }
        }
        reserved
    }

    fn of_message(&self, message: &str) -> (&[(u32, u32)], &[String]) {
        self.messages
            .get(message)
            .map_or((&[], &[]), |(ranges, names)| (ranges, names))
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
        if number > MAX_NUMBER {
            return None;
        }
        let name = self.name(new, old, field);
        given.last.insert(key.0.clone(), number);
        given.fields.insert(key, (name.clone(), number));
        Some((name, number))
    }

    /// The lowest number above every number `sides` use or the new side reserves: above them
    /// all, so that no older version's field is read into it.
    fn number(&self, new: MessageRef<'_>, old: MessageRef<'_>) -> Option<u32> {
        let (ranges, _) = self.of_message(new.full_name());
        let used = new
            .fields()
            .chain(old.fields())
            .map(|f| f.number())
            .chain(ranges.iter().map(|&(_, end)| end))
            .max()
            .unwrap_or(0);
        let mut next = used.checked_add(1)?;
        if PROTOBUF_RESERVED.contains(&next) {
            next = PROTOBUF_RESERVED.end() + 1;
        }
        (next <= MAX_NUMBER).then_some(next)
    }

    /// `name_v2` (or `_v3`, …): a name neither side has and the new side does not reserve.
    fn name(&self, new: MessageRef<'_>, old: MessageRef<'_>, name: &str) -> String {
        let (_, names) = self.of_message(new.full_name());
        let taken = |candidate: &str| {
            new.field_named(candidate).is_some()
                || old.field_named(candidate).is_some()
                || names.iter().any(|n| n == candidate)
        };
        (2..)
            .map(|version| format!("{name}_v{version}"))
            .find(|candidate| !taken(candidate))
            .expect("a message has finitely many names")
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
        let (ranges, _) = self.of_message(new.full_name());
        ranges
            .iter()
            .any(|&(start, end)| (start..=end).contains(&number))
    }
}

fn aliases(e: &EnumDescriptorProto) -> bool {
    e.options.as_ref().is_some_and(|o| o.allow_alias())
}
