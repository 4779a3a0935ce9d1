//! The compact model: one schema's declarations in flat tables, referring to each other by
//! index, their names in one text arena. Built by `read`, read through the views at the end
//! of this file ([`MessageRef`], [`FieldRef`], [`EnumRef`], [`FileRef`]).

use std::fmt;

use super::defaults::DefaultRow;
use super::features::{
    EnumType, Features, FieldPresence, JavaUtf8Validation, MessageEncoding, RepeatedFieldEncoding,
    Syntax, Utf8Validation,
};
use super::name_id::NameId;
use crate::budget::ReadWork;

/// A piece of [`Model::text`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Str {
    pub start: u32,
    pub len: u32,
}

/// A run of consecutive rows of a table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// No row: an unset oneof, a type not resolved yet.
pub(crate) const NONE: u32 = u32::MAX;

/// The 15 scalar value types, as `FieldDescriptorProto.Type` numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    Double = 1,
    Float = 2,
    Int64 = 3,
    Uint64 = 4,
    Int32 = 5,
    Fixed64 = 6,
    Fixed32 = 7,
    Bool = 8,
    String = 9,
    Bytes = 12,
    Uint32 = 13,
    Sfixed32 = 15,
    Sfixed64 = 16,
    Sint32 = 17,
    Sint64 = 18,
}

impl Scalar {
    pub(crate) fn from_type(number: i32) -> Option<Scalar> {
        use Scalar::*;
        Some(match number {
            1 => Double,
            2 => Float,
            3 => Int64,
            4 => Uint64,
            5 => Int32,
            6 => Fixed64,
            7 => Fixed32,
            8 => Bool,
            9 => String,
            12 => Bytes,
            13 => Uint32,
            15 => Sfixed32,
            16 => Sfixed64,
            17 => Sint32,
            18 => Sint64,
            _ => return None,
        })
    }

    /// The type's name in a `.proto` file.
    pub fn name(self) -> &'static str {
        use Scalar::*;
        match self {
            Double => "double",
            Float => "float",
            Int64 => "int64",
            Uint64 => "uint64",
            Int32 => "int32",
            Fixed64 => "fixed64",
            Fixed32 => "fixed32",
            Bool => "bool",
            String => "string",
            Bytes => "bytes",
            Uint32 => "uint32",
            Sfixed32 => "sfixed32",
            Sfixed64 => "sfixed64",
            Sint32 => "sint32",
            Sint64 => "sint64",
        }
    }

    /// Every scalar but string and bytes can be packed.
    pub fn is_packable(self) -> bool {
        !matches!(self, Scalar::String | Scalar::Bytes)
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A field's type as stored: a scalar, or the row of its enum or message. A 32-bit tag keeps
/// it two aligned words, copied whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Type {
    Scalar(Scalar),
    Enum(u32),
    Message(u32),
    /// A message encoded delimited: a proto2 group, or `message_encoding = DELIMITED`.
    Group(u32),
}

/// `FieldDescriptorProto.Label` as declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Label {
    Optional,
    Required,
    Repeated,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cardinality {
    Optional,
    Required,
    Repeated,
}

#[derive(Debug, PartialEq)]
pub(crate) struct File {
    pub name: Str,
    pub package: Str,
    pub syntax: Syntax,
}

#[derive(Debug, PartialEq)]
pub(crate) struct Message {
    pub full_name: Str,
    /// Where the message's own name starts in its full name.
    pub name_at: u32,
    pub file: u32,
    pub fields: Span,
    /// Into [`Model::by_number`]: this message's fields, sorted.
    pub sorted: u32,
    pub oneofs: Span,
    pub map_entry: bool,
    /// Declares `extensions …` ranges: what extensions carry cannot be compared field by field.
    pub extension_ranges: bool,
    /// `option message_set_wire_format = true`.
    pub message_set: bool,
    pub features: Features,
    /// The bytes of its fields' names and declared defaults, which the rules compare with the
    /// other side's in every pair the message is in ([`MessageRef::text_bytes`]).
    pub text_bytes: u32,
}

#[derive(Debug, PartialEq)]
pub(crate) struct Field {
    pub name: Str,
    pub number: u32,
    pub message: u32,
    pub label: Label,
    pub ty: Type,
    pub oneof: u32,
    /// Into [`Model::defaults`]: the declared `[default = …]`, as text and (once the types are
    /// known) parsed; [`NONE`] where none is declared. An index, not the text's place, so that
    /// the row stays as small as it was (rows are copied as the table grows).
    pub default: u32,
    pub proto3_optional: bool,
    pub features: Features,
    /// Worked out from the above once the type is known ([`Field::settle`]): the rules ask
    /// for them of every field pair they compare.
    pub cardinality: Cardinality,
    pub packed: bool,
    /// Whether Java refuses a string here that is not UTF-8 ([`FieldRef::validates_utf8`]).
    pub validates_utf8: bool,
}

impl Field {
    /// Works out [`Field::cardinality`], [`Field::packed`] and [`Field::validates_utf8`] from
    /// the label, features, oneof and type, and whether the field is in a map entry.
    pub(crate) fn settle(&mut self, in_map_entry: bool) {
        // `required` means `field_presence = LEGACY_REQUIRED` in Editions, which a proto2
        // `required` label is expressed as.
        self.cardinality = if self.label == Label::Repeated {
            Cardinality::Repeated
        } else if self.features.field_presence == FieldPresence::LegacyRequired
            && self.oneof == NONE
        {
            Cardinality::Required
        } else {
            Cardinality::Optional
        };
        // Packed is the effective `repeated_field_encoding` of a field whose type can be.
        let packable = match self.ty {
            Type::Scalar(s) => s.is_packable(),
            Type::Enum(_) => true,
            Type::Message(_) | Type::Group(_) => false,
        };
        self.packed = self.cardinality == Cardinality::Repeated
            && packable
            && self.features.repeated_field_encoding == RepeatedFieldEncoding::Packed;
        // Java's `FieldDescriptor.needsUtf8Check`: map entries always; else the Java feature
        // (proto2's `java_string_check_utf8` included) or `utf8_validation`.
        self.validates_utf8 = self.ty == Type::Scalar(Scalar::String)
            && (in_map_entry
                || self.features.java_utf8_validation == JavaUtf8Validation::Verify
                || self.features.utf8_validation == Utf8Validation::Verify);
    }
}

#[derive(Debug, PartialEq)]
pub(crate) struct Oneof {
    pub name: Str,
    /// The oneof protoc makes for a proto3 `optional` field.
    pub synthetic: bool,
}

#[derive(Debug, PartialEq)]
pub(crate) struct Enum {
    pub full_name: Str,
    pub name_at: u32,
    pub file: u32,
    pub values: Span,
    pub features: Features,
    /// The bytes of its values' names, which the enum rules merge with the other side's in
    /// every pair the enum is in ([`EnumRef::value_name_bytes`]).
    pub value_name_bytes: u32,
}

#[derive(Debug, PartialEq)]
pub(crate) struct EnumValue {
    pub name: Str,
    pub number: i32,
}

/// The declarations of one schema's import closure.
/// `Debug` and `PartialEq` serve the test that two ways of building a model agree.
#[derive(Default, Debug, PartialEq)]
pub struct Model {
    pub(crate) text: String,
    pub(crate) files: Vec<File>,
    pub(crate) messages: Vec<Message>,
    pub(crate) fields: Vec<Field>,
    pub(crate) oneofs: Vec<Oneof>,
    pub(crate) enums: Vec<Enum>,
    pub(crate) values: Vec<EnumValue>,
    /// The id of each message's and each enum's full name, by row ([`NameId`]): what two
    /// schemas compare types by.
    pub(crate) message_ids: Vec<NameId>,
    pub(crate) enum_ids: Vec<NameId>,
    /// Laid out as `values`: each enum's value rows sorted by number (aliases in declaration
    /// order), and sorted by name.
    pub(crate) values_by_number: Vec<u32>,
    pub(crate) values_by_name: Vec<u32>,
    /// Each message's field rows sorted by number, message after message.
    pub(crate) by_number: Vec<u32>,
    /// Laid out as `by_number`, sorted by name: made the first time a rule looks a field up by
    /// name, which most checks never do (four bytes a field; not counted in [`Model::heap_bytes`]).
    pub(crate) by_name: std::sync::OnceLock<Vec<u32>>,
    /// The declared defaults, as text and parsed once when the model is built: the rules
    /// compare them for every field pair, in every pair of a history, so none is parsed (or an
    /// enum's values searched) again.
    pub(crate) defaults: Vec<DefaultRow>,
    /// Whether some declaration holds what comparing fields by number cannot vouch for:
    /// extension ranges, a MessageSet, a feature the decoder could not interpret, or an enum
    /// field Java reads as closed while its enum is open ([`Model::beyond_fields`]).
    pub(crate) beyond_fields: bool,
    /// What reading the closure took beyond its bytes ([`crate::budget::decode_units`]).
    pub(crate) read_work: ReadWork,
}

impl Model {
    pub(crate) fn str(&self, s: Str) -> &str {
        &self.text[s.start as usize..(s.start + s.len) as usize]
    }

    /// The heap the model holds.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.files.shrink_to_fit();
        self.messages.shrink_to_fit();
        self.fields.shrink_to_fit();
        self.oneofs.shrink_to_fit();
        self.enums.shrink_to_fit();
        self.values.shrink_to_fit();
        self.message_ids.shrink_to_fit();
        self.enum_ids.shrink_to_fit();
        self.values_by_number.shrink_to_fit();
        self.values_by_name.shrink_to_fit();
        self.by_number.shrink_to_fit();
        self.defaults.shrink_to_fit();
    }

    /// `by_number`, each message's part sorted by name instead.
    fn sorted_by_name(&self) -> Vec<u32> {
        let mut by_name = self.by_number.clone();
        for message in &self.messages {
            let start = message.sorted as usize;
            by_name[start..start + message.fields.len as usize].sort_unstable_by(|&a, &b| {
                self.str(self.fields[a as usize].name)
                    .cmp(self.str(self.fields[b as usize].name))
            });
        }
        by_name
    }

    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.text.capacity()
            + self.files.capacity() * size_of::<File>()
            + self.messages.capacity() * size_of::<Message>()
            + self.fields.capacity() * size_of::<Field>()
            + self.oneofs.capacity() * size_of::<Oneof>()
            + self.enums.capacity() * size_of::<Enum>()
            + self.values.capacity() * size_of::<EnumValue>()
            + (self.message_ids.capacity() + self.enum_ids.capacity()) * size_of::<NameId>()
            + (self.values_by_number.capacity() + self.values_by_name.capacity()) * size_of::<u32>()
            + self.by_number.capacity() * size_of::<u32>()
            + self.defaults.capacity() * size_of::<DefaultRow>()
            + self
                .defaults
                .iter()
                .map(DefaultRow::heap_bytes)
                .sum::<usize>()
    }

    /// Whether any declaration, reachable or not, has extension ranges, is a MessageSet, is
    /// under a feature the decoder could not interpret, or is an enum field Java reads as
    /// closed while its enum is open. False for almost every schema, which then needs no look
    /// for them.
    pub fn beyond_fields(&self) -> bool {
        self.beyond_fields
    }

    pub fn message(&self, id: u32) -> MessageRef<'_> {
        MessageRef { model: self, id }
    }

    pub(crate) fn message_count(&self) -> usize {
        self.messages.len()
    }

    pub(crate) fn field(&self, id: u32) -> FieldRef<'_> {
        FieldRef { model: self, id }
    }
}

/// Whether [`full_name_bytes_read`] counts: off but in the test that asks, so that reading a
/// name costs a load of this flag, not a thread-local's address (a call in a shared library).
static COUNTING_FULL_NAMES: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

thread_local! {
    /// The bytes of the full names this thread has read through [`MessageRef::full_name`] and
    /// [`EnumRef::full_name`], while counting.
    static FULL_NAME_BYTES_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A full name's text, counted in [`full_name_bytes_read`]: what shows that a check compares
/// types by their names' ids, not their text, wherever their fields are.
#[inline]
fn read_full_name(model: &Model, name: Str) -> &str {
    if COUNTING_FULL_NAMES.load(std::sync::atomic::Ordering::Relaxed) {
        FULL_NAME_BYTES_READ.with(|read| read.set(read.get() + u64::from(name.len)));
    }
    model.str(name)
}

/// The bytes of the full names of messages and enums this thread has read since the first call,
/// for the test that holds them independent of how many fields name a type
/// (`tests/cost_of_names.rs`). The first call starts the count.
#[doc(hidden)]
pub fn full_name_bytes_read() -> u64 {
    COUNTING_FULL_NAMES.store(true, std::sync::atomic::Ordering::Relaxed);
    FULL_NAME_BYTES_READ.with(std::cell::Cell::get)
}

/// A file of the model.
#[derive(Clone, Copy)]
pub struct FileRef<'a> {
    model: &'a Model,
    id: u32,
}

impl<'a> FileRef<'a> {
    fn row(&self) -> &'a File {
        &self.model.files[self.id as usize]
    }

    pub fn name(&self) -> &'a str {
        self.model.str(self.row().name)
    }

    pub fn package(&self) -> &'a str {
        self.model.str(self.row().package)
    }

    pub fn syntax(&self) -> Syntax {
        self.row().syntax
    }
}

/// A message of the model.
#[derive(Clone, Copy)]
pub struct MessageRef<'a> {
    model: &'a Model,
    id: u32,
}

impl<'a> MessageRef<'a> {
    fn row(&self) -> &'a Message {
        &self.model.messages[self.id as usize]
    }

    /// Its row, unique within its model.
    pub fn id(&self) -> u32 {
        self.id
    }

    pub fn full_name(&self) -> &'a str {
        read_full_name(self.model, self.row().full_name)
    }

    /// The id of its full name: equal in two models exactly when the full names are.
    pub(crate) fn name_id(&self) -> NameId {
        self.model.message_ids[self.id as usize]
    }

    pub fn name(&self) -> &'a str {
        let row = self.row();
        &self.model.str(row.full_name)[row.name_at as usize..]
    }

    pub fn file(&self) -> FileRef<'a> {
        FileRef {
            model: self.model,
            id: self.row().file,
        }
    }

    pub(crate) fn file_index(&self) -> u32 {
        self.row().file
    }

    pub fn features(&self) -> &'a Features {
        &self.row().features
    }

    pub fn is_map_entry(&self) -> bool {
        self.row().map_entry
    }

    pub fn model(&self) -> &'a Model {
        self.model
    }

    /// The bytes of its fields' names and declared defaults: what the rules may compare byte
    /// for byte with the other side's in a pair (a field's name, a default), charged to each
    /// pair the message is in, since pairing by structure puts one message in many.
    pub(crate) fn text_bytes(&self) -> u32 {
        self.row().text_bytes
    }

    /// Whether it declares extension ranges.
    pub fn has_extension_ranges(&self) -> bool {
        self.row().extension_ranges
    }

    /// Whether it is encoded as a MessageSet (`message_set_wire_format`).
    pub fn is_message_set(&self) -> bool {
        self.row().message_set
    }

    /// Fields in declaration order.
    pub fn fields(&self) -> impl ExactSizeIterator<Item = FieldRef<'a>> + 'a {
        let model = self.model;
        self.row().fields.range().map(move |id| FieldRef {
            model,
            id: id as u32,
        })
    }

    pub fn field(&self, number: u32) -> Option<FieldRef<'a>> {
        let row = self.row();
        let sorted =
            &self.model.by_number[row.sorted as usize..(row.sorted + row.fields.len) as usize];
        let fields = &self.model.fields;
        // Numbers are distinct and at least 1, so field `n` is at most at index `n - 1`, and
        // exactly there when the message numbers its fields 1, 2, 3, … as most do: a lookup
        // then costs one read instead of a search that mispredicts at every step.
        if let Some(&f) = (number as usize).checked_sub(1).and_then(|i| sorted.get(i)) {
            if fields[f as usize].number == number {
                return Some(FieldRef {
                    model: self.model,
                    id: f,
                });
            }
        }
        let at = sorted
            .binary_search_by_key(&number, |&f| fields[f as usize].number)
            .ok()?;
        Some(FieldRef {
            model: self.model,
            id: sorted[at],
        })
    }

    /// The field called `name`, found by a binary search of the model's fields sorted by name
    /// (sorted once, when first asked for): a message of 100,000 fields met by many others is
    /// not read whole for each.
    pub fn field_named(&self, name: &str) -> Option<FieldRef<'a>> {
        let model = self.model;
        let row = self.row();
        let by_name = model.by_name.get_or_init(|| model.sorted_by_name());
        let sorted = &by_name[row.sorted as usize..(row.sorted + row.fields.len) as usize];
        let at = sorted
            .binary_search_by(|&f| model.str(model.fields[f as usize].name).cmp(name))
            .ok()?;
        Some(FieldRef {
            model,
            id: sorted[at],
        })
    }
}

/// A field's type as the rules see it.
#[derive(Clone, Copy)]
pub enum Kind<'a> {
    Scalar(Scalar),
    Enum(EnumRef<'a>),
    Message(MessageRef<'a>),
    Group(MessageRef<'a>),
}

impl<'a> Kind<'a> {
    pub fn is_scalar(&self) -> bool {
        matches!(self, Kind::Scalar(_))
    }

    /// The message type, for a message or a group.
    pub fn message(&self) -> Option<MessageRef<'a>> {
        match self {
            Kind::Message(m) | Kind::Group(m) => Some(*m),
            _ => None,
        }
    }
}

/// Same kind and the same scalar or full type name, whichever models the two come from: names
/// compared by their ids, never by their text, which may be 32 KB for a type that a thousand
/// fields of every pair of schemas name.
impl PartialEq for Kind<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Kind::Scalar(a), Kind::Scalar(b)) => a == b,
            (Kind::Enum(a), Kind::Enum(b)) => a.name_id() == b.name_id(),
            (Kind::Message(a), Kind::Message(b)) | (Kind::Group(a), Kind::Group(b)) => {
                a.name_id() == b.name_id()
            }
            _ => false,
        }
    }
}

impl fmt::Display for Kind<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Scalar(s) => f.write_str(s.name()),
            Kind::Enum(e) => write!(f, "enum {}", e.full_name()),
            Kind::Message(m) => write!(f, "message {}", m.full_name()),
            Kind::Group(m) => write!(f, "group {}", m.full_name()),
        }
    }
}

/// A field of the model.
#[derive(Clone, Copy)]
pub struct FieldRef<'a> {
    model: &'a Model,
    id: u32,
}

impl<'a> FieldRef<'a> {
    fn row(&self) -> &'a Field {
        &self.model.fields[self.id as usize]
    }

    pub fn id(&self) -> u32 {
        self.id
    }

    pub fn name(&self) -> &'a str {
        self.model.str(self.row().name)
    }

    pub fn number(&self) -> u32 {
        self.row().number
    }

    /// The message declaring the field.
    pub fn message(&self) -> MessageRef<'a> {
        MessageRef {
            model: self.model,
            id: self.row().message,
        }
    }

    pub fn features(&self) -> &'a Features {
        &self.row().features
    }

    pub fn kind(&self) -> Kind<'a> {
        let model = self.model;
        match self.row().ty {
            Type::Scalar(s) => Kind::Scalar(s),
            Type::Enum(id) => Kind::Enum(EnumRef { model, id }),
            Type::Message(id) => Kind::Message(MessageRef { model, id }),
            Type::Group(id) => Kind::Group(MessageRef { model, id }),
        }
    }

    /// `required` means `field_presence = LEGACY_REQUIRED` in Editions, which a proto2
    /// `required` label is expressed as.
    pub fn cardinality(&self) -> Cardinality {
        self.row().cardinality
    }

    pub fn is_repeated(&self) -> bool {
        self.cardinality() == Cardinality::Repeated
    }

    pub fn is_required(&self) -> bool {
        self.cardinality() == Cardinality::Required
    }

    /// Whether a repeated field is written packed: the effective `repeated_field_encoding`
    /// of a field whose type can be packed.
    pub fn is_packed(&self) -> bool {
        self.row().packed
    }

    /// Whether the field tells "unset" from its default: every singular field but an
    /// implicit-presence scalar or enum outside a oneof.
    pub fn has_presence(&self) -> bool {
        let row = self.row();
        !self.is_repeated()
            && (self.kind().message().is_some()
                || row.oneof != NONE
                || row.features.field_presence != FieldPresence::Implicit)
    }

    /// The proto3 `optional` keyword: a proto3 field with presence.
    pub fn is_proto3_optional(&self) -> bool {
        self.row().proto3_optional
    }

    /// The field's real (not synthetic) oneof, by name.
    pub fn oneof(&self) -> Option<&'a str> {
        let row = self.row();
        let oneof = self.model.oneofs.get(row.oneof as usize)?;
        (!oneof.synthetic).then(|| self.model.str(oneof.name))
    }

    /// The row of the field's real (not synthetic) oneof: unique within its model.
    pub fn oneof_id(&self) -> Option<u32> {
        let row = self.row();
        let oneof = self.model.oneofs.get(row.oneof as usize)?;
        (!oneof.synthetic).then_some(row.oneof)
    }

    /// A map: a repeated field of a map entry message.
    pub fn is_map(&self) -> bool {
        self.is_map_of(self.kind())
    }

    /// [`FieldRef::is_map`] for a field whose kind is already at hand.
    pub(crate) fn is_map_of(&self, kind: Kind<'_>) -> bool {
        self.is_repeated() && matches!(kind, Kind::Message(m) if m.is_map_entry())
    }

    /// Whether Java's runtime, the one Pulsar bundles, refuses a string that is not UTF-8 when
    /// it reads the field: what `FieldDescriptor.needsUtf8Check` decides (map entries always;
    /// else `features.(pb.java).utf8_validation`, proto2's `java_string_check_utf8` included,
    /// or `features.utf8_validation`).
    pub fn validates_utf8(&self) -> bool {
        self.row().validates_utf8
    }

    /// Whether Java reads the enum field as closed (`legacyEnumFieldTreatedAsClosed`): its
    /// enum is closed, or the field has `features.(pb.java).legacy_closed_enum`, which proto2
    /// fields have by default.
    pub fn java_treats_enum_as_closed(&self) -> bool {
        match self.kind() {
            Kind::Enum(e) => e.is_closed() || self.features().java_legacy_closed_enum,
            _ => false,
        }
    }

    /// Whether two scalar fields (of any two models) are declared alike in everything a rule on
    /// a field pair reads: scalar type, cardinality, packing, presence, UTF-8 checking and the
    /// declared default. No rule finds anything in such a pair, so the walk skips them all (most
    /// fields of most uploads are that).
    pub fn same_scalar_declaration(&self, other: &FieldRef<'_>) -> bool {
        let (a, b) = (self.row(), other.row());
        matches!((a.ty, b.ty), (Type::Scalar(x), Type::Scalar(y)) if x == y)
            && a.cardinality == b.cardinality
            && a.packed == b.packed
            && a.validates_utf8 == b.validates_utf8
            && self.has_presence() == other.has_presence()
            && self.declared_default() == other.declared_default()
    }

    /// Whether it declares `[default = …]`: one look, without reading the text.
    pub fn declares_default(&self) -> bool {
        self.row().default != NONE
    }

    pub(crate) fn declared_row(&self) -> Option<&'a DefaultRow> {
        self.model.defaults.get(self.row().default as usize)
    }

    /// `[default = …]` as declared.
    pub fn declared_default(&self) -> Option<&'a str> {
        self.declared_row().map(|d| self.model.str(d.text))
    }

    /// Whether the message type is encoded delimited (a group).
    pub fn is_delimited(&self) -> bool {
        matches!(self.row().ty, Type::Group(_))
            || (matches!(self.row().ty, Type::Message(_))
                && self.row().features.message_encoding == MessageEncoding::Delimited)
    }
}

/// An enum of the model.
#[derive(Clone, Copy)]
pub struct EnumRef<'a> {
    model: &'a Model,
    id: u32,
}

impl<'a> EnumRef<'a> {
    fn row(&self) -> &'a Enum {
        &self.model.enums[self.id as usize]
    }

    pub fn full_name(&self) -> &'a str {
        read_full_name(self.model, self.row().full_name)
    }

    /// The id of its full name: equal in two models exactly when the full names are.
    pub(crate) fn name_id(&self) -> NameId {
        self.model.enum_ids[self.id as usize]
    }

    pub fn name(&self) -> &'a str {
        let row = self.row();
        &self.model.str(row.full_name)[row.name_at as usize..]
    }

    pub fn features(&self) -> &'a Features {
        &self.row().features
    }

    /// The bytes of its values' names, which the enum rules merge by name with the other
    /// side's: charged to each pair the enum is in.
    pub(crate) fn value_name_bytes(&self) -> u32 {
        self.row().value_name_bytes
    }

    /// A closed enum: a field of it holds only its declared numbers (proto2, or
    /// `enum_type = CLOSED`).
    pub fn is_closed(&self) -> bool {
        self.features().enum_type == EnumType::Closed
    }

    /// Its row, unique within its model.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Values in declaration order: name and number.
    pub fn values(&self) -> impl ExactSizeIterator<Item = (&'a str, i32)> + 'a {
        let model = self.model;
        model.values[self.row().values.range()]
            .iter()
            .map(move |v| (model.str(v.name), v.number))
    }

    /// Values by number, ascending (aliases in declaration order): name and number.
    pub fn values_by_number(&self) -> impl ExactSizeIterator<Item = (&'a str, i32)> + 'a {
        self.ordered(&self.model.values_by_number)
    }

    /// Values by name, ascending (names are unique within an enum): name and number.
    pub fn values_by_name(&self) -> impl ExactSizeIterator<Item = (&'a str, i32)> + 'a {
        self.ordered(&self.model.values_by_name)
    }

    fn ordered(&self, order: &'a [u32]) -> impl ExactSizeIterator<Item = (&'a str, i32)> + 'a {
        let model = self.model;
        order[self.row().values.range()].iter().map(move |&row| {
            let v = &model.values[row as usize];
            (model.str(v.name), v.number)
        })
    }

    /// The first value declared with `number`: a binary search of the values by number, where
    /// aliases keep their declaration order.
    pub fn value_named_by(&self, number: i32) -> Option<&'a str> {
        let model = self.model;
        let by_number = &model.values_by_number[self.row().values.range()];
        let at = by_number.partition_point(|&row| model.values[row as usize].number < number);
        let &row = by_number.get(at)?;
        let value = &model.values[row as usize];
        (value.number == number).then(|| model.str(value.name))
    }

    /// The number of the value called `name`: a binary search of the values by name.
    pub fn number_named(&self, name: &str) -> Option<i32> {
        let model = self.model;
        let by_name = &model.values_by_name[self.row().values.range()];
        let at = by_name
            .binary_search_by(|&row| model.str(model.values[row as usize].name).cmp(name))
            .ok()?;
        Some(model.values[by_name[at] as usize].number)
    }

    pub fn first_number(&self) -> i32 {
        let values = self.row().values;
        // An enum has at least one value (the model refuses one without).
        self.model
            .values
            .get(values.start as usize)
            .filter(|_| values.len > 0)
            .map_or(0, |v| v.number)
    }
}
