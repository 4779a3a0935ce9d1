//! The edits a remedy asks of the new schema, by declaration: what to change, not where it is
//! written (the CLI finds that in the source).

use std::fmt;

use serde::Serialize;

/// One change to one declaration of the new schema. `message` and `enum_name` are full names
/// (`shop.Order`), `field` a field's name in that message.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
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
    /// Write another label (`optional`, `required`) in place of the field's.
    SetLabel {
        message: String,
        field: String,
        label: String,
    },
    /// Set a field option (`packed`, `deprecated`, `features.field_presence`) or the field's
    /// `default`, to `value` as written in a `.proto` file.
    SetOption {
        message: String,
        field: String,
        option: String,
        value: String,
    },
    /// Add a declaration (a field) at the end of the message.
    AddField {
        message: String,
        declaration: String,
    },
    /// Add a value (or an `option …;` statement) at the end of the enum.
    AddToEnum {
        enum_name: String,
        declaration: String,
    },
    /// Give the enum value another number.
    SetEnumNumber {
        enum_name: String,
        value: String,
        number: i32,
    },
    /// Take the field out of its oneof, into the message; proto2 needs `label` written before it.
    MoveOutOfOneof {
        message: String,
        field: String,
        label: String,
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
    /// Set a file option (`java_string_check_utf8`) in the file declaring `message`.
    SetFileOption {
        message: String,
        option: String,
        value: String,
    },
}

/// The declaration to write, for a reader without the source: `in shop.Order: give field note
/// number 5`.
impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Edit::SetNumber {
                message,
                field,
                number,
            } => write!(f, "in {message}: give field {field} number {number}"),
            Edit::SetName {
                message,
                field,
                name,
            } => write!(f, "in {message}: rename field {field} to {name}"),
            Edit::SetLabel {
                message,
                field,
                label,
            } => write!(f, "in {message}: declare field {field} `{label}`"),
            Edit::SetOption {
                message,
                field,
                option,
                value,
            } => write!(f, "in {message}: give field {field} `[{option} = {value}]`"),
            Edit::AddField {
                message,
                declaration,
            } => write!(f, "in {message}: add `{declaration}`"),
            Edit::AddToEnum {
                enum_name,
                declaration,
            } => write!(f, "in enum {enum_name}: add `{declaration}`"),
            Edit::SetEnumNumber {
                enum_name,
                value,
                number,
            } => write!(f, "in enum {enum_name}: give {value} number {number}"),
            Edit::MoveOutOfOneof { message, field, .. } => {
                write!(f, "in {message}: move field {field} out of its oneof")
            }
            Edit::MoveIntoOneof {
                message,
                field,
                oneof,
            } => write!(f, "in {message}: move field {field} into oneof {oneof}"),
            Edit::RenameType { type_name, name } => {
                write!(f, "rename {type_name} to {name}, and every reference to it")
            }
            Edit::SetFileOption {
                message,
                option,
                value,
            } => write!(
                f,
                "in the file declaring {message}: write `option {option} = {value};`"
            ),
        }
    }
}
