//! What to write instead: for a finding, the edits to the **new** schema that make it go away
//! (docs/rules.md, "What to write instead" under each rule). The stored versions are history,
//! so a remedy never edits them.
//!
//! One entry per rule ID in [`TABLE`]: its one-line hint (what the broker's exception carries,
//! static, so a producer's error text costs nothing to compute) and its planner, which looks at
//! the two declarations a finding names and says which [`Edit`]s to make. Edits are about
//! declarations (a field's number, an option, a field to add), not text: the CLI turns them
//! into positions in the new side's `.proto` source (`rust/cli/src/fix/`), or shows them as the
//! declaration to write. Planning decodes both schemas again, so it runs only where remedies
//! are shown, never in the broker.

mod declare;
pub mod descriptor;
mod edit;
mod enums;
mod fresh;
mod keep;
mod oneof;
pub mod print;
mod rename;
mod required;
mod retype;
mod site;
mod unfixable;

use std::cell::OnceCell;

use crate::limits::Limits;
use crate::model::{Schema, SchemaData};
use crate::report::Finding;
use crate::rules::RuleId;
use crate::schema_ref::SchemaRef;
use crate::strategy::Direction;

pub use edit::{Edit, EnumOption, FieldOption, FieldType, FileOption, Label, NewField, Value};
use fresh::Reserved;
use site::Site;

/// One way to make a finding go away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remedy {
    /// What to do, in a sentence.
    pub summary: String,
    /// The edits to the new schema, in the order given; empty where no edit of the new schema
    /// helps (the summary says why, and what does).
    pub edits: Vec<Edit>,
}

impl Remedy {
    pub(crate) fn advice(summary: impl Into<String>) -> Remedy {
        Remedy {
            summary: summary.into(),
            edits: Vec::new(),
        }
    }

    pub(crate) fn edits(summary: impl Into<String>, edits: Vec<Edit>) -> Remedy {
        Remedy {
            summary: summary.into(),
            edits,
        }
    }
}

/// A rule's entry: its hint and its planner.
pub(crate) struct Entry {
    pub rule: RuleId,
    /// At most one short line, the same for every finding of the rule: the broker appends it.
    pub hint: &'static str,
    pub plan: fn(&Site) -> Vec<Remedy>,
}

/// Every rule ID's remedy, in [`RuleId`] order (a test holds it to that).
pub(crate) const TABLE: &[Entry] = &[
    Entry {
        rule: RuleId::RootMessageChanged,
        hint: "keep the old root message as the schema's root",
        plan: unfixable::root_message_changed,
    },
    Entry {
        rule: RuleId::SyntaxChanged,
        hint: "keep the old syntax or edition line",
        plan: unfixable::syntax_changed,
    },
    Entry {
        rule: RuleId::FieldNumberChanged,
        hint: "give the field its old number back",
        plan: keep::field_number_changed,
    },
    Entry {
        rule: RuleId::RequiredFieldAdded,
        hint: "declare the new field optional",
        plan: required::required_field_added,
    },
    Entry {
        rule: RuleId::RequiredFieldRemoved,
        hint: "keep the required field",
        plan: required::required_field_removed,
    },
    Entry {
        rule: RuleId::RequiredLabelChanged,
        hint: "keep the field's old label",
        plan: required::required_label_changed,
    },
    Entry {
        rule: RuleId::FieldKindChanged,
        hint: "keep the old field; add the new type as a new field",
        plan: retype::keep_old_add_new,
    },
    Entry {
        rule: RuleId::DefaultValueChanged,
        hint: "declare the old default on the field",
        plan: keep::default_changed,
    },
    Entry {
        rule: RuleId::RepeatedToSingular,
        hint: "keep the field repeated; add a singular field beside it",
        plan: retype::keep_old_add_new,
    },
    Entry {
        rule: RuleId::PackedToExpanded,
        hint: "declare the old packing on the field",
        plan: keep::packing_changed,
    },
    Entry {
        rule: RuleId::ScalarTypeChanged,
        hint: "keep the old type; add the new type as a new field",
        plan: retype::keep_old_add_new,
    },
    Entry {
        rule: RuleId::RequiredFieldNotGuaranteed,
        hint: "keep the field's old presence, or upgrade consumers first",
        plan: required::required_field_not_guaranteed,
    },
    Entry {
        rule: RuleId::TypeChanged,
        hint: "keep the old type; add the new type as a new field",
        plan: retype::keep_old_add_new,
    },
    Entry {
        rule: RuleId::CardinalityChanged,
        hint: "keep the old cardinality; add the new shape as a new field",
        plan: retype::keep_old_add_new,
    },
    Entry {
        rule: RuleId::MapChanged,
        hint: "keep the old declaration; add a changed map as a new field",
        plan: retype::keep_old_add_new,
    },
    Entry {
        rule: RuleId::DefaultChanged,
        hint: "declare the old default on the field",
        plan: keep::default_changed,
    },
    Entry {
        rule: RuleId::OneofConflict,
        hint: "keep the fields in or out of the oneof as before",
        plan: oneof::oneof_conflict,
    },
    Entry {
        rule: RuleId::EnumValueNotReadable,
        hint: "keep every old enum value with its number",
        plan: enums::enum_value_not_readable,
    },
    Entry {
        rule: RuleId::Utf8ValidationAdded,
        hint: "declare the old UTF-8 validation",
        plan: keep::utf8_validation_added,
    },
    Entry {
        rule: RuleId::MessageEncodingChanged,
        hint: "keep the old message encoding",
        plan: keep::message_encoding_changed,
    },
    Entry {
        rule: RuleId::UnsupportedFeature,
        hint: "remove what the schema does not use; otherwise no edit helps",
        plan: unfixable::unsupported_feature,
    },
    Entry {
        rule: RuleId::AlwaysIncompatible,
        hint: "no schema edit helps: the strategy refuses every change",
        plan: unfixable::always_incompatible,
    },
    Entry {
        rule: RuleId::UnknownStrategy,
        hint: "no schema edit helps: set a known strategy",
        plan: unfixable::unknown_strategy,
    },
];

fn entry(rule: RuleId) -> &'static Entry {
    // The table is in RuleId order, one entry each (tested).
    let entry = &TABLE[rule as usize];
    debug_assert_eq!(entry.rule, rule);
    entry
}

/// The one-line hint for `rule`'s findings, as the broker's exception text carries it.
pub fn hint(rule: RuleId) -> &'static str {
    entry(rule).hint
}

/// Plans remedies for the findings of one check: the new schema decoded once, and each
/// existing one the first time a finding names it (a long history has few findings).
pub struct Planner<'d> {
    new: Option<Decoded>,
    existing: Vec<(&'d [u8], OnceCell<Option<Decoded>>)>,
    limits: Limits,
}

struct Decoded {
    schema: Schema,
    reserved: Reserved,
}

impl Decoded {
    fn of(data: &[u8], limits: &Limits) -> Option<Decoded> {
        let schema = Schema::decode_within(data, limits).ok()?;
        let reserved = SchemaData::parse(data)
            .map(|d| Reserved::of(&d.descriptor_set))
            .unwrap_or_default();
        Some(Decoded { schema, reserved })
    }
}

impl<'d> Planner<'d> {
    /// `limits`: the check's, so that what it decoded decodes here too.
    pub fn new(existing: &[&'d [u8]], new: &[u8], limits: &Limits) -> Planner<'d> {
        Planner {
            new: Decoded::of(new, limits),
            existing: existing
                .iter()
                .map(|&data| (data, OnceCell::new()))
                .collect(),
            limits: *limits,
        }
    }

    fn existing(&self, index: usize) -> Option<&Decoded> {
        let (data, decoded) = self.existing.get(index)?;
        decoded
            .get_or_init(|| Decoded::of(data, &self.limits))
            .as_ref()
    }

    /// The remedies for `finding`: at least one, which may be advice without edits.
    pub fn remedies(&self, finding: &Finding) -> Vec<Remedy> {
        let entry = entry(finding.rule);
        let old = match finding.existing.as_ref().map(|e| e.which) {
            Some(SchemaRef::Existing(index)) => self.existing(index),
            _ => None,
        };
        let site = match (&self.new, old, finding.direction) {
            (Some(new), Some(old), Some(direction)) => Site::of(
                finding,
                (&new.schema, &new.reserved),
                &old.schema,
                direction == Direction::NewWritesExistingReads,
            ),
            _ => None,
        };
        let remedies = match &site {
            Some(site) if site.retyped => retype::keep_old_add_new(site),
            Some(site) => (entry.plan)(site),
            None => unfixable::without_site(finding),
        };
        if remedies.is_empty() {
            vec![Remedy::advice(format!(
                "no edit found: {} (docs/rules.md#{})",
                entry.hint,
                finding.rule.id().to_ascii_lowercase()
            ))]
        } else {
            remedies
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_entry_per_rule_in_rule_order() {
        let rules: Vec<RuleId> = TABLE.iter().map(|e| e.rule).collect();
        assert_eq!(rules, RuleId::all().collect::<Vec<_>>());
    }

    #[test]
    fn every_hint_is_one_short_line() {
        for entry in TABLE {
            assert!(entry.hint.len() <= 72, "{}: {}", entry.rule, entry.hint);
            assert!(!entry.hint.contains('\n'), "{}", entry.rule);
        }
    }
}
