//! The default profile, `pip246` (docs/rules.md#pip246): which rules run, with which severity and
//! in which syntaxes, in the order findings about one pair are reported. A profile is this list;
//! the rules are the modules next to it.

use super::{
    default_value, field_kind, field_number, packed, repeated, required, root, rule, scalar_type,
    syntax, Profile, Rule,
};

use super::Severity::{Failure, Warning};

/// The `pip246` profile, in the order findings about one pair are reported.
pub(super) static RULES: &[Rule] = &[
    rule(&root::ROOT_MESSAGE_CHANGED, Failure),
    rule(&syntax::SYNTAX_CHANGED, Failure),
    rule(&field_number::FIELD_NUMBER_CHANGED, Failure),
    rule(&required::REQUIRED_FIELD_ADDED, Failure),
    rule(&required::REQUIRED_FIELD_REMOVED, Failure),
    rule(&required::REQUIRED_LABEL_CHANGED, Failure),
    rule(&field_kind::FIELD_KIND_CHANGED, Failure),
    rule(&default_value::DEFAULT_VALUE_CHANGED, Failure),
    rule(&repeated::REPEATED_TO_SINGULAR, Failure),
    rule(&packed::PACKED_TO_EXPANDED, Failure),
    rule(&scalar_type::SCALAR_TYPE_CHANGED, Warning),
];

/// The default profile: the rules of the 2023 PIP-246 seeds.
pub static PIP246: Profile = Profile {
    name: "pip246",
    summary: "the default: the rules of the 2023 PIP-246 proposal (docs/rules.md#pip246)",
    rules: RULES,
    guard: super::conservative::AS_WARNINGS,
    types: super::Types::ByName,
};
