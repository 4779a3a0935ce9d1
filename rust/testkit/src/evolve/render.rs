//! A schema written out: as a `FileDescriptorProto`, or as `.proto` text for reports.

use prost_types::field_descriptor_proto::{Label as PbLabel, Type as PbType};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, EnumValueDescriptorProto, FieldDescriptorProto,
    FieldOptions, FileDescriptorProto, MessageOptions, OneofDescriptorProto,
};

use super::{entry_name, Field, Label, Schema, Syntax, Ty, FILE, PACKAGE, S};

impl Schema {
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
