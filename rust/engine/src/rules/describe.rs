//! How fields and types are named in findings, and what "the same type" means.

use prost_reflect::{
    Cardinality, EnumDescriptor, FieldDescriptor, Kind, MessageDescriptor, Syntax,
};

/// A field's type as the rules see it: a scalar by its proto name, or a named enum, message
/// or group. Holds descriptors (reference-counted), so building one allocates nothing.
#[derive(Debug, Clone)]
pub(crate) enum TypeRef {
    Scalar(&'static str),
    Enum(EnumDescriptor),
    Message(MessageDescriptor),
    Group(MessageDescriptor),
}

impl TypeRef {
    pub(crate) fn of(field: &FieldDescriptor) -> TypeRef {
        match field.kind() {
            Kind::Message(m) if field.is_group() => TypeRef::Group(m),
            Kind::Message(m) => TypeRef::Message(m),
            Kind::Enum(e) => TypeRef::Enum(e),
            Kind::Double => TypeRef::Scalar("double"),
            Kind::Float => TypeRef::Scalar("float"),
            Kind::Int32 => TypeRef::Scalar("int32"),
            Kind::Int64 => TypeRef::Scalar("int64"),
            Kind::Uint32 => TypeRef::Scalar("uint32"),
            Kind::Uint64 => TypeRef::Scalar("uint64"),
            Kind::Sint32 => TypeRef::Scalar("sint32"),
            Kind::Sint64 => TypeRef::Scalar("sint64"),
            Kind::Fixed32 => TypeRef::Scalar("fixed32"),
            Kind::Fixed64 => TypeRef::Scalar("fixed64"),
            Kind::Sfixed32 => TypeRef::Scalar("sfixed32"),
            Kind::Sfixed64 => TypeRef::Scalar("sfixed64"),
            Kind::Bool => TypeRef::Scalar("bool"),
            Kind::String => TypeRef::Scalar("string"),
            Kind::Bytes => TypeRef::Scalar("bytes"),
        }
    }

    pub(crate) fn is_scalar(&self) -> bool {
        matches!(self, TypeRef::Scalar(_))
    }

    /// The message type to walk into when both sides are messages (or both groups) of the
    /// same full name; any other change of a message field is FIELD_KIND_CHANGED and the walk
    /// stops there.
    pub(crate) fn same_message<'a>(
        writer: &'a TypeRef,
        reader: &'a TypeRef,
    ) -> Option<(&'a MessageDescriptor, &'a MessageDescriptor)> {
        match (writer, reader) {
            (TypeRef::Message(w), TypeRef::Message(r)) | (TypeRef::Group(w), TypeRef::Group(r))
                if w.full_name() == r.full_name() =>
            {
                Some((w, r))
            }
            _ => None,
        }
    }
}

/// Same kind and same scalar or full type name.
impl PartialEq for TypeRef {
    fn eq(&self, other: &TypeRef) -> bool {
        match (self, other) {
            (TypeRef::Scalar(a), TypeRef::Scalar(b)) => a == b,
            (TypeRef::Enum(a), TypeRef::Enum(b)) => a.full_name() == b.full_name(),
            (TypeRef::Message(a), TypeRef::Message(b)) | (TypeRef::Group(a), TypeRef::Group(b)) => {
                a.full_name() == b.full_name()
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for TypeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeRef::Scalar(name) => f.write_str(name),
            TypeRef::Enum(e) => write!(f, "enum {}", e.full_name()),
            TypeRef::Message(m) => write!(f, "message {}", m.full_name()),
            TypeRef::Group(m) => write!(f, "group {}", m.full_name()),
        }
    }
}

/// The label as written in the .proto file; empty for a proto3 field without `optional`.
pub(crate) fn label(field: &FieldDescriptor) -> &'static str {
    match field.cardinality() {
        Cardinality::Optional
            if field.parent_file().syntax() == Syntax::Proto3
                && !field.field_descriptor_proto().proto3_optional() =>
        {
            ""
        }
        Cardinality::Optional => "optional",
        Cardinality::Required => "required",
        Cardinality::Repeated => "repeated",
    }
}

/// `optional int32`, `repeated message pkg.Item`, or just `int32` for a plain proto3 field.
pub(crate) fn labelled_type(field: &FieldDescriptor) -> String {
    format!("{} {}", label(field), TypeRef::of(field))
        .trim_start()
        .to_owned()
}

/// `required int32 id = 3`, for findings about a field present on one side only.
pub(crate) fn declaration(field: &FieldDescriptor) -> String {
    format!(
        "{} {} = {}",
        labelled_type(field),
        field.name(),
        field.number()
    )
}
