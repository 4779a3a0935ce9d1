//! Fields moved out of a oneof into their message, or into a oneof (made if missing): their
//! declarations copied without a label, a oneof left empty removed.

use std::collections::BTreeMap;

use super::super::source::{Source, Span, ONEOF};
use super::{add_to_body, child, field_path, indent_of, TextEdit, TYPE, TYPE_NAME};

/// The whole lines `span` covers, where nothing else is written on them.
fn whole_lines(text: &str, span: Span) -> Span {
    let start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[span.end..]
        .find('\n')
        .map_or(text.len(), |i| span.end + i + 1);
    if text[start..span.start].trim().is_empty() && text[span.end..end].trim().is_empty() {
        Span { start, end }
    } else {
        span
    }
}

/// A field's declaration without its label: from its type to its `;`.
fn unlabelled(source: &Source, file: usize, path: &[i32]) -> Option<(Span, String)> {
    let text = source.text(file)?;
    let span = source.span(file, path)?;
    let from = source
        .span(file, &child(path, &[TYPE]))
        .or_else(|| source.span(file, &child(path, &[TYPE_NAME])))?;
    Some((span, text[from.start..span.end].to_owned()))
}

pub(super) fn move_out(
    source: &Source,
    message: &str,
    oneof: i32,
    fields: &[(String, String)],
) -> Option<Vec<TextEdit>> {
    let found = source.message(message)?;
    let text = source.text(found.file)?;
    let oneof_span = source.span(found.file, &child(&found.path, &[ONEOF, oneof]))?;
    let members = found
        .descriptor
        .field
        .iter()
        .filter(|f| f.oneof_index == Some(oneof) && f.proto3_optional != Some(true))
        .count();
    let indent = indent_of(text, oneof_span.start).to_owned();
    let mut moved = Vec::new();
    let mut edits = Vec::new();
    for (field, label) in fields {
        let path = field_path(&found, field)?;
        let (span, declared) = unlabelled(source, found.file, &path)?;
        moved.push(format!("{indent}{label}{declared}"));
        edits.push(TextEdit::replace(found.file, whole_lines(text, span), ""));
    }
    if moved.len() == members {
        // Nothing stays in it: the oneof becomes its fields.
        let lines = whole_lines(text, oneof_span);
        let mut replaced = moved.join("\n");
        replaced.push('\n');
        return Some(vec![TextEdit::replace(found.file, lines, replaced)]);
    }
    let mut after = String::new();
    for line in moved {
        after.push('\n');
        after.push_str(&line);
    }
    edits.push(TextEdit::insert(found.file, oneof_span.end, after));
    Some(edits)
}

pub(super) fn move_into(
    source: &Source,
    message: &str,
    oneof: &str,
    fields: &[String],
) -> Option<Vec<TextEdit>> {
    let found = source.message(message)?;
    let text = source.text(found.file)?;
    let mut edits = Vec::new();
    let mut moved = Vec::new();
    // Per oneof they leave, how many of its members go: a oneof left empty goes too.
    let mut leaving: BTreeMap<i32, usize> = BTreeMap::new();
    for field in fields {
        let path = field_path(&found, field)?;
        let (span, declared) = unlabelled(source, found.file, &path)?;
        moved.push(declared);
        let descriptor = found.descriptor.field.iter().find(|f| f.name() == field)?;
        match descriptor
            .oneof_index
            .filter(|_| descriptor.proto3_optional != Some(true))
        {
            Some(from) => *leaving.entry(from).or_default() += 1,
            None => edits.push(TextEdit::replace(found.file, whole_lines(text, span), "")),
        }
    }
    for (from, count) in leaving {
        let members = found
            .descriptor
            .field
            .iter()
            .filter(|f| f.oneof_index == Some(from) && f.proto3_optional != Some(true))
            .count();
        if count == members {
            let span = source.span(found.file, &child(&found.path, &[ONEOF, from]))?;
            edits.push(TextEdit::replace(found.file, whole_lines(text, span), ""));
        } else {
            for field in fields {
                let descriptor = found.descriptor.field.iter().find(|f| f.name() == field)?;
                if descriptor.oneof_index == Some(from) {
                    let (span, _) = unlabelled(source, found.file, &field_path(&found, field)?)?;
                    edits.push(TextEdit::replace(found.file, whole_lines(text, span), ""));
                }
            }
        }
    }
    let existing = found
        .descriptor
        .oneof_decl
        .iter()
        .position(|o| o.name() == oneof);
    match existing {
        Some(index) => {
            for declared in moved {
                edits.push(add_to_body(
                    source,
                    found.file,
                    &child(&found.path, &[ONEOF, index as i32]),
                    &declared,
                )?);
            }
        }
        None => {
            let message_span = source.span(found.file, &found.path)?;
            let close =
                message_span.start + text[message_span.start..message_span.end].rfind('}')?;
            let line_start = text[..close].rfind('\n').map_or(0, |i| i + 1);
            if !text[line_start..close].trim().is_empty() {
                return None;
            }
            let indent = format!("{}  ", indent_of(text, close));
            let mut block = format!("{indent}oneof {oneof} {{\n");
            for declared in moved {
                block.push_str(&format!("{indent}  {declared}\n"));
            }
            block.push_str(&format!("{indent}}}\n"));
            edits.push(TextEdit::insert(found.file, line_start, block));
        }
    }
    Some(edits)
}
