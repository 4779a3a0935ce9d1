//! The default profile, `pip246` (RULES.md section 2): which rules run, with which severity and
//! in which syntaxes, in the order findings about one pair are reported. A profile is this list;
//! the rules are the modules next to it.

use super::{
    default_value, field_kind, field_number, packed, repeated, required, root, scalar_type, syntax,
    Check, Rule, RuleId, Scope,
};

use super::Severity::{Failure, Warning};
use Scope::{AllSyntaxes, Proto2AndEditions};

/// The `pip246` profile, in the order findings about one pair are reported.
pub static RULES: &[Rule] = &[
    Rule {
        id: RuleId::RootMessageChanged,
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Roots(root::root_message_changed),
    },
    Rule {
        id: RuleId::SyntaxChanged,
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Messages(syntax::syntax_changed),
    },
    Rule {
        id: RuleId::FieldNumberChanged,
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Messages(field_number::field_number_changed),
    },
    Rule {
        id: RuleId::RequiredFieldAdded,
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Messages(required::required_field_added),
    },
    Rule {
        id: RuleId::RequiredFieldRemoved,
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Messages(required::required_field_removed),
    },
    Rule {
        id: RuleId::RequiredLabelChanged,
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Fields(required::required_label_changed),
    },
    Rule {
        id: RuleId::FieldKindChanged,
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(field_kind::field_kind_changed),
    },
    Rule {
        id: RuleId::DefaultValueChanged,
        severity: Failure,
        scope: Proto2AndEditions,
        check: Check::Fields(default_value::default_value_changed),
    },
    Rule {
        id: RuleId::RepeatedToSingular,
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(repeated::repeated_to_singular),
    },
    Rule {
        id: RuleId::PackedToExpanded,
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(packed::packed_to_expanded),
    },
    Rule {
        id: RuleId::ScalarTypeChanged,
        severity: Warning,
        scope: AllSyntaxes,
        check: Check::Fields(scalar_type::scalar_type_changed),
    },
];
