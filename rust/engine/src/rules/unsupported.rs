//! UNSUPPORTED_FEATURE (`conservative`) for what is reachable from either root, matched or
//! not: what comparing fields by number cannot vouch for.
//! - a message with extension ranges, or a MessageSet: its extensions' payloads are not in
//!   the schema;
//! - an enum field that Java's runtime reads as closed while its enum is open (a proto2 field
//!   of a proto3 enum, or `features.(pb.java).legacy_closed_enum`): runtimes disagree on what
//!   the field holds;
//! - a feature this checker cannot interpret, set on the message, the field, the field's enum
//!   (or one of its values) or an enclosing scope: an extension of `FeatureSet` that is none of
//!   protobuf's languages', or a field of `pb.JavaFeatures` past the ones it knows.
//!
//! Unknown values of the features it knows (explicit `*_UNKNOWN` ones included) and unknown
//! `FeatureSet` fields are refused when a schema is decoded, under every profile
//! (docs/rules.md#unsupported_feature).

use super::{Check, RuleId, Scope, Spec};
use crate::model::{FieldRef, Kind, MessageRef};
use crate::remedy;

pub(crate) const UNSUPPORTED_FEATURE: Spec = Spec {
    id: RuleId::UnsupportedFeature,
    description: "a message reachable from either root has extension ranges or is a MessageSet, or Java reads an open enum's field as closed",
    hint: "remove what the schema does not use; otherwise no edit helps",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Reachable {
        worth_looking,
        message: unsupported_message,
        field: unsupported_field,
    }),
    plan: remedy::unfixable::unsupported_feature,
};

/// The model notes, while decoding, whether any declaration is one of the above.
pub(crate) fn worth_looking(root: MessageRef<'_>) -> bool {
    root.model().beyond_fields()
}

pub(crate) fn unsupported_message(message: MessageRef<'_>) -> Option<String> {
    if let Some(what) = message.features().unrecognized {
        Some(format!(
            "message {} is under a {what} this checker cannot interpret",
            message.full_name()
        ))
    } else if message.is_message_set() {
        Some(format!(
            "message {} is a MessageSet (message_set_wire_format)",
            message.full_name()
        ))
    } else if message.has_extension_ranges() {
        Some(format!(
            "message {} declares extension ranges",
            message.full_name()
        ))
    } else {
        None
    }
}

pub(crate) fn unsupported_field(field: FieldRef<'_>) -> Option<String> {
    // The message's own features are reported with the message.
    if field.features().unrecognized != field.message().features().unrecognized {
        if let Some(what) = field.features().unrecognized {
            return Some(format!(
                "field {} is under a {what} this checker cannot interpret",
                field.name()
            ));
        }
    }
    match field.kind() {
        Kind::Enum(e)
            if e.features().unrecognized.is_some()
                && e.features().unrecognized != field.features().unrecognized =>
        {
            Some(format!(
                "enum {} is under a {} this checker cannot interpret",
                e.full_name(),
                e.features().unrecognized.unwrap()
            ))
        }
        Kind::Enum(e) if field.java_treats_enum_as_closed() != e.is_closed() => Some(format!(
            "Java reads field {} as closed (legacy_closed_enum) but enum {} is open",
            field.name(),
            e.full_name()
        )),
        _ => None,
    }
}
