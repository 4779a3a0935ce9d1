//! What protoc would refuse of the edited set, refused: two declarations of one name in a
//! scope, two fields of one number, a reserved number or name used, enum values protoc does
//! not take. Only where the remedy changed something; the error names the edit that did.

use std::collections::HashSet;

use super::apply::{refuse, syntax_of, Target, TypeAt};
use super::find::{package, EnumPath, Scope, Syntax};
use super::tags::{enums, file, message, options};
use super::tree::{Message, Tree};
use crate::remedy::edit::Edit;
use crate::text::bound;

pub(super) fn validate(tree: &Tree, edits: &[Edit], targets: &[Target]) -> Result<(), String> {
    // Each changed declaration is looked at once, whatever number of edits changed it (a oneof
    // of thousands of fields moved is one message to check, not thousands), and a refusal
    // names the first edit that changed it.
    let mut checked: HashSet<Checked> = HashSet::new();
    for (edit, target) in edits.iter().zip(targets) {
        let check = match target {
            Target::Field { message, .. } | Target::Message(message) => {
                Checked::Message(message.clone())
            }
            Target::Enum(path) | Target::EnumValue { path, .. } => Checked::Enum(path.clone()),
            Target::Type(TypeAt::Message(scope)) => Checked::Scope(parent(scope)),
            Target::Type(TypeAt::Enum(path)) => Checked::Scope(path.scope.clone()),
            Target::File(_) => continue,
        };
        if checked.insert(check.clone()) {
            check_checked(tree, &check).map_err(|why| refuse(edit, &why))?;
        }
    }
    Ok(())
}

/// A declaration [`validate`] looks at.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Checked {
    /// A message's fields, and the names of its scope.
    Message(Scope),
    /// An enum's values, and the names of its scope.
    Enum(EnumPath),
    /// The names declared in a scope.
    Scope(Scope),
}

fn check_checked(tree: &Tree, check: &Checked) -> Result<(), String> {
    match check {
        Checked::Message(message) => {
            check_message(tree, message).and_then(|()| check_scope(tree, message))
        }
        Checked::Enum(path) => check_enum(tree, path).and_then(|()| check_scope(tree, &path.scope)),
        Checked::Scope(scope) => check_scope(tree, scope),
    }
}

fn parent(scope: &Scope) -> Scope {
    let mut up = scope.clone();
    up.nested.pop();
    up
}

fn once<'n>(
    names: impl IntoIterator<Item = &'n str>,
    what: &str,
    scope: &str,
) -> Result<(), String> {
    let mut seen = HashSet::new();
    for name in names {
        if !seen.insert(name) {
            return Err(format!(
                "{} declares {what} `{}` twice",
                bound(scope, 200),
                bound(name, 100)
            ));
        }
    }
    Ok(())
}

/// Fields: each name and number once, each number one a field may have.
fn check_message(tree: &Tree, scope: &Scope) -> Result<(), String> {
    let m = tree.scope(scope).ok_or("the message went missing")?;
    let name = tree.full_name(scope).unwrap_or_default();
    let fields: Vec<&Message> = m.messages(message::FIELD).collect();
    once(fields.iter().filter_map(|f| f.name()), "a field", &name)?;
    let mut numbers = HashSet::new();
    let ranges: Vec<(i64, i64)> = [message::RESERVED_RANGE, message::EXTENSION_RANGE]
        .iter()
        .flat_map(|&t| m.messages(t))
        .map(|r| {
            (
                i64::from(r.int32(1).unwrap_or(0)),
                i64::from(r.int32(2).unwrap_or(0)),
            )
        })
        .collect();
    let reserved: HashSet<&str> = m.strings(message::RESERVED_NAME).collect();
    for f in &fields {
        let number = i64::from(f.int32(super::tags::field::NUMBER).unwrap_or(0));
        let field_name = bound(f.name().unwrap_or(""), 100);
        if !(1..=536_870_911).contains(&number) || (19_000..=19_999).contains(&number) {
            return Err(format!(
                "field {field_name} of {name} has number {number}, which no field may have"
            ));
        }
        if !numbers.insert(number) {
            return Err(format!(
                "{} has two fields numbered {number}",
                bound(&name, 200)
            ));
        }
        if ranges
            .iter()
            .any(|&(start, end)| start <= number && number < end)
        {
            return Err(format!(
                "{} reserves number {number} (or keeps it for extensions), which field {field_name} uses",
                bound(&name, 200)
            ));
        }
        if f.name().is_some_and(|n| reserved.contains(n)) {
            return Err(format!(
                "{} reserves the name {field_name}",
                bound(&name, 200)
            ));
        }
    }
    Ok(())
}

/// Values: each name once, each number once unless aliases are allowed, none reserved, and a
/// proto3 enum's first value zero.
fn check_enum(tree: &Tree, path: &EnumPath) -> Result<(), String> {
    let e = tree.enum_at(path).ok_or("the enum went missing")?;
    let name = super::find::join(
        &tree.full_name(&path.scope).unwrap_or_default(),
        e.name().unwrap_or(""),
    );
    let values: Vec<&Message> = e.messages(enums::VALUE).collect();
    once(values.iter().filter_map(|v| v.name()), "a value", &name)?;
    let aliases = e
        .message(enums::OPTIONS)
        .and_then(|o| o.bool(options::ENUM_ALLOW_ALIAS))
        == Some(true);
    let mut numbers = HashSet::new();
    let reserved: Vec<(i32, i32)> = e
        .messages(4)
        .map(|r| (r.int32(1).unwrap_or(0), r.int32(2).unwrap_or(0)))
        .collect();
    let reserved_names: HashSet<&str> = e.strings(5).collect();
    for v in &values {
        let number = v.int32(2).unwrap_or(0);
        if !numbers.insert(number) && !aliases {
            return Err(format!(
                "{} has two values numbered {number} and does not allow aliases",
                bound(&name, 200)
            ));
        }
        if reserved
            .iter()
            .any(|&(start, end)| start <= number && number <= end)
            || v.name().is_some_and(|n| reserved_names.contains(n))
        {
            return Err(format!(
                "{} reserves value {} or its number",
                bound(&name, 200),
                bound(v.name().unwrap_or(""), 100)
            ));
        }
    }
    if syntax_of(tree, &path.scope) == Syntax::Proto3
        && values.first().and_then(|v| v.int32(2)).unwrap_or(0) != 0
    {
        return Err(format!(
            "{}: a proto3 enum's first value must be 0",
            bound(&name, 200)
        ));
    }
    Ok(())
}

/// Each name declared in a scope once: fields, oneofs, messages, enums and (C++ scoping) the
/// values of its enums; at a file's top, across every file of the package.
fn check_scope(tree: &Tree, scope: &Scope) -> Result<(), String> {
    let mut names: Vec<&str> = Vec::new();
    let (label, holders): (String, Vec<&Message>) = if scope.nested.is_empty() {
        let pkg = tree.file(scope.file).map(package).unwrap_or("");
        (
            if pkg.is_empty() {
                "the root package".to_owned()
            } else {
                format!("package {pkg}")
            },
            tree.files().filter(|f| package(f) == pkg).collect(),
        )
    } else {
        (
            tree.full_name(scope).unwrap_or_default(),
            tree.scope(scope).into_iter().collect(),
        )
    };
    for h in holders {
        let tags: &[u32] = if scope.nested.is_empty() {
            &[file::MESSAGE_TYPE, file::SERVICE, file::EXTENSION]
        } else {
            &[
                message::FIELD,
                message::EXTENSION,
                message::NESTED_TYPE,
                message::ONEOF_DECL,
            ]
        };
        let enum_tag = if scope.nested.is_empty() {
            file::ENUM_TYPE
        } else {
            message::ENUM_TYPE
        };
        for &t in tags {
            names.extend(h.messages(t).filter_map(Message::name));
        }
        for e in h.messages(enum_tag) {
            names.extend(e.name());
            names.extend(e.messages(enums::VALUE).filter_map(Message::name));
        }
    }
    once(names, "the name", &label)
}
