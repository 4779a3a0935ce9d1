//! How fields and types are named in findings.

use crate::model::{Cardinality, FieldRef, Syntax};

/// The label as written in the .proto file: empty for a proto3 field without `optional` and
/// for a singular field under Editions, which writes no label.
pub(crate) fn label(field: FieldRef<'_>) -> &'static str {
    match field.cardinality() {
        Cardinality::Optional
            if field.message().file().syntax() == Syntax::Proto2 || field.is_proto3_optional() =>
        {
            "optional"
        }
        Cardinality::Optional => "",
        Cardinality::Required => "required",
        Cardinality::Repeated => "repeated",
    }
}

/// `optional int32`, `repeated message pkg.Item`, or just `int32` for a plain proto3 field.
pub(crate) fn labelled_type(field: FieldRef<'_>) -> String {
    format!("{} {}", label(field), field.kind())
        .trim_start()
        .to_owned()
}

/// `required int32 id = 3`, for findings about a field present on one side only.
pub(crate) fn declaration(field: FieldRef<'_>) -> String {
    format!(
        "{} {} = {}",
        labelled_type(field),
        field.name(),
        field.number()
    )
}
