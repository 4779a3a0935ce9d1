//! A random schema drawn from the fuzz input, and what protoc would refuse of one.

use arbitrary::{Result, Unstructured};

use super::{
    ints_for, Enum, Field, Label, MapShape, Message, Schema, Syntax, Ty, KEY_SCALARS, SCALARS,
};

impl Schema {
    pub fn generate(u: &mut Unstructured) -> Result<Schema> {
        let syntax = if u.arbitrary()? {
            Syntax::Proto3
        } else {
            Syntax::Proto2
        };
        let mut schema = Schema {
            syntax,
            messages: vec![Message {
                name: "M0".into(),
                parent: None,
                fields: vec![],
                oneofs: vec![],
            }],
            enums: vec![],
            next_uid: 0,
        };
        for id in 1..=u.int_in_range(0..=3)? {
            let parent = if u.arbitrary()? {
                Some(u.int_in_range(0..=id - 1)?)
            } else {
                None
            };
            schema.messages.push(Message {
                name: format!("M{id}"),
                parent,
                fields: vec![],
                oneofs: vec![],
            });
        }
        for id in 0..u.int_in_range(0..=2)? {
            let parent = if u.arbitrary()? {
                Some(u.choose_index(schema.messages.len())?)
            } else {
                None
            };
            let mut values = vec![];
            let mut next = if syntax == Syntax::Proto3 {
                0
            } else {
                u.int_in_range(-1..=2)?
            };
            for k in 0..u.int_in_range(1..=4)? {
                values.push((format!("E{id}_K{k}"), next));
                next += u.int_in_range(1..=3)?;
            }
            schema.enums.push(Enum {
                name: format!("E{id}"),
                parent,
                values,
            });
        }
        for id in 0..schema.messages.len() {
            let count = if id == 0 {
                u.int_in_range(1..=8)?
            } else {
                u.int_in_range(0..=4)?
            };
            for _ in 0..count {
                let field = schema.random_field(u, id)?;
                schema.messages[id].fields.push(field);
            }
            if u.arbitrary()? {
                let uid = schema.uid();
                schema.messages[id].oneofs.push(uid);
                let message = &mut schema.messages[id];
                for field in message.fields.iter_mut() {
                    if field.oneof_eligible() && u.arbitrary()? {
                        field.oneof = Some(uid);
                        field.label = Label::Optional;
                    }
                }
            }
        }
        // Whatever the input chose, the schema must be one protoc would build (fields
        // generated above always are; the oneof pass may have moved a defaulted field, which
        // proto2 allows).
        if !schema.valid() {
            return Err(arbitrary::Error::IncorrectFormat);
        }
        Ok(schema)
    }

    pub(super) fn random_number(&self, u: &mut Unstructured, message: usize) -> Result<i32> {
        let used = |n: i32| self.messages[message].fields.iter().any(|f| f.number == n);
        for _ in 0..8 {
            let n = match u.int_in_range(0..=15)? {
                0 => *u.choose(&[536_870_911, 18_999, 20_000, 1000, 16, 2047])?,
                _ => u.int_in_range(1..=20)?,
            };
            if !used(n) {
                return Ok(n);
            }
        }
        Ok((21..).find(|n| !used(*n)).unwrap())
    }

    pub(super) fn random_ty(&self, u: &mut Unstructured) -> Result<Ty> {
        Ok(match u.int_in_range(0..=9)? {
            0..=6 => Ty::Scalar(*u.choose(&SCALARS)?),
            7 | 8 if !self.enums.is_empty() => Ty::Enum(u.choose_index(self.enums.len())?),
            _ => Ty::Message(u.choose_index(self.messages.len())?),
        })
    }

    pub fn random_default(&self, u: &mut Unstructured, ty: Ty) -> Result<Option<String>> {
        Ok(match ty {
            Ty::Scalar(scalar) => Some((*u.choose(ints_for(scalar))?).to_owned()),
            Ty::Enum(id) => Some(u.choose(&self.enums[id].values)?.0.clone()),
            Ty::Message(_) => None,
        })
    }

    pub(super) fn random_field(&mut self, u: &mut Unstructured, message: usize) -> Result<Field> {
        let number = self.random_number(u, message)?;
        let name = format!("f{}", self.uid());
        let ty = self.random_ty(u)?;
        let mut field = Field {
            name,
            number,
            label: Label::Optional,
            ty,
            map: None,
            oneof: None,
            default: None,
            packed: None,
        };
        match u.int_in_range(0..=9)? {
            0..=3 => {
                field.label = match self.syntax {
                    Syntax::Proto3 => Label::Implicit,
                    Syntax::Proto2 => Label::Optional,
                }
            }
            4 | 5 => field.label = Label::Optional,
            6 if self.syntax == Syntax::Proto2 && !matches!(ty, Ty::Message(_)) => {
                field.label = Label::Required
            }
            7 => {
                field.label = Label::Repeated;
                field.map = Some(MapShape {
                    key: *u.choose(&KEY_SCALARS)?,
                    as_entries: u.ratio(1, 3)?,
                });
            }
            _ => {
                field.label = Label::Repeated;
                if field.packable() {
                    field.packed = *u.choose(&[None, Some(true), Some(false)])?;
                }
            }
        }
        if self.syntax == Syntax::Proto2 && field.defaultable() && u.ratio(1, 3)? {
            field.default = self.random_default(u, ty)?;
        }
        Ok(field)
    }

    /// What protoc (and protobuf-java's descriptor builder) would refuse, for the shapes made
    /// here. A schema failing this is never checked.
    pub fn valid(&self) -> bool {
        let proto3 = self.syntax == Syntax::Proto3;
        for e in &self.enums {
            if e.values.is_empty() || (proto3 && e.values[0].1 != 0) {
                return false;
            }
            for (i, (name, number)) in e.values.iter().enumerate() {
                if e.values[..i].iter().any(|(n, v)| n == name || v == number) {
                    return false;
                }
            }
        }
        for message in &self.messages {
            for (i, f) in message.fields.iter().enumerate() {
                if !(1..=536_870_911).contains(&f.number) || (19_000..=19_999).contains(&f.number) {
                    return false;
                }
                if message.fields[..i]
                    .iter()
                    .any(|g| g.number == f.number || g.name == f.name)
                {
                    return false;
                }
                match f.label {
                    Label::Implicit if !proto3 => return false,
                    Label::Required if proto3 || matches!(f.ty, Ty::Message(_)) => return false,
                    _ => {}
                }
                if let Some(map) = f.map {
                    if f.label != Label::Repeated
                        || !KEY_SCALARS.contains(&map.key)
                        || f.packed.is_some()
                        || f.default.is_some()
                    {
                        return false;
                    }
                }
                if f.packed.is_some() && (f.label != Label::Repeated || !f.packable()) {
                    return false;
                }
                if let Some(oneof) = f.oneof {
                    if f.label != Label::Optional
                        || f.map.is_some()
                        || !message.oneofs.contains(&oneof)
                    {
                        return false;
                    }
                }
                if let Some(default) = &f.default {
                    if proto3 || !f.defaultable() {
                        return false;
                    }
                    if let Ty::Enum(id) = f.ty {
                        if !self.enums[id].values.iter().any(|(n, _)| n == default) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }
}
