//! UTF8_VALIDATION_ADDED (`conservative`): the reader refuses strings that are not UTF-8 and
//! the writer does not: a writer that does not validate can write bytes the reader then fails
//! to parse. Validation is what Java's runtime, the one Pulsar bundles, applies (proto2
//! `java_string_check_utf8`, Editions `utf8_validation`, `features.(pb.java).utf8_validation`,
//! map entries always). Removing validation is allowed.

use crate::model::{FieldRef, Kind, Scalar};

use super::{Check, RuleId, Scope, Spec};
use super::{FieldPair, Violation};
use crate::remedy;

pub(crate) const UTF8_VALIDATION_ADDED: Spec = Spec {
    id: RuleId::Utf8ValidationAdded,
    description: "the reader validates a string field's UTF-8 and the writer does not",
    hint: "declare the old UTF-8 validation",
    scope: Scope::AllSyntaxes,
    check: Some(Check::Fields(utf8_validation_added)),
    plan: remedy::keep::utf8_validation_added,
};

pub(crate) fn utf8_validation_added(pair: &FieldPair) -> Option<Violation> {
    let strings = matches!(
        (&pair.writer_type, &pair.reader_type),
        (Kind::Scalar(Scalar::String), Kind::Scalar(Scalar::String))
    );
    (strings && pair.reader.validates_utf8() && !pair.writer.validates_utf8())
        .then(|| Violation::on_fields(pair, shown(pair.writer), shown(pair.reader)))
}

fn shown(field: FieldRef<'_>) -> String {
    if field.validates_utf8() {
        "string, UTF-8 validated".to_owned()
    } else {
        "string, not validated".to_owned()
    }
}
