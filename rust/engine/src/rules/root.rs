//! ROOT_MESSAGE_CHANGED: the two schemas describe different root messages.

use super::{Check, RuleId, Scope, Spec};
use super::{MessagePair, Violation};
use crate::remedy;

pub(crate) const ROOT_MESSAGE_CHANGED: Spec = Spec {
    id: RuleId::RootMessageChanged,
    description: "the root messages have different full names",
    hint: "keep the old root message as the schema's root",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Roots(root_message_changed)),
    plan: remedy::unfixable::root_message_changed,
};

pub(crate) fn root_message_changed(pair: &MessagePair) -> Option<Violation> {
    (pair.writer.name_id() != pair.reader.name_id()).then(|| Violation {
        field: None,
        number: None,
        writer: pair.writer.full_name().to_owned(),
        reader: pair.reader.full_name().to_owned(),
    })
}
