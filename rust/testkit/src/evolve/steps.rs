//! The random steps that evolve a schema into the next one.

use arbitrary::{Result, Unstructured};

use super::{Label, Schema, Syntax, Ty, KEY_SCALARS};

/// Which kind of evolution step changed the schema (for the figures and for reports).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Step {
    Retype,
    RetypeMapKey,
    Renumber,
    AddField,
    RemoveField,
    AddEnumValue,
    RemoveEnumValue,
    RenumberEnumValue,
    ReorderEnumValues,
    IntoOneof,
    OutOfOneof,
    ToRepeated,
    ToSingular,
    Packing,
    Presence,
    MapToEntries,
    EntriesToMap,
    ToProto3,
    ToProto2,
    Default,
    CloneMessage,
    CloneEnum,
}

impl Schema {
    fn pick_field(&self, u: &mut Unstructured) -> Result<Option<(usize, usize)>> {
        let all: Vec<(usize, usize)> = self
            .messages
            .iter()
            .enumerate()
            .flat_map(|(m, msg)| (0..msg.fields.len()).map(move |f| (m, f)))
            .collect();
        if all.is_empty() {
            return Ok(None);
        }
        Ok(Some(*u.choose(&all)?))
    }

    fn singular_label(&self, u: &mut Unstructured, ty: Ty) -> Result<Label> {
        Ok(match self.syntax {
            Syntax::Proto3 => *u.choose(&[Label::Implicit, Label::Optional])?,
            Syntax::Proto2 if matches!(ty, Ty::Message(_)) => Label::Optional,
            Syntax::Proto2 => *u.choose(&[Label::Optional, Label::Optional, Label::Required])?,
        })
    }

    /// One random step applied in place; `None` when the step found nothing to change.
    fn step(&mut self, u: &mut Unstructured) -> Result<Option<Step>> {
        let kind = u.int_in_range(0..=21)?;
        let picked = self.pick_field(u)?;
        Ok(match kind {
            0 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let ty = self.random_ty(u)?;
                let proto2 = self.syntax == Syntax::Proto2;
                let f = &mut self.messages[m].fields[i];
                if f.ty == ty {
                    return Ok(None);
                }
                f.ty = ty;
                if !f.packable() {
                    f.packed = None;
                }
                let had_default = f.default.take().is_some();
                if had_default && proto2 && f.defaultable() {
                    let default = self.random_default(u, ty)?;
                    self.messages[m].fields[i].default = default;
                }
                Some(Step::Retype)
            }
            1 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let key = *u.choose(&KEY_SCALARS)?;
                let Some(map) = self.messages[m].fields[i].map.as_mut() else {
                    return Ok(None);
                };
                if map.key == key {
                    return Ok(None);
                }
                map.key = key;
                Some(Step::RetypeMapKey)
            }
            2 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let number = self.random_number(u, m)?;
                self.messages[m].fields[i].number = number;
                Some(Step::Renumber)
            }
            3 | 4 => {
                let m = u.choose_index(self.messages.len())?;
                let mut field = self.random_field(u, m)?;
                if field.oneof_eligible() && !self.messages[m].oneofs.is_empty() && u.arbitrary()? {
                    field.oneof = Some(*u.choose(&self.messages[m].oneofs)?);
                    field.label = Label::Optional;
                }
                let at = u.int_in_range(0..=self.messages[m].fields.len())?;
                self.messages[m].fields.insert(at, field);
                Some(Step::AddField)
            }
            5 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                self.messages[m].fields.remove(i);
                Some(Step::RemoveField)
            }
            6..=9 => {
                if self.enums.is_empty() {
                    return Ok(None);
                }
                let e = u.choose_index(self.enums.len())?;
                let uid = self.uid();
                let values = &mut self.enums[e].values;
                match kind {
                    6 => {
                        let number = u.int_in_range(-2..=12)?;
                        let at = u.int_in_range(0..=values.len())?;
                        values.insert(at, (format!("E{e}_V{uid}"), number));
                        Some(Step::AddEnumValue)
                    }
                    7 => {
                        let at = u.choose_index(values.len())?;
                        values.remove(at);
                        Some(Step::RemoveEnumValue)
                    }
                    8 => {
                        let at = u.choose_index(values.len())?;
                        values[at].1 = u.int_in_range(-2..=12)?;
                        Some(Step::RenumberEnumValue)
                    }
                    _ => {
                        if values.len() < 2 {
                            return Ok(None);
                        }
                        let by = u.int_in_range(1..=values.len() - 1)?;
                        values.rotate_left(by);
                        Some(Step::ReorderEnumValues)
                    }
                }
            }
            10 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                if !self.messages[m].fields[i].oneof_eligible() {
                    return Ok(None);
                }
                let oneof = if self.messages[m].oneofs.is_empty() || u.arbitrary()? {
                    let uid = self.uid();
                    self.messages[m].oneofs.push(uid);
                    uid
                } else {
                    *u.choose(&self.messages[m].oneofs)?
                };
                let f = &mut self.messages[m].fields[i];
                f.oneof = Some(oneof);
                f.label = Label::Optional;
                Some(Step::IntoOneof)
            }
            11 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                if self.messages[m].fields[i].oneof.is_none() {
                    return Ok(None);
                }
                let label = self.singular_label(u, self.messages[m].fields[i].ty)?;
                let f = &mut self.messages[m].fields[i];
                f.oneof = None;
                f.label = if label == Label::Required {
                    Label::Optional
                } else {
                    label
                };
                Some(Step::OutOfOneof)
            }
            12 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let f = &mut self.messages[m].fields[i];
                if f.label == Label::Repeated {
                    if f.map.is_some() {
                        return Ok(None);
                    }
                    let ty = f.ty;
                    let label = self.singular_label(u, ty)?;
                    let f = &mut self.messages[m].fields[i];
                    f.label = label;
                    f.packed = None;
                    Some(Step::ToSingular)
                } else {
                    f.label = Label::Repeated;
                    f.oneof = None;
                    f.default = None;
                    if f.packable() {
                        f.packed = *u.choose(&[None, Some(true), Some(false)])?;
                    }
                    Some(Step::ToRepeated)
                }
            }
            13 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let packed = *u.choose(&[None, Some(true), Some(false)])?;
                let f = &mut self.messages[m].fields[i];
                if f.label != Label::Repeated || !f.packable() || f.packed == packed {
                    return Ok(None);
                }
                f.packed = packed;
                Some(Step::Packing)
            }
            14 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let f = &mut self.messages[m].fields[i];
                if f.oneof.is_some() {
                    return Ok(None);
                }
                f.label = match f.label {
                    Label::Implicit => Label::Optional,
                    Label::Optional if self.syntax == Syntax::Proto3 => Label::Implicit,
                    Label::Optional => Label::Required,
                    Label::Required => Label::Optional,
                    Label::Repeated => return Ok(None),
                };
                Some(Step::Presence)
            }
            15 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let Some(map) = self.messages[m].fields[i].map.as_mut() else {
                    return Ok(None);
                };
                map.as_entries = !map.as_entries;
                Some(if map.as_entries {
                    Step::MapToEntries
                } else {
                    Step::EntriesToMap
                })
            }
            16 | 17 => Some(self.switch_syntax(u)?),
            20 => {
                // The field's message type replaced by a copy of it (same structure, another
                // name), which later steps may change on its own.
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let Ty::Message(of) = self.messages[m].fields[i].ty else {
                    return Ok(None);
                };
                let mut copy = self.messages[of].clone();
                let id = self.messages.len();
                copy.name = format!("M{id}");
                self.messages.push(copy);
                self.messages[m].fields[i].ty = Ty::Message(id);
                Some(Step::CloneMessage)
            }
            21 => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let Ty::Enum(of) = self.messages[m].fields[i].ty else {
                    return Ok(None);
                };
                let id = self.enums.len();
                let mut copy = self.enums[of].clone();
                copy.name = format!("E{id}");
                for (k, value) in copy.values.iter_mut().enumerate() {
                    value.0 = format!("E{id}_K{k}");
                }
                let f = &mut self.messages[m].fields[i];
                if let Some(default) = &f.default {
                    let at = self.enums[of]
                        .values
                        .iter()
                        .position(|(n, _)| n == default)
                        .unwrap();
                    f.default = Some(copy.values[at].0.clone());
                }
                f.ty = Ty::Enum(id);
                self.enums.push(copy);
                Some(Step::CloneEnum)
            }
            _ => {
                let Some((m, i)) = picked else {
                    return Ok(None);
                };
                let f = &self.messages[m].fields[i];
                if self.syntax != Syntax::Proto2 || !f.defaultable() {
                    return Ok(None);
                }
                let default = if f.default.is_some() && u.arbitrary()? {
                    None
                } else {
                    self.random_default(u, f.ty)?
                };
                self.messages[m].fields[i].default = default;
                Some(Step::Default)
            }
        })
    }

    /// proto2 <-> proto3, made valid on the way: required fields become optional, defaults
    /// go, a proto3 enum gets a zero first value (moved up, or added); proto2 optional fields
    /// become proto3 implicit or optional, proto3 implicit ones proto2 optional.
    fn switch_syntax(&mut self, u: &mut Unstructured) -> Result<Step> {
        Ok(match self.syntax {
            Syntax::Proto2 => {
                self.syntax = Syntax::Proto3;
                for m in 0..self.messages.len() {
                    for i in 0..self.messages[m].fields.len() {
                        let implicit = u.arbitrary::<bool>()?;
                        let f = &mut self.messages[m].fields[i];
                        f.default = None;
                        f.label = match f.label {
                            Label::Required => Label::Optional,
                            Label::Optional if f.oneof.is_none() && implicit => Label::Implicit,
                            other => other,
                        };
                    }
                }
                for e in 0..self.enums.len() {
                    let values = &mut self.enums[e].values;
                    if let Some(at) = values.iter().position(|(_, n)| *n == 0) {
                        let zero = values.remove(at);
                        values.insert(0, zero);
                    } else {
                        let uid = self.uid();
                        self.enums[e].values.insert(0, (format!("E{e}_V{uid}"), 0));
                    }
                }
                Step::ToProto3
            }
            Syntax::Proto3 => {
                self.syntax = Syntax::Proto2;
                for m in &mut self.messages {
                    for f in &mut m.fields {
                        if f.label == Label::Implicit {
                            f.label = Label::Optional;
                        }
                    }
                }
                Step::ToProto2
            }
        })
    }

    /// The schema after up to 4 random steps (steps that would make it invalid are dropped),
    /// with the steps taken.
    pub fn evolve(&self, u: &mut Unstructured) -> Result<(Schema, Vec<Step>)> {
        let mut schema = self.clone();
        let mut steps = vec![];
        for _ in 0..u.int_in_range(0..=4)? {
            let mut next = schema.clone();
            if let Some(step) = next.step(u)? {
                if next.valid() {
                    schema = next;
                    steps.push(step);
                }
            }
        }
        Ok((schema, steps))
    }
}
