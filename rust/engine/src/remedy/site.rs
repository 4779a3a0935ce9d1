//! Where a finding is, on both sides: the message pair its path leads to, and the field it
//! names on each side, resolved again from the decoded schemas.

use crate::model::{FieldRef, MessageRef, Schema, Syntax};
use crate::report::Finding;
use crate::rules::RuleId;

use super::fresh::Reserved;

/// A finding's place in the new schema and in the existing one.
pub(crate) struct Site<'a> {
    pub finding: &'a Finding,
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
        let mut parent = None;
        for name in through {
            let reader_field = r.field_named(name)?;
            let writer_field = w.field(reader_field.number())?;
            parent = Some(((w, writer_field), (r, reader_field)));
            r = reader_field.kind().message()?;
            w = writer_field.kind().message()?;
        }
        let (mut writer_field, mut reader_field) = match last {
            None => (None, None),
            Some(name) => fields_named(finding, w, r, name),
        };
        // A map's entry is declared by the map field, not in the source: a finding about its
        // key or value is remedied on the map.
        if let Some(((pw, wf), (pr, rf))) = parent.filter(|_| w.is_map_entry() || r.is_map_entry())
        {
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
