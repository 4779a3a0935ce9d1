//! descriptor.proto's field numbers (the model's, `model/descriptor_proto.rs`) and the enum
//! values and option numbers the tree's code writes.

pub mod file {
    pub use crate::model::tag::file::*;
}

pub mod message {
    pub use crate::model::tag::message::*;
}

pub mod field {
    pub use crate::model::tag::field::*;

    pub const LABEL_OPTIONAL: u64 = 1;
    pub const LABEL_REQUIRED: u64 = 2;
    pub const LABEL_REPEATED: u64 = 3;

    pub const TYPE_GROUP: u64 = 10;
    pub const TYPE_MESSAGE: u64 = 11;
    pub const TYPE_ENUM: u64 = 14;
}

pub mod enums {
    pub use crate::model::tag::enums::*;
}

pub mod enum_value {
    pub use crate::model::tag::enum_value::*;
}

pub mod service {
    pub use crate::model::tag::service::*;
}

pub mod method {
    pub use crate::model::tag::method::*;
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
