//! Where a remedy's edits are written in the new side's source: each [`Edit`] as text
//! replacements at byte offsets, or `None` where the source does not say where.

use std::collections::BTreeMap;

use prost_types::DescriptorProto;
use protocompat::remedy::{print, Edit, FieldOption, Value};

mod oneof;
mod rename;

use super::source::{Found, Source, Span, ENUM_VALUE, FIELD, ONEOF};
use oneof::{move_into, move_out};
use rename::rename_type;

/// Field numbers in source-info paths: of FieldDescriptorProto, FieldOptions, FeatureSet,
/// FileDescriptorProto and FileOptions.
pub(super) const NAME: i32 = 1;
const NUMBER: i32 = 3;
const LABEL: i32 = 4;
pub(super) const TYPE: i32 = 5;
pub(super) const TYPE_NAME: i32 = 6;
const DEFAULT_VALUE: i32 = 7;
const OPTIONS: i32 = 8;
const ENUM_VALUE_NUMBER: i32 = 2;
const FILE_PACKAGE: i32 = 2;
const FILE_OPTIONS: i32 = 8;
const FILE_SYNTAX: i32 = 12;
const FILE_EDITION: i32 = 14;

/// One replacement in one file; an insertion replaces nothing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub file: usize,
    pub span: (usize, usize),
    pub text: String,
    /// An option list inserted after a field that has none (` [a = b]`): two of them at the
    /// same place are one list.
    pub option_list: bool,
}

impl TextEdit {
    pub(super) fn replace(file: usize, span: Span, text: impl Into<String>) -> TextEdit {
        TextEdit {
            file,
            span: (span.start, span.end),
            text: text.into(),
            option_list: false,
        }
    }

    pub(super) fn insert(file: usize, at: usize, text: impl Into<String>) -> TextEdit {
        TextEdit {
            file,
            span: (at, at),
            text: text.into(),
            option_list: false,
        }
    }
}

pub(super) fn child(path: &[i32], more: &[i32]) -> Vec<i32> {
    path.iter().chain(more).copied().collect()
}

pub(super) fn field_path(message: &Found<DescriptorProto>, field: &str) -> Option<Vec<i32>> {
    let index = message
        .descriptor
        .field
        .iter()
        .position(|f| f.name() == field)?;
    Some(child(&message.path, &[FIELD, index as i32]))
}

/// The option's path under a field's options, where the compiler records it.
fn option_path(option: FieldOption) -> Option<Vec<i32>> {
    Some(match option {
        FieldOption::Packed => vec![2],
        FieldOption::Deprecated => vec![3],
        FieldOption::FieldPresence => vec![21, 1],
        FieldOption::RepeatedFieldEncoding => vec![21, 3],
        FieldOption::Utf8Validation => vec![21, 4],
        FieldOption::MessageEncoding => vec![21, 5],
        FieldOption::Default => return None,
    })
}

/// The text edits of one remedy, in the order of its edits; `None` if any edit has no place in
/// the source (the remedy is then shown as declarations to write).
pub fn place(source: &Source, edits: &[Edit]) -> Option<Vec<TextEdit>> {
    let mut placed = Vec::new();
    // Moves into or out of a oneof are placed together, per oneof.
    let mut out_of: BTreeMap<(String, i32), Vec<(String, String)>> = BTreeMap::new();
    let mut into: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for edit in edits {
        match edit {
            Edit::MoveOutOfOneof {
                message,
                field,
                label,
            } => {
                let found = source.message(message)?;
                let index = found.descriptor.field.iter().find(|f| f.name() == field)?;
                out_of
                    .entry((message.clone(), index.oneof_index?))
                    .or_default()
                    .push((
                        field.clone(),
                        label
                            .map(|l| format!("{} ", l.keyword()))
                            .unwrap_or_default(),
                    ));
            }
            Edit::MoveIntoOneof {
                message,
                field,
                oneof,
            } => into
                .entry((message.clone(), oneof.clone()))
                .or_default()
                .push(field.clone()),
            _ => placed.extend(place_one(source, edit)?),
        }
    }
    for ((message, oneof), fields) in out_of {
        placed.extend(move_out(source, &message, oneof, &fields)?);
    }
    for ((message, oneof), fields) in into {
        placed.extend(move_into(source, &message, &oneof, &fields)?);
    }
    Some(placed)
}

fn place_one(source: &Source, edit: &Edit) -> Option<Vec<TextEdit>> {
    Some(match edit {
        Edit::SetNumber {
            message,
            field,
            number,
        } => {
            let found = source.message(message)?;
            let path = field_path(&found, field)?;
            let span = source.span(found.file, &child(&path, &[NUMBER]))?;
            vec![TextEdit::replace(found.file, span, number.to_string())]
        }
        Edit::SetName {
            message,
            field,
            name,
        } => {
            let found = source.message(message)?;
            let path = field_path(&found, field)?;
            let span = source.span(found.file, &child(&path, &[NAME]))?;
            let name = print::identifier(name, "a field name").ok()?;
            vec![TextEdit::replace(found.file, span, name)]
        }
        Edit::SetLabel {
            message,
            field,
            label,
        } => {
            let found = source.message(message)?;
            let path = field_path(&found, field)?;
            let label = label.keyword();
            match source.span(found.file, &child(&path, &[LABEL])) {
                Some(span) => vec![TextEdit::replace(found.file, span, label)],
                None => {
                    let span = source.span(found.file, &path)?;
                    vec![TextEdit::insert(
                        found.file,
                        span.start,
                        format!("{label} "),
                    )]
                }
            }
        }
        Edit::SetOption {
            message,
            field,
            option,
            value,
        } => {
            let found = source.message(message)?;
            let path = field_path(&found, field)?;
            set_option(source, found.file, &path, *option, value)?
        }
        Edit::AddField {
            message,
            oneof: None,
            field,
        } => {
            let found = source.message(message)?;
            let declaration = print::field(field).ok()?;
            vec![add_to_body(source, found.file, &found.path, &declaration)?]
        }
        Edit::AddField {
            message,
            oneof: Some(oneof),
            field,
        } => {
            let found = source.message(message)?;
            let index = found
                .descriptor
                .oneof_decl
                .iter()
                .position(|o| o.name() == oneof)?;
            let declaration = print::field(field).ok()?;
            let path = child(&found.path, &[ONEOF, index as i32]);
            vec![add_to_body(source, found.file, &path, &declaration)?]
        }
        Edit::AddEnumValue {
            enum_name,
            name,
            number,
        } => {
            let found = source.enumeration(enum_name)?;
            let declaration = print::enum_value(name, *number).ok()?;
            vec![add_to_body(source, found.file, &found.path, &declaration)?]
        }
        Edit::SetEnumOption {
            enum_name,
            option,
            value,
        } => {
            let found = source.enumeration(enum_name)?;
            let statement = print::option_statement(option.name(), value).ok()?;
            vec![add_to_body(source, found.file, &found.path, &statement)?]
        }
        Edit::SetEnumNumber {
            enum_name,
            value,
            number,
        } => {
            let found = source.enumeration(enum_name)?;
            let index = found
                .descriptor
                .value
                .iter()
                .position(|v| v.name() == value)?;
            let path = child(&found.path, &[ENUM_VALUE, index as i32, ENUM_VALUE_NUMBER]);
            let span = source.span(found.file, &path)?;
            vec![TextEdit::replace(found.file, span, number.to_string())]
        }
        Edit::SetFileOption {
            message,
            option,
            value,
        } => {
            let found = source.message(message)?;
            vec![set_file_option(source, found.file, option.name(), value)?]
        }
        Edit::SetEdition { message, edition } => {
            // protoc's span of the syntax statement is the whole `edition = "…";`.
            let found = source.message(message)?;
            let span = source.span(found.file, &[FILE_SYNTAX])?;
            let statement = print::edition_statement(*edition).ok()?;
            vec![TextEdit::replace(found.file, span, statement)]
        }
        Edit::RenameType { type_name, name } => rename_type(
            source,
            type_name,
            print::identifier(name, "a type name").ok()?,
        )?,
        Edit::MoveOutOfOneof { .. } | Edit::MoveIntoOneof { .. } => return None,
    })
}

/// `option = value` on the field at `path`: in place of the option where it is written, else
/// in its option list, else as a new list before its `;`.
fn set_option(
    source: &Source,
    file: usize,
    path: &[i32],
    option: FieldOption,
    value: &Value,
) -> Option<Vec<TextEdit>> {
    let written = print::option(option.name(), value).ok()?;
    let value = print::literal(value).ok()?;
    let existing = if option == FieldOption::Default {
        source.span(file, &child(path, &[DEFAULT_VALUE]))
    } else {
        option_path(option)
            .and_then(|o| source.span(file, &child(path, &[&[OPTIONS], &o[..]].concat())))
    };
    let text = source.text(file)?;
    if let Some(span) = existing {
        // The compiler's span of a default is its value alone; of an option, `name = value`.
        let replacement = if text[span.start..span.end].starts_with(option.name()) {
            written
        } else {
            value
        };
        return Some(vec![TextEdit::replace(file, span, replacement)]);
    }
    let field = source.span(file, path)?;
    let declared = &text[field.start..field.end];
    if let Some(open) = bracket(declared) {
        return Some(vec![TextEdit::insert(
            file,
            field.start + open + 1,
            format!("{written}, "),
        )]);
    }
    let semicolon = declared.rfind(';')?;
    let mut edit = TextEdit::insert(file, field.start + semicolon, format!(" [{written}]"));
    edit.option_list = true;
    Some(vec![edit])
}

/// Where a field declaration's option list opens: the first `[` outside a string, after `=`.
fn bracket(declared: &str) -> Option<usize> {
    let after = declared.find('=')?;
    let mut quote = None;
    for (at, c) in declared[after..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '[') => return Some(after + at),
            _ => {}
        }
    }
    None
}

/// Indentation of the line `at` is on.
pub(super) fn indent_of(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// `declaration` as the body's last line, before the closing `}` of the declaration at `path`.
pub(super) fn add_to_body(
    source: &Source,
    file: usize,
    path: &[i32],
    declaration: &str,
) -> Option<TextEdit> {
    let text = source.text(file)?;
    let span = source.span(file, path)?;
    let close = span.start + text[span.start..span.end].rfind('}')?;
    let line_start = text[..close].rfind('\n').map_or(0, |i| i + 1);
    if text[line_start..close].trim().is_empty() {
        let indent = format!("{}  ", indent_of(text, close));
        Some(TextEdit::insert(
            file,
            line_start,
            format!("{indent}{declaration}\n"),
        ))
    } else {
        Some(TextEdit::insert(file, close, format!(" {declaration} ")))
    }
}

/// `option NAME = VALUE;` in the file: in place of the statement where it is written, else
/// after the package (or syntax, or edition) statement.
fn set_file_option(source: &Source, file: usize, option: &str, value: &Value) -> Option<TextEdit> {
    let text = source.text(file)?;
    let statement = print::option_statement(option, value).ok()?;
    let value = print::literal(value).ok()?;
    let number = match option {
        "java_string_check_utf8" => 27,
        _ => return None,
    };
    if let Some(span) = source.span(file, &[FILE_OPTIONS, number]) {
        let written = &text[span.start..span.end];
        let replacement = if written.trim_start().starts_with("option") {
            statement
        } else {
            format!("{option} = {value}")
        };
        return Some(TextEdit::replace(file, span, replacement));
    }
    let after = [FILE_PACKAGE, FILE_SYNTAX, FILE_EDITION]
        .iter()
        .filter_map(|&p| source.span(file, &[p]))
        .map(|s| s.end)
        .max()
        .unwrap_or(0);
    Some(TextEdit::insert(file, after, format!("\n{statement}")))
}
