//! A file's edition set back (SYNTAX_CHANGED's remedy between two editions). Editions share
//! one way of writing fields, so the edition line alone changes; what protoc accepts in one
//! edition and refuses in the other is refused here, so that no fix is shown that the file
//! could not compile to.

use super::find::Syntax;
use super::tags::{enums, file, message};
use super::tree::{Message, Tree};
use crate::model::Syntax as Edition;

/// `FileOptions` removed by an edition (descriptor.proto's `feature_support.edition_removed`).
const JAVA_MULTIPLE_FILES: u32 = 10;
const CC_ENABLE_ARENAS: u32 = 31;
/// `SymbolVisibility.VISIBILITY_EXPORT`.
const EXPORT: u64 = 2;

/// Writes `edition` as the edition of `tree`'s file `index`.
pub(super) fn set(tree: &mut Tree, index: usize, edition: Edition) -> Result<(), String> {
    let Some((number, year)) = edition.edition() else {
        return Err("a file moves back to proto2 or proto3 only with every label rewritten".into());
    };
    let f = tree.file(index).ok_or("the file went missing")?;
    if !matches!(Syntax::of(f), Syntax::Editions(_)) {
        return Err("only an Editions file's edition line can be set".into());
    }
    if let Some(why) = refused(tree, f, edition) {
        return Err(format!("edition {year} would refuse the file: {why}"));
    }
    let f = tree.file_mut(index).ok_or("the file went missing")?;
    f.set_varint(file::EDITION, number as u64);
    Ok(())
}

/// Why protoc would not compile file `f` in `edition`, for what its descriptor shows.
fn refused(tree: &Tree, f: &Message, edition: Edition) -> Option<String> {
    let options = f.message(file::OPTIONS);
    let has_option = |n: u32| options.is_some_and(|o| o.has(n));
    match edition {
        Edition::Edition2023 if declarations(f).any(|(tag, d)| d.has(tag)) => {
            Some("`export` and `local` are edition 2024's".into())
        }
        Edition::Edition2024 | Edition::Edition2026 if has_option(JAVA_MULTIPLE_FILES) => {
            Some("java_multiple_files is removed in edition 2024".into())
        }
        Edition::Edition2023 | Edition::Edition2024
            if f.strings(file::OPTION_DEPENDENCY).count() > 0 =>
        {
            Some("`import option` is edition 2026's".into())
        }
        Edition::Edition2026 if has_option(CC_ENABLE_ARENAS) => {
            Some("cc_enable_arenas is removed in edition 2026".into())
        }
        // 2026's STRICT visibility makes a top-level type local unless it says `export`: one
        // another file of the set may use must say it already.
        Edition::Edition2026
            if imported(tree, f) && top_level(f).any(|(tag, d)| d.varint(tag) != Some(EXPORT)) =>
        {
            Some("its top-level types would be local to it, and another file imports it".into())
        }
        _ => None,
    }
}

/// The file's top-level messages and enums, each with the field its visibility is in.
fn top_level(f: &Message) -> impl Iterator<Item = (u32, &Message)> {
    f.messages(file::MESSAGE_TYPE)
        .map(|m| (message::VISIBILITY, m))
        .chain(f.messages(file::ENUM_TYPE).map(|e| (enums::VISIBILITY, e)))
}

/// Every message and enum the file declares, nested ones included, as [`top_level`] gives them.
fn declarations(f: &Message) -> impl Iterator<Item = (u32, &Message)> {
    let mut stack: Vec<(u32, &Message)> = top_level(f).collect();
    std::iter::from_fn(move || {
        let (tag, next) = stack.pop()?;
        if tag == message::VISIBILITY {
            stack.extend(
                next.messages(message::NESTED_TYPE)
                    .map(|m| (message::VISIBILITY, m)),
            );
            stack.extend(
                next.messages(message::ENUM_TYPE)
                    .map(|e| (enums::VISIBILITY, e)),
            );
        }
        Some((tag, next))
    })
}

fn imported(tree: &Tree, f: &Message) -> bool {
    let name = f.string(file::NAME).unwrap_or_default();
    tree.files()
        .any(|other| other.strings(file::DEPENDENCY).any(|d| d == name))
}
