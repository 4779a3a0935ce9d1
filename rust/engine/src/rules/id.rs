//! Rule IDs, and each rule's facts looked up by its ID: an exhaustive match, so that a new ID
//! without its [`Spec`] does not compile.

use std::fmt;

use serde::Serialize;

use super::{
    cardinality, default_value, enum_values, field_kind, field_number, map, message_encoding,
    oneof, packed, repeated, required, root, scalar_type, strategy, syntax, type_changed,
    unsupported, utf8, Spec,
};

/// Every rule ID a report or error can carry.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum RuleId {
    RootMessageChanged,
    SyntaxChanged,
    FieldNumberChanged,
    RequiredFieldAdded,
    RequiredFieldRemoved,
    RequiredLabelChanged,
    FieldKindChanged,
    DefaultValueChanged,
    RepeatedToSingular,
    PackedToExpanded,
    ScalarTypeChanged,
    // The `conservative` profile's own (docs/rules.md#conservative).
    RequiredFieldNotGuaranteed,
    TypeChanged,
    CardinalityChanged,
    MapChanged,
    DefaultChanged,
    OneofConflict,
    EnumValueNotReadable,
    Utf8ValidationAdded,
    MessageEncodingChanged,
    /// Something reachable from a root that comparing fields cannot vouch for.
    UnsupportedFeature,
    /// The strategy rejects every change.
    AlwaysIncompatible,
    /// UNDEFINED, or a strategy code this checker does not know.
    UnknownStrategy,
}

impl RuleId {
    /// Every rule ID, in declaration order: derived from the enum, so that what lists them
    /// (`protocompat rules`, the rules document's test) cannot miss a new one.
    pub fn all() -> impl Iterator<Item = RuleId> {
        <RuleId as strum::VariantArray>::VARIANTS.iter().copied()
    }

    pub fn id(self) -> &'static str {
        self.into()
    }

    /// Whether its findings are about data, and so carry an example (docs/rules.md#examples):
    /// all but the root's name, the syntax string and the strategy's rejections.
    pub fn is_about_data(self) -> bool {
        !matches!(
            self,
            RuleId::RootMessageChanged
                | RuleId::SyntaxChanged
                | RuleId::AlwaysIncompatible
                | RuleId::UnknownStrategy
        )
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl RuleId {
    /// The rule's facts, from its own file.
    pub(crate) fn spec(self) -> &'static Spec {
        match self {
            RuleId::RootMessageChanged => &root::ROOT_MESSAGE_CHANGED,
            RuleId::SyntaxChanged => &syntax::SYNTAX_CHANGED,
            RuleId::FieldNumberChanged => &field_number::FIELD_NUMBER_CHANGED,
            RuleId::RequiredFieldAdded => &required::REQUIRED_FIELD_ADDED,
            RuleId::RequiredFieldRemoved => &required::REQUIRED_FIELD_REMOVED,
            RuleId::RequiredLabelChanged => &required::REQUIRED_LABEL_CHANGED,
            RuleId::FieldKindChanged => &field_kind::FIELD_KIND_CHANGED,
            RuleId::DefaultValueChanged => &default_value::DEFAULT_VALUE_CHANGED,
            RuleId::RepeatedToSingular => &repeated::REPEATED_TO_SINGULAR,
            RuleId::PackedToExpanded => &packed::PACKED_TO_EXPANDED,
            RuleId::ScalarTypeChanged => &scalar_type::SCALAR_TYPE_CHANGED,
            RuleId::RequiredFieldNotGuaranteed => &required::REQUIRED_FIELD_NOT_GUARANTEED,
            RuleId::TypeChanged => &type_changed::TYPE_CHANGED,
            RuleId::CardinalityChanged => &cardinality::CARDINALITY_CHANGED,
            RuleId::MapChanged => &map::MAP_CHANGED,
            RuleId::DefaultChanged => &default_value::DEFAULT_CHANGED,
            RuleId::OneofConflict => &oneof::ONEOF_CONFLICT,
            RuleId::EnumValueNotReadable => &enum_values::ENUM_VALUE_NOT_READABLE,
            RuleId::Utf8ValidationAdded => &utf8::UTF8_VALIDATION_ADDED,
            RuleId::MessageEncodingChanged => &message_encoding::MESSAGE_ENCODING_CHANGED,
            RuleId::UnsupportedFeature => &unsupported::UNSUPPORTED_FEATURE,
            RuleId::AlwaysIncompatible => &strategy::ALWAYS_INCOMPATIBLE,
            RuleId::UnknownStrategy => &strategy::UNKNOWN_STRATEGY,
        }
    }

    /// One line: what the rule finds, for `protocompat rules`.
    pub fn description(self) -> &'static str {
        self.spec().description
    }

    /// The one-line hint the broker's rejection carries for the rule's findings: the same for
    /// every finding, so that a producer's error text costs nothing to compute.
    pub fn hint(self) -> &'static str {
        self.spec().hint
    }
}
