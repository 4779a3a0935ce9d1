//! The fifteen scalar types of protobuf, shared by the fuzz targets that build schemas (`evolve`,
//! `cost`); each adds what it needs of them in its own module.

use prost_types::field_descriptor_proto::Type;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scalar {
    Double,
    Float,
    Int32,
    Int64,
    Uint32,
    Uint64,
    Sint32,
    Sint64,
    Fixed32,
    Fixed64,
    Sfixed32,
    Sfixed64,
    Bool,
    String,
    Bytes,
}

pub const SCALARS: [Scalar; 15] = [
    Scalar::Double,
    Scalar::Float,
    Scalar::Int32,
    Scalar::Int64,
    Scalar::Uint32,
    Scalar::Uint64,
    Scalar::Sint32,
    Scalar::Sint64,
    Scalar::Fixed32,
    Scalar::Fixed64,
    Scalar::Sfixed32,
    Scalar::Sfixed64,
    Scalar::Bool,
    Scalar::String,
    Scalar::Bytes,
];

impl Scalar {
    /// `FieldDescriptorProto.Type`.
    pub fn pb(self) -> Type {
        match self {
            Scalar::Double => Type::Double,
            Scalar::Float => Type::Float,
            Scalar::Int32 => Type::Int32,
            Scalar::Int64 => Type::Int64,
            Scalar::Uint32 => Type::Uint32,
            Scalar::Uint64 => Type::Uint64,
            Scalar::Sint32 => Type::Sint32,
            Scalar::Sint64 => Type::Sint64,
            Scalar::Fixed32 => Type::Fixed32,
            Scalar::Fixed64 => Type::Fixed64,
            Scalar::Sfixed32 => Type::Sfixed32,
            Scalar::Sfixed64 => Type::Sfixed64,
            Scalar::Bool => Type::Bool,
            Scalar::String => Type::String,
            Scalar::Bytes => Type::Bytes,
        }
    }

    /// Whether a repeated field of the type can be packed.
    pub fn packable(self) -> bool {
        !matches!(self, Scalar::String | Scalar::Bytes)
    }
}
