//! The fifteen scalar types of protobuf, shared by the fuzz targets that build schemas (`evolve`,
//! `cost`).

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

    /// The type's name in `.proto` text.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Double => "double",
            Scalar::Float => "float",
            Scalar::Int32 => "int32",
            Scalar::Int64 => "int64",
            Scalar::Uint32 => "uint32",
            Scalar::Uint64 => "uint64",
            Scalar::Sint32 => "sint32",
            Scalar::Sint64 => "sint64",
            Scalar::Fixed32 => "fixed32",
            Scalar::Fixed64 => "fixed64",
            Scalar::Sfixed32 => "sfixed32",
            Scalar::Sfixed64 => "sfixed64",
            Scalar::Bool => "bool",
            Scalar::String => "string",
            Scalar::Bytes => "bytes",
        }
    }

    /// `FieldDescriptorProto.Type`'s number.
    pub fn code(self) -> i32 {
        self.pb() as i32
    }

    /// The `n`th type after this one, round the list.
    pub fn shifted(self, n: usize) -> Scalar {
        let at = SCALARS.iter().position(|s| *s == self).unwrap_or(0);
        SCALARS[(at + n) % SCALARS.len()]
    }

    /// A type a map key may have: this one, or the nearest integer.
    pub fn as_key(self) -> Scalar {
        match self {
            Scalar::Double | Scalar::Float | Scalar::Bytes => Scalar::Int64,
            s => s,
        }
    }
}
