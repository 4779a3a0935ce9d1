//! References to renamed types renamed with them: every field's `type_name` and `extendee`
//! and every method's input and output type, in every file, where it names a renamed type or
//! a type declared in one.

use std::collections::HashMap;

use super::tags::{field, file, message, method, service};
use super::tree::{Message, Tree};

/// `renamed`: each type's full name before (`shop.Old`) and its new simple name. References
/// are rewritten part by part against the names before, so that a type renamed inside a
/// renamed type is found too.
pub(super) fn rename_references(tree: &mut Tree, renamed: &[(String, String)]) {
    let map: HashMap<String, &str> = renamed
        .iter()
        .map(|(full, name)| (format!(".{full}"), name.as_str()))
        .collect();
    let rewrite = |reference: &str| -> Option<String> {
        if !reference.starts_with('.') {
            return None;
        }
        let mut before = String::with_capacity(reference.len());
        let mut after = String::with_capacity(reference.len());
        let mut changed = false;
        for part in reference[1..].split('.') {
            before.push('.');
            before.push_str(part);
            after.push('.');
            match map.get(&before) {
                Some(name) => {
                    after.push_str(name);
                    changed = true;
                }
                None => after.push_str(part),
            }
        }
        changed.then_some(after)
    };
    let fix = |m: &mut Message, tags: &[u32]| {
        for &tag in tags {
            if let Some(renamed) = m.string(tag).and_then(rewrite) {
                m.set_string(tag, &renamed);
            }
        }
    };
    for f in tree.set.messages_mut(1) {
        for ext in f.messages_mut(file::EXTENSION) {
            fix(ext, &[field::TYPE_NAME, field::EXTENDEE]);
        }
        for s in f.messages_mut(file::SERVICE) {
            for m in s.messages_mut(service::METHOD) {
                fix(m, &[method::INPUT_TYPE, method::OUTPUT_TYPE]);
            }
        }
    }
    super::find::each_message_mut(tree, |m| {
        for tag in [message::FIELD, message::EXTENSION] {
            for f in m.messages_mut(tag) {
                fix(f, &[field::TYPE_NAME, field::EXTENDEE]);
            }
        }
    });
}
