//! Once every file is in: each type name resolved to its row, and defaults parsed.

use super::super::defaults::Declared;
use super::super::descriptor_proto::{TYPE_ENUM, TYPE_GROUP, TYPE_MESSAGE};
use super::super::features::{EnumType, MessageEncoding};
use super::super::names::{Names, Scopes, Symbol};
use super::super::tables::{Kind, Model, Str, Type};
use super::{BuildError, Builder, Element};
use crate::error::DecodeError;
use crate::text::bound;

/// What a name waiting for resolution will become.
pub(super) enum Target {
    /// A field's type: the row, and its declared `type` (0 when only `type_name` is set).
    Field { row: u32, declared: i32 },
    /// An extension's type, checked and not kept.
    ExtensionType { declared: i32 },
    /// An extension's extendee or a method's input or output: must name a message.
    MessageName,
}

pub(super) struct Pending<'a> {
    pub(super) target: Target,
    pub(super) name: &'a str,
    /// The full name of the scope the name was written in (a package or a message).
    pub(super) scope: Str,
    pub(super) file: u32,
    /// What the name belongs to, for errors: the declaration's scope and its own name.
    pub(super) owner: Str,
    pub(super) member: &'a str,
}

impl<'a> Builder<'a> {
    /// Resolves every type name, parses defaults, and returns the model.
    pub(crate) fn finish(mut self) -> std::result::Result<Model, DecodeError> {
        let pending = std::mem::take(&mut self.pending);
        let names = self.names()?;
        let (relative, steps) = self.resolve_relative(&pending);
        let mut relative = relative.into_iter();
        let mut resolved: Vec<(u32, Type)> = Vec::new();
        for p in &pending {
            // Full names are looked up whole; relative ones were resolved all together.
            let found = if p.name.starts_with('.') {
                names.full(p.name)
            } else {
                relative.next().flatten()
            };
            let what = |this: &Self, text: String| {
                let element = Element {
                    scope: p.owner,
                    name: p.member,
                };
                match this.refuse(p.file, &element, text) {
                    BuildError::Refused(e) => *e,
                    BuildError::Malformed(d) => DecodeError::invalid(d),
                }
            };
            let Some(symbol) = found else {
                let text = if p.name.is_empty() {
                    "the field has no type name".to_owned()
                } else {
                    format!("'{}' is not defined", bound(p.name, 200))
                };
                return Err(what(&self, text));
            };
            let expected_message = match p.target {
                Target::Field { declared, .. } | Target::ExtensionType { declared } => {
                    match declared {
                        TYPE_MESSAGE | TYPE_GROUP => Some(true),
                        TYPE_ENUM => Some(false),
                        _ => None,
                    }
                }
                Target::MessageName => Some(true),
            };
            let is_message = matches!(symbol, Symbol::Message(_));
            if expected_message.is_some_and(|m| m != is_message) {
                let kind = if is_message { "a message" } else { "an enum" };
                return Err(what(
                    &self,
                    format!(
                        "'{}' is {kind}, which the declared type does not allow",
                        bound(p.name, 200)
                    ),
                ));
            }
            if let Target::Field { row, declared } = p.target {
                let ty = match symbol {
                    Symbol::Enum(e) => Type::Enum(e),
                    Symbol::Message(m) => {
                        let field = &self.model.fields[row as usize];
                        let delimited = declared == TYPE_GROUP
                            || (field.features.message_encoding == MessageEncoding::Delimited
                                && !self.model.messages[m as usize].map_entry
                                && !self.model.messages[field.message as usize].map_entry);
                        if delimited {
                            Type::Group(m)
                        } else {
                            Type::Message(m)
                        }
                    }
                };
                resolved.push((row, ty));
            }
        }
        drop(names);
        let work = &mut self.model.read_work;
        work.resolution_steps = steps;
        work.name_id_blocks = self.ids.blocks();
        work.full_name_bytes = self.full_name_bytes;
        work.declarations = self.tally.declarations() as u64;
        for (row, ty) in resolved {
            let field = &mut self.model.fields[row as usize];
            field.ty = ty;
            field.settle(self.model.messages[field.message as usize].map_entry);
            // Java reads the field as closed while its enum is open.
            if let Type::Enum(e) = ty {
                self.model.beyond_fields |= field.features.java_legacy_closed_enum
                    && self.model.enums[e as usize].features.enum_type != EnumType::Closed;
            }
        }
        self.parse_defaults()?;
        // Tables grown row by row have room to spare, which a cached model would carry.
        self.model.shrink_to_fit();
        Ok(self.model)
    }

    /// What each relative name among `pending` refers to, in their order, resolved together
    /// through the tree of scopes, which only they need (compilers write full names), and the
    /// steps that took.
    fn resolve_relative(&self, pending: &[Pending<'_>]) -> (Vec<Option<Symbol>>, u64) {
        let relative: Vec<(u64, &str)> = pending
            .iter()
            .filter(|p| !p.name.starts_with('.'))
            .map(|p| (Scopes::key(p.scope.start, p.scope.len), p.name))
            .collect();
        if relative.is_empty() {
            return (Vec::new(), 0);
        }
        let model = &self.model;
        let mut scopes = Scopes::new();
        for file in &model.files {
            let package = file.package;
            scopes.package(Scopes::key(package.start, package.len), model.str(package));
        }
        for &(scope, symbol) in &self.declared_in {
            let (full_name, name_at) = match symbol {
                Symbol::Message(m) => {
                    let row = &model.messages[m as usize];
                    (row.full_name, row.name_at)
                }
                Symbol::Enum(e) => {
                    let row = &model.enums[e as usize];
                    (row.full_name, row.name_at)
                }
            };
            let name = &model.str(full_name)[name_at as usize..];
            scopes.declare(
                Scopes::key(scope.start, scope.len),
                Scopes::key(full_name.start, full_name.len),
                name,
                symbol,
            );
        }
        let answers = scopes.resolve(&relative);
        (answers, scopes.steps())
    }

    /// Every message and enum, by full name and by scope; a name declared twice is refused.
    fn names(&self) -> std::result::Result<Names<'_>, DecodeError> {
        let model = &self.model;
        let mut names = Names::new(model.messages.len() + model.enums.len());
        let declared = model
            .messages
            .iter()
            .enumerate()
            .map(|(i, m)| (m.full_name, m.file, Symbol::Message(i as u32)))
            .chain(
                model
                    .enums
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.full_name, e.file, Symbol::Enum(i as u32))),
            );
        for (full_name, file, symbol) in declared {
            let name = model.str(full_name);
            if !names.declare(name, symbol) {
                let error = self.refuse(
                    file,
                    &Element::named(full_name),
                    format!("'{}' is already defined", bound(name, 200)),
                );
                return Err(match error {
                    BuildError::Refused(e) => *e,
                    BuildError::Malformed(d) => DecodeError::invalid(d),
                });
            }
        }
        Ok(names)
    }

    /// Parses every declared default once, now that the types are known: the rules read the
    /// parsed values for every field pair they compare.
    fn parse_defaults(&mut self) -> std::result::Result<(), DecodeError> {
        let mut parsed = Vec::with_capacity(self.model.defaults.len());
        let mut steps = 0u64;
        for (id, row) in self.model.fields.iter().enumerate() {
            let Some(declared) = self.model.defaults.get(row.default as usize) else {
                continue;
            };
            let field = self.model.field(id as u32);
            let kind = field.kind();
            if let Kind::Enum(e) = kind {
                // What finding the value by name takes: one look per halving of the enum.
                steps += u64::from(usize::BITS - e.values().len().leading_zeros());
            }
            match Declared::parse(self.text(declared.text), &kind) {
                Ok(value) => parsed.push((row.default, value)),
                Err(what) => {
                    let message = field.message();
                    let element = Element {
                        scope: self.model.messages[row.message as usize].full_name,
                        name: field.name(),
                    };
                    return Err(match self.refuse(message.file_index(), &element, what) {
                        BuildError::Refused(e) => *e,
                        BuildError::Malformed(d) => DecodeError::invalid(d),
                    });
                }
            }
        }
        for (at, value) in parsed {
            self.model.defaults[at as usize].parsed = Some(value);
        }
        self.model.read_work.default_lookup_steps = steps;
        Ok(())
    }
}
