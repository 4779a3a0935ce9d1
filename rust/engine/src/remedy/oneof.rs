//! ONEOF_CONFLICT: fields keep the oneof membership the writer gives them.

use crate::model::{FieldRef, MessageRef, Syntax};

use super::edit::Label;
use super::{Edit, Remedy, Site};

/// The label a field needs outside a oneof, as the old side declared it.
fn label_outside(old: FieldRef<'_>, syntax: Syntax) -> Option<Label> {
    match syntax {
        Syntax::Proto2 => Some(Label::Optional),
        Syntax::Proto3 if old.is_proto3_optional() => Some(Label::Optional),
        _ => None,
    }
}

/// The reader's oneof the finding names, and its members that the writer has.
fn members<'a>(
    reader: MessageRef<'a>,
    writer: MessageRef<'a>,
    oneof: &str,
) -> Vec<(FieldRef<'a>, FieldRef<'a>)> {
    reader
        .fields()
        .filter(|f| f.oneof() == Some(oneof))
        .filter_map(|r| Some((r, writer.field(r.number())?)))
        .collect()
}

pub(crate) fn oneof_conflict(site: &Site) -> Vec<Remedy> {
    let Some(oneof) = site.finding.path.rsplit('.').next() else {
        return Vec::new();
    };
    let message = site.message();
    let syntax = site.new_syntax();
    if site.new_is_writer {
        // A oneof cannot hold a repeated field (or a map): no edit puts it back there.
        let repeated = members(site.old_message, site.new_message, oneof)
            .into_iter()
            .find(|(_, new)| new.oneof() != Some(oneof) && new.is_repeated());
        if let Some((_, field)) = repeated {
            return vec![Remedy::advice(format!(
                "field {} is repeated now, and a oneof cannot hold it: keep it singular, in \
                 oneof {oneof} as the old side has it, and add the repeated field as a new one",
                field.name()
            ))];
        }
    }
    let edits: Vec<Edit> = if site.new_is_writer {
        // The old reader holds them in one oneof: the new writer puts them back in it.
        members(site.old_message, site.new_message, oneof)
            .into_iter()
            .filter(|(_, new)| new.oneof() != Some(oneof))
            .map(|(_, new)| Edit::MoveIntoOneof {
                message: message.clone(),
                field: new.name().to_owned(),
                oneof: oneof.to_owned(),
            })
            .collect()
    } else {
        // The new reader gathered them: those the old writer keeps apart go back out.
        members(site.new_message, site.old_message, oneof)
            .into_iter()
            .filter(|(_, old)| old.oneof().is_none())
            .map(|(new, old)| Edit::MoveOutOfOneof {
                message: message.clone(),
                field: new.name().to_owned(),
                label: label_outside(old, syntax),
            })
            .collect()
    };
    if edits.is_empty() {
        return Vec::new();
    }
    let summary = if site.new_is_writer {
        format!("keep the fields in oneof {oneof}, as the old side has them")
    } else {
        format!(
            "keep the fields outside oneof {oneof}, as the old side has them; for a oneof's \
             behaviour add a new oneof with new fields"
        )
    };
    vec![Remedy::edits(summary, edits)]
}
