//! The edits a remedy asks of the new schema, by declaration: what to change, not where it is
//! written (the CLI finds that in the source), and never as text. Names and values are kept as
//! what they are (an identifier, a number, the bytes of a default); only [`super::print`] turns
//! them into `.proto` text, so that nothing a stored schema carries reaches a file unescaped.

use crate::model::{Scalar, Syntax};

/// A value as an option or a default holds it.
#[derive(Debug, Clone)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Uint(u64),
    /// A float or double, `inf`, `-inf` and `nan` included.
    Float(f64),
    /// A `string` field's default: its text.
    String(String),
    /// A `bytes` field's default: its bytes, escaped only when printed.
    Bytes(Vec<u8>),
    /// An identifier: an enum value's name (`EUR`), a feature's value (`EXPLICIT`).
    Ident(String),
}

/// Floats compare by their bits, so that a value equals itself (`nan` too) and two remedies
/// that set the same default are one.
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) => a == b,
            (Uint(a), Uint(b)) => a == b,
            (Float(a), Float(b)) => a.to_bits() == b.to_bits(),
            (String(a), String(b)) => a == b,
            (Bytes(a), Bytes(b)) => a == b,
            (Ident(a), Ident(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Bool(b) => b.hash(state),
            Value::Int(i) => i.hash(state),
            Value::Uint(u) => u.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::String(s) | Value::Ident(s) => s.hash(state),
            Value::Bytes(b) => b.hash(state),
        }
    }
}

/// A field option a remedy sets: those that say what a field meant on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FieldOption {
    Packed,
    Deprecated,
    /// `[default = …]`, which descriptor.proto keeps apart from the options.
    Default,
    FieldPresence,
    RepeatedFieldEncoding,
    Utf8Validation,
    MessageEncoding,
}

impl FieldOption {
    /// As a `.proto` file names it.
    pub fn name(self) -> &'static str {
        match self {
            FieldOption::Packed => "packed",
            FieldOption::Deprecated => "deprecated",
            FieldOption::Default => "default",
            FieldOption::FieldPresence => "features.field_presence",
            FieldOption::RepeatedFieldEncoding => "features.repeated_field_encoding",
            FieldOption::Utf8Validation => "features.utf8_validation",
            FieldOption::MessageEncoding => "features.message_encoding",
        }
    }
}

/// An enum option a remedy sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnumOption {
    AllowAlias,
    EnumType,
}

impl EnumOption {
    pub fn name(self) -> &'static str {
        match self {
            EnumOption::AllowAlias => "allow_alias",
            EnumOption::EnumType => "features.enum_type",
        }
    }
}

/// A file option a remedy sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileOption {
    JavaStringCheckUtf8,
}

impl FileOption {
    pub fn name(self) -> &'static str {
        match self {
            FileOption::JavaStringCheckUtf8 => "java_string_check_utf8",
        }
    }
}

/// A field's label as written. In proto3, `Optional` is proto3's `optional` (explicit
/// presence); Editions write no label but `Repeated`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Label {
    Optional,
    Required,
    Repeated,
}

impl Label {
    pub fn keyword(self) -> &'static str {
        match self {
            Label::Optional => "optional",
            Label::Required => "required",
            Label::Repeated => "repeated",
        }
    }
}

/// A field's type as a declaration writes it. Message and enum types by full name
/// (`shop.Money`), written fully qualified so that they read the same from any package.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FieldType {
    Scalar(Scalar),
    Message(String),
    Enum(String),
    /// `map<key, value>`: the value a scalar, an enum or a message.
    Map {
        key: Scalar,
        value: Box<FieldType>,
    },
}

/// A field declaration a remedy adds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NewField {
    /// `None`: no label (proto3's implicit presence, a map, any singular field of an edition).
    pub label: Option<Label>,
    pub ty: FieldType,
    pub name: String,
    pub number: u32,
    /// In the order written.
    pub options: Vec<(FieldOption, Value)>,
}

/// One change to one declaration of the new schema. `message` and `enum_name` are full names
/// (`shop.Order`), `field` a field's name in that message as the new schema has it before the
/// remedy (edits of one remedy name the field as it was, not as an earlier edit renamed it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Edit {
    /// Give the field another number.
    SetNumber {
        message: String,
        field: String,
        number: u32,
    },
    /// Give the field another name.
    SetName {
        message: String,
        field: String,
        name: String,
    },
    /// Write `label` in place of the field's (proto2's `optional` or `required`).
    SetLabel {
        message: String,
        field: String,
        label: Label,
    },
    /// Set a field option, or the field's default, to `value`.
    SetOption {
        message: String,
        field: String,
        option: FieldOption,
        value: Value,
    },
    /// Add a field at the end of the message, or of its oneof `oneof`.
    AddField {
        message: String,
        oneof: Option<String>,
        field: NewField,
    },
    /// Add a value at the end of the enum.
    AddEnumValue {
        enum_name: String,
        name: String,
        number: i32,
    },
    /// Set an enum option (`option allow_alias = true;`).
    SetEnumOption {
        enum_name: String,
        option: EnumOption,
        value: Value,
    },
    /// Give the enum value another number.
    SetEnumNumber {
        enum_name: String,
        value: String,
        number: i32,
    },
    /// Take the field out of its oneof, into the message, with `label` written before it
    /// (proto2's `optional`, proto3's `optional` for explicit presence).
    MoveOutOfOneof {
        message: String,
        field: String,
        label: Option<Label>,
    },
    /// Put the field into the oneof `oneof`, made at the end of the message if it is not there.
    MoveIntoOneof {
        message: String,
        field: String,
        oneof: String,
    },
    /// Give the message or enum `type_name` (a full name) the simple name `name`, and every
    /// reference to it too.
    RenameType { type_name: String, name: String },
    /// Set a file option in the file declaring `message`.
    SetFileOption {
        message: String,
        option: FileOption,
        value: Value,
    },
    /// Write `edition` (an edition, never proto2 or proto3) as the edition of the file
    /// declaring `message`, an Editions file.
    SetEdition { message: String, edition: Syntax },
}

impl Edit {
    /// The message or enum the edit changes (a renamed type: itself).
    pub fn declaration(&self) -> &str {
        match self {
            Edit::SetNumber { message, .. }
            | Edit::SetName { message, .. }
            | Edit::SetLabel { message, .. }
            | Edit::SetOption { message, .. }
            | Edit::AddField { message, .. }
            | Edit::MoveOutOfOneof { message, .. }
            | Edit::MoveIntoOneof { message, .. }
            | Edit::SetFileOption { message, .. }
            | Edit::SetEdition { message, .. } => message,
            Edit::AddEnumValue { enum_name, .. }
            | Edit::SetEnumOption { enum_name, .. }
            | Edit::SetEnumNumber { enum_name, .. } => enum_name,
            Edit::RenameType { type_name, .. } => type_name,
        }
    }

    /// The field of [`Edit::declaration`] the edit changes, where it changes one that exists.
    pub fn field(&self) -> Option<&str> {
        match self {
            Edit::SetNumber { field, .. }
            | Edit::SetName { field, .. }
            | Edit::SetLabel { field, .. }
            | Edit::SetOption { field, .. }
            | Edit::MoveOutOfOneof { field, .. }
            | Edit::MoveIntoOneof { field, .. } => Some(field),
            _ => None,
        }
    }
}
