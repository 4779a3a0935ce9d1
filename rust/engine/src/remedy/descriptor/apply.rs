//! A remedy's edits made to a descriptor set in memory: the set protoc makes of the `.proto`
//! source the CLI edits (`fix/place/`), up to what [`super::differences`] leaves out.
//!
//! Every edit names declarations as the set has them before the remedy, so all targets are
//! found first, as ordinals that adding fields and types after the others leaves valid; then
//! each edit is made; then what protoc derives from a message's text is derived again for each
//! message changed (field order within oneofs, oneofs left empty, synthetic oneofs); last,
//! what protoc would refuse is refused.

use std::collections::{BTreeMap, BTreeSet};

use super::change::{change, Renamed};
use super::check::validate;
use super::find::{field_index, value_index, EnumPath, Scope, Syntax};
use super::layout::lay_out;
use super::tags::{field, message};
use super::tree::{Message, Tree};
use crate::remedy::edit::Edit;
use crate::remedy::print;
use crate::text::bound;

/// What an edit changes, found in the set as it was.
#[derive(Debug, Clone)]
pub(super) enum Target {
    Field { message: Scope, index: usize },
    Message(Scope),
    Enum(EnumPath),
    EnumValue { path: EnumPath, index: usize },
    Type(TypeAt),
    File(usize),
}

#[derive(Debug, Clone)]
pub(super) enum TypeAt {
    Message(Scope),
    Enum(EnumPath),
}

/// How a message's fields are laid out after the remedy: what protoc reads from where the
/// edits put them in the text.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// The first edit of the message, to name when the result is refused.
    pub first_edit: usize,
    /// The oneofs protoc made for proto3 `optional` fields, by index, before the remedy.
    pub synthetic: BTreeSet<i32>,
    /// Fields added, by ordinal, with the real oneof (by index) each was added to.
    pub added: Vec<(usize, Option<i32>)>,
    /// Fields taken out of each oneof (by index), by ordinal, in the order of the edits.
    pub out_of: BTreeMap<i32, Vec<usize>>,
    /// Fields put into each oneof (by name), by ordinal, in the order of the edits.
    pub into: BTreeMap<String, Vec<usize>>,
}

/// Makes `edits` to `tree`. An edit that cannot be made (its target missing, a number out of
/// range, a name that clashes, something protoc would refuse) is an error naming it, and
/// `tree` is then left part-changed: apply to a copy.
pub fn apply(tree: &mut Tree, edits: &[Edit]) -> Result<(), String> {
    let targets = edits
        .iter()
        .map(|edit| resolve(tree, edit).map_err(|why| refuse(edit, &why)))
        .collect::<Result<Vec<Target>, String>>()?;
    let mut plans: BTreeMap<Scope, Plan> = BTreeMap::new();
    for (i, target) in targets.iter().enumerate().rev() {
        let scope = match target {
            Target::Field { message, .. } | Target::Message(message) => message,
            _ => continue,
        };
        // The message's oneofs as they were, worked out once per message.
        let plan = plans.entry(scope.clone()).or_insert_with(|| Plan {
            synthetic: tree.scope(scope).map(synthetic_oneofs).unwrap_or_default(),
            ..Plan::default()
        });
        plan.first_edit = i;
    }
    let mut renamed = Renamed::default();
    for (edit, target) in edits.iter().zip(&targets) {
        change(tree, edit, target, &mut plans, &mut renamed).map_err(|why| refuse(edit, &why))?;
    }
    renamed.finish(tree);
    for (scope, plan) in &plans {
        lay_out(tree, scope, plan).map_err(|why| refuse(&edits[plan.first_edit], &why))?;
    }
    validate(tree, edits, &targets)
}

/// `edit` as the printer says it, in an error, bounded.
pub(super) fn refuse(edit: &Edit, why: &str) -> String {
    let said = print::edit(edit).unwrap_or_else(|e| e.to_string());
    format!("cannot apply `{}`: {}", bound(&said, 300), bound(why, 300))
}

fn missing(what: &str, name: &str) -> String {
    format!("{what} {} is not in the schema", bound(name, 200))
}

fn resolve(tree: &Tree, edit: &Edit) -> Result<Target, String> {
    let message = |full: &str| {
        tree.find_message(full)
            .ok_or_else(|| missing("message", full))
    };
    let enumeration = |full: &str| tree.find_enum(full).ok_or_else(|| missing("enum", full));
    let field = |full: &str, name: &str| -> Result<Target, String> {
        let scope = message(full)?;
        let index = tree
            .scope(&scope)
            .and_then(|m| field_index(m, name))
            .ok_or_else(|| missing("field", &format!("{full}.{name}")))?;
        Ok(Target::Field {
            message: scope,
            index,
        })
    };
    Ok(match edit {
        Edit::SetNumber {
            message: m,
            field: f,
            ..
        }
        | Edit::SetName {
            message: m,
            field: f,
            ..
        }
        | Edit::SetLabel {
            message: m,
            field: f,
            ..
        }
        | Edit::SetOption {
            message: m,
            field: f,
            ..
        }
        | Edit::MoveOutOfOneof {
            message: m,
            field: f,
            ..
        }
        | Edit::MoveIntoOneof {
            message: m,
            field: f,
            ..
        } => field(m, f)?,
        Edit::AddField { message: m, .. } => Target::Message(message(m)?),
        Edit::AddEnumValue { enum_name, .. } | Edit::SetEnumOption { enum_name, .. } => {
            Target::Enum(enumeration(enum_name)?)
        }
        Edit::SetEnumNumber {
            enum_name, value, ..
        } => {
            let path = enumeration(enum_name)?;
            let index = tree
                .enum_at(&path)
                .and_then(|e| value_index(e, value))
                .ok_or_else(|| missing("enum value", &format!("{enum_name}.{value}")))?;
            Target::EnumValue { path, index }
        }
        Edit::RenameType { type_name, .. } => match tree.find_message(type_name) {
            Some(scope) => Target::Type(TypeAt::Message(scope)),
            None => Target::Type(TypeAt::Enum(enumeration(type_name)?)),
        },
        Edit::SetFileOption { message: m, .. } | Edit::SetEdition { message: m, .. } => {
            Target::File(message(m)?.file)
        }
    })
}

/// The oneofs of `message_proto` that only proto3 `optional` fields are in.
pub(super) fn synthetic_oneofs(message_proto: &Message) -> BTreeSet<i32> {
    let mut synthetic = BTreeSet::new();
    let mut real = BTreeSet::new();
    for f in message_proto.messages(message::FIELD) {
        if let Some(i) = f.int32(field::ONEOF_INDEX) {
            if f.bool(field::PROTO3_OPTIONAL) == Some(true) {
                synthetic.insert(i);
            } else {
                real.insert(i);
            }
        }
    }
    synthetic.difference(&real).copied().collect()
}

/// The syntax of the file `scope` is in.
pub(super) fn syntax_of(tree: &Tree, scope: &Scope) -> Syntax {
    tree.file(scope.file).map_or(Syntax::Proto2, Syntax::of)
}
