//! A message: its name and options, its oneofs, its fields sorted by number, and the
//! declarations nested in it.

use super::super::descriptor_proto::{keys, tag};
use super::super::features::Features;
use super::super::names::Symbol;
use super::super::prescan::Kind;
use super::super::tables::{Message, Oneof, Span, Str, NONE};
use super::super::tally::Tally;
use super::super::wire::{Fields, Reader};
use super::{Builder, Context, Element, Result};
use crate::text::bound;

impl<'a> Builder<'a> {
    /// Reads a `DescriptorProto` declared in `scope`; returns its row.
    ///
    /// Its bytes are read once: the name and options are taken at once, every declaration
    /// inside is set aside on [`Builder::children`] and read afterwards, oneofs first (fields
    /// refer to them), then fields, then nested messages, enums and extensions.
    pub(super) fn message(
        &mut self,
        ctx: Context,
        scope: Str,
        parent: &Features,
        bytes: &'a [u8],
    ) -> Result<u32> {
        self.tally.enter()?;
        let mark = self.children.len();
        let mut name = "";
        let mut options: Option<&[u8]> = None;
        let mut extension_ranges = false;
        let mut visibility = None;
        let mut reader = Reader::new(bytes);
        while !reader.is_done() {
            match reader.key()? {
                keys::message::NAME => {
                    name = reader.text()?;
                    self.tally.name(name.len());
                }
                keys::message::OPTIONS => {
                    let bytes = reader.bytes()?;
                    self.tally.skipped(bytes);
                    options = Some(bytes);
                }
                key @ (keys::message::FIELD
                | keys::message::ONEOF_DECL
                | keys::message::NESTED_TYPE
                | keys::message::ENUM_TYPE
                | keys::message::EXTENSION) => self.children.push((key >> 3, reader.bytes()?)),
                other if other >> 3 == tag::message::VISIBILITY => {
                    visibility = Some(reader.value(other)?.int32()?)
                }
                other => {
                    self.tally.unread_key(Kind::Message, other, &mut reader)?;
                    extension_ranges |= other >> 3 == tag::message::EXTENSION_RANGE;
                }
            }
        }
        self.tally.declared(scope.len, name.len())?;
        let children = mark..self.children.len();
        let (full_name, name_at) = self.join(scope, name);
        let id = self.model.messages.len() as u32;
        let element = Element::named(full_name);
        self.identifier(ctx, &element, "a message", name)?;
        self.visibility(ctx, &element, visibility)?;
        let name_id = self.ids.declare(name);
        let mut features = *parent;
        let mut map_entry = false;
        let mut message_set = false;
        if let Some(options) = options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                match number {
                    tag::message_options::MAP_ENTRY => map_entry = value.bool()?,
                    tag::message_options::MESSAGE_SET_WIRE_FORMAT => message_set = value.bool()?,
                    tag::message_options::FEATURES => {
                        features = features.with(&self.features(ctx, &element, value.bytes()?)?)
                    }
                    _ => {}
                }
            }
        }
        let oneofs = Span {
            start: self.model.oneofs.len() as u32,
            len: 0,
        };
        let oneof_features = self.oneof_features.len();
        for child in children.clone() {
            let (number, bytes) = self.children[child];
            if number != tag::message::ONEOF_DECL {
                continue;
            }
            let (oneof_name, oneof_options) = oneof(&mut self.tally, bytes)?;
            self.tally.declared(full_name.len, oneof_name.len())?;
            let oneof_name = self.intern_identifier(ctx, &element, "a oneof", oneof_name)?;
            let mut own = features;
            if let Some(options) = oneof_options {
                for field in Fields::new(options) {
                    let (number, value) = field?;
                    if number == tag::oneof_options::FEATURES {
                        own = own.with(&self.features(ctx, &element, value.bytes()?)?);
                    }
                }
            }
            self.oneof_features.push(own);
            self.model.oneofs.push(Oneof {
                name: oneof_name,
                synthetic: true,
            });
        }
        let oneofs = Span {
            len: self.model.oneofs.len() as u32 - oneofs.start,
            ..oneofs
        };
        self.model.beyond_fields |=
            extension_ranges || message_set || features.unrecognized.is_some();
        self.declared_in.push((scope, Symbol::Message(id)));
        self.model.message_ids.push(name_id);
        self.model.messages.push(Message {
            full_name,
            name_at,
            file: ctx.file,
            fields: Span::default(),
            sorted: 0,
            oneofs,
            map_entry,
            extension_ranges,
            message_set,
            features,
            text_bytes: 0,
        });

        let field_start = self.model.fields.len() as u32;
        for child in children.clone() {
            let (number, bytes) = self.children[child];
            if number == tag::message::FIELD {
                self.field(ctx, id, &features, oneof_features, bytes)?;
            }
        }
        self.oneof_features.truncate(oneof_features);
        let field_count = self.model.fields.len() as u32 - field_start;
        let model = &mut self.model;
        let text_bytes: u64 = model.fields[field_start as usize..]
            .iter()
            .map(|f| {
                let default = model.defaults.get(f.default as usize);
                u64::from(f.name.len) + default.map_or(0, |d| u64::from(d.text.len))
            })
            .sum();
        let row = &mut model.messages[id as usize];
        row.fields = Span {
            start: field_start,
            len: field_count,
        };
        row.text_bytes = u32::try_from(text_bytes).unwrap_or(u32::MAX);
        self.sort_fields(ctx, id)?;
        self.mark_real_oneofs(id);

        self.ids.enter(name_id);
        for child in children {
            let (number, bytes) = self.children[child];
            match number {
                tag::message::NESTED_TYPE => {
                    self.message(ctx, full_name, &features, bytes)?;
                }
                tag::message::ENUM_TYPE => self.enumeration(ctx, full_name, &features, bytes)?,
                tag::message::EXTENSION => self.extension(ctx, full_name, bytes)?,
                _ => {}
            }
        }
        self.ids.leave();
        self.children.truncate(mark);
        self.tally.leave();
        Ok(id)
    }

    /// Fills in the message's field indices sorted by number, refusing a number or a name
    /// used twice. Fields are usually declared in number order, and names are interned, so
    /// neither check compares text.
    fn sort_fields(&mut self, ctx: Context, message: u32) -> Result<()> {
        let model = &mut self.model;
        let fields = model.messages[message as usize].fields;
        let sorted = model.by_number.len();
        model.by_number.extend(fields.range().map(|f| f as u32));
        let rows = &model.fields;
        let by_number = &mut model.by_number[sorted..];
        if !by_number
            .windows(2)
            .all(|w| rows[w[0] as usize].number < rows[w[1] as usize].number)
        {
            by_number.sort_unstable_by_key(|&f| (rows[f as usize].number, f));
        }
        let twice_number = by_number
            .windows(2)
            .find(|w| rows[w[0] as usize].number == rows[w[1] as usize].number)
            .map(|w| (w[0], w[1]));
        model.messages[message as usize].sorted = sorted as u32;

        self.names.clear();
        self.names.extend(
            fields
                .range()
                .map(|f| (self.model.fields[f].name.start, f as u32)),
        );
        self.names.sort_unstable();
        let twice_name = self
            .names
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| w[1].1);

        let owner = self.model.messages[message as usize].full_name;
        if let Some((first, second)) = twice_number {
            let first = self.text(self.model.fields[first as usize].name).to_owned();
            let second_row = &self.model.fields[second as usize];
            let second = self.text(second_row.name).to_owned();
            return Err(self.refuse(
                ctx.file,
                &Element {
                    scope: owner,
                    name: &second,
                },
                format!(
                    "field number '{}' is used by both '{}' and '{}'",
                    second_row.number,
                    bound(&first, 100),
                    bound(&second, 100)
                ),
            ));
        }
        if let Some(second) = twice_name {
            let second = self
                .text(self.model.fields[second as usize].name)
                .to_owned();
            return Err(self.refuse(
                ctx.file,
                &Element {
                    scope: owner,
                    name: &second,
                },
                format!("field name '{}' is declared twice", bound(&second, 100)),
            ));
        }
        Ok(())
    }

    /// A oneof is synthetic (protoc's wrapper of a proto3 `optional` field) when all its
    /// fields are proto3 optional.
    fn mark_real_oneofs(&mut self, message: u32) {
        let row = &self.model.messages[message as usize];
        let (fields, oneofs) = (row.fields, row.oneofs);
        for f in fields.range() {
            let field = &self.model.fields[f];
            if field.oneof != NONE && !field.proto3_optional {
                self.model.oneofs[field.oneof as usize].synthetic = false;
            }
        }
        let _ = oneofs;
    }
}

/// A oneof's name and options.
fn oneof<'b>(tally: &mut Tally, bytes: &'b [u8]) -> Result<(&'b str, Option<&'b [u8]>)> {
    let mut name = "";
    let mut options = None;
    for field in Fields::new(bytes) {
        let (number, value) = field?;
        match number {
            tag::oneof::NAME => {
                name = value.text()?;
                tally.name(name.len());
            }
            tag::oneof::OPTIONS => {
                let bytes = value.bytes()?;
                tally.skipped(bytes);
                options = Some(bytes);
            }
            _ => tally.unread(Kind::Oneof, number, value)?,
        }
    }
    Ok((name, options))
}
