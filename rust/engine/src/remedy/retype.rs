//! Remedies for a field whose type, kind, cardinality or map shape changed: protobuf's own
//! idiom, keep the old field as it was and add the new one beside it.

use super::declare::declaration;
use super::{Edit, Remedy, Site};

/// The new declaration keeps its type under a fresh number and name; the old declaration comes
/// back under its own, `[deprecated = true]`.
pub(crate) fn keep_old_add_new(site: &Site) -> Vec<Remedy> {
    let (Some(new), Some(old)) = (site.new_field, site.old_field) else {
        return Vec::new();
    };
    let (new_message, old_message) = (site.new_message, site.old_message);
    let Some(number) = site.reserved.number(new_message, old_message) else {
        return Vec::new();
    };
    let name = site.reserved.name(new_message, old_message, new.name());
    // The old name, unless another field of the new message has it now.
    let taken = new_message
        .field_named(old.name())
        .is_some_and(|f| f.id() != new.id());
    if taken {
        return Vec::new();
    }
    let Some(restored) = declaration(
        old,
        site.new_syntax(),
        old.name(),
        old.number(),
        &[("deprecated", "true".to_owned())],
    ) else {
        return vec![Remedy::advice(format!(
            "keep field {} as the old side declares it (a group, or a label this syntax \
             cannot write), and add the new type as a new field",
            old.name()
        ))];
    };
    let message = site.message();
    vec![Remedy::edits(
        format!(
            "keep field {} as it was, deprecated, and add the new declaration as field {name} = {number}",
            old.name()
        ),
        vec![
            Edit::SetName {
                message: message.clone(),
                field: new.name().to_owned(),
                name: name.clone(),
            },
            Edit::SetNumber {
                message: message.clone(),
                field: new.name().to_owned(),
                number,
            },
            Edit::AddField {
                message,
                declaration: restored,
            },
        ],
    )]
}
