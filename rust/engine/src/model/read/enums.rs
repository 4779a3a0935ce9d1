//! Enums and their values, sorted by name and by number once.

use super::super::descriptor_proto::{keys, tag};
use super::super::features::{Features, Syntax};
use super::super::names::Symbol;
use super::super::prescan::Kind;
use super::super::tables::{Enum, EnumValue, Span, Str};
use super::super::wire::{Fields, Reader};
use super::{Builder, Context, Element, Result};
use crate::text::bound;

impl<'a> Builder<'a> {
    pub(super) fn enumeration(
        &mut self,
        ctx: Context,
        scope: Str,
        parent: &Features,
        bytes: &'a [u8],
    ) -> Result<()> {
        let mut name = "";
        let mut options: Option<&[u8]> = None;
        let mut visibility = None;
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            match number {
                tag::enums::VISIBILITY => visibility = Some(value.int32()?),
                tag::enums::NAME => {
                    name = value.text()?;
                    self.tally.name(name.len());
                }
                tag::enums::OPTIONS => {
                    let bytes = value.bytes()?;
                    self.tally.skipped(bytes);
                    options = Some(bytes);
                }
                _ => self.tally.unread(Kind::Enum, number, value)?,
            }
        }
        self.tally.declared(scope.len, name.len())?;
        let (full_name, name_at) = self.join(scope, name);
        let element = Element::named(full_name);
        self.identifier(ctx, &element, "an enum", name)?;
        self.visibility(ctx, &element, visibility)?;
        let name_id = self.ids.declare(name);
        let mut features = *parent;
        if let Some(options) = options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                if number == tag::enum_options::FEATURES {
                    features = features.with(&self.features(ctx, &element, value.bytes()?)?);
                }
            }
        }
        let start = self.model.values.len() as u32;
        for field in Fields::new(bytes) {
            let (number, value) = field?;
            if number != tag::enums::VALUE {
                continue;
            }
            let mut value_name = "";
            let mut value_number = 0;
            let mut reader = Reader::new(value.bytes()?);
            while !reader.is_done() {
                match reader.key()? {
                    keys::enum_value::NAME => {
                        value_name = reader.text()?;
                        self.tally.name(value_name.len());
                    }
                    keys::enum_value::NUMBER => value_number = reader.int32()?,
                    keys::enum_value::OPTIONS => {
                        let options = reader.bytes()?;
                        self.tally.skipped(options);
                        for field in Fields::new(options) {
                            let (number, value) = field?;
                            if number == tag::enum_value_options::FEATURES {
                                let set = self.features(ctx, &element, value.bytes()?)?;
                                // Nothing inherits a value's features, so the enum carries
                                // what its values could not have interpreted.
                                features.unrecognized = features.unrecognized.or(set.unrecognized);
                            }
                        }
                    }
                    other => self.tally.unread_key(Kind::EnumValue, other, &mut reader)?,
                }
            }
            let value_name = self.intern_identifier(ctx, &element, "an enum value", value_name)?;
            self.tally
                .declared(full_name.len, value_name.len as usize)?;
            self.model.values.push(EnumValue {
                name: value_name,
                number: value_number,
            });
        }
        let values = Span {
            start,
            len: self.model.values.len() as u32 - start,
        };
        if values.len == 0 {
            return Err(self.refuse(ctx.file, &element, "enums must contain at least one value"));
        }
        // The values sorted by name (which finds a name declared twice) and by number, once:
        // `conservative` compares enums pair by pair, in one pass over each order.
        let model = &mut self.model;
        let name_of = |row: u32| model.str(model.values[row as usize].name);
        let mut by_name: Vec<u32> = values.range().map(|row| row as u32).collect();
        by_name.sort_unstable_by(|&a, &b| name_of(a).cmp(name_of(b)));
        let twice = by_name
            .windows(2)
            .find(|w| name_of(w[0]) == name_of(w[1]))
            .map(|w| name_of(w[0]).to_owned());
        let mut by_number = by_name.clone();
        // Stable: aliases keep their declaration order.
        by_number.sort_by_key(|&row| (model.values[row as usize].number, row));
        model.values_by_name.extend(by_name);
        model.values_by_number.extend(by_number);
        let rows = &self.model.values[values.range()];
        if let Some(twice) = twice {
            return Err(self.refuse(
                ctx.file,
                &Element {
                    scope: full_name,
                    name: &twice,
                },
                format!("enum value '{}' is declared twice", bound(&twice, 100)),
            ));
        }
        if ctx.syntax == Syntax::Proto3 && rows[0].number != 0 {
            return Err(self.refuse(
                ctx.file,
                &element,
                "the first value of a proto3 enum must be zero",
            ));
        }
        self.model.beyond_fields |= features.unrecognized.is_some();
        let id = self.model.enums.len() as u32;
        self.declared_in.push((scope, Symbol::Enum(id)));
        self.model.enum_ids.push(name_id);
        let value_name_bytes: u64 = self.model.values[values.range()]
            .iter()
            .map(|v| u64::from(v.name.len))
            .sum();
        self.model.enums.push(Enum {
            full_name,
            name_at,
            file: ctx.file,
            values,
            features,
            value_name_bytes: u32::try_from(value_name_bytes).unwrap_or(u32::MAX),
        });
        Ok(())
    }
}
