//! SYNTAX_CHANGED: a compared message pair is declared in files of different syntax (proto2,
//! proto3, or an edition).

use super::{Check, RuleId, Scope, Spec};
use super::{MessagePair, Violation};
use crate::remedy;

pub(crate) const SYNTAX_CHANGED: Spec = Spec {
    id: RuleId::SyntaxChanged,
    description: "a compared message's file moved between proto2, proto3 and an edition",
    hint: "keep the old syntax or edition line",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Messages(syntax_changed)),
    plan: remedy::syntax::syntax_changed,
};

pub(crate) fn syntax_changed(pair: &MessagePair, found: &mut Vec<Violation>) {
    let writer = pair.writer.file().syntax();
    let reader = pair.reader.file().syntax();
    if writer != reader {
        found.push(Violation {
            field: None,
            number: None,
            writer: writer.name().to_owned(),
            reader: reader.name().to_owned(),
        });
    }
}
