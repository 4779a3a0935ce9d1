//! `check --fix`: the first placed remedy of each finding, written into the new side's files.
//! Edits that two findings share are made once; two option lists added to the same field
//! become one; a remedy whose edits overlap another's already taken is left out, and said.

use std::collections::BTreeMap;

use super::place::TextEdit;
use super::source::Source;
use super::write::{restore_all, write_all, FileWrite};
use super::Fix;

/// What `--fix` did.
pub struct Applied {
    /// The files written, as the user named them.
    pub files: Vec<String>,
    /// Each written file's index in the source, for [`restore`].
    written: Vec<usize>,
    /// The remedies taken, by summary (each once).
    pub taken: Vec<String>,
    /// The remedies left out, with why.
    pub left: Vec<String>,
}

fn overlaps(a: &TextEdit, b: &TextEdit) -> bool {
    if a.file != b.file {
        return false;
    }
    let ((a0, a1), (b0, b1)) = (a.span, b.span);
    // Two insertions at one place both stand; an insertion touching a replacement's end too.
    (a0 < b1 && b0 < a1) || (a0 == a1 && b0 < a0 && a0 < b1) || (b0 == b1 && a0 < b0 && b0 < a1)
}

/// Chooses the edits: `fixes` per finding, in the report's order, with how each is named.
pub fn choose(fixes: &[(String, Vec<Fix>)]) -> (Vec<TextEdit>, Vec<String>, Vec<String>) {
    let mut chosen: Vec<TextEdit> = Vec::new();
    let (mut taken, mut left) = (Vec::new(), Vec::new());
    for (finding, fixes) in fixes {
        let Some(fix) = fixes.iter().find(|f| f.is_applicable()) else {
            continue;
        };
        let fresh: Vec<&TextEdit> = fix.placed.iter().filter(|e| !chosen.contains(e)).collect();
        if fresh.iter().any(|e| chosen.iter().any(|c| overlaps(c, e))) {
            left.push(format!(
                "{finding}: not applied, its edits overlap another finding's fix; apply it by \
                 hand or run --fix again after checking what is left ({})",
                fix.summary
            ));
            continue;
        }
        chosen.extend(fresh.into_iter().cloned());
        if !taken.contains(&fix.summary) {
            taken.push(fix.summary.clone());
        }
    }
    (merge_option_lists(chosen), taken, left)
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

/// Writes the chosen edits into the files of `source`.
pub fn apply(source: &Source, fixes: &[(String, Vec<Fix>)]) -> Result<Applied, String> {
    let (edits, taken, left) = choose(fixes);
    let mut by_file: BTreeMap<usize, Vec<&TextEdit>> = BTreeMap::new();
    for edit in &edits {
        by_file.entry(edit.file).or_default().push(edit);
    }
    let (mut files, mut written, mut writes) = (Vec::new(), Vec::new(), Vec::new());
    for (file, edits) in by_file {
        let text = source
            .text(file)
            .ok_or_else(|| format!("cannot read {}", source.file_name(file)))?;
        let path = source.file_name(file);
        writes.push(FileWrite {
            path: path.clone().into(),
            text: edited(text, &edits),
            was: text.to_owned(),
        });
        files.push(path);
        written.push(file);
    }
    write_all(&writes)?;
    Ok(Applied {
        files,
        written,
        taken,
        left,
    })
}

/// Writes back the text `apply` read, for every file it wrote.
pub fn restore(source: &Source, applied: &Applied) -> Result<(), String> {
    let writes: Vec<FileWrite> = applied
        .written
        .iter()
        .map(|&file| FileWrite {
            path: source.file_name(file).into(),
            // Only the old text is written back.
            text: String::new(),
            was: source.text(file).unwrap_or_default().to_owned(),
        })
        .collect();
    restore_all(&writes)
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
