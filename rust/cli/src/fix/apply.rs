//! `check --fix`: the fixes to make, written into the new side's files. Edits that two fixes
//! share are made once; two option lists added to the same field become one. Which fixes are
//! made was settled before (`status`): none of their edits overlap.

use std::collections::BTreeMap;

use super::place::TextEdit;
use super::source::Source;
use super::write::{restore_all, write_all, FileWrite};
use super::Fix;
use crate::console::Error;

/// What `--fix` wrote: each file as the user named it, with its old text, to restore it.
pub struct Written {
    pub files: Vec<String>,
    writes: Vec<FileWrite>,
}

impl Written {
    /// Writes back the text each file had, every file tried.
    pub fn restore(&self) -> Result<(), Error> {
        restore_all(&self.writes)
    }
}

pub(super) fn overlaps(a: &TextEdit, b: &TextEdit) -> bool {
    if a.file != b.file {
        return false;
    }
    let ((a0, a1), (b0, b1)) = (a.span, b.span);
    // Two insertions at one place both stand; an insertion touching a replacement's end too.
    (a0 < b1 && b0 < a1) || (a0 == a1 && b0 < a0 && a0 < b1) || (b0 == b1 && a0 < b0 && b0 < a1)
}

/// Two ` [a = b]` lists inserted at one place become ` [a = b, c = d]`.
fn merge_option_lists(edits: Vec<TextEdit>) -> Vec<TextEdit> {
    let mut merged: Vec<TextEdit> = Vec::new();
    for edit in edits {
        if edit.option_list {
            if let Some(first) = merged
                .iter_mut()
                .find(|m| m.option_list && m.file == edit.file && m.span == edit.span)
            {
                let inner = edit.text.trim_start().trim_start_matches('[');
                first.text = format!("{}, {inner}", first.text.trim_end_matches(']'));
                continue;
            }
        }
        merged.push(edit);
    }
    merged
}

/// `edits` made to `text`: insertions before a replacement at the same place, in the order
/// chosen.
pub fn edited(text: &str, edits: &[&TextEdit]) -> String {
    let mut ordered: Vec<(usize, &TextEdit)> = edits.iter().copied().enumerate().collect();
    ordered.sort_by_key(|(seq, e)| (e.span.0, e.span.0 != e.span.1, *seq));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (_, edit) in ordered {
        out.push_str(&text[at..edit.span.0.max(at)]);
        out.push_str(&edit.text);
        at = at.max(edit.span.1);
    }
    out.push_str(&text[at..]);
    out
}

/// Writes `fixes` into the files of `source`.
pub fn write(source: &Source, fixes: &[&Fix]) -> Result<Written, Error> {
    let mut edits: Vec<TextEdit> = Vec::new();
    for fix in fixes {
        for edit in &fix.placed {
            if !edits.contains(edit) {
                edits.push(edit.clone());
            }
        }
    }
    let edits = merge_option_lists(edits);
    let mut by_file: BTreeMap<usize, Vec<&TextEdit>> = BTreeMap::new();
    for edit in &edits {
        by_file.entry(edit.file).or_default().push(edit);
    }
    let (mut files, mut writes) = (Vec::new(), Vec::new());
    for (file, edits) in by_file {
        let text = source
            .text(file)
            .ok_or_else(|| Error::input(format!("cannot read {}", source.file_name(file))))?;
        let path = source.file_name(file);
        writes.push(FileWrite {
            path: path.clone().into(),
            text: edited(text, &edits),
            was: text.to_owned(),
        });
        files.push(path);
    }
    write_all(&writes)?;
    Ok(Written { files, writes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, text: &str) -> TextEdit {
        TextEdit {
            file: 0,
            span: (start, end),
            text: text.to_owned(),
            option_list: false,
        }
    }

    #[test]
    fn insertions_come_before_a_replacement_at_the_same_place() {
        let text = "int32 a = 1;";
        let (number, before) = (edit(10, 11, "7"), edit(10, 10, "+"));
        assert_eq!(edited(text, &[&number, &before]), "int32 a = +7;");
    }

    #[test]
    fn overlapping_edits_are_told_apart_from_touching_ones() {
        assert!(overlaps(&edit(2, 6, "x"), &edit(4, 8, "y")));
        assert!(overlaps(&edit(2, 6, "x"), &edit(4, 4, "y")));
        assert!(!overlaps(&edit(2, 6, "x"), &edit(6, 6, "y")));
        assert!(!overlaps(&edit(4, 4, "x"), &edit(4, 4, "y")));
    }

    #[test]
    fn two_option_lists_for_one_field_become_one() {
        let mut a = edit(11, 11, " [packed = true]");
        a.option_list = true;
        let mut b = edit(11, 11, " [deprecated = true]");
        b.option_list = true;
        let merged = merge_option_lists(vec![a, b]);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].text, " [packed = true, deprecated = true]");
    }
}
