//! Finding declarations in a [`Tree`] by full name (`shop.Order.Item`), and where they are:
//! paths of ordinals that stay valid while fields and types are only added after others.

use super::tags::{enums, file, message};
use super::tree::{Message, Tree};

/// A file's syntax, as its `syntax` and `edition` fields say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Proto2,
    Proto3,
    /// `Edition` enum number: 1000 for 2023, 1001 for 2024.
    Editions(i32),
}

impl Syntax {
    pub fn of(file_proto: &Message) -> Syntax {
        match file_proto.string(file::SYNTAX) {
            Some("proto3") => Syntax::Proto3,
            Some("editions") => Syntax::Editions(file_proto.int32(file::EDITION).unwrap_or(0)),
            _ => Syntax::Proto2,
        }
    }
}

/// A file's package, empty if it has none.
pub fn package(file_proto: &Message) -> &str {
    file_proto.string(file::PACKAGE).unwrap_or("")
}

/// Where a message is: its file, then its ordinal among the file's messages, then among each
/// enclosing message's nested ones. With no ordinals, the file itself (the scope of its
/// top-level declarations).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scope {
    pub file: usize,
    pub nested: Vec<usize>,
}

/// Where an enum is: its scope and its ordinal there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumPath {
    pub scope: Scope,
    pub index: usize,
}

/// The field numbers a scope's messages and enums are under.
fn tags(top: bool) -> (u32, u32) {
    if top {
        (file::MESSAGE_TYPE, file::ENUM_TYPE)
    } else {
        (message::NESTED_TYPE, message::ENUM_TYPE)
    }
}

impl Tree {
    /// The file or message `scope` names.
    pub fn scope(&self, scope: &Scope) -> Option<&Message> {
        let mut at = self.file(scope.file)?;
        for (depth, &i) in scope.nested.iter().enumerate() {
            at = at.messages(tags(depth == 0).0).nth(i)?;
        }
        Some(at)
    }

    pub fn scope_mut(&mut self, scope: &Scope) -> Option<&mut Message> {
        let mut at = self.file_mut(scope.file)?;
        for (depth, &i) in scope.nested.iter().enumerate() {
            at = at.messages_mut(tags(depth == 0).0).nth(i)?;
        }
        Some(at)
    }

    pub fn enum_at(&self, path: &EnumPath) -> Option<&Message> {
        let (_, enum_tag) = tags(path.scope.nested.is_empty());
        self.scope(&path.scope)?.messages(enum_tag).nth(path.index)
    }

    pub fn enum_at_mut(&mut self, path: &EnumPath) -> Option<&mut Message> {
        let (_, enum_tag) = tags(path.scope.nested.is_empty());
        self.scope_mut(&path.scope)?
            .messages_mut(enum_tag)
            .nth(path.index)
    }

    /// The message named `full` (`shop.Order.Item`, without a leading dot).
    pub fn find_message(&self, full: &str) -> Option<Scope> {
        self.candidates(full).into_iter().find_map(|(file, parts)| {
            let scope = self.descend(file, &parts)?;
            (!scope.nested.is_empty()).then_some(scope)
        })
    }

    /// The enum named `full`.
    pub fn find_enum(&self, full: &str) -> Option<EnumPath> {
        self.candidates(full).into_iter().find_map(|(file, parts)| {
            let (last, outer) = parts.split_last()?;
            let scope = self.descend(file, outer)?;
            let (_, enum_tag) = tags(scope.nested.is_empty());
            let index = self
                .scope(&scope)?
                .messages(enum_tag)
                .position(|e| e.name() == Some(last))?;
            Some(EnumPath { scope, index })
        })
    }

    /// The full name of a scope (a message's; a file's package).
    pub fn full_name(&self, scope: &Scope) -> Option<String> {
        let mut name = package(self.file(scope.file)?).to_owned();
        let mut at = self.file(scope.file)?;
        for (depth, &i) in scope.nested.iter().enumerate() {
            at = at.messages(tags(depth == 0).0).nth(i)?;
            if !name.is_empty() {
                name.push('.');
            }
            name.push_str(at.name().unwrap_or(""));
        }
        Some(name)
    }

    /// Each file whose package `full` is in, with the rest of `full` as its parts.
    fn candidates<'n>(&self, full: &'n str) -> Vec<(usize, Vec<&'n str>)> {
        self.files()
            .enumerate()
            .filter_map(|(i, f)| {
                let pkg = package(f);
                let rest = if pkg.is_empty() {
                    full
                } else {
                    full.strip_prefix(pkg)?.strip_prefix('.')?
                };
                Some((i, rest.split('.').collect()))
            })
            .collect()
    }

    /// The scope reached from file `file` through the messages named `parts`.
    fn descend(&self, file: usize, parts: &[&str]) -> Option<Scope> {
        let mut scope = Scope {
            file,
            nested: Vec::new(),
        };
        let mut at = self.file(file)?;
        for part in parts {
            let (message_tag, _) = tags(scope.nested.is_empty());
            let index = at
                .messages(message_tag)
                .position(|m| m.name() == Some(part))?;
            at = at.messages(message_tag).nth(index)?;
            scope.nested.push(index);
        }
        Some(scope)
    }
}

/// The ordinal of the field named `name` among the message's fields.
pub fn field_index(message_proto: &Message, name: &str) -> Option<usize> {
    message_proto
        .messages(message::FIELD)
        .position(|f| f.name() == Some(name))
}

/// The ordinal of the value named `name` among the enum's values.
pub fn value_index(enum_proto: &Message, name: &str) -> Option<usize> {
    enum_proto
        .messages(enums::VALUE)
        .position(|v| v.name() == Some(name))
}

/// Every message of the set, nested ones included, with its full name: depth first, in
/// declaration order. Bounded by the tree's depth, which parsing bounds.
pub fn each_message<'t>(tree: &'t Tree, mut visit: impl FnMut(&str, &'t Message)) {
    fn walk<'t>(prefix: &str, m: &'t Message, tag: u32, visit: &mut impl FnMut(&str, &'t Message)) {
        for nested in m.messages(tag) {
            let name = join(prefix, nested.name().unwrap_or(""));
            visit(&name, nested);
            walk(&name, nested, message::NESTED_TYPE, visit);
        }
    }
    for f in tree.files() {
        walk(package(f), f, file::MESSAGE_TYPE, &mut visit);
    }
}

/// Every message of the set, mutable; the order of [`each_message`].
pub fn each_message_mut(tree: &mut Tree, mut visit: impl FnMut(&mut Message)) {
    fn walk(m: &mut Message, tag: u32, visit: &mut impl FnMut(&mut Message)) {
        for nested in m.messages_mut(tag) {
            visit(nested);
            walk(nested, message::NESTED_TYPE, visit);
        }
    }
    for f in tree.set.messages_mut(1) {
        walk(f, file::MESSAGE_TYPE, &mut visit);
    }
}

/// `prefix.name`, or `name` at the root.
pub fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}
