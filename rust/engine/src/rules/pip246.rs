//! The default profile, `pip246` (docs/rules.md#pip246): which rules run, with which severity and
//! in which syntaxes, in the order findings about one pair are reported. A profile is this list;
//! the rules are the modules next to it.

use super::{
    default_value, field_kind, field_number, packed, repeated, required, root, scalar_type, syntax,
    Check, Profile, Rule, RuleId, Scope,
};

use super::Severity::{Failure, Warning};
use Scope::{AllSyntaxes, Proto2AndEditions};

/// The `pip246` profile, in the order findings about one pair are reported.
pub(super) static RULES: &[Rule] = &[
    Rule {
        id: RuleId::RootMessageChanged,
        description: "the root messages have different full names",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Roots(root::root_message_changed),
    },
    Rule {
        id: RuleId::SyntaxChanged,
        description: "a compared message's file moved between proto2, proto3 and an edition",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Messages(syntax::syntax_changed),
    },
    Rule {
        id: RuleId::FieldNumberChanged,
        description: "a field name is in both messages with different numbers",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Messages(field_number::field_number_changed),
    },
    Rule {
        id: RuleId::RequiredFieldAdded,
        description:
            "the reader has a required field whose number the writer lacks (proto2, Editions)",
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Messages(required::required_field_added),
    },
    Rule {
        id: RuleId::RequiredFieldRemoved,
        description:
            "the writer has a required field whose number the reader lacks (proto2, Editions)",
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Messages(required::required_field_removed),
    },
    Rule {
        id: RuleId::RequiredLabelChanged,
        description: "a matched field is required on exactly one side (proto2, Editions)",
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Fields(required::required_label_changed),
    },
    Rule {
        id: RuleId::FieldKindChanged,
        description: "a matched enum or message field changed its kind or its type's full name",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(field_kind::field_kind_changed),
    },
    Rule {
        id: RuleId::DefaultValueChanged,
        description:
            "a matched singular scalar or enum field's effective default changed (proto2, Editions)",
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Fields(default_value::default_value_changed),
    },
    Rule {
        id: RuleId::RepeatedToSingular,
        description: "a repeated scalar field became singular",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(repeated::repeated_to_singular),
    },
    Rule {
        id: RuleId::PackedToExpanded,
        description: "a packed repeated field became an expanded one",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(packed::packed_to_expanded),
    },
    Rule {
        id: RuleId::ScalarTypeChanged,
        description:
            "a matched scalar field changed its scalar type (a warning: the check still passes)",
        severity: Warning,
        scope: AllSyntaxes,
        check: Check::Fields(scalar_type::scalar_type_changed),
    },
];

/// The default profile: the rules of the 2023 PIP-246 seeds.
pub static PIP246: Profile = Profile {
    name: "pip246",
    summary: "the default: the rules of the 2023 PIP-246 proposal (docs/rules.md#pip246)",
    rules: RULES,
    guard: super::conservative::AS_WARNINGS,
    types: super::Types::ByName,
};
