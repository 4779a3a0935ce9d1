//! A type given its old name back: its declaration and every reference to it.

use super::super::source::{Source, Span, FIELD};
use super::{child, TextEdit, NAME, TYPE_NAME};

/// The type's name, and each reference to it (or to a type nested in it) in the source: the
/// one word of the reference that names it. A map's reference is its field's `map<K, V>`.
pub(super) fn rename_type(source: &Source, type_name: &str, name: &str) -> Option<Vec<TextEdit>> {
    let (file, path) = match source.message(type_name) {
        Some(found) => (found.file, found.path),
        None => {
            let found = source.enumeration(type_name)?;
            (found.file, found.path)
        }
    };
    let simple = type_name.rsplit('.').next()?;
    let mut edits = vec![TextEdit::replace(
        file,
        source.span(file, &child(&path, &[NAME]))?,
        name,
    )];
    let target = format!(".{type_name}");
    let names_it = |t: &str| t == target || t.starts_with(&format!("{target}."));
    for (_, message) in source.messages() {
        if message
            .descriptor
            .options
            .as_ref()
            .is_some_and(|o| o.map_entry())
        {
            continue;
        }
        for (j, field) in message.descriptor.field.iter().enumerate() {
            let referenced = names_it(field.type_name())
                || source
                    .message(field.type_name().trim_start_matches('.'))
                    .filter(|m| m.descriptor.options.as_ref().is_some_and(|o| o.map_entry()))
                    .is_some_and(|entry| {
                        entry
                            .descriptor
                            .field
                            .iter()
                            .any(|f| names_it(f.type_name()))
                    });
            if !referenced {
                continue;
            }
            let span = source.span(
                message.file,
                &child(&message.path, &[FIELD, j as i32, TYPE_NAME]),
            )?;
            let text = &source.text(message.file)?[span.start..span.end];
            let at = one_word(text, simple)?;
            edits.push(TextEdit::replace(
                message.file,
                Span {
                    start: span.start + at,
                    end: span.start + at + simple.len(),
                },
                name,
            ));
        }
    }
    Some(edits)
}

/// Where `word` occurs in `text` as a whole identifier, if it does exactly once.
fn one_word(text: &str, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = text.match_indices(word).filter(|(at, _)| {
        let before = text[..*at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    });
    let (at, _) = found.next()?;
    found.next().is_none().then_some(at)
}
