//! A [`Plan`] built into schema data: variant `v` of it, as a descriptor set in the JSON a
//! broker stores. The odd variants change each part as its [`Vary`] says, so that a history
//! alternates and every pair of versions has something to compare.

use prost::Message;
use protocompat_testkit::schema_of_bytes;

use crate::desc::{
    feature, label, DescriptorProto, FeatureSet, FieldDescriptorProto, FieldOptions,
    FileDescriptorProto, FileDescriptorSet, FileOptions, JavaFeatures, OneofDescriptorProto,
};
use crate::plan::{Label, Plan, Scalar, Syntax};

pub const FILE: &str = "order.proto";

/// The schema data of variant `v`: the plan's parts, or tiny.
pub fn version(plan: &Plan, v: usize, tiny: bool) -> Vec<u8> {
    let mut b = Builder::new(plan, v);
    if tiny {
        b.root
            .field
            .push(b.scalar_field("id".into(), 1, Label::Optional, Scalar::Int32));
    } else {
        for (p, part) in plan.parts.iter().enumerate() {
            crate::parts::emit(&mut b, p, part);
        }
    }
    b.finish()
}

pub struct Builder<'p> {
    pub plan: &'p Plan,
    /// Whether this variant changes what the parts' [`Vary`] say (the odd ones).
    pub alt: bool,
    pub package: String,
    pub file: FileDescriptorProto,
    pub root: DescriptorProto,
    /// Other files, imported by the root's.
    pub deps: Vec<FileDescriptorProto>,
    /// The next field of the root, by index (see [`Builder::number`]).
    next: usize,
    /// proto3 `optional` fields of the root, by position, whose synthetic oneofs come last.
    synthetic: Vec<usize>,
}

impl<'p> Builder<'p> {
    fn new(plan: &'p Plan, v: usize) -> Builder<'p> {
        let package = plan.package();
        let (syntax, edition) = match plan.syntax {
            Syntax::Proto2 => ("proto2", None),
            Syntax::Proto3 => ("proto3", None),
            Syntax::Edition2023 => ("editions", Some(1000)),
            Syntax::Edition2024 => ("editions", Some(1001)),
            Syntax::Edition2026 => ("editions", Some(1002)),
        };
        let alt = v % 2 == 1;
        let options = plan.file_features.map(|f| {
            let flip = f.flip && alt;
            FileOptions {
                features: Some(FeatureSet {
                    field_presence: f.presence.map(|p| flipped(p, flip, 1, 2)),
                    enum_type: f.enum_type.map(|p| flipped(p, flip, 1, 2)),
                    repeated_field_encoding: f.repeated.map(|p| flipped(p, flip, 1, 2)),
                    utf8_validation: f.utf8.map(|p| flipped(p, flip, 2, 3)),
                    message_encoding: f.message_encoding.map(|p| flipped(p, flip, 1, 2)),
                    java: (f.java_closed.is_some() || f.java_utf8.is_some()).then(|| {
                        JavaFeatures {
                            legacy_closed_enum: f.java_closed.map(|c| c != flip),
                            utf8_validation: f.java_utf8.map(|p| flipped(p, flip, 1, 2)),
                        }
                    }),
                }),
            }
        });
        let mut file = FileDescriptorProto {
            name: Some(FILE.into()),
            package: Some(package.clone()),
            syntax: Some(syntax.into()),
            edition,
            options,
            ..Default::default()
        };
        // A message named after the variant: every version is a schema of its own.
        file.message_type.push(message(format!("V{v}")));
        Builder {
            plan,
            alt,
            package,
            file,
            root: message("Order".into()),
            deps: Vec::new(),
            next: 0,
            synthetic: Vec::new(),
        }
    }

    pub fn syntax(&self) -> Syntax {
        self.plan.syntax
    }

    /// Reserves `count` field numbers of the root; the number of the `i`th is
    /// [`Builder::number`]`(start + i)`.
    pub fn reserve(&mut self, count: usize) -> usize {
        let start = self.next;
        self.next += count;
        start
    }

    /// The field number of index `i`, stepping over the 19000-19999 protobuf reserves.
    pub fn number(i: usize) -> i32 {
        let n = i + 1;
        (if n >= 19_000 { n + 1_000 } else { n }) as i32
    }

    /// How a field in `scope` (a message's full name without the package, `Order`) names
    /// `name` declared at the top of the package: relative or fully qualified.
    pub fn type_ref(&self, name: &str) -> String {
        if self.plan.relative {
            name.to_owned()
        } else {
            format!(".{}.{name}", self.package)
        }
    }

    /// A field of the root's own part, `label` as the syntax allows it.
    pub fn scalar_field(
        &self,
        name: String,
        number: i32,
        label: Label,
        scalar: Scalar,
    ) -> FieldDescriptorProto {
        let mut f = field(name, number, scalar.code(), None);
        self.apply_label(&mut f, label, Some(scalar));
        f
    }

    /// Sets `label` on `f` the way the syntax spells it.
    pub fn apply_label(&self, f: &mut FieldDescriptorProto, l: Label, scalar: Option<Scalar>) {
        let syntax = self.syntax();
        match l {
            Label::Optional => f.label = Some(label::OPTIONAL),
            Label::Repeated => f.label = Some(label::REPEATED),
            Label::Required => match syntax {
                Syntax::Proto2 => f.label = Some(label::REQUIRED),
                Syntax::Proto3 => f.label = Some(label::OPTIONAL),
                _ => {
                    f.label = Some(label::OPTIONAL);
                    features(f).field_presence = Some(feature::LEGACY_REQUIRED);
                }
            },
            Label::Proto3Optional => {
                f.label = Some(label::OPTIONAL);
                match syntax {
                    Syntax::Proto3 => f.proto3_optional = Some(true),
                    Syntax::Proto2 => {}
                    _ => {
                        // Implicit presence is for scalars only.
                        let presence = if scalar.is_some() {
                            feature::IMPLICIT
                        } else {
                            feature::EXPLICIT
                        };
                        features(f).field_presence = Some(presence);
                    }
                }
            }
        }
    }

    /// Adds a field to the root, its synthetic oneof (proto3 `optional`) noted for later.
    pub fn add(&mut self, f: FieldDescriptorProto) {
        if f.proto3_optional == Some(true) {
            self.synthetic.push(self.root.field.len());
        }
        self.root.field.push(f);
    }

    fn finish(mut self) -> Vec<u8> {
        // Synthetic oneofs follow the real ones, one per proto3 `optional` field.
        for at in std::mem::take(&mut self.synthetic) {
            let index = self.root.oneof_decl.len() as i32;
            let f = &mut self.root.field[at];
            self.root.oneof_decl.push(OneofDescriptorProto {
                name: Some(format!("_{}", f.name.as_deref().unwrap_or(""))),
                options: None,
            });
            f.oneof_index = Some(index);
        }
        let mut file = self.file;
        file.message_type.insert(0, self.root);
        file.dependency = self.deps.iter().filter_map(|d| d.name.clone()).collect();
        let mut files = self.deps;
        files.push(file);
        schema_of_bytes(
            FileDescriptorSet { file: files }.encode_to_vec(),
            &self.plan.root(),
            FILE,
        )
    }
}

/// `value`, or the other of `a` and `b` when `flip`.
fn flipped(value: i32, flip: bool, a: i32, b: i32) -> i32 {
    match (flip, value == a) {
        (false, _) => value,
        (true, true) => b,
        (true, false) => a,
    }
}

pub fn message(name: String) -> DescriptorProto {
    DescriptorProto {
        name: Some(name),
        ..Default::default()
    }
}

pub fn field(
    name: String,
    number: i32,
    ty: i32,
    type_name: Option<String>,
) -> FieldDescriptorProto {
    FieldDescriptorProto {
        name: Some(name),
        number: Some(number),
        label: Some(label::OPTIONAL),
        r#type: Some(ty),
        type_name,
        ..Default::default()
    }
}

/// The features of a field, made if it has none yet.
pub fn features(f: &mut FieldDescriptorProto) -> &mut FeatureSet {
    f.options
        .get_or_insert_with(FieldOptions::default)
        .features
        .get_or_insert_with(FeatureSet::default)
}
