//! Required fields (proto2 `required`, Editions `field_presence = LEGACY_REQUIRED`): none may
//! be added, removed, or change its label (REQUIRED_FIELD_ADDED, REQUIRED_FIELD_REMOVED,
//! REQUIRED_LABEL_CHANGED) in `pip246`; in `conservative`, requiredness is directional
//! (REQUIRED_FIELD_NOT_GUARANTEED).

use crate::model::{FieldRef, MessageRef};

use super::describe::{declaration, labelled_type};
use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, MessagePair, Violation};
use crate::remedy;

pub(crate) const REQUIRED_FIELD_ADDED: Spec = Spec {
    id: RuleId::RequiredFieldAdded,
    description: "the reader has a required field whose number the writer lacks (proto2, Editions)",
    hint: "declare the new field optional",
    scope: Scope::Proto2AndEditions,
    check: Some(Check::Messages(required_field_added)),
    plan: remedy::required::required_field_added,
};

pub(crate) const REQUIRED_FIELD_REMOVED: Spec = Spec {
    id: RuleId::RequiredFieldRemoved,
    description: "the writer has a required field whose number the reader lacks (proto2, Editions)",
    hint: "keep the required field",
    scope: Scope::Proto2AndEditions,
    check: Some(Check::Messages(required_field_removed)),
    plan: remedy::required::required_field_removed,
};

pub(crate) const REQUIRED_LABEL_CHANGED: Spec = Spec {
    id: RuleId::RequiredLabelChanged,
    description: "a matched field is required on exactly one side (proto2, Editions)",
    hint: "keep the field's old label",
    scope: Scope::Proto2AndEditions,
    check: Some(Check::Fields(required_label_changed)),
    plan: remedy::required::required_label_changed,
};

pub(crate) const REQUIRED_FIELD_NOT_GUARANTEED: Spec = Spec {
    id: RuleId::RequiredFieldNotGuaranteed,
    description: "the reader requires a field the writer lacks or does not require",
    hint: "keep the field's old presence, or upgrade consumers first",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Messages(required_field_not_guaranteed)),
    plan: remedy::required::required_field_not_guaranteed,
};

/// The reader requires a field the writer never writes: every such message fails to parse.
pub(crate) fn required_field_added(pair: &MessagePair, found: &mut Vec<Violation>) {
    for reader in required_fields_missing_from(pair.reader, pair.writer) {
        found.push(Violation {
            field: Some(reader.name().to_owned()),
            number: Some(reader.number()),
            writer: "absent".to_owned(),
            reader: declaration(reader),
        });
    }
}

/// The writer's required field is unknown to the reader. Harmless on the wire, but the seeds
/// forbid any change to required fields, so the rule is the mirror of the one above.
pub(crate) fn required_field_removed(pair: &MessagePair, found: &mut Vec<Violation>) {
    for writer in required_fields_missing_from(pair.writer, pair.reader) {
        found.push(Violation {
            field: Some(writer.name().to_owned()),
            number: Some(writer.number()),
            writer: declaration(writer),
            reader: "absent".to_owned(),
        });
    }
}

/// `conservative`: the reader requires a field the writer does not guarantee, because the
/// writer lacks it or does not require it. Making a field required fails BACKWARD and passes
/// FORWARD; dropping `required` is the mirror.
pub(crate) fn required_field_not_guaranteed(pair: &MessagePair, found: &mut Vec<Violation>) {
    for reader in pair.reader.fields().filter(|f| f.is_required()) {
        let writer = match pair.writer.field(reader.number()) {
            None => "absent".to_owned(),
            Some(writer) if !writer.is_required() => labelled_type(writer),
            Some(_) => continue,
        };
        found.push(Violation {
            field: Some(reader.name().to_owned()),
            number: Some(reader.number()),
            writer,
            reader: declaration(reader),
        });
    }
}

pub(crate) fn required_label_changed(pair: &FieldPair) -> Option<Violation> {
    (pair.writer.is_required() != pair.reader.is_required())
        .then(|| Violation::on_fields(pair, labelled_type(pair.writer), labelled_type(pair.reader)))
}

fn required_fields_missing_from<'a>(
    side: MessageRef<'a>,
    other: MessageRef<'a>,
) -> impl Iterator<Item = FieldRef<'a>> {
    side.fields()
        .filter(move |f| f.is_required() && other.field(f.number()).is_none())
}
