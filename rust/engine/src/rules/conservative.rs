//! The `conservative` profile: the 2026 revision of PIP-246 (`pip/pip-246.md` in
//! apache/pulsar; docs/rules.md#conservative). Directional, every syntax read through its effective
//! features, referenced types compared by structure. A profile is this list; the rules are the
//! modules next to it.

use super::{
    cardinality, default_value, enum_values, field_number, map, message_encoding, oneof, required,
    root, rule, type_changed, unsupported, utf8, Profile, Rule, Types,
};

use super::Severity::{Failure, Warning};

/// In the order findings about one pair are reported.
static RULES: &[Rule] = &[
    rule(&root::ROOT_MESSAGE_CHANGED, Failure),
    rule(&unsupported::UNSUPPORTED_FEATURE, Failure),
    rule(&field_number::FIELD_NUMBER_CHANGED, Failure),
    rule(&required::REQUIRED_FIELD_NOT_GUARANTEED, Failure),
    rule(&oneof::ONEOF_CONFLICT, Failure),
    rule(&type_changed::TYPE_CHANGED, Failure),
    rule(&message_encoding::MESSAGE_ENCODING_CHANGED, Failure),
    rule(&cardinality::CARDINALITY_CHANGED, Failure),
    rule(&map::MAP_CHANGED, Failure),
    rule(&default_value::DEFAULT_CHANGED, Failure),
    rule(&utf8::UTF8_VALIDATION_ADDED, Failure),
    rule(&enum_values::ENUM_VALUE_NOT_READABLE, Failure),
];

/// What `pip246` reports besides its own rules, as warnings, so that no direction in which
/// protobuf's runtime could misread data passes without a finding
/// (docs/rules.md#no-silent-data-loss): every rule above but the two `pip246` runs itself, to the
/// letter.
pub(super) static AS_WARNINGS: &[Rule] = &[
    rule(&unsupported::UNSUPPORTED_FEATURE, Warning),
    rule(&required::REQUIRED_FIELD_NOT_GUARANTEED, Warning),
    rule(&oneof::ONEOF_CONFLICT, Warning),
    rule(&type_changed::TYPE_CHANGED, Warning),
    rule(&message_encoding::MESSAGE_ENCODING_CHANGED, Warning),
    rule(&cardinality::CARDINALITY_CHANGED, Warning),
    rule(&map::MAP_CHANGED, Warning),
    rule(&default_value::DEFAULT_CHANGED, Warning),
    rule(&utf8::UTF8_VALIDATION_ADDED, Warning),
    rule(&enum_values::ENUM_VALUE_NOT_READABLE, Warning),
];

/// The stricter profile: the 2026 revision of PIP-246.
pub static CONSERVATIVE: Profile = Profile {
    name: "conservative",
    summary: "the 2026 revision of PIP-246: directional, every type change rejected, types \
              compared by structure (docs/rules.md#conservative)",
    rules: RULES,
    guard: &[],
    types: Types::ByStructure,
};
