//! The parts that declare messages and what hangs off them: messages the root holds, messages
//! nested deep, extension ranges and extensions, reserved ranges and names, fields typed from
//! an imported file, services ([`crate::parts::emit`] writes each).

use crate::build::{features, field, message, Builder};
use crate::desc::{
    feature, FileDescriptorProto, MethodDescriptorProto, Range, ServiceDescriptorProto,
};
use crate::parts::{index, kept, relabeled, MESSAGE};
use crate::plan::{Label, Scalar, Vary, SCALARS};

#[allow(clippy::too_many_arguments)]
pub(crate) fn messages(
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

pub(crate) fn nested(b: &mut Builder<'_>, p: usize, vary: Vary, depth: usize, fields_each: usize) {
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

pub(crate) fn extension_ranges(
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

pub(crate) fn reserved(b: &mut Builder<'_>, p: usize, vary: Vary, ranges: usize, names: usize) {
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

pub(crate) fn imported(b: &mut Builder<'_>, p: usize, vary: Vary, fields: usize, dotted: bool) {
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

pub(crate) fn services(b: &mut Builder<'_>, p: usize, vary: Vary, methods: usize) {
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
