//! descriptor.proto's field numbers and enum values, as the tree's code reads and writes them.

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

    pub const LABEL_OPTIONAL: u64 = 1;
    pub const LABEL_REQUIRED: u64 = 2;
    pub const LABEL_REPEATED: u64 = 3;

    pub const TYPE_GROUP: u64 = 10;
    pub const TYPE_MESSAGE: u64 = 11;
    pub const TYPE_ENUM: u64 = 14;
}

pub mod enums {
    pub const VALUE: u32 = 2;
    pub const OPTIONS: u32 = 3;
}

pub mod enum_value {
    pub const NAME: u32 = 1;
    pub const NUMBER: u32 = 2;
}

pub mod service {
    pub const METHOD: u32 = 2;
}

pub mod method {
    pub const INPUT_TYPE: u32 = 2;
    pub const OUTPUT_TYPE: u32 = 3;
}

pub mod options {
    pub const FILE_JAVA_STRING_CHECK_UTF8: u32 = 27;
    pub const MESSAGE_MAP_ENTRY: u32 = 7;
    pub const FIELD_PACKED: u32 = 2;
    pub const FIELD_DEPRECATED: u32 = 3;
    pub const FIELD_FEATURES: u32 = 21;
    pub const ENUM_ALLOW_ALIAS: u32 = 2;
    pub const ENUM_FEATURES: u32 = 7;
}

/// `FeatureSet`'s fields and the numbers of their values.
pub mod features {
    pub const FIELD_PRESENCE: u32 = 1;
    pub const ENUM_TYPE: u32 = 2;
    pub const REPEATED_FIELD_ENCODING: u32 = 3;
    pub const UTF8_VALIDATION: u32 = 4;
    pub const MESSAGE_ENCODING: u32 = 5;

    /// A feature's value by the name a `.proto` file writes.
    pub fn value(feature: u32, name: &str) -> Option<u64> {
        Some(match (feature, name) {
            (FIELD_PRESENCE, "EXPLICIT") => 1,
            (FIELD_PRESENCE, "IMPLICIT") => 2,
            (FIELD_PRESENCE, "LEGACY_REQUIRED") => 3,
            (ENUM_TYPE, "OPEN") => 1,
            (ENUM_TYPE, "CLOSED") => 2,
            (REPEATED_FIELD_ENCODING, "PACKED") => 1,
            (REPEATED_FIELD_ENCODING, "EXPANDED") => 2,
            (UTF8_VALIDATION, "VERIFY") => 2,
            (UTF8_VALIDATION, "NONE") => 3,
            (MESSAGE_ENCODING, "LENGTH_PREFIXED") => 1,
            (MESSAGE_ENCODING, "DELIMITED") => 2,
            _ => return None,
        })
    }
}
