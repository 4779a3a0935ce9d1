//! The declarations compared inside a message or a file: fields (and extensions), enums and
//! services; see [`super::compare`] for what is left out and why.

use super::compare::{kids, shown, sorted, Diff};
use super::default;
use super::entries::{differing, presence};
use super::tags::{enums, field, service};
use super::tree::{Kind, Message};

impl Diff<'_> {
    /// A field (or extension): oneof by name, default by value, JSON name where both have one.
    pub(super) fn fields(
        &mut self,
        full: &str,
        a: &Message,
        b: &Message,
        oa: &[String],
        ob: &[String],
    ) {
        let what = format!("field {}", shown(full));
        let oneof = |f: &Message, names: &[String]| {
            f.int32(field::ONEOF_INDEX).map(|i| {
                usize::try_from(i)
                    .ok()
                    .and_then(|i| names.get(i))
                    .cloned()
                    .unwrap_or_default()
            })
        };
        if oneof(a, oa) != oneof(b, ob) {
            let said = |o: Option<String>| o.map_or("none".to_owned(), |o| shown(&o));
            self.say(format!(
                "{what}: its oneof differs ({} intended, {} compiled)",
                said(oneof(a, oa)),
                said(oneof(b, ob))
            ));
        }
        let ty = a.varint(field::TYPE).unwrap_or(0);
        let (da, db) = (
            a.string(field::DEFAULT_VALUE),
            b.string(field::DEFAULT_VALUE),
        );
        let same_default = match (da, db) {
            (Some(x), Some(y)) => match (default::parse(x, ty), default::parse(y, ty)) {
                (Some(p), Some(q)) => p == q,
                _ => x == y,
            },
            (x, y) => x == y,
        };
        if !same_default {
            let said = |d: Option<&str>| d.map_or("none".to_owned(), |d| format!("`{}`", shown(d)));
            self.say(format!(
                "{what}: default differs ({} intended, {} compiled)",
                said(da),
                said(db)
            ));
        }
        if a.has(field::JSON_NAME)
            && b.has(field::JSON_NAME)
            && a.string(field::JSON_NAME) != b.string(field::JSON_NAME)
        {
            self.say(format!("{what}: json_name differs"));
        }
        if a.bool(field::PROTO3_OPTIONAL).unwrap_or(false)
            != b.bool(field::PROTO3_OPTIONAL).unwrap_or(false)
        {
            self.say(format!("{what}: proto3 `optional` differs"));
        }
        self.options(
            &what,
            a.message(field::OPTIONS),
            b.message(field::OPTIONS),
            Kind::FieldOptions,
        );
        for (n, here, there) in differing(
            a,
            b,
            &[
                field::NAME,
                field::DEFAULT_VALUE,
                field::OPTIONS,
                field::ONEOF_INDEX,
                field::JSON_NAME,
                field::PROTO3_OPTIONAL,
            ],
        ) {
            let part = match n {
                field::EXTENDEE => "extendee".to_owned(),
                field::NUMBER => "number".to_owned(),
                field::LABEL => "label".to_owned(),
                field::TYPE => "type".to_owned(),
                field::TYPE_NAME => "type name".to_owned(),
                n => format!("descriptor field {n}"),
            };
            self.say(format!("{what}: {part} {}", presence(here, there)));
        }
    }

    /// An enum: its values by name, and in order (the first is the default).
    pub(super) fn enums(&mut self, full: &str, a: &Message, b: &Message) {
        let what = format!("enum {}", shown(full));
        self.options(
            &what,
            a.message(enums::OPTIONS),
            b.message(enums::OPTIONS),
            Kind::EnumOptions,
        );
        let scope = full.rsplit_once('.').map_or("", |(s, _)| s);
        let tags = |m| kids(m, enums::VALUE);
        self.each("enum value", scope, tags(a), tags(b), |d, n, x, y| {
            let what = format!("enum value {}", shown(n));
            d.options(&what, x.message(3), y.message(3), Kind::EnumValueOptions);
            for (n, here, there) in differing(x, y, &[1, 3]) {
                let part = if n == 2 {
                    "number".to_owned()
                } else {
                    format!("descriptor field {n}")
                };
                d.say(format!("{what}: {part} {}", presence(here, there)));
            }
        });
        let order = |m: &Message| {
            m.messages(enums::VALUE)
                .filter_map(Message::name)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let (x, y) = (order(a), order(b));
        let common = |v: &[String], other: &[String]| {
            v.iter()
                .filter(|n| other.contains(n))
                .cloned()
                .collect::<Vec<_>>()
        };
        if common(&x, &y) != common(&y, &x) {
            self.say(format!("{what}: its values are in another order"));
        }
        for (tag, name) in [(4, "reserved ranges"), (5, "reserved names")] {
            if sorted(a, tag) != sorted(b, tag) {
                self.say(format!("{what}: {name} differ"));
            }
        }
        self.rest(&what, a, b, &[1, enums::VALUE, enums::OPTIONS, 4, 5]);
    }

    pub(super) fn services(&mut self, full: &str, a: &Message, b: &Message) {
        let what = format!("service {}", shown(full));
        self.options(&what, a.message(3), b.message(3), Kind::ServiceOptions);
        let tags = |m| kids(m, service::METHOD);
        self.each("method", full, tags(a), tags(b), |d, n, x, y| {
            let what = format!("method {}", shown(n));
            d.options(&what, x.message(4), y.message(4), Kind::MethodOptions);
            d.rest(&what, x, y, &[1, 4]);
        });
        self.rest(&what, a, b, &[1, service::METHOD, 3]);
    }
}
