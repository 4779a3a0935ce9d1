//! descriptor.proto's field numbers, and the whole keys (tag and wire type) the reader's hot
//! loops compare in one step: the vocabulary every reader of a serialized descriptor shares.

/// Field numbers of descriptor.proto's messages.
pub(crate) mod tag {
    pub mod file {
        pub const NAME: u32 = 1;
        pub const PACKAGE: u32 = 2;
        pub const DEPENDENCY: u32 = 3;
        pub const MESSAGE_TYPE: u32 = 4;
        pub const ENUM_TYPE: u32 = 5;
        pub const SERVICE: u32 = 6;
        pub const EXTENSION: u32 = 7;
        pub const OPTIONS: u32 = 8;
        pub const SOURCE_CODE_INFO: u32 = 9;
        pub const PUBLIC_DEPENDENCY: u32 = 10;
        pub const WEAK_DEPENDENCY: u32 = 11;
        pub const SYNTAX: u32 = 12;
        pub const EDITION: u32 = 14;
        pub const OPTION_DEPENDENCY: u32 = 15;
    }
    pub mod file_options {
        pub const JAVA_STRING_CHECK_UTF8: u32 = 27;
        pub const FEATURES: u32 = 50;
    }
    pub mod message {
        pub const NAME: u32 = 1;
        pub const FIELD: u32 = 2;
        pub const NESTED_TYPE: u32 = 3;
        pub const ENUM_TYPE: u32 = 4;
        pub const EXTENSION_RANGE: u32 = 5;
        pub const EXTENSION: u32 = 6;
        pub const OPTIONS: u32 = 7;
        pub const ONEOF_DECL: u32 = 8;
        pub const RESERVED_RANGE: u32 = 9;
        pub const RESERVED_NAME: u32 = 10;
        /// `SymbolVisibility` (edition 2024 on).
        pub const VISIBILITY: u32 = 11;
    }
    pub mod message_options {
        pub const MESSAGE_SET_WIRE_FORMAT: u32 = 1;
        pub const MAP_ENTRY: u32 = 7;
        pub const FEATURES: u32 = 12;
    }
    pub mod field {
        pub const NAME: u32 = 1;
        pub const EXTENDEE: u32 = 2;
        pub const NUMBER: u32 = 3;
        pub const LABEL: u32 = 4;
        pub const TYPE: u32 = 5;
        pub const TYPE_NAME: u32 = 6;
        pub const DEFAULT_VALUE: u32 = 7;
        pub const OPTIONS: u32 = 8;
        pub const ONEOF_INDEX: u32 = 9;
        pub const JSON_NAME: u32 = 10;
        pub const PROTO3_OPTIONAL: u32 = 17;
    }
    pub mod field_options {
        pub const PACKED: u32 = 2;
        pub const FEATURES: u32 = 21;
    }
    pub mod oneof {
        pub const NAME: u32 = 1;
        pub const OPTIONS: u32 = 2;
    }
    pub mod oneof_options {
        pub const FEATURES: u32 = 1;
    }
    pub mod enums {
        pub const NAME: u32 = 1;
        pub const VALUE: u32 = 2;
        pub const OPTIONS: u32 = 3;
        /// `SymbolVisibility` (edition 2024 on).
        pub const VISIBILITY: u32 = 6;
    }
    pub mod enum_options {
        pub const FEATURES: u32 = 7;
    }
    pub mod enum_value {
        pub const NAME: u32 = 1;
        pub const NUMBER: u32 = 2;
        pub const OPTIONS: u32 = 3;
    }
    pub mod enum_value_options {
        pub const FEATURES: u32 = 2;
    }
    pub mod service {
        pub const NAME: u32 = 1;
        pub const METHOD: u32 = 2;
    }
    pub mod method {
        pub const NAME: u32 = 1;
        pub const INPUT_TYPE: u32 = 2;
        pub const OUTPUT_TYPE: u32 = 3;
    }
}

/// Whole keys (tag and wire type) of the fields the hot loops read with [`Reader`].
pub(crate) mod keys {
    use super::tag;
    use crate::model::wire::{key, LEN, VARINT};

    pub mod message {
        use super::*;
        pub const NAME: u32 = key(tag::message::NAME, LEN);
        pub const FIELD: u32 = key(tag::message::FIELD, LEN);
        pub const NESTED_TYPE: u32 = key(tag::message::NESTED_TYPE, LEN);
        pub const ENUM_TYPE: u32 = key(tag::message::ENUM_TYPE, LEN);
        pub const EXTENSION: u32 = key(tag::message::EXTENSION, LEN);
        pub const OPTIONS: u32 = key(tag::message::OPTIONS, LEN);
        pub const ONEOF_DECL: u32 = key(tag::message::ONEOF_DECL, LEN);
    }
    pub mod field {
        use super::*;
        pub const NAME: u32 = key(tag::field::NAME, LEN);
        pub const EXTENDEE: u32 = key(tag::field::EXTENDEE, LEN);
        pub const NUMBER: u32 = key(tag::field::NUMBER, VARINT);
        pub const LABEL: u32 = key(tag::field::LABEL, VARINT);
        pub const TYPE: u32 = key(tag::field::TYPE, VARINT);
        pub const TYPE_NAME: u32 = key(tag::field::TYPE_NAME, LEN);
        pub const DEFAULT_VALUE: u32 = key(tag::field::DEFAULT_VALUE, LEN);
        pub const OPTIONS: u32 = key(tag::field::OPTIONS, LEN);
        pub const ONEOF_INDEX: u32 = key(tag::field::ONEOF_INDEX, VARINT);
        pub const JSON_NAME: u32 = key(tag::field::JSON_NAME, LEN);
        pub const PROTO3_OPTIONAL: u32 = key(tag::field::PROTO3_OPTIONAL, VARINT);
    }
    pub mod enum_value {
        use super::*;
        pub const NAME: u32 = key(tag::enum_value::NAME, LEN);
        pub const NUMBER: u32 = key(tag::enum_value::NUMBER, VARINT);
        pub const OPTIONS: u32 = key(tag::enum_value::OPTIONS, LEN);
    }
}

/// `FieldDescriptorProto.Type` numbers that name another declaration.
pub(crate) const TYPE_GROUP: i32 = 10;
pub(crate) const TYPE_MESSAGE: i32 = 11;
pub(crate) const TYPE_ENUM: i32 = 14;
