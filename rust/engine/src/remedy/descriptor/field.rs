//! A field added, and a field's options and default set, as protoc records them.

use std::collections::BTreeSet;

use super::change::{check_number, feature, set_label, want_bool};
use super::default;
use super::find::{join, Scope, Syntax};
use super::naming;
use super::tags::{features, field, file, message, options};
use super::tree::{Kind, Message, Tree, Value as Wire};
use crate::remedy::edit::{FieldOption, FieldType, NewField, Value};
use crate::remedy::print;

/// Adds `new` at the end of the message (or of its oneof `oneof`); the real oneof's index, if
/// it went into one.
pub(super) fn add_field(
    tree: &mut Tree,
    scope: &Scope,
    oneof: Option<&str>,
    new: &NewField,
    synthetic: &BTreeSet<i32>,
) -> Result<Option<i32>, String> {
    let name = print::identifier(&new.name, "a field name").map_err(|e| e.to_string())?;
    check_number(new.number)?;
    let syntax = tree.file(scope.file).map_or(Syntax::Proto2, Syntax::of);
    let json = tree.file(scope.file).is_some_and(carries_json_names);
    let full = tree.full_name(scope).ok_or("the message went missing")?;
    let m = tree.scope(scope).ok_or("the message went missing")?;
    let in_oneof = match oneof {
        Some(o) => Some(
            m.messages(message::ONEOF_DECL)
                .position(|d| d.name() == Some(o))
                .map(|i| i as i32)
                .filter(|i| !synthetic.contains(i))
                .ok_or_else(|| {
                    format!("the message has no oneof {}", crate::text::bound(o, 100))
                })?,
        ),
        None => None,
    };
    let mut f = Message::new(Kind::Field);
    f.push(field::NAME, text(name));
    f.push(field::NUMBER, Wire::Varint(u64::from(new.number)));
    let mut entry = None;
    match &new.ty {
        FieldType::Map { key, value } => {
            if new.label.is_some() || in_oneof.is_some() {
                return Err("a map field takes no label and is in no oneof".into());
            }
            let entry_name = naming::map_entry(name);
            f.push(field::LABEL, Wire::Varint(field::LABEL_REPEATED));
            f.push(field::TYPE, Wire::Varint(field::TYPE_MESSAGE));
            f.push(
                field::TYPE_NAME,
                text(&format!(".{}", join(&full, &entry_name))),
            );
            let mut key_field = entry_field("key", 1, json);
            key_field.push(field::TYPE, Wire::Varint(*key as u64));
            let mut value_field = entry_field("value", 2, json);
            set_type(tree, &mut value_field, value)?;
            let mut e = Message::new(Kind::Message);
            e.push(message::NAME, text(&entry_name));
            e.push(message::FIELD, Wire::Message(key_field));
            e.push(message::FIELD, Wire::Message(value_field));
            let mut o = Message::new(Kind::MessageOptions);
            o.push(options::MESSAGE_MAP_ENTRY, Wire::Varint(1));
            e.push(message::OPTIONS, Wire::Message(o));
            entry = Some(e);
        }
        ty => {
            if in_oneof.is_some() && new.label.is_some() {
                return Err("a field of a oneof takes no label".into());
            }
            f.push(field::LABEL, Wire::Varint(field::LABEL_OPTIONAL));
            set_type(tree, &mut f, ty)?;
            if in_oneof.is_none() {
                set_label(&mut f, syntax, new.label)?;
            }
        }
    }
    for (option, value) in &new.options {
        let set_before = option_is_set(&f, *option);
        if set_before {
            return Err(format!("option {} is set twice", option.name()));
        }
        set_field_option(&mut f, syntax, in_oneof.is_some(), *option, value)?;
    }
    if json {
        f.push(field::JSON_NAME, text(&naming::json_name(name)));
    }
    check_default(tree, &f)?;
    if let Some(mut e) = entry {
        // protoc gives a map's key and value fields the features written on the map field.
        if let Some(features) = f
            .message(field::OPTIONS)
            .and_then(|o| o.message(options::FIELD_FEATURES))
        {
            for part in e.messages_mut(message::FIELD) {
                let mut o = Message::new(Kind::FieldOptions);
                o.push(options::FIELD_FEATURES, Wire::Message(features.clone()));
                part.push(field::OPTIONS, Wire::Message(o));
            }
        }
        let m = tree.scope_mut(scope).ok_or("the message went missing")?;
        m.push(message::NESTED_TYPE, Wire::Message(e));
    }
    let m = tree.scope_mut(scope).ok_or("the message went missing")?;
    m.push(message::FIELD, Wire::Message(f));
    Ok(in_oneof)
}

fn text(s: &str) -> Wire {
    Wire::Bytes(s.as_bytes().to_vec())
}

/// A map entry's `key` or `value` field, without its type.
fn entry_field(name: &str, number: u64, json: bool) -> Message {
    let mut f = Message::new(Kind::Field);
    f.push(field::NAME, text(name));
    f.push(field::NUMBER, Wire::Varint(number));
    f.push(field::LABEL, Wire::Varint(field::LABEL_OPTIONAL));
    if json {
        f.push(field::JSON_NAME, text(name));
    }
    f
}

/// `type`, and `type_name` for a message or an enum, which must be in the set.
fn set_type(tree: &Tree, f: &mut Message, ty: &FieldType) -> Result<(), String> {
    let (number, full) = match ty {
        FieldType::Scalar(s) => {
            f.set_varint(field::TYPE, *s as u64);
            return Ok(());
        }
        FieldType::Message(full) => {
            tree.find_message(full).ok_or_else(|| {
                format!(
                    "message {} is not in the schema",
                    crate::text::bound(full, 200)
                )
            })?;
            (field::TYPE_MESSAGE, full)
        }
        FieldType::Enum(full) => {
            tree.find_enum(full).ok_or_else(|| {
                format!(
                    "enum {} is not in the schema",
                    crate::text::bound(full, 200)
                )
            })?;
            (field::TYPE_ENUM, full)
        }
        FieldType::Map { .. } => return Err("a map's value cannot be a map".into()),
    };
    let written = print::type_name(full).map_err(|e| e.to_string())?;
    f.set_varint(field::TYPE, number);
    f.set_string(field::TYPE_NAME, &written);
    Ok(())
}

/// Whether the set's compiler wrote JSON names: protoc and protox write one for every field;
/// the descriptors generated code embeds have none.
fn carries_json_names(file_proto: &Message) -> bool {
    fn any(m: &Message, tag: u32) -> bool {
        m.messages(tag).any(|n| {
            n.messages(message::FIELD).any(|f| f.has(field::JSON_NAME))
                || any(n, message::NESTED_TYPE)
        })
    }
    any(file_proto, file::MESSAGE_TYPE)
}

fn option_is_set(f: &Message, option: FieldOption) -> bool {
    let opts = f.message(field::OPTIONS);
    let feats = opts.and_then(|o| o.message(options::FIELD_FEATURES));
    match option {
        FieldOption::Default => f.has(field::DEFAULT_VALUE),
        FieldOption::Packed => opts.is_some_and(|o| o.has(options::FIELD_PACKED)),
        FieldOption::Deprecated => opts.is_some_and(|o| o.has(options::FIELD_DEPRECATED)),
        other => feats.is_some_and(|s| s.has(feature_number(other))),
    }
}

fn feature_number(option: FieldOption) -> u32 {
    match option {
        FieldOption::FieldPresence => features::FIELD_PRESENCE,
        FieldOption::RepeatedFieldEncoding => features::REPEATED_FIELD_ENCODING,
        FieldOption::Utf8Validation => features::UTF8_VALIDATION,
        _ => features::MESSAGE_ENCODING,
    }
}

/// Sets a field option (or the default) where protoc records it, refusing what protoc refuses
/// of it.
pub(super) fn set_field_option(
    f: &mut Message,
    syntax: Syntax,
    in_oneof: bool,
    option: FieldOption,
    value: &Value,
) -> Result<(), String> {
    let repeated = f.varint(field::LABEL) == Some(field::LABEL_REPEATED);
    let ty = f.varint(field::TYPE).unwrap_or(0);
    let message_typed = ty == field::TYPE_MESSAGE || ty == field::TYPE_GROUP;
    let scalar_numeric = !message_typed && ty != 9 && ty != 12 && ty != 0;
    let editions = matches!(syntax, Syntax::Editions(_));
    match option {
        FieldOption::Default => {
            if syntax == Syntax::Proto3 {
                return Err("proto3 fields have no declared defaults".into());
            }
            if repeated || message_typed {
                return Err("only singular scalar and enum fields have defaults".into());
            }
            let stored = print::descriptor_default(value).map_err(|e| e.to_string())?;
            f.set_string(field::DEFAULT_VALUE, &stored);
            return Ok(());
        }
        FieldOption::Packed | FieldOption::Deprecated => {
            if option == FieldOption::Packed {
                if editions {
                    return Err("Editions set packing with features.repeated_field_encoding".into());
                }
                if !repeated || !scalar_numeric {
                    return Err("only repeated scalar numeric and enum fields are packed".into());
                }
            }
            let number = if option == FieldOption::Packed {
                options::FIELD_PACKED
            } else {
                options::FIELD_DEPRECATED
            };
            let b = want_bool(value)?;
            options_of(f)?.set_varint(number, u64::from(b));
            return Ok(());
        }
        _ => {}
    }
    if !editions {
        return Err("features are set only in Editions files".into());
    }
    let which = feature_number(option);
    let n = feature(which, value)?;
    match option {
        FieldOption::FieldPresence if repeated || in_oneof => {
            return Err("a repeated field or a oneof's field cannot set its presence".into())
        }
        FieldOption::FieldPresence if message_typed && n == 2 => {
            return Err("a message field always has presence".into())
        }
        FieldOption::RepeatedFieldEncoding if !repeated || !scalar_numeric => {
            return Err("only repeated scalar numeric and enum fields set their encoding".into())
        }
        FieldOption::MessageEncoding if !message_typed => {
            return Err("only message fields set their encoding".into())
        }
        _ => {}
    }
    options_of(f)?
        .message_mut_or_new(options::FIELD_FEATURES)
        .ok_or("the field's features are not a message")?
        .set_varint(which, n);
    Ok(())
}

fn options_of(f: &mut Message) -> Result<&mut Message, String> {
    f.message_mut_or_new(field::OPTIONS)
        .ok_or_else(|| "the field's options are not a message".into())
}

/// The field's default, if it declares one, is a value of its type (for an enum field, the
/// name of one of the enum's values), as protoc requires.
pub(super) fn check_default(tree: &Tree, f: &Message) -> Result<(), String> {
    let Some(text) = f.string(field::DEFAULT_VALUE) else {
        return Ok(());
    };
    let ty = f.varint(field::TYPE).unwrap_or(0);
    let bad = || {
        format!(
            "`{}` is not a default of the field's type",
            crate::text::bound(text, 100)
        )
    };
    match default::parse(text, ty).ok_or_else(bad)? {
        default::Parsed::Enum(name) => {
            let full = f
                .string(field::TYPE_NAME)
                .unwrap_or("")
                .trim_start_matches('.');
            let e = tree
                .find_enum(full)
                .and_then(|p| tree.enum_at(&p))
                .ok_or_else(bad)?;
            if !e
                .messages(super::tags::enums::VALUE)
                .any(|v| v.name() == Some(name.as_str()))
            {
                return Err(bad());
            }
        }
        default::Parsed::Int(v) if !fits(ty, v) => return Err(bad()),
        _ => {}
    }
    Ok(())
}

fn fits(ty: u64, v: i128) -> bool {
    match ty {
        5 | 15 | 17 => i32::try_from(v).is_ok(),
        3 | 16 | 18 => i64::try_from(v).is_ok(),
        7 | 13 => u32::try_from(v).is_ok(),
        _ => u64::try_from(v).is_ok(),
    }
}
