//! Each kind of [`Part`] written into a [`Builder`]: its declarations, the root's fields that
//! hold them, and how an odd variant changes them ([`Vary`]).

use crate::build::{features, field, message, Builder};
use crate::declared;
use crate::desc::{
    feature, label, EnumDescriptorProto, EnumOptions, EnumValueDescriptorProto,
    FieldDescriptorProto, FieldOptions, MessageOptions, OneofDescriptorProto,
};
use crate::plan::{DefaultKind, Label, MapValue, Part, PartPlan, Scalar, Syntax, Vary, SCALARS};

pub(crate) const MESSAGE: i32 = 11;
const ENUM: i32 = 14;

pub fn emit(b: &mut Builder<'_>, p: usize, part: &PartPlan) {
    let vary = if b.alt { part.vary } else { Vary::Nothing };
    match part.part {
        Part::Scalars {
            count,
            scalar,
            label,
            packed,
            default,
            pad,
            json,
        } => scalars(b, p, vary, count, scalar, label, packed, default, pad, json),
        Part::Enums {
            copies,
            values,
            fields,
            closed,
            alias,
            default_last,
        } => enums(
            b,
            p,
            vary,
            copies,
            values,
            fields,
            closed,
            alias,
            default_last,
        ),
        Part::Oneofs {
            oneofs,
            members,
            scalar,
        } => oneofs_part(b, p, vary, oneofs, members, scalar),
        Part::Maps { count, key, value } => maps(b, p, vary, count, key, value),
        Part::Messages {
            count,
            fields_each,
            big,
            delimited,
            recursive,
        } => declared::messages(b, p, vary, count, fields_each, big, delimited, recursive),
        Part::Nested { depth, fields_each } => declared::nested(b, p, vary, depth, fields_each),
        Part::Extensions {
            messages,
            ranges,
            extensions,
        } => declared::extension_ranges(b, p, vary, messages, ranges, extensions),
        Part::Reserved { ranges, names } => declared::reserved(b, p, vary, ranges, names),
        Part::Imported { fields, dotted } => declared::imported(b, p, vary, fields, dotted),
        Part::Services { methods } => declared::services(b, p, vary, methods),
    }
}

/// How many of `count` an odd variant keeps when its part drops some: half.
pub(crate) fn kept(vary: Vary, count: usize) -> usize {
    if vary == Vary::Drop {
        count / 2
    } else {
        count
    }
}

/// The index of the `i`th of `count` fields from `start`, backwards when renumbered.
pub(crate) fn index(vary: Vary, start: usize, count: usize, i: usize) -> i32 {
    Builder::number(if vary == Vary::Renumber {
        start + count - 1 - i
    } else {
        start + i
    })
}

pub(crate) fn relabeled(vary: Vary, l: Label) -> Label {
    match (vary, l) {
        (Vary::Relabel, Label::Repeated) => Label::Optional,
        (Vary::Relabel, Label::Optional) => Label::Repeated,
        (Vary::Relabel, Label::Required | Label::Proto3Optional) => Label::Optional,
        (_, l) => l,
    }
}

#[allow(clippy::too_many_arguments)]
fn scalars(
    b: &mut Builder<'_>,
    p: usize,
    vary: Vary,
    count: usize,
    scalar: Option<Scalar>,
    l: Label,
    packed: Option<bool>,
    default: DefaultKind,
    pad: usize,
    json: bool,
) {
    let start = b.reserve(count);
    let padding = "x".repeat(pad);
    let prefix = if vary == Vary::Rename { "t" } else { "s" };
    for i in 0..kept(vary, count) {
        let mut s = scalar.unwrap_or(SCALARS[(i + p) % SCALARS.len()]);
        if vary == Vary::Retype {
            s = s.shifted(1 + i % 3);
        }
        let l = relabeled(vary, l);
        let name = format!("{prefix}{p}_{i}{padding}");
        let mut f = b.scalar_field(name, index(vary, start, count, i), l, s);
        if l == Label::Repeated && s.packable() {
            if let Some(packed) = packed {
                set_packed(b.syntax(), &mut f, packed);
            }
        }
        if vary == Vary::Features {
            flip_features(b.syntax(), &mut f, l, s);
        }
        if takes_default(b.syntax(), &f, l) {
            let alt = vary == Vary::Default;
            f.default_value = match default {
                DefaultKind::None => None,
                DefaultKind::Typed => Some(typed_default(s, alt)),
                DefaultKind::Long(n) => Some(long_default(s, n, alt)),
            };
        }
        if json {
            f.json_name = Some(format!("{}{p}x{i}", prefix.to_uppercase()));
        }
        b.add(f);
    }
}

fn set_packed(syntax: Syntax, f: &mut FieldDescriptorProto, packed: bool) {
    if syntax.editions() {
        features(f).repeated_field_encoding = Some(if packed {
            feature::PACKED
        } else {
            feature::EXPANDED
        });
    } else {
        f.options.get_or_insert_with(FieldOptions::default).packed = Some(packed);
    }
}

/// What an odd variant of a `Features` part changes on a field: its encoding, presence or
/// UTF-8 validation (Editions), or its packing.
fn flip_features(syntax: Syntax, f: &mut FieldDescriptorProto, l: Label, s: Scalar) {
    if !syntax.editions() {
        if l == Label::Repeated && s.packable() {
            let packed = f.options.as_ref().and_then(|o| o.packed);
            let default = syntax == Syntax::Proto3;
            set_packed(syntax, f, !packed.unwrap_or(default));
        }
        return;
    }
    let set = features(f);
    match (l, s) {
        (Label::Repeated, s) if s.packable() => {
            set.repeated_field_encoding = Some(match set.repeated_field_encoding {
                Some(feature::EXPANDED) => feature::PACKED,
                _ => feature::EXPANDED,
            });
        }
        (_, Scalar::String) => {
            set.utf8_validation = Some(feature::NONE);
            set.java
                .get_or_insert_with(Default::default)
                .utf8_validation = Some(feature::JAVA_VERIFY);
        }
        (Label::Optional, _) => set.field_presence = Some(feature::IMPLICIT),
        _ => {}
    }
}

/// Whether a field may declare a default: explicit presence, singular.
fn takes_default(syntax: Syntax, f: &FieldDescriptorProto, l: Label) -> bool {
    let presence = f
        .options
        .as_ref()
        .and_then(|o| o.features.as_ref())
        .and_then(|s| s.field_presence);
    syntax.explicit() && l != Label::Repeated && presence != Some(feature::IMPLICIT)
}

/// A default of every kind of spelling the type allows: hex, octal, extremes, inf and nan,
/// escapes in bytes.
fn typed_default(s: Scalar, alt: bool) -> String {
    let k = usize::from(alt);
    match s {
        Scalar::Int32 => ["-2000000000", "0x7fffffff"][k].into(),
        Scalar::Int64 => ["0x7fff000000000000", "-9223372036854775808"][k].into(),
        Scalar::Uint32 => ["07654321", "4294967295"][k].into(),
        Scalar::Uint64 => ["18446744073709551615", "0"][k].into(),
        Scalar::Sint32 => ["-7", "-8"][k].into(),
        Scalar::Sint64 => ["-9223372036854775808", "1"][k].into(),
        Scalar::Fixed32 => ["4000000000", "1"][k].into(),
        Scalar::Fixed64 => ["1099511627776", "2199023255552"][k].into(),
        Scalar::Sfixed32 => ["-1", "-2"][k].into(),
        Scalar::Sfixed64 => ["-1125899906842624", "-2251799813685248"][k].into(),
        Scalar::Float => ["1.5e38", "-inf"][k].into(),
        Scalar::Double => ["nan", "2.25e-300"][k].into(),
        Scalar::Bool => ["true", "false"][k].into(),
        Scalar::String => ["s\u{e9}0", "s\u{e9}1"][k].into(),
        Scalar::Bytes => ["\\377\\x41\\n0", "\\377\\x41\\n1"][k].into(),
    }
}

/// A default about `n` characters long, that still means a value of its type.
fn long_default(s: Scalar, n: usize, alt: bool) -> String {
    let last = if alt { "6" } else { "7" };
    match s {
        Scalar::String => {
            let mut text = "a\u{e9}".repeat(n / 3);
            text.push_str(last);
            text
        }
        Scalar::Bytes => {
            let mut text = "\\x41\\377".repeat(n / 8);
            text.push_str(last);
            text
        }
        Scalar::Bool => typed_default(s, alt),
        Scalar::Float | Scalar::Double => format!("1{}e-{n}", "0".repeat(n)),
        _ => format!("{}{last}", "0".repeat(n)),
    }
}

#[allow(clippy::too_many_arguments)]
fn enums(
    b: &mut Builder<'_>,
    p: usize,
    vary: Vary,
    copies: usize,
    values: usize,
    fields: usize,
    closed: bool,
    alias: bool,
    default_last: bool,
) {
    if copies == 0 {
        return;
    }
    let values_kept = kept(vary, values).max(1);
    let value_prefix = if vary == Vary::Rename { "W" } else { "V" };
    for c in 0..copies {
        let value = (0..values_kept)
            .map(|k| {
                // The first stays zero (proto3 needs it); the others run backwards when
                // renumbered.
                let mut number = if vary == Vary::Renumber && k > 0 {
                    values - k
                } else {
                    k
                };
                if alias && k % 4 == 3 {
                    number = k - 1;
                }
                EnumValueDescriptorProto {
                    name: Some(format!("{value_prefix}{p}_{c}_{k}")),
                    number: Some(number as i32),
                }
            })
            .collect();
        let closed = closed != (vary == Vary::Features);
        let options = EnumOptions {
            allow_alias: alias.then_some(true),
            features: b.syntax().editions().then(|| crate::desc::FeatureSet {
                enum_type: Some(if closed {
                    feature::CLOSED
                } else {
                    feature::OPEN
                }),
                ..Default::default()
            }),
        };
        b.file.enum_type.push(EnumDescriptorProto {
            name: Some(format!("E{p}_{c}")),
            value,
            options: (options != EnumOptions::default()).then_some(options),
            ..Default::default()
        });
    }
    let start = b.reserve(fields);
    for i in 0..kept(vary, fields) {
        let c = if vary == Vary::Structure {
            (i + 1) % copies
        } else {
            i % copies
        };
        let mut f = field(
            format!("e{p}_{i}"),
            index(vary, start, fields, i),
            ENUM,
            Some(b.type_ref(&format!("E{p}_{c}"))),
        );
        if vary == Vary::Retype {
            f.r#type = Some(Scalar::Int32.code());
            f.type_name = None;
        }
        let l = relabeled(
            vary,
            if i % 3 == 1 {
                Label::Repeated
            } else {
                Label::Optional
            },
        );
        b.apply_label(&mut f, l, None);
        if b.syntax().editions() && vary == Vary::Features {
            features(&mut f)
                .java
                .get_or_insert_with(Default::default)
                .legacy_closed_enum = Some(true);
        }
        if takes_default(b.syntax(), &f, l) && f.r#type == Some(ENUM) {
            let last = default_last != (vary == Vary::Default);
            let k = if last { values_kept - 1 } else { 0 };
            f.default_value = Some(format!("{value_prefix}{p}_{c}_{k}"));
        }
        b.add(f);
    }
}

fn oneofs_part(
    b: &mut Builder<'_>,
    p: usize,
    vary: Vary,
    oneofs: usize,
    members: usize,
    scalar: Scalar,
) {
    let start = b.reserve(oneofs * members);
    let first = b.root.oneof_decl.len();
    if vary != Vary::Drop && members > 0 {
        let prefix = if vary == Vary::Rename { "q" } else { "o" };
        for j in 0..oneofs {
            b.root.oneof_decl.push(OneofDescriptorProto {
                name: Some(format!("{prefix}{p}_{j}")),
                options: None,
            });
        }
    }
    for j in 0..oneofs {
        for k in 0..members {
            let s = if vary == Vary::Retype {
                scalar.shifted(1 + k % 2)
            } else {
                scalar
            };
            let at = j * members + k;
            let name = format!("o{p}_{j}_{k}");
            let mut f = b.scalar_field(
                name,
                index(vary, start, oneofs * members, at),
                Label::Optional,
                s,
            );
            f.oneof_index = match vary {
                Vary::Drop => None,
                Vary::Structure => Some((first + (j + 1) % oneofs) as i32),
                _ => Some((first + j) as i32),
            };
            b.add(f);
        }
    }
}

fn maps(b: &mut Builder<'_>, p: usize, vary: Vary, count: usize, key: Scalar, value: MapValue) {
    let (value_type, value_name) = match value {
        MapValue::Scalar(s) if vary == Vary::Retype => (s.shifted(1).code(), None),
        MapValue::Scalar(s) => (s.code(), None),
        MapValue::Enum => {
            b.file.enum_type.push(EnumDescriptorProto {
                name: Some(format!("ME{p}")),
                value: (0..2)
                    .map(|k| EnumValueDescriptorProto {
                        name: Some(format!("ME{p}_{k}")),
                        number: Some(k),
                    })
                    .collect(),
                ..Default::default()
            });
            if vary == Vary::Retype {
                (Scalar::Int32.code(), None)
            } else {
                (ENUM, Some(b.type_ref(&format!("ME{p}"))))
            }
        }
        MapValue::Message => {
            let mut held = message(format!("MV{p}"));
            let x = if vary == Vary::Retype {
                Scalar::String
            } else {
                Scalar::Int32
            };
            held.field.push(field("x".into(), 1, x.code(), None));
            b.file.message_type.push(held);
            (MESSAGE, Some(b.type_ref(&format!("MV{p}"))))
        }
    };
    let key = if vary == Vary::Relabel {
        key.shifted(1).as_key()
    } else {
        key
    };
    let start = b.reserve(count);
    for i in 0..kept(vary, count) {
        let entry_name = format!("M{p}x{i}Entry");
        let mut entry = message(entry_name.clone());
        entry.field.push(field("key".into(), 1, key.code(), None));
        entry
            .field
            .push(field("value".into(), 2, value_type, value_name.clone()));
        if vary != Vary::Structure {
            entry.options = Some(MessageOptions {
                map_entry: Some(true),
                features: None,
            });
        }
        b.root.nested_type.push(entry);
        let type_name = if b.plan.relative {
            entry_name
        } else {
            format!(".{}.Order.{entry_name}", b.package)
        };
        let mut f = field(
            format!("m{p}x{i}"),
            index(vary, start, count, i),
            MESSAGE,
            Some(type_name),
        );
        f.label = Some(label::REPEATED);
        b.add(f);
    }
}
