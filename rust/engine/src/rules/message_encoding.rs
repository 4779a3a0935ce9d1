//! MESSAGE_ENCODING_CHANGED (`conservative`): a message field moved between length-prefixed
//! and delimited encoding (a proto2 group, Editions `message_encoding = DELIMITED`): the two
//! are different wire types, so a reader skips or misreads what the writer wrote.

use crate::model::Kind;

use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::remedy;

pub(crate) const MESSAGE_ENCODING_CHANGED: Spec = Spec {
    id: RuleId::MessageEncodingChanged,
    description: "a message field moved between length-prefixed and delimited (group) encoding",
    hint: "keep the old message encoding",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(message_encoding_changed)),
    plan: remedy::keep::message_encoding_changed,
};

pub(crate) fn message_encoding_changed(pair: &FieldPair) -> Option<Violation> {
    let changed = matches!(
        (&pair.writer_type, &pair.reader_type),
        (Kind::Message(_), Kind::Group(_)) | (Kind::Group(_), Kind::Message(_))
    );
    changed.then(|| {
        Violation::on_fields(
            pair,
            encoding(&pair.writer_type),
            encoding(&pair.reader_type),
        )
    })
}

fn encoding(kind: &Kind<'_>) -> String {
    match kind {
        Kind::Group(m) => format!("delimited {}", m.full_name()),
        other => format!(
            "length-prefixed {}",
            other.message().map_or("", |m| m.full_name())
        ),
    }
}
