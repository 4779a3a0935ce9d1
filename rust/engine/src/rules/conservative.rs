//! The `conservative` profile: the 2026 revision of PIP-246 (`pip/pip-246.md` in
//! apache/pulsar; RULES.md section 5). Directional, every syntax read through its effective
//! features, referenced types compared by structure. A profile is this list; the rules are the
//! modules next to it.

use super::{
    cardinality, default_value, enum_values, field_number, map, message_encoding, oneof, required,
    root, type_changed, unsupported, utf8, Check, Profile, Rule, RuleId, Types,
};

use super::Scope::AllSyntaxes;
use super::Severity::Failure;

/// In the order findings about one pair are reported.
static RULES: &[Rule] = &[
    Rule {
        id: RuleId::RootMessageChanged,
        description: "the root messages have different full names",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Roots(root::root_message_changed),
    },
    Rule {
        id: RuleId::UnsupportedFeature,
        description: "a message reachable from either root has extension ranges or is a \
                      MessageSet, or Java reads an open enum's field as closed",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Reachable {
            worth_looking: unsupported::worth_looking,
            message: unsupported::unsupported_message,
            field: unsupported::unsupported_field,
        },
    },
    Rule {
        id: RuleId::FieldNumberChanged,
        description: "a field name is in both messages with different numbers",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Messages(field_number::field_number_changed),
    },
    Rule {
        id: RuleId::RequiredFieldNotGuaranteed,
        description: "the reader requires a field the writer lacks or does not require",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Messages(required::required_field_not_guaranteed),
    },
    Rule {
        id: RuleId::OneofConflict,
        description: "a reader's oneof holds fields the writer does not keep in one oneof",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Messages(oneof::oneof_conflict),
    },
    Rule {
        id: RuleId::TypeChanged,
        description: "a matched field changed its scalar type, or moved between scalar, enum \
                      and message",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(type_changed::type_changed),
    },
    Rule {
        id: RuleId::MessageEncodingChanged,
        description: "a message field moved between length-prefixed and delimited (group) \
                      encoding",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(message_encoding::message_encoding_changed),
    },
    Rule {
        id: RuleId::CardinalityChanged,
        description: "a matched field moved between singular and repeated",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(cardinality::cardinality_changed),
    },
    Rule {
        id: RuleId::MapChanged,
        description: "a map became something else or changed its key type",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(map::map_changed),
    },
    Rule {
        id: RuleId::DefaultChanged,
        description: "a matched singular scalar or enum field's effective default changed",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(default_value::default_changed),
    },
    Rule {
        id: RuleId::Utf8ValidationAdded,
        description: "the reader validates a string field's UTF-8 and the writer does not",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Fields(utf8::utf8_validation_added),
    },
    Rule {
        id: RuleId::EnumValueNotReadable,
        description: "an enum number the writer may write is not one the reader can hold, or \
                      a value name changed its number",
        severity: Failure,
        scope: AllSyntaxes,
        check: Check::Enums(enum_values::enum_value_not_readable),
    },
];

/// The stricter profile: the 2026 revision of PIP-246.
pub static CONSERVATIVE: Profile = Profile {
    name: "conservative",
    summary: "the 2026 revision of PIP-246: directional, every type change rejected, types \
              compared by structure (RULES.md section 5)",
    rules: RULES,
    types: Types::ByStructure,
};
