//! A number and a name no version of a message has used: for the new field a remedy adds
//! beside the old one. The compact model keeps no `reserved` ranges (no rule reads them), so
//! they are read here from the new schema's descriptors, only when a remedy is planned.

use std::collections::HashMap;

use prost::Message as _;
use prost_types::{DescriptorProto, FileDescriptorSet};

use crate::model::MessageRef;

/// The largest field number protobuf allows, and the range it keeps for itself.
const MAX_NUMBER: u32 = 536_870_911;
const PROTOBUF_RESERVED: std::ops::RangeInclusive<u32> = 19_000..=19_999;

/// Per message (by full name): the numbers it reserves or leaves to extensions, as inclusive
/// ranges, and the names it reserves.
#[derive(Default)]
pub(crate) struct Reserved {
    messages: HashMap<String, (Vec<(u32, u32)>, Vec<String>)>,
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
            let mut pending: Vec<(String, &DescriptorProto)> =
                file.message_type.iter().map(|m| (scope.clone(), m)).collect();
            while let Some((scope, message)) = pending.pop() {
                let full = format!("{scope}{}", message.name());
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

    /// The lowest number above every number `sides` use or the new side reserves: above them
    /// all, so that no older version's field is read into it.
    pub(crate) fn number(&self, new: MessageRef<'_>, old: MessageRef<'_>) -> Option<u32> {
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
    pub(crate) fn name(&self, new: MessageRef<'_>, old: MessageRef<'_>, name: &str) -> String {
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

    /// Whether the new side reserves the number (or leaves it to extensions).
    pub(crate) fn holds(&self, new: MessageRef<'_>, number: u32) -> bool {
        let (ranges, _) = self.of_message(new.full_name());
        ranges.iter().any(|&(start, end)| (start..=end).contains(&number))
    }
}
