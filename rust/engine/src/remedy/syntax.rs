//! SYNTAX_CHANGED's remedy: the old syntax or edition line kept.

use crate::model::{FieldRef, Kind, MessageRef};

use super::{Edit, Remedy, Site};

/// Between two editions, which write fields alike, the old edition line is one edit; from or
/// to proto2 or proto3 every label would change, which is advice.
pub(crate) fn syntax_changed(site: &Site) -> Vec<Remedy> {
    let (new, old) = compared_pair(site);
    let (new_syntax, old_syntax) = (new.file().syntax(), old.file().syntax());
    if new_syntax.is_edition() && old_syntax.is_edition() {
        if let Some((_, year)) = old_syntax.edition() {
            return vec![Remedy::edits(
                format!("keep the old edition line, `edition = \"{year}\";`"),
                vec![Edit::SetEdition {
                    message: new.full_name().to_owned(),
                    edition: old_syntax,
                }],
            )];
        }
    }
    vec![Remedy::advice(format!(
        "keep the old file's {} and write the new declarations in it; no single edit does \
         that, since every field's label depends on the syntax",
        old_syntax.name()
    ))]
}

/// The (new, old) messages SYNTAX_CHANGED compares: the roots, or the types of the field its
/// path ends in (`shop.Order.total` compares the two `total` messages).
fn compared_pair<'a>(site: &Site<'a>) -> (MessageRef<'a>, MessageRef<'a>) {
    let type_of = |field: Option<FieldRef<'a>>| match field.map(|f| f.kind()) {
        Some(Kind::Message(m) | Kind::Group(m)) => Some(m),
        _ => None,
    };
    match (type_of(site.new_field), type_of(site.old_field)) {
        (Some(new), Some(old)) => (new, old),
        _ => (site.new_message, site.old_message),
    }
}
