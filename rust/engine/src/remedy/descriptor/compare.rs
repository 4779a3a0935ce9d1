//! The set the compiler made of the edited files against the set the remedies meant: every
//! declaration, option and import that differs, in words. Only what compilers legitimately
//! vary in is left out: source info; the order of fields, of declarations of a scope and of
//! imports; oneofs by index (a field's oneof is compared by name); JSON names where one side
//! has none; how a default is spelled (compared by value); entries of different field numbers
//! in another order. Everything else, unknown fields and custom options included, must match.

use std::collections::BTreeMap;
use std::fmt;

use super::entries::{canonical, differing, options, presence};
use super::find::{join, package};
use super::tags::{file, message};
use super::tree::{Kind, Message, Tree};
use crate::text::bound;

/// One difference: the file it is in, and what differs there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub file: String,
    pub what: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.what)
    }
}

/// A name from a schema, made printable and bounded.
pub(super) fn shown(name: &str) -> String {
    bound(name, 200)
}

/// Every difference between the `intended` set and the `compiled` one.
pub fn differences(intended: &Tree, compiled: &Tree) -> Vec<Difference> {
    let mut out = Vec::new();
    let (a, b) = (named(intended.files()), named(compiled.files()));
    for (name, fa) in &a {
        let mut diff = Diff {
            file: shown(name),
            out: &mut out,
        };
        match b.get(name) {
            Some(fb) => diff.file_protos(fa, fb),
            None => diff.say("the file is missing".into()),
        }
    }
    for name in b.keys().filter(|n| !a.contains_key(*n)) {
        out.push(Difference {
            file: shown(name),
            what: "the file is there, but no fix adds it".into(),
        });
    }
    out
}

/// Declarations by name; a nameless or twice-named one under a name no other has.
fn named<'m>(items: impl Iterator<Item = &'m Message>) -> BTreeMap<String, &'m Message> {
    let mut out = BTreeMap::new();
    for (i, m) in items.enumerate() {
        let name = m.name().unwrap_or("").to_owned();
        let key = if out.contains_key(&name) {
            format!("{name}#{i}")
        } else {
            name
        };
        out.insert(key, m);
    }
    out
}

pub(super) struct Diff<'o> {
    file: String,
    out: &'o mut Vec<Difference>,
}

impl Diff<'_> {
    pub(super) fn say(&mut self, what: String) {
        self.out.push(Difference {
            file: self.file.clone(),
            what,
        });
    }

    /// Declarations of one kind in one scope, matched by name: each pair compared by
    /// `compare`, each one-sided said so.
    pub(super) fn each<'m>(
        &mut self,
        what: &str,
        scope: &str,
        a: impl Iterator<Item = &'m Message>,
        b: impl Iterator<Item = &'m Message>,
        mut compare: impl FnMut(&mut Self, &str, &'m Message, &'m Message),
    ) {
        let (a, b) = (named(a), named(b));
        for (name, x) in &a {
            let full = join(scope, name);
            match b.get(name) {
                Some(y) => compare(self, &full, x, y),
                None => self.say(format!("{what} {} is missing", shown(&full))),
            }
        }
        for name in b.keys().filter(|n| !a.contains_key(*n)) {
            let full = join(scope, name);
            self.say(format!(
                "{what} {} is there, but no fix adds it",
                shown(&full)
            ));
        }
    }

    /// Entries other than those compared by name, each said by its field number.
    pub(super) fn rest(&mut self, what: &str, a: &Message, b: &Message, handled: &[u32]) {
        for (n, here, there) in differing(a, b, handled) {
            self.say(format!(
                "{what}: descriptor field {n} {}",
                presence(here, there)
            ));
        }
    }

    pub(super) fn options(
        &mut self,
        what: &str,
        a: Option<&Message>,
        b: Option<&Message>,
        kind: Kind,
    ) {
        for line in options(a, b, kind) {
            self.say(format!("{what}: {line}"));
        }
    }

    fn file_protos(&mut self, a: &Message, b: &Message) {
        let pkg = package(a);
        if pkg != package(b) {
            self.say(format!(
                "package differs ({} intended, {} compiled)",
                shown(pkg),
                shown(package(b))
            ));
        }
        let syntax = |f: &Message| f.string(file::SYNTAX).unwrap_or("proto2").to_owned();
        if syntax(a) != syntax(b) || a.int32(file::EDITION) != b.int32(file::EDITION) {
            self.say("syntax or edition differs".into());
        }
        self.imports(a, b);
        self.options(
            "file",
            a.message(file::OPTIONS),
            b.message(file::OPTIONS),
            Kind::FileOptions,
        );
        let tags = kids;
        self.each(
            "message",
            pkg,
            tags(a, file::MESSAGE_TYPE),
            tags(b, file::MESSAGE_TYPE),
            |d, n, x, y| d.messages(n, x, y),
        );
        self.each(
            "enum",
            pkg,
            tags(a, file::ENUM_TYPE),
            tags(b, file::ENUM_TYPE),
            |d, n, x, y| d.enums(n, x, y),
        );
        self.each(
            "service",
            pkg,
            tags(a, file::SERVICE),
            tags(b, file::SERVICE),
            |d, n, x, y| d.services(n, x, y),
        );
        self.each(
            "extension",
            pkg,
            tags(a, file::EXTENSION),
            tags(b, file::EXTENSION),
            |d, n, x, y| d.fields(n, x, y, &[], &[]),
        );
        self.rest(
            "file",
            a,
            b,
            &[
                file::NAME,
                file::PACKAGE,
                file::DEPENDENCY,
                file::MESSAGE_TYPE,
                file::ENUM_TYPE,
                file::SERVICE,
                file::EXTENSION,
                file::OPTIONS,
                file::SOURCE_CODE_INFO,
                file::PUBLIC_DEPENDENCY,
                file::WEAK_DEPENDENCY,
                file::SYNTAX,
                file::EDITION,
                file::OPTION_DEPENDENCY,
            ],
        );
    }

    /// Imports as sets, each with how it is imported (public, weak, option).
    fn imports(&mut self, a: &Message, b: &Message) {
        fn listed(f: &Message) -> BTreeMap<String, &'static str> {
            let deps: Vec<&str> = f.strings(file::DEPENDENCY).collect();
            let marked = |tag| -> Vec<&str> {
                f.fields
                    .iter()
                    .filter(|e| e.number == tag)
                    .filter_map(|e| match e.value {
                        super::tree::Value::Varint(i) => deps.get(i as usize).copied(),
                        _ => None,
                    })
                    .collect()
            };
            let (public, weak) = (
                marked(file::PUBLIC_DEPENDENCY),
                marked(file::WEAK_DEPENDENCY),
            );
            let mut out = BTreeMap::new();
            for d in &deps {
                let how = if public.contains(d) {
                    "import public"
                } else if weak.contains(d) {
                    "import weak"
                } else {
                    "import"
                };
                out.insert((*d).to_owned(), how);
            }
            for d in f.strings(file::OPTION_DEPENDENCY) {
                out.insert(d.to_owned(), "import option");
            }
            out
        }
        let (x, y) = (listed(a), listed(b));
        for (name, how) in &y {
            match x.get(name) {
                None => self.say(format!(
                    "{how} \"{}\" is there, but no fix adds it",
                    shown(name)
                )),
                Some(h) if h != how => self.say(format!(
                    "import \"{}\" is `{h}` intended, `{how}` compiled",
                    shown(name)
                )),
                _ => {}
            }
        }
        for (name, how) in &x {
            if !y.contains_key(name) {
                self.say(format!("{how} \"{}\" is missing", shown(name)));
            }
        }
    }

    fn messages(&mut self, full: &str, a: &Message, b: &Message) {
        let what = format!("message {}", shown(full));
        self.options(
            &what,
            a.message(message::OPTIONS),
            b.message(message::OPTIONS),
            Kind::MessageOptions,
        );
        let oneofs = |m: &Message| -> Vec<String> {
            m.messages(message::ONEOF_DECL)
                .map(|o| o.name().unwrap_or("").to_owned())
                .collect()
        };
        let (oa, ob) = (oneofs(a), oneofs(b));
        let tags = kids;
        self.each(
            "field",
            full,
            tags(a, message::FIELD),
            tags(b, message::FIELD),
            |d, n, x, y| d.fields(n, x, y, &oa, &ob),
        );
        self.each(
            "extension",
            full,
            tags(a, message::EXTENSION),
            tags(b, message::EXTENSION),
            |d, n, x, y| d.fields(n, x, y, &oa, &ob),
        );
        self.each(
            "oneof",
            full,
            tags(a, message::ONEOF_DECL),
            tags(b, message::ONEOF_DECL),
            |d, n, x, y| {
                let what = format!("oneof {}", shown(n));
                d.options(&what, x.message(2), y.message(2), Kind::OneofOptions);
                d.rest(&what, x, y, &[1, 2]);
            },
        );
        self.each(
            "message",
            full,
            tags(a, message::NESTED_TYPE),
            tags(b, message::NESTED_TYPE),
            |d, n, x, y| d.messages(n, x, y),
        );
        self.each(
            "enum",
            full,
            tags(a, message::ENUM_TYPE),
            tags(b, message::ENUM_TYPE),
            |d, n, x, y| d.enums(n, x, y),
        );
        for (tag, name) in [
            (message::EXTENSION_RANGE, "extension ranges"),
            (message::RESERVED_RANGE, "reserved ranges"),
            (message::RESERVED_NAME, "reserved names"),
        ] {
            if sorted(a, tag) != sorted(b, tag) {
                self.say(format!("{what}: {name} differ"));
            }
        }
        self.rest(
            &what,
            a,
            b,
            &[
                message::NAME,
                message::FIELD,
                message::NESTED_TYPE,
                message::ENUM_TYPE,
                message::EXTENSION_RANGE,
                message::EXTENSION,
                message::OPTIONS,
                message::ONEOF_DECL,
                message::RESERVED_RANGE,
                message::RESERVED_NAME,
            ],
        );
    }
}

pub(super) fn kids(m: &Message, tag: u32) -> std::vec::IntoIter<&Message> {
    m.messages(tag).collect::<Vec<_>>().into_iter()
}

/// The entries of repeated field `tag`, canonical and sorted: ranges and names whose order
/// means nothing.
pub(super) fn sorted(m: &Message, tag: u32) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = m
        .fields
        .iter()
        .filter(|f| f.number == tag)
        .map(|f| {
            let one = Message {
                kind: m.kind,
                fields: vec![f.clone()],
            };
            canonical(&one).encode()
        })
        .collect();
    out.sort();
    out
}
