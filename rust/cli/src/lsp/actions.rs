//! What the editor asks of what is shown: the code actions of a range (each finding's proven
//! fixes, and every failure's fix in the file at once) and the hover of a position.

use std::collections::BTreeMap;
use std::path::PathBuf;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Hover, HoverContents,
    HoverParams, MarkupContent, MarkupKind, Position, Range, TextEdit, Uri, WorkspaceEdit,
};

use super::documents::uri_of;
use super::findings::Entry;

/// Each fix of a finding the range touches, and every failure's fix in the file at once.
pub fn code_actions(entries: &[Entry], params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let wants = |kind: &CodeActionKind| {
        params
            .context
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|o| kind.as_str().starts_with(o.as_str())))
    };
    let mut actions = Vec::new();
    if wants(&CodeActionKind::QUICKFIX) {
        for entry in entries
            .iter()
            .filter(|e| overlaps(e.diagnostic.range, params.range))
        {
            for (i, fix) in entry.fixes.iter().enumerate() {
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![entry.diagnostic.clone()]),
                    edit: Some(workspace_edit(&fix.edits)),
                    is_preferred: Some(entry.preferred && i == 0),
                    ..Default::default()
                }));
            }
        }
    }
    let fix_all = fix_all(entries);
    if !fix_all.is_empty() && wants(&CodeActionKind::SOURCE_FIX_ALL) {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: "protocompat: make every failure's fix in this file".into(),
            kind: Some(CodeActionKind::SOURCE_FIX_ALL),
            edit: Some(workspace_edit(&fix_all)),
            ..Default::default()
        }));
    }
    actions
}

/// The hovers of the findings at the position.
pub fn hover(entries: &[Entry], params: &HoverParams) -> Option<Hover> {
    let at = &params.text_document_position_params;
    let texts: Vec<&str> = entries
        .iter()
        .filter(|e| contains(e.diagnostic.range, at.position) && !e.hover.is_empty())
        .map(|e| e.hover.as_str())
        .collect();
    if texts.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: texts.join("\n\n---\n\n"),
        }),
        range: None,
    })
}

// lsp-types keys WorkspaceEdit's changes by Uri, which clippy takes for a mutable key (it
// caches its parse in a cell); its hash and equality are of the text alone.
#[allow(clippy::mutable_key_type)]
fn workspace_edit(edits: &BTreeMap<PathBuf, Vec<TextEdit>>) -> WorkspaceEdit {
    let changes: std::collections::HashMap<Uri, Vec<TextEdit>> = edits
        .iter()
        .filter_map(|(path, edits)| Some((uri_of(path)?, edits.clone())))
        .collect();
    WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }
}

/// Each failure's first fix, but one whose edits overlap an edit already taken.
fn fix_all(entries: &[Entry]) -> BTreeMap<PathBuf, Vec<TextEdit>> {
    let mut all: BTreeMap<PathBuf, Vec<TextEdit>> = BTreeMap::new();
    for entry in entries.iter().filter(|e| e.preferred) {
        let Some(fix) = entry.fixes.first() else {
            continue;
        };
        // An edit another fix already makes, or one that overlaps it, leaves the fix out:
        // the fixes were each proven alone, and two over one place are not one edit.
        let clashes = fix.edits.iter().any(|(path, edits)| {
            let taken = all.get(path).map(Vec::as_slice).unwrap_or(&[]);
            edits.iter().any(|e| {
                taken
                    .iter()
                    .any(|t| t == e || overlaps_strictly(t.range, e.range))
            })
        });
        if clashes {
            continue;
        }
        for (path, edits) in &fix.edits {
            all.entry(path.clone())
                .or_default()
                .extend(edits.iter().cloned());
        }
    }
    all
}

fn overlaps(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn overlaps_strictly(a: Range, b: Range) -> bool {
    a.start < b.end && b.start < a.end
}

fn contains(range: Range, at: Position) -> bool {
    range.start <= at && at <= range.end
}
