//! The `conservative` profile: the 2026 revision of PIP-246 (`pip/pip-246.md` in
//! apache/pulsar; docs/rules.md#conservative). Directional, every syntax read through its effective
//! features, referenced types compared by structure. A profile is this list; the rules are the
//! modules next to it.

use super::{
    cardinality, default_value, enum_values, field_number, map, message_encoding, oneof, required,
    root, type_changed, unsupported, utf8, Check, Profile, Rule, RuleId, Types,
};

use super::Scope::AllSyntaxes;
use super::Severity::{Failure, Warning};

/// In the order findings about one pair are reported.
static RULES: &[Rule] = &[
    ROOT_MESSAGE_CHANGED,
    UNSUPPORTED_FEATURE,
    FIELD_NUMBER_CHANGED,
    REQUIRED_FIELD_NOT_GUARANTEED,
    ONEOF_CONFLICT,
    TYPE_CHANGED,
    MESSAGE_ENCODING_CHANGED,
    CARDINALITY_CHANGED,
    MAP_CHANGED,
    DEFAULT_CHANGED,
    UTF8_VALIDATION_ADDED,
    ENUM_VALUE_NOT_READABLE,
];

const ROOT_MESSAGE_CHANGED: Rule = Rule {
    id: RuleId::RootMessageChanged,
    description: "the root messages have different full names",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Roots(root::root_message_changed),
};

const UNSUPPORTED_FEATURE: Rule = Rule {
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
};

const FIELD_NUMBER_CHANGED: Rule = Rule {
    id: RuleId::FieldNumberChanged,
    description: "a field name is in both messages with different numbers",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Messages(field_number::field_number_changed),
};

const REQUIRED_FIELD_NOT_GUARANTEED: Rule = Rule {
    id: RuleId::RequiredFieldNotGuaranteed,
    description: "the reader requires a field the writer lacks or does not require",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Messages(required::required_field_not_guaranteed),
};

const ONEOF_CONFLICT: Rule = Rule {
    id: RuleId::OneofConflict,
    description: "a reader's oneof holds fields the writer does not keep in one oneof",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Messages(oneof::oneof_conflict),
};

const TYPE_CHANGED: Rule = Rule {
    id: RuleId::TypeChanged,
    description: "a matched field changed its scalar type, or moved between scalar, enum \
                  and message",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Fields(type_changed::type_changed),
};

const MESSAGE_ENCODING_CHANGED: Rule = Rule {
    id: RuleId::MessageEncodingChanged,
    description: "a message field moved between length-prefixed and delimited (group) \
                  encoding",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Fields(message_encoding::message_encoding_changed),
};

const CARDINALITY_CHANGED: Rule = Rule {
    id: RuleId::CardinalityChanged,
    description: "a matched field moved between singular and repeated",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Fields(cardinality::cardinality_changed),
};

const MAP_CHANGED: Rule = Rule {
    id: RuleId::MapChanged,
    description: "a map became something else or changed its key type",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Fields(map::map_changed),
};

const DEFAULT_CHANGED: Rule = Rule {
    id: RuleId::DefaultChanged,
    description: "a matched singular scalar or enum field's effective default changed",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Fields(default_value::default_changed),
};

const UTF8_VALIDATION_ADDED: Rule = Rule {
    id: RuleId::Utf8ValidationAdded,
    description: "the reader validates a string field's UTF-8 and the writer does not",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Fields(utf8::utf8_validation_added),
};

const ENUM_VALUE_NOT_READABLE: Rule = Rule {
    id: RuleId::EnumValueNotReadable,
    description: "an enum number the writer may write is not one the reader can hold, or \
                  a value name changed its number",
    severity: Failure,
    scope: AllSyntaxes,
    check: Check::Enums(enum_values::enum_value_not_readable),
};

/// What `pip246` reports besides its own rules, as warnings, so that no direction in which
/// protobuf's runtime could misread data passes without a finding
/// (docs/rules.md#no-silent-data-loss): every rule above but the two `pip246` runs itself, to the
/// letter.
pub(super) static AS_WARNINGS: &[Rule] = &[
    as_warning(UNSUPPORTED_FEATURE),
    as_warning(REQUIRED_FIELD_NOT_GUARANTEED),
    as_warning(ONEOF_CONFLICT),
    as_warning(TYPE_CHANGED),
    as_warning(MESSAGE_ENCODING_CHANGED),
    as_warning(CARDINALITY_CHANGED),
    as_warning(MAP_CHANGED),
    as_warning(DEFAULT_CHANGED),
    as_warning(UTF8_VALIDATION_ADDED),
    as_warning(ENUM_VALUE_NOT_READABLE),
];

const fn as_warning(rule: Rule) -> Rule {
    Rule {
        severity: Warning,
        ..rule
    }
}

/// The stricter profile: the 2026 revision of PIP-246.
pub static CONSERVATIVE: Profile = Profile {
    name: "conservative",
    summary: "the 2026 revision of PIP-246: directional, every type change rejected, types \
              compared by structure (docs/rules.md#conservative)",
    rules: RULES,
    guard: &[],
    types: Types::ByStructure,
};
