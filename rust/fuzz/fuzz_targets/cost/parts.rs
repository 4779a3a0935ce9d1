//! Each kind of [`Part`] written into a [`Builder`]: its declarations, the root's fields that
//! hold them, and how an odd variant changes them ([`Vary`]).

use crate::build::{features, field, message, Builder};
use crate::desc::{
    feature, label, EnumDescriptorProto, EnumOptions, EnumValueDescriptorProto,
    FieldDescriptorProto, FieldOptions, FileDescriptorProto, MessageOptions, MethodDescriptorProto,
    OneofDescriptorProto, Range, ServiceDescriptorProto,
};
use crate::plan::{DefaultKind, Label, MapValue, Part, PartPlan, Scalar, Syntax, Vary, SCALARS};

const MESSAGE: i32 = 11;
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
        } => messages(b, p, vary, count, fields_each, big, delimited, recursive),
        Part::Nested { depth, fields_each } => nested(b, p, vary, depth, fields_each),
        Part::Extensions {
            messages,
            ranges,
            extensions,
        } => extension_ranges(b, p, vary, messages, ranges, extensions),
        Part::Reserved { ranges, names } => reserved(b, p, vary, ranges, names),
        Part::Imported { fields, dotted } => imported(b, p, vary, fields, dotted),
        Part::Services { methods } => services(b, p, vary, methods),
    }
}

/// How many of `count` an odd variant keeps when its part drops some: half.
fn kept(vary: Vary, count: usize) -> usize {
    if vary == Vary::Drop {
        count / 2
    } else {
        count
    }
}

/// The index of the `i`th of `count` fields from `start`, backwards when renumbered.
fn index(vary: Vary, start: usize, count: usize, i: usize) -> i32 {
    Builder::number(if vary == Vary::Renumber {
        start + count - 1 - i
    } else {
        start + i
    })
}

fn relabeled(vary: Vary, l: Label) -> Label {
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

#[allow(clippy::too_many_arguments)]
fn messages(
    b: &mut Builder<'_>,
    p: usize,
    vary: Vary,
    count: usize,
    fields_each: usize,
    big: usize,
    delimited: bool,
    recursive: bool,
) {
    let prefix = if vary == Vary::Rename { "J" } else { "H" };
    for i in 0..count {
        let mut m = message(format!("{prefix}{p}_{i}"));
        let n = fields_each + if i == 0 { big } else { 0 };
        for k in 0..kept(vary, n) {
            let mut s = SCALARS[k % SCALARS.len()];
            if vary == Vary::Retype {
                s = s.shifted(1);
            }
            let number = if vary == Vary::Renumber { n - k } else { k + 1 };
            m.field.push(b.scalar_field(
                format!("f{k}"),
                Builder::number(number - 1),
                Label::Optional,
                s,
            ));
        }
        if recursive {
            let next = if i + 1 == count {
                "Order".to_owned()
            } else {
                format!("{prefix}{p}_{}", i + 1)
            };
            m.field.push(field(
                "next".into(),
                Builder::number(n),
                MESSAGE,
                Some(b.type_ref(&next)),
            ));
        }
        b.file.message_type.push(m);
    }
    let start = b.reserve(count);
    for i in 0..count {
        let held = if vary == Vary::Structure { 0 } else { i };
        let mut f = field(
            format!("h{p}_{i}"),
            index(vary, start, count, i),
            MESSAGE,
            Some(b.type_ref(&format!("{prefix}{p}_{held}"))),
        );
        b.apply_label(&mut f, relabeled(vary, Label::Optional), None);
        if delimited != (vary == Vary::Features) && b.syntax().editions() {
            features(&mut f).message_encoding = Some(feature::DELIMITED);
        }
        b.add(f);
    }
}

fn nested(b: &mut Builder<'_>, p: usize, vary: Vary, depth: usize, fields_each: usize) {
    let depth = if vary == Vary::Drop {
        (depth / 2).max(1)
    } else {
        depth
    };
    // Full names of each level, for fully qualified type names.
    let mut full = vec![format!(".{}.N{p}_0", b.package)];
    for level in 1..depth {
        let outer = full[level - 1].clone();
        full.push(format!("{outer}.N{p}_{level}"));
    }
    let mut inner = None;
    for level in (0..depth).rev() {
        let mut m = message(format!("N{p}_{level}"));
        for k in 0..fields_each {
            let mut s = SCALARS[(k + level) % SCALARS.len()];
            if vary == Vary::Retype && level + 1 == depth {
                s = s.shifted(1);
            }
            m.field
                .push(b.scalar_field(format!("f{k}"), Builder::number(k), Label::Optional, s));
        }
        if let Some(child) = inner.take() {
            let type_name = if b.plan.relative {
                format!("N{p}_{}", level + 1)
            } else {
                full[level + 1].clone()
            };
            m.field.push(field(
                "next".into(),
                Builder::number(fields_each),
                MESSAGE,
                Some(type_name),
            ));
            m.nested_type.push(child);
        }
        inner = Some(m);
    }
    b.file.message_type.extend(inner);
    let number = Builder::number(b.reserve(1));
    let f = field(
        format!("n{p}"),
        number,
        MESSAGE,
        Some(b.type_ref(&format!("N{p}_0"))),
    );
    b.add(f);
}

fn extension_ranges(
    b: &mut Builder<'_>,
    p: usize,
    vary: Vary,
    messages: usize,
    ranges: usize,
    extensions: usize,
) {
    if messages == 0 {
        return;
    }
    let shift = i32::from(vary == Vary::Renumber);
    for i in 0..messages {
        let mut m = message(format!("X{p}_{i}"));
        m.field
            .push(field("x".into(), 1, Scalar::Int32.code(), None));
        if i == 0 && extensions > 0 {
            // The extensions' numbers from 1,000 on, around protobuf's reserved 19000-19999.
            let end = extension_number(extensions - 1) + 1;
            for (start, end) in [(1_000, end.min(19_000)), (20_000, end)] {
                if start < end {
                    m.extension_range.push(Range {
                        start: Some(start),
                        end: Some(end),
                    });
                }
            }
        }
        for r in 0..kept(vary, ranges) {
            let start = 100_000 + 10 * r as i32 + shift;
            m.extension_range.push(Range {
                start: Some(start),
                end: Some(start + 5),
            });
        }
        b.file.message_type.push(m);
    }
    let start = b.reserve(messages);
    for i in 0..messages {
        let f = field(
            format!("x{p}_{i}"),
            index(vary, start, messages, i),
            MESSAGE,
            Some(b.type_ref(&format!("X{p}_{i}"))),
        );
        b.add(f);
    }
    let extendee = b.type_ref(&format!("X{p}_0"));
    let ty = if vary == Vary::Retype {
        Scalar::String
    } else {
        Scalar::Int32
    };
    for j in 0..extensions {
        let mut e = field(format!("e{p}_{j}"), extension_number(j), ty.code(), None);
        e.extendee = Some(extendee.clone());
        b.file.extension.push(e);
    }
}

/// The number of the `j`th extension of a part.
fn extension_number(j: usize) -> i32 {
    Builder::number(999 + j)
}

fn reserved(b: &mut Builder<'_>, p: usize, vary: Vary, ranges: usize, names: usize) {
    let shift = i32::from(vary == Vary::Renumber);
    for r in 0..kept(vary, ranges) {
        let start = 100_000_000 + 2 * r as i32 + shift;
        b.root.reserved_range.push(Range {
            start: Some(start),
            end: Some(start + 1),
        });
    }
    let prefix = if vary == Vary::Rename { "u" } else { "r" };
    for k in 0..kept(vary, names) {
        b.root.reserved_name.push(format!("{prefix}{p}_{k}"));
    }
}

fn imported(b: &mut Builder<'_>, p: usize, vary: Vary, fields: usize, dotted: bool) {
    // Dotted: `b<p>.T` in the package below this one; else `T<p>` in this package.
    let (package, name) = if dotted {
        (format!("{}.b{p}", b.package), "T".to_owned())
    } else {
        (b.package.clone(), format!("T{p}"))
    };
    let mut t = message(name.clone());
    let x = if vary == Vary::Retype {
        Scalar::String
    } else {
        Scalar::Int32
    };
    t.field.push(field("x".into(), 1, x.code(), None));
    b.deps.push(FileDescriptorProto {
        name: Some(format!("dep{p}.proto")),
        package: Some(package.clone()),
        message_type: vec![t],
        syntax: b.file.syntax.clone(),
        edition: b.file.edition,
        ..Default::default()
    });
    let type_name = match (b.plan.relative, dotted) {
        (true, true) => format!("b{p}.{name}"),
        (true, false) => name,
        (false, _) => format!(".{package}.{name}"),
    };
    let start = b.reserve(fields);
    for i in 0..kept(vary, fields) {
        let f = field(
            format!("i{p}_{i}"),
            index(vary, start, fields, i),
            MESSAGE,
            Some(type_name.clone()),
        );
        b.add(f);
    }
}

fn services(b: &mut Builder<'_>, p: usize, vary: Vary, methods: usize) {
    let order = b.type_ref("Order");
    let prefix = if vary == Vary::Rename { "n" } else { "m" };
    b.file.service.push(ServiceDescriptorProto {
        name: Some(format!("S{p}")),
        method: (0..kept(vary, methods))
            .map(|k| MethodDescriptorProto {
                name: Some(format!("{prefix}{k}")),
                input_type: Some(order.clone()),
                output_type: Some(order.clone()),
            })
            .collect(),
    });
}
