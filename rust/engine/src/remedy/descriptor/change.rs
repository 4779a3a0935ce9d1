//! Each edit made to the declaration it names, as protoc would record the edited text.

use std::collections::BTreeMap;

use super::apply::{syntax_of, Plan, Target, TypeAt};
use super::field::{add_field, check_default, set_field_option};
use super::find::{join, EnumPath, Scope, Syntax};
use super::naming;
use super::references::rename_references;
use super::tags::{enum_value, enums, field, file, message, options};
use super::tree::{Kind, Message, Tree, Value as Wire};
use crate::remedy::edit::{Edit, EnumOption, FileOption, Label, Value};
use crate::remedy::print;

/// Types renamed by the remedy: each one's full name before, and its new simple name.
#[derive(Debug, Default)]
pub(super) struct Renamed {
    pub types: Vec<(String, String)>,
}

impl Renamed {
    /// Every reference to a renamed type (or to a type in it) renamed with it, added fields'
    /// included: they name types as the set had them too.
    pub fn finish(&self, tree: &mut Tree) {
        if !self.types.is_empty() {
            rename_references(tree, &self.types);
        }
    }
}

pub(super) fn change(
    tree: &mut Tree,
    edit: &Edit,
    target: &Target,
    plans: &mut BTreeMap<Scope, Plan>,
    renamed: &mut Renamed,
) -> Result<(), String> {
    match (edit, target) {
        (Edit::SetNumber { number, .. }, Target::Field { message, index }) => {
            check_number(*number)?;
            field_at(tree, message, *index)?.set_varint(field::NUMBER, u64::from(*number));
        }
        (Edit::SetName { name, .. }, Target::Field { message, index }) => {
            set_name(tree, message, *index, name)?
        }
        (Edit::SetLabel { label, .. }, Target::Field { message, index }) => {
            let syntax = syntax_of(tree, message);
            let synthetic = plan(plans, message)?.synthetic.clone();
            let f = field_at(tree, message, *index)?;
            if f.int32(field::ONEOF_INDEX)
                .is_some_and(|o| !synthetic.contains(&o))
            {
                return Err("a field of a oneof takes no label".into());
            }
            set_label(f, syntax, Some(*label))?;
        }
        (
            Edit::SetOption { option, value, .. },
            Target::Field {
                message: scope,
                index,
            },
        ) => {
            let syntax = syntax_of(tree, scope);
            let in_oneof = {
                let synthetic = &plan(plans, scope)?.synthetic;
                let f = field_at(tree, scope, *index)?;
                f.int32(field::ONEOF_INDEX)
                    .is_some_and(|o| !synthetic.contains(&o))
            };
            set_field_option(
                field_at(tree, scope, *index)?,
                syntax,
                in_oneof,
                *option,
                value,
            )?;
            let f = tree
                .scope(scope)
                .and_then(|m| m.messages(message::FIELD).nth(*index))
                .ok_or("the field went missing")?;
            check_default(tree, f)?;
        }
        (
            Edit::AddField {
                oneof, field: new, ..
            },
            Target::Message(scope),
        ) => {
            let ordinal = tree
                .scope(scope)
                .map_or(0, |m| m.messages(message::FIELD).count());
            let in_oneof = add_field(
                tree,
                scope,
                oneof.as_deref(),
                new,
                &plan(plans, scope)?.synthetic,
            )?;
            plan(plans, scope)?.added.push((ordinal, in_oneof));
        }
        (Edit::AddEnumValue { name, number, .. }, Target::Enum(path)) => {
            print::identifier(name, "an enum value's name").map_err(|e| e.to_string())?;
            let mut value = Message::new(Kind::EnumValue);
            value.push(enum_value::NAME, Wire::Bytes(name.as_bytes().to_vec()));
            value.push(enum_value::NUMBER, Wire::Varint(int32(*number)));
            enum_at(tree, path)?.push(enums::VALUE, Wire::Message(value));
        }
        (Edit::SetEnumOption { option, value, .. }, Target::Enum(path)) => {
            let syntax = syntax_of(tree, &path.scope);
            let e = enum_at(tree, path)?;
            let opts = e
                .message_mut_or_new(enums::OPTIONS)
                .ok_or("the enum's options are not a message")?;
            match option {
                EnumOption::AllowAlias => {
                    opts.set_varint(options::ENUM_ALLOW_ALIAS, u64::from(want_bool(value)?))
                }
                EnumOption::EnumType => {
                    if !matches!(syntax, Syntax::Editions(_)) {
                        return Err("features are set only in Editions files".into());
                    }
                    let n = feature(super::tags::features::ENUM_TYPE, value)?;
                    opts.message_mut_or_new(options::ENUM_FEATURES)
                        .ok_or("the enum's features are not a message")?
                        .set_varint(super::tags::features::ENUM_TYPE, n);
                }
            }
        }
        (Edit::SetEnumNumber { number, .. }, Target::EnumValue { path, index }) => {
            enum_at(tree, path)?
                .messages_mut(enums::VALUE)
                .nth(*index)
                .ok_or("the enum value went missing")?
                .set_varint(enum_value::NUMBER, int32(*number));
        }
        (Edit::MoveOutOfOneof { label, .. }, Target::Field { message, index }) => {
            let syntax = syntax_of(tree, message);
            let synthetic = plan(plans, message)?.synthetic.clone();
            let f = field_at(tree, message, *index)?;
            let oneof = f
                .int32(field::ONEOF_INDEX)
                .filter(|o| !synthetic.contains(o))
                .ok_or("the field is in no oneof")?;
            if *label == Some(Label::Repeated) {
                return Err("a field moved out of a oneof stays singular".into());
            }
            set_label(f, syntax, *label)?;
            plan(plans, message)?
                .out_of
                .entry(oneof)
                .or_default()
                .push(*index);
        }
        (
            Edit::MoveIntoOneof { oneof, .. },
            Target::Field {
                message: scope,
                index,
            },
        ) => {
            print::identifier(oneof, "a oneof name").map_err(|e| e.to_string())?;
            let synthetic = plan(plans, scope)?.synthetic.clone();
            let m = tree.scope(scope).ok_or("the message went missing")?;
            let named = m
                .messages(message::ONEOF_DECL)
                .position(|o| o.name() == Some(oneof.as_str()))
                .map(|i| i as i32);
            if named.is_some_and(|i| synthetic.contains(&i)) {
                return Err("the oneof is one protoc made for a proto3 `optional` field".into());
            }
            let f = field_at(tree, scope, *index)?;
            if named.is_some() && f.int32(field::ONEOF_INDEX) == named {
                return Err("the field is in that oneof already".into());
            }
            if f.varint(field::LABEL) == Some(field::LABEL_REPEATED) {
                return Err("a repeated field cannot be in a oneof".into());
            }
            if f.message(field::OPTIONS)
                .and_then(|o| o.message(options::FIELD_FEATURES))
                .is_some_and(|s| s.has(super::tags::features::FIELD_PRESENCE))
            {
                return Err("a field of a oneof cannot set features.field_presence".into());
            }
            f.set_varint(field::LABEL, field::LABEL_OPTIONAL);
            f.remove(field::PROTO3_OPTIONAL);
            plan(plans, scope)?
                .into
                .entry(oneof.clone())
                .or_default()
                .push(*index);
        }
        (Edit::RenameType { type_name, name }, Target::Type(at)) => {
            print::identifier(name, "a type name").map_err(|e| e.to_string())?;
            let declared = match at {
                TypeAt::Message(scope) => tree.scope_mut(scope),
                TypeAt::Enum(path) => tree.enum_at_mut(path),
            }
            .ok_or("the type went missing")?;
            if declared
                .message(message::OPTIONS)
                .and_then(|o| o.bool(options::MESSAGE_MAP_ENTRY))
                == Some(true)
            {
                return Err("a map's entry message is named by its field".into());
            }
            declared.set_string(1, name);
            renamed.types.push((type_name.clone(), name.clone()));
        }
        (Edit::SetFileOption { option, value, .. }, Target::File(index)) => {
            let f = tree.file_mut(*index).ok_or("the file went missing")?;
            if matches!(Syntax::of(f), Syntax::Editions(_)) {
                // protoc: "use the (pb.java).utf8_validation feature".
                return Err("Editions files do not take java_string_check_utf8".into());
            }
            let opts = f
                .message_mut_or_new(file::OPTIONS)
                .ok_or("the file's options are not a message")?;
            match option {
                FileOption::JavaStringCheckUtf8 => opts.set_varint(
                    options::FILE_JAVA_STRING_CHECK_UTF8,
                    u64::from(want_bool(value)?),
                ),
            }
        }
        (Edit::SetEdition { edition, .. }, Target::File(index)) => {
            super::edition::set(tree, *index, *edition)?;
        }
        _ => return Err("the edit's target is not a declaration of its kind".into()),
    }
    Ok(())
}

fn plan<'p>(plans: &'p mut BTreeMap<Scope, Plan>, scope: &Scope) -> Result<&'p mut Plan, String> {
    plans
        .get_mut(scope)
        .ok_or_else(|| "the message has no plan".into())
}

pub(super) fn field_at<'t>(
    tree: &'t mut Tree,
    scope: &Scope,
    index: usize,
) -> Result<&'t mut Message, String> {
    tree.scope_mut(scope)
        .and_then(|m| m.messages_mut(message::FIELD).nth(index))
        .ok_or_else(|| "the field went missing".into())
}

fn enum_at<'t>(tree: &'t mut Tree, path: &EnumPath) -> Result<&'t mut Message, String> {
    tree.enum_at_mut(path)
        .ok_or_else(|| "the enum went missing".into())
}

/// An `int32` as the wire carries it: a negative one sign-extended to ten bytes.
pub(super) fn int32(number: i32) -> u64 {
    i64::from(number) as u64
}

/// A field number protoc accepts.
pub(super) fn check_number(number: u32) -> Result<(), String> {
    match number {
        1..=536_870_911 if !(19_000..=19_999).contains(&number) => Ok(()),
        _ => Err(format!(
            "{number} is not a field number a message can use (1 to 536870911, not 19000 to 19999)"
        )),
    }
}

pub(super) fn want_bool(value: &Value) -> Result<bool, String> {
    match value {
        Value::Bool(b) => Ok(*b),
        _ => Err("the option takes true or false".into()),
    }
}

/// A feature's value number, by the name written.
pub(super) fn feature(which: u32, value: &Value) -> Result<u64, String> {
    match value {
        Value::Ident(name) => super::tags::features::value(which, name)
            .ok_or_else(|| "the feature has no such value".into()),
        _ => Err("a feature takes one of its values' names".into()),
    }
}

/// Sets a field's label as the text would be compiled with `label` written (or none).
pub(super) fn set_label(
    f: &mut Message,
    syntax: Syntax,
    label: Option<Label>,
) -> Result<(), String> {
    let (number, proto3_optional) = match (syntax, label) {
        (Syntax::Proto2, None) => return Err("a proto2 field needs a label".into()),
        (Syntax::Proto3, Some(Label::Required)) => {
            return Err("proto3 has no required fields".into())
        }
        (Syntax::Editions(_), Some(Label::Optional | Label::Required)) => {
            return Err("Editions write no optional or required label".into())
        }
        (Syntax::Proto3, Some(Label::Optional)) => (field::LABEL_OPTIONAL, true),
        (_, Some(Label::Required)) => (field::LABEL_REQUIRED, false),
        (_, Some(Label::Repeated)) => (field::LABEL_REPEATED, false),
        (_, Some(Label::Optional) | None) => (field::LABEL_OPTIONAL, false),
    };
    if number != field::LABEL_REPEATED && is_map(f) {
        return Err("a map field is repeated".into());
    }
    f.set_varint(field::LABEL, number);
    if proto3_optional {
        f.set_varint(field::PROTO3_OPTIONAL, 1);
    } else {
        f.remove(field::PROTO3_OPTIONAL);
    }
    Ok(())
}

/// Whether the field's type name is one of a map's entry (`…Entry`), as far as the field says.
fn is_map(f: &Message) -> bool {
    f.varint(field::LABEL) == Some(field::LABEL_REPEATED)
        && f.varint(field::TYPE) == Some(field::TYPE_MESSAGE)
        && f.string(field::TYPE_NAME)
            .is_some_and(|t| t.ends_with("Entry"))
        && f.name().is_some_and(|n| {
            f.string(field::TYPE_NAME)
                .is_some_and(|t| t.ends_with(&format!(".{}", naming::map_entry(n))))
        })
}

/// A field renamed: its JSON name with it where it was derived from the name, and a map
/// field's entry message, which protoc names after the field.
fn set_name(tree: &mut Tree, scope: &Scope, index: usize, name: &str) -> Result<(), String> {
    print::identifier(name, "a field name").map_err(|e| e.to_string())?;
    let full = tree.full_name(scope).ok_or("the message went missing")?;
    let f = field_at(tree, scope, index)?;
    if f.varint(field::TYPE) == Some(field::TYPE_GROUP) {
        return Err("a group field is named after its group's type".into());
    }
    let old = f.name().unwrap_or("").to_owned();
    if f.string(field::JSON_NAME) == Some(naming::json_name(&old).as_str()) {
        f.set_string(field::JSON_NAME, &naming::json_name(name));
    }
    f.set_string(field::NAME, name);
    let entry = naming::map_entry(&old);
    let entry_type = format!(".{}", join(&full, &entry));
    if f.string(field::TYPE_NAME) != Some(entry_type.as_str()) {
        return Ok(());
    }
    let renamed_entry = naming::map_entry(name);
    f.set_string(
        field::TYPE_NAME,
        &format!(".{}", join(&full, &renamed_entry)),
    );
    let m = tree.scope_mut(scope).ok_or("the message went missing")?;
    if let Some(nested) = m
        .messages_mut(message::NESTED_TYPE)
        .find(|n| n.name() == Some(entry.as_str()))
    {
        nested.set_string(message::NAME, &renamed_entry);
    }
    Ok(())
}
