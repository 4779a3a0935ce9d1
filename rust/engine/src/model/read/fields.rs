//! Fields and extensions, and what each syntax forbids of them.

use super::super::defaults::DefaultRow;
use super::super::descriptor_proto::{keys, tag, TYPE_ENUM, TYPE_GROUP, TYPE_MESSAGE};
use super::super::features::{
    Features, FieldPresence, MessageEncoding, RepeatedFieldEncoding, Syntax,
};
use super::super::prescan::Kind;
use super::super::tables::{Cardinality, Field, Label, Scalar, Str, Type, NONE};
use super::super::tally::Tally;
use super::super::wire::{Fields, Reader};
use super::resolve::{Pending, Target};
use super::{BuildError, Builder, Context, Element, Result};

/// The largest field number protobuf allows, and the range it keeps for itself.
const MAX_FIELD_NUMBER: i64 = 536_870_911;
const RESERVED_NUMBERS: std::ops::RangeInclusive<i64> = 19_000..=19_999;

impl<'a> Builder<'a> {
    /// Reads a field of `message`.
    #[inline(always)]
    pub(super) fn field(
        &mut self,
        ctx: Context,
        message: u32,
        features: &Features,
        oneof_features: usize,
        bytes: &'a [u8],
    ) -> Result<()> {
        let raw = RawField::read(bytes, &mut self.tally)?;
        let oneof_count = self.oneof_features.len() - oneof_features;
        let owner = self.model.messages[message as usize].full_name;
        let element = Element {
            scope: owner,
            name: raw.name,
        };
        let name = self.intern_identifier(ctx, &element, "a field", raw.name)?;
        self.tally.declared(owner.len, raw.name.len())?;
        let number = self.field_number(ctx, &element, raw.number)?;
        let label = self.label(ctx, &element, raw.label)?;
        let oneof = match raw.oneof_index {
            None => NONE,
            Some(i) if (i as usize) < oneof_count => {
                self.model.messages[message as usize].oneofs.start + i as u32
            }
            Some(i) => {
                return Err(self.refuse(
                    ctx.file,
                    &element,
                    format!("oneof index {i} is out of range"),
                ))
            }
        };
        let mut own = match raw.oneof_index {
            Some(i) => self.oneof_features[oneof_features + i as usize],
            None => *features,
        };
        let mut packed: Option<bool> = None;
        if let Some(options) = raw.options {
            for field in Fields::new(options) {
                let (number, value) = field?;
                match number {
                    tag::field_options::PACKED => packed = Some(value.bool()?),
                    tag::field_options::FEATURES => {
                        own = own.with(&self.features(ctx, &element, value.bytes()?)?)
                    }
                    _ => {}
                }
            }
        }
        self.syntax_rules(ctx, &element, &raw, label, packed)?;
        // proto2 and proto3 expressed as features, as protobuf's legacy features do.
        if !ctx.syntax.is_edition() {
            if label == Label::Required {
                own.field_presence = FieldPresence::LegacyRequired;
            }
            if raw.proto3_optional {
                own.field_presence = FieldPresence::Explicit;
            }
            if raw.declared == TYPE_GROUP {
                own.message_encoding = MessageEncoding::Delimited;
            }
            if let Some(packed) = packed {
                own.repeated_field_encoding = if packed {
                    RepeatedFieldEncoding::Packed
                } else {
                    RepeatedFieldEncoding::Expanded
                };
            }
        }
        let ty = self.declared_type(ctx, &element, &raw)?;
        let row = self.model.fields.len() as u32;
        let default = match raw.default {
            Some(text) => {
                let text = self.push(text);
                self.model.defaults.push(DefaultRow { text, parsed: None });
                self.model.defaults.len() as u32 - 1
            }
            None => NONE,
        };
        if !matches!(ty, Type::Scalar(_)) || raw.declared == 0 {
            self.pending.push(Pending {
                target: Target::Field {
                    row,
                    declared: raw.declared,
                },
                name: raw.type_name.unwrap_or(""),
                scope: owner,
                file: ctx.file,
                owner,
                member: raw.name,
            });
        }
        let mut row = Field {
            name,
            number,
            message,
            label,
            ty,
            oneof,
            default,
            proto3_optional: raw.proto3_optional,
            features: own,
            cardinality: Cardinality::Optional,
            packed: false,
            validates_utf8: false,
        };
        row.settle(self.model.messages[message as usize].map_entry);
        self.model.beyond_fields |= row.features.unrecognized.is_some();
        self.model.fields.push(row);
        Ok(())
    }

    #[inline(always)]
    fn field_number(
        &self,
        ctx: Context,
        element: &Element<'_>,
        number: Option<i32>,
    ) -> Result<u32> {
        let number = i64::from(number.unwrap_or(0));
        if !(1..=MAX_FIELD_NUMBER).contains(&number) || RESERVED_NUMBERS.contains(&number) {
            let why = if RESERVED_NUMBERS.contains(&number) {
                " (19000 to 19999 are reserved for protobuf)"
            } else {
                ""
            };
            return Err(self.refuse(
                ctx.file,
                element,
                format!("invalid field number '{number}'{why}"),
            ));
        }
        Ok(number as u32)
    }

    #[inline(always)]
    fn label(&self, ctx: Context, element: &Element<'_>, label: Option<i32>) -> Result<Label> {
        match label {
            None | Some(1) => Ok(Label::Optional),
            Some(2) => Ok(Label::Required),
            Some(3) => Ok(Label::Repeated),
            Some(other) => Err(self.refuse(ctx.file, element, format!("unknown label {other}"))),
        }
    }

    /// What each syntax forbids of a field, as protobuf refuses it.
    fn syntax_rules(
        &self,
        ctx: Context,
        element: &Element<'_>,
        raw: &RawField<'_>,
        label: Label,
        packed: Option<bool>,
    ) -> Result<()> {
        let refuse = |what: &str| Err(self.refuse(ctx.file, element, what));
        match ctx.syntax {
            Syntax::Proto3 if label == Label::Required => {
                refuse("required fields are not allowed in proto3")
            }
            Syntax::Proto3 if raw.declared == TYPE_GROUP => {
                refuse("groups are not allowed in proto3")
            }
            Syntax::Proto3 if raw.default.is_some() => {
                refuse("explicit default values are not allowed in proto3")
            }
            _ if ctx.syntax.is_edition() && label == Label::Required => refuse(
                "the required label is not allowed under Editions; \
                 use features.field_presence = LEGACY_REQUIRED",
            ),
            _ if ctx.syntax.is_edition() && packed.is_some() => refuse(
                "the packed option is not allowed under Editions; \
                 use features.repeated_field_encoding",
            ),
            _ if raw.proto3_optional && ctx.syntax != Syntax::Proto3 => {
                refuse("proto3_optional is set outside proto3")
            }
            _ if raw.default.is_some() && label == Label::Repeated => {
                refuse("repeated fields cannot have default values")
            }
            _ => Ok(()),
        }
    }

    /// The stored type before resolution: a scalar, or a placeholder row.
    #[inline(always)]
    fn declared_type(
        &self,
        ctx: Context,
        element: &Element<'_>,
        raw: &RawField<'_>,
    ) -> Result<Type> {
        match raw.declared {
            TYPE_GROUP => Ok(Type::Group(NONE)),
            TYPE_MESSAGE => Ok(Type::Message(NONE)),
            TYPE_ENUM => Ok(Type::Enum(NONE)),
            0 if raw.type_name.is_some() => Ok(Type::Message(NONE)),
            0 => Err(self.refuse(ctx.file, element, "the field has no type")),
            n => match Scalar::from_type(n) {
                Some(scalar) if raw.type_name.is_none() => Ok(Type::Scalar(scalar)),
                Some(scalar) => Err(self.refuse(
                    ctx.file,
                    element,
                    format!("a {} field has a type name", scalar.name()),
                )),
                None => Err(self.refuse(ctx.file, element, format!("unknown field type {n}"))),
            },
        }
    }

    /// An extension: its number, type and extendee are checked; nothing of it is kept, since
    /// no rule reads extensions.
    pub(super) fn extension(&mut self, ctx: Context, scope: Str, bytes: &'a [u8]) -> Result<()> {
        let raw = RawField::read(bytes, &mut self.tally)?;
        self.tally.declared(scope.len, raw.name.len())?;
        self.tally.extension();
        let element = Element {
            scope,
            name: raw.name,
        };
        self.identifier(ctx, &element, "an extension", raw.name)?;
        self.field_number(ctx, &element, raw.number)?;
        self.label(ctx, &element, raw.label)?;
        self.declared_type(ctx, &element, &raw)?;
        let Some(extendee) = raw.extendee else {
            return Err(self.refuse(ctx.file, &element, "an extension has no extendee"));
        };
        let pending = |target, name| Pending {
            target,
            name,
            scope,
            file: ctx.file,
            owner: scope,
            member: raw.name,
        };
        self.pending.push(pending(Target::MessageName, extendee));
        if let Some(type_name) = raw.type_name {
            self.pending.push(pending(
                Target::ExtensionType {
                    declared: raw.declared,
                },
                type_name,
            ));
        }
        Ok(())
    }
}

/// A `FieldDescriptorProto` as read, before any check.
struct RawField<'a> {
    name: &'a str,
    number: Option<i32>,
    label: Option<i32>,
    declared: i32,
    type_name: Option<&'a str>,
    extendee: Option<&'a str>,
    default: Option<&'a str>,
    options: Option<&'a [u8]>,
    oneof_index: Option<i32>,
    proto3_optional: bool,
}

impl<'a> RawField<'a> {
    // Inlined, so that the fields read stay in registers: returned through memory, the
    // struct's small parts were stored piecewise and loaded whole, which stalls every field.
    #[inline(always)]
    fn read(bytes: &'a [u8], tally: &mut Tally) -> Result<RawField<'a>> {
        let mut raw = RawField {
            name: "",
            number: None,
            label: None,
            declared: 0,
            type_name: None,
            extendee: None,
            default: None,
            options: None,
            oneof_index: None,
            proto3_optional: false,
        };
        let mut reader = Reader::new(bytes);
        // protoc, protox and protobuf-java write a field's parts in tag order, and most fields
        // have a name, number, label and type: those are tried in that order first, tests the
        // branch predictor learns, where a `match` of every key is a jump it mispredicts.
        // Whatever follows, or comes in another order, goes through the `match`.
        let mut key = reader.next_key()?;
        if key == Some(keys::field::NAME) {
            raw.name = reader.text()?;
            tally.name(raw.name.len());
            key = reader.next_key()?;
        }
        if key == Some(keys::field::NUMBER) {
            raw.number = Some(reader.int32()?);
            key = reader.next_key()?;
        }
        if key == Some(keys::field::LABEL) {
            raw.label = Some(reader.int32()?);
            key = reader.next_key()?;
        }
        if key == Some(keys::field::TYPE) {
            raw.declared = reader.int32()?;
            key = reader.next_key()?;
        }
        while let Some(current) = key {
            match current {
                keys::field::NAME => {
                    raw.name = reader.text()?;
                    tally.name(raw.name.len());
                }
                keys::field::EXTENDEE => {
                    let extendee = reader.text()?;
                    tally.name(extendee.len());
                    raw.extendee = Some(extendee);
                }
                keys::field::NUMBER => raw.number = Some(reader.int32()?),
                keys::field::LABEL => raw.label = Some(reader.int32()?),
                keys::field::TYPE => raw.declared = reader.int32()?,
                keys::field::TYPE_NAME => {
                    let type_name = reader.text()?;
                    tally.name(type_name.len());
                    raw.type_name = Some(type_name);
                }
                keys::field::DEFAULT_VALUE => raw.default = Some(reader.text()?),
                keys::field::OPTIONS => {
                    let options = reader.bytes()?;
                    tally.skipped(options);
                    raw.options = Some(options);
                }
                // Not kept, but read here: protoc writes one for every field.
                keys::field::JSON_NAME => tally.name(reader.bytes()?.len()),
                keys::field::ONEOF_INDEX => {
                    let index = reader.int32()?;
                    if index < 0 {
                        return Err(BuildError::Malformed("a oneof index is negative"));
                    }
                    raw.oneof_index = Some(index)
                }
                keys::field::PROTO3_OPTIONAL => raw.proto3_optional = reader.bool()?,
                other => tally.unread_key(Kind::Field, other, &mut reader)?,
            }
            key = reader.next_key()?;
        }
        Ok(raw)
    }
}
