//! Where a finding is, on both sides: the message pair its path leads to, and the field it
//! names on each side, resolved again from the decoded schemas.

use crate::model::{FieldRef, MessageRef, Schema, Syntax};
use crate::report::Finding;
use crate::rules::RuleId;

use super::fresh::Reserved;

/// A finding's place in the new schema and in the existing one.
pub(crate) struct Site<'a> {
    pub finding: &'a Finding,
    /// Whether the finding was about a message the field's new type differs from, moved to the
    /// field itself: its remedy is then the field's old type kept ([`super::retype`]).
    pub retyped: bool,
    /// Whether the new schema writes and the existing one reads (else the other way round).
    pub new_is_writer: bool,
    pub new_message: MessageRef<'a>,
    pub old_message: MessageRef<'a>,
    /// The field the finding names on each side, where that side has it.
    pub new_field: Option<FieldRef<'a>>,
    pub old_field: Option<FieldRef<'a>>,
    /// The new schema's reserved numbers and names, which a fresh field must avoid.
    pub reserved: &'a Reserved,
    pub new_root: MessageRef<'a>,
    pub old_root: MessageRef<'a>,
}

impl<'a> Site<'a> {
    /// `None` when the path cannot be followed (cut short for length, or not in the schemas).
    pub(crate) fn of(
        finding: &'a Finding,
        (new, reserved): (&'a Schema, &'a Reserved),
        old: &'a Schema,
        new_is_writer: bool,
    ) -> Option<Site<'a>> {
        let (writer, reader) = if new_is_writer {
            (new.root(), old.root())
        } else {
            (old.root(), new.root())
        };
        let (mut w, mut r) = (writer, reader);
        // Roots' findings are named after the reader's root; the rest start at the writer's.
        let rest = finding
            .path
            .strip_prefix(writer.full_name())
            .or_else(|| finding.path.strip_prefix(reader.full_name()))?;
        if rest.contains('…') {
            return None;
        }
        let names: Vec<&str> = rest.split('.').filter(|s| !s.is_empty()).collect();
        let (last, through) = match names.split_last() {
            Some((last, through)) => (Some(*last), through),
            None => (None, &[][..]),
        };
        // The walk names each step after the reader's field, matched by number in the writer.
        // Each step: the (writer, reader) messages and the fields that lead on from them.
        let mut trail = Vec::new();
        for name in through {
            let reader_field = r.field_named(name)?;
            let writer_field = w.field(reader_field.number())?;
            trail.push(((w, writer_field), (r, reader_field)));
            r = reader_field.kind().message()?;
            w = writer_field.kind().message()?;
        }
        let (mut writer_field, mut reader_field) = match last {
            None => (None, None),
            Some(name) => fields_named(finding, w, r, name),
        };
        // The step to go back to: past map entries, which the map field declares (no source
        // of their own), to a field of a message that is written out.
        let back = |trail: &mut Vec<_>| -> Option<_> {
            while let Some(((pw, wf), (pr, rf))) = trail.pop() {
                let (pw, pr): (MessageRef<'a>, MessageRef<'a>) = (pw, pr);
                if !pw.is_map_entry() && !pr.is_map_entry() {
                    return Some((pw, pr, wf, rf));
                }
            }
            None
        };
        // A finding about a map's key or value is remedied on the map.
        if w.is_map_entry() || r.is_map_entry() {
            let (pw, pr, wf, rf) = back(&mut trail)?;
            (w, r) = (pw, pr);
            (writer_field, reader_field) = (Some(wf), Some(rf));
        }
        // A field that now has another of the new schema's types (conservative compares such
        // messages by structure): editing that other type would break its own pairs, so the
        // field keeps its old type and the new type becomes a new field.
        let (old_at, new_at) = if new_is_writer { (r, w) } else { (w, r) };
        let retyped = old_at.full_name() != new_at.full_name()
            && reserved.declares(old_at.full_name())
            && !trail.is_empty();
        if retyped {
            let (pw, pr, wf, rf) = back(&mut trail)?;
            (w, r) = (pw, pr);
            (writer_field, reader_field) = (Some(wf), Some(rf));
        }
        let (new_message, old_message, new_field, old_field) = if new_is_writer {
            (w, r, writer_field, reader_field)
        } else {
            (r, w, reader_field, writer_field)
        };
        Some(Site {
            finding,
            retyped,
            new_is_writer,
            new_message,
            old_message,
            new_field,
            old_field,
            reserved,
            new_root: new.root(),
            old_root: old.root(),
        })
    }

    pub(crate) fn new_syntax(&self) -> Syntax {
        self.new_message.file().syntax()
    }

    pub(crate) fn message(&self) -> String {
        self.new_message.full_name().to_owned()
    }
}

/// The (writer, reader) fields a finding's last name stands for: by name for a renumbering
/// (which matches fields by name) and for a finding without a number, else by number, as the
/// walk matched them (a side without that number has no such field).
fn fields_named<'a>(
    finding: &Finding,
    w: MessageRef<'a>,
    r: MessageRef<'a>,
    name: &str,
) -> (Option<FieldRef<'a>>, Option<FieldRef<'a>>) {
    match finding.field_number {
        Some(number) if finding.rule != RuleId::FieldNumberChanged => {
            (w.field(number), r.field(number))
        }
        _ => (w.field_named(name), r.field_named(name)),
    }
}
