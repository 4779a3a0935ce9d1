//! The schemas `evolve` plays with: one file (`evolve.proto`, package `evo`), proto2 or proto3,
//! a root message `evo.M0` with nested and sibling messages, enums, scalar fields of every
//! type, repeated fields (packed or expanded), oneofs, maps (or the same entries as a repeated
//! message), proto2 required fields and defaults, proto3 optional fields. Built from the fuzz
//! input, evolved by random steps, checked for what protoc would refuse ([`Schema::valid`]),
//! and written out as a `FileDescriptorProto` or as `.proto` text (for reports).

use arbitrary::{Result, Unstructured};
use prost_types::field_descriptor_proto::{Label as PbLabel, Type as PbType};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
    FieldOptions, FileDescriptorProto, MessageOptions, OneofDescriptorProto,
};

pub const PACKAGE: &str = "evo";
pub const FILE: &str = "evolve.proto";
pub const ROOT: &str = "evo.M0";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Syntax {
    Proto2,
    Proto3,
}

pub use crate::scalar::{Scalar, SCALARS};

use Scalar as S;

/// The types a map key may have.
pub const KEY_SCALARS: [Scalar; 12] = [
    S::Int32,
    S::Int64,
    S::Uint32,
    S::Uint64,
    S::Sint32,
    S::Sint64,
    S::Fixed32,
    S::Fixed64,
    S::Sfixed32,
    S::Sfixed64,
    S::Bool,
    S::String,
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    Scalar(Scalar),
    /// Index into [`Schema::enums`].
    Enum(usize),
    /// Index into [`Schema::messages`].
    Message(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Label {
    /// proto3 singular without `optional` (implicit presence; messages always have presence).
    Implicit,
    /// proto2 `optional`, proto3 `optional`, or a oneof member.
    Optional,
    /// proto2 only.
    Required,
    Repeated,
}

/// A map field: `map<key, ty>`, or with `as_entries` the same entries declared as
/// `repeated <Field>Entry` with a plain message (same wire format, no map semantics).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MapShape {
    pub key: Scalar,
    pub as_entries: bool,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: std::string::String,
    pub number: i32,
    pub label: Label,
    /// The type, or a map's value type.
    pub ty: Ty,
    pub map: Option<MapShape>,
    /// The uid of a real oneof of the message.
    pub oneof: Option<u32>,
    /// A proto2 `[default = …]`, as written in a descriptor.
    pub default: Option<std::string::String>,
    pub packed: Option<bool>,
}

#[derive(Clone, Debug)]
pub struct Message {
    pub name: std::string::String,
    pub parent: Option<usize>,
    pub fields: Vec<Field>,
    /// Uids of the real oneofs (named `o<uid>`); one without members is not written.
    pub oneofs: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Enum {
    pub name: std::string::String,
    pub parent: Option<usize>,
    pub values: Vec<(std::string::String, i32)>,
}

#[derive(Clone, Debug)]
pub struct Schema {
    pub syntax: Syntax,
    /// `messages[0]` is the root, `evo.M0`.
    pub messages: Vec<Message>,
    pub enums: Vec<Enum>,
    /// Names every new field, oneof and enum value uniquely.
    pub next_uid: u32,
}

fn ints_for(scalar: Scalar) -> &'static [&'static str] {
    match scalar {
        S::Int32 | S::Sint32 | S::Sfixed32 => &["0", "1", "-1", "7", "2147483647", "-2147483648"],
        S::Int64 | S::Sint64 | S::Sfixed64 => &[
            "0",
            "1",
            "-1",
            "7",
            "4294967296",
            "9223372036854775807",
            "-9223372036854775808",
        ],
        S::Uint32 | S::Fixed32 => &["0", "1", "7", "4294967295"],
        S::Uint64 | S::Fixed64 => &["0", "1", "7", "18446744073709551615"],
        S::Double | S::Float => &["0", "-0", "1.5", "0.1", "-2", "inf", "-inf", "nan", "7"],
        S::Bool => &["true", "false"],
        S::String => &["", "abc", "7", "x y"],
        // C-escaped, as in a descriptor.
        S::Bytes => &["", "abc", "\\001\\377", "7"],
    }
}

impl Schema {
    pub fn full_name(&self, mut id: usize) -> std::string::String {
        let mut parts = vec![self.messages[id].name.clone()];
        while let Some(parent) = self.messages[id].parent {
            parts.push(self.messages[parent].name.clone());
            id = parent;
        }
        parts.push(PACKAGE.to_owned());
        parts.reverse();
        parts.join(".")
    }

    pub fn enum_full_name(&self, id: usize) -> std::string::String {
        match self.enums[id].parent {
            Some(parent) => format!("{}.{}", self.full_name(parent), self.enums[id].name),
            None => format!("{PACKAGE}.{}", self.enums[id].name),
        }
    }

    fn uid(&mut self) -> u32 {
        self.next_uid += 1;
        self.next_uid
    }

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

    fn random_number(&self, u: &mut Unstructured, message: usize) -> Result<i32> {
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

    fn random_ty(&self, u: &mut Unstructured) -> Result<Ty> {
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

    fn random_field(&mut self, u: &mut Unstructured, message: usize) -> Result<Field> {
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

    pub fn fdp(&self) -> FileDescriptorProto {
        let mut file = FileDescriptorProto {
            name: Some(FILE.into()),
            package: Some(PACKAGE.into()),
            // protoc leaves `syntax` out for proto2.
            syntax: (self.syntax == Syntax::Proto3).then(|| "proto3".into()),
            ..Default::default()
        };
        for (id, message) in self.messages.iter().enumerate() {
            if message.parent.is_none() {
                file.message_type.push(self.message_proto(id));
            }
        }
        for (id, e) in self.enums.iter().enumerate() {
            if e.parent.is_none() {
                file.enum_type.push(self.enum_proto(id));
            }
        }
        file
    }

    fn enum_proto(&self, id: usize) -> EnumDescriptorProto {
        EnumDescriptorProto {
            name: Some(self.enums[id].name.clone()),
            value: self.enums[id]
                .values
                .iter()
                .map(|(name, number)| EnumValueDescriptorProto {
                    name: Some(name.clone()),
                    number: Some(*number),
                    options: None,
                })
                .collect(),
            ..Default::default()
        }
    }

    fn type_name(&self, ty: Ty) -> (PbType, Option<String>) {
        match ty {
            Ty::Scalar(s) => (s.pb(), None),
            Ty::Enum(id) => (PbType::Enum, Some(format!(".{}", self.enum_full_name(id)))),
            Ty::Message(id) => (PbType::Message, Some(format!(".{}", self.full_name(id)))),
        }
    }

    fn message_proto(&self, id: usize) -> DescriptorProto {
        let message = &self.messages[id];
        let proto3 = self.syntax == Syntax::Proto3;
        let mut out = DescriptorProto {
            name: Some(message.name.clone()),
            ..Default::default()
        };
        let real: Vec<u32> = message
            .oneofs
            .iter()
            .copied()
            .filter(|o| message.fields.iter().any(|f| f.oneof == Some(*o)))
            .collect();
        for o in &real {
            out.oneof_decl.push(OneofDescriptorProto {
                name: Some(format!("o{o}")),
                options: None,
            });
        }
        let mut synthetic = vec![];
        for f in &message.fields {
            let mut p = FieldDescriptorProto {
                name: Some(f.name.clone()),
                number: Some(f.number),
                ..Default::default()
            };
            p.set_label(match f.label {
                Label::Repeated => PbLabel::Repeated,
                Label::Required => PbLabel::Required,
                _ => PbLabel::Optional,
            });
            if let Some(map) = f.map {
                let entry = entry_name(&f.name);
                p.set_type(PbType::Message);
                p.type_name = Some(format!(".{}.{entry}", self.full_name(id)));
                let key = FieldDescriptorProto {
                    name: Some("key".into()),
                    number: Some(1),
                    label: Some(PbLabel::Optional as i32),
                    r#type: Some(map.key.pb() as i32),
                    ..Default::default()
                };
                let (ty, type_name) = self.type_name(f.ty);
                let value = FieldDescriptorProto {
                    name: Some("value".into()),
                    number: Some(2),
                    label: Some(PbLabel::Optional as i32),
                    r#type: Some(ty as i32),
                    type_name,
                    ..Default::default()
                };
                out.nested_type.push(DescriptorProto {
                    name: Some(entry),
                    field: vec![key, value],
                    options: (!map.as_entries).then(|| MessageOptions {
                        map_entry: Some(true),
                        ..Default::default()
                    }),
                    ..Default::default()
                });
            } else {
                let (ty, type_name) = self.type_name(f.ty);
                p.set_type(ty);
                p.type_name = type_name;
            }
            if let Some(o) = f.oneof {
                p.oneof_index = Some(real.iter().position(|r| *r == o).unwrap() as i32);
            } else if proto3 && f.label == Label::Optional {
                p.proto3_optional = Some(true);
                p.oneof_index = Some((real.len() + synthetic.len()) as i32);
                synthetic.push(format!("_{}", f.name));
            }
            p.default_value = f.default.clone();
            if let Some(packed) = f.packed {
                p.options = Some(FieldOptions {
                    packed: Some(packed),
                    ..Default::default()
                });
            }
            out.field.push(p);
        }
        for name in synthetic {
            out.oneof_decl.push(OneofDescriptorProto {
                name: Some(name),
                options: None,
            });
        }
        for (child, m) in self.messages.iter().enumerate() {
            if m.parent == Some(id) {
                out.nested_type.push(self.message_proto(child));
            }
        }
        for (e, en) in self.enums.iter().enumerate() {
            if en.parent == Some(id) {
                out.enum_type.push(self.enum_proto(e));
            }
        }
        out
    }

    /// The schema as a `.proto` file, for reports.
    pub fn proto_text(&self) -> String {
        let mut out = String::new();
        if self.syntax == Syntax::Proto3 {
            out.push_str("syntax = \"proto3\";\n");
        } else {
            out.push_str("syntax = \"proto2\";\n");
        }
        out.push_str(&format!("package {PACKAGE};\n"));
        for (id, m) in self.messages.iter().enumerate() {
            if m.parent.is_none() {
                self.message_text(id, 0, &mut out);
            }
        }
        for (id, e) in self.enums.iter().enumerate() {
            if e.parent.is_none() {
                self.enum_text(id, 0, &mut out);
            }
        }
        out
    }

    fn enum_text(&self, id: usize, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        out.push_str(&format!("{pad}enum {} {{\n", self.enums[id].name));
        for (name, number) in &self.enums[id].values {
            out.push_str(&format!("{pad}  {name} = {number};\n"));
        }
        out.push_str(&format!("{pad}}}\n"));
    }

    fn ty_text(&self, ty: Ty) -> String {
        match ty {
            Ty::Scalar(s) => s.name().to_owned(),
            Ty::Enum(id) => self.enum_full_name(id),
            Ty::Message(id) => self.full_name(id),
        }
    }

    fn field_text(&self, message: usize, f: &Field, pad: &str) -> String {
        let label = match (f.label, f.oneof.is_some()) {
            (_, true) | (Label::Implicit, _) => "",
            (Label::Optional, _) => "optional ",
            (Label::Required, _) => "required ",
            (Label::Repeated, _) if f.map.is_some_and(|m| !m.as_entries) => "",
            (Label::Repeated, _) => "repeated ",
        };
        let ty = match f.map {
            Some(map) if map.as_entries => {
                format!("{}.{}", self.full_name(message), entry_name(&f.name))
            }
            Some(map) => format!("map<{}, {}>", map.key.name(), self.ty_text(f.ty)),
            None => self.ty_text(f.ty),
        };
        let mut options = vec![];
        if let Some(d) = &f.default {
            match f.ty {
                Ty::Scalar(S::String) | Ty::Scalar(S::Bytes) => {
                    options.push(format!("default = \"{d}\""))
                }
                _ => options.push(format!("default = {d}")),
            }
        }
        if let Some(p) = f.packed {
            options.push(format!("packed = {p}"));
        }
        let options = if options.is_empty() {
            String::new()
        } else {
            format!(" [{}]", options.join(", "))
        };
        format!("{pad}{label}{ty} {} = {}{options};\n", f.name, f.number)
    }

    fn message_text(&self, id: usize, depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        let m = &self.messages[id];
        out.push_str(&format!("{pad}message {} {{\n", m.name));
        for f in m.fields.iter().filter(|f| f.oneof.is_none()) {
            out.push_str(&self.field_text(id, f, &format!("{pad}  ")));
            if let Some(map) = f.map.filter(|m| m.as_entries) {
                let value = self.ty_text(f.ty);
                let label = if self.syntax == Syntax::Proto2 {
                    "optional "
                } else {
                    ""
                };
                out.push_str(&format!(
                    "{pad}  message {} {{ {label}{} key = 1; {label}{value} value = 2; }}\n",
                    entry_name(&f.name),
                    map.key.name()
                ));
            }
        }
        for o in &m.oneofs {
            let members: Vec<&Field> = m.fields.iter().filter(|f| f.oneof == Some(*o)).collect();
            if members.is_empty() {
                continue;
            }
            out.push_str(&format!("{pad}  oneof o{o} {{\n"));
            for f in members {
                out.push_str(&self.field_text(id, f, &format!("{pad}    ")));
            }
            out.push_str(&format!("{pad}  }}\n"));
        }
        for (child, c) in self.messages.iter().enumerate() {
            if c.parent == Some(id) {
                self.message_text(child, depth + 1, out);
            }
        }
        for (e, en) in self.enums.iter().enumerate() {
            if en.parent == Some(id) {
                self.enum_text(e, depth + 1, out);
            }
        }
        out.push_str(&format!("{pad}}}\n"));
    }
}

/// The entry message of map field `name`: protoc's `<CamelCase name>Entry`.
pub fn entry_name(field: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in field.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out + "Entry"
}

impl Field {
    pub fn packable(&self) -> bool {
        self.map.is_none()
            && match self.ty {
                Ty::Scalar(s) => s.packable(),
                Ty::Enum(_) => true,
                Ty::Message(_) => false,
            }
    }

    fn defaultable(&self) -> bool {
        matches!(self.label, Label::Optional | Label::Required)
            && self.map.is_none()
            && !matches!(self.ty, Ty::Message(_))
    }

    fn oneof_eligible(&self) -> bool {
        self.oneof.is_none()
            && self.map.is_none()
            && matches!(self.label, Label::Implicit | Label::Optional)
    }
}

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
