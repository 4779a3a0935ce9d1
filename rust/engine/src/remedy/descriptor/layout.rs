//! A changed message's fields and oneofs as protoc reads them from the edited text: fields in
//! the order the text has them, a oneof left empty gone, new oneofs after the real ones, and
//! the synthetic oneofs of proto3 `optional` fields made again after all of them.

use std::collections::HashMap;

use super::apply::Plan;
use super::find::Scope;
use super::naming::synthetic_oneofs;
use super::tags::{field, message};
use super::tree::{Kind, Message, Tree, Value as Wire};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Oneof {
    /// A oneof the message had, by index.
    Old(i32),
    /// A oneof the remedy makes, by name.
    New(String),
}

pub(super) fn lay_out(tree: &mut Tree, scope: &Scope, plan: &Plan) -> Result<(), String> {
    let m = tree.scope_mut(scope).ok_or("the message went missing")?;
    let slots: Vec<usize> = m
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.number == message::FIELD && matches!(f.value, Wire::Message(_)))
        .map(|(i, _)| i)
        .collect();
    let mut fields: Vec<Message> = Vec::with_capacity(slots.len());
    for &slot in &slots {
        match std::mem::replace(&mut m.fields[slot].value, Wire::Varint(0)) {
            Wire::Message(f) => fields.push(f),
            _ => return Err("a field is not a message".into()),
        }
    }
    let added: HashMap<usize, Option<i32>> = plan.added.iter().copied().collect();
    let mut member: Vec<Option<Oneof>> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| match added.get(&i) {
            Some(o) => o.map(Oneof::Old),
            None => f
                .int32(field::ONEOF_INDEX)
                .filter(|o| !plan.synthetic.contains(o))
                .map(Oneof::Old),
        })
        .collect();
    let before = member.clone();
    let in_oneof = |order: &[usize], member: &[Option<Oneof>], key: &Oneof| {
        order
            .iter()
            .rposition(|&i| member.get(i).and_then(Option::as_ref) == Some(key))
            .map_or(order.len(), |p| p + 1)
    };
    let mut order: Vec<usize> = (0..fields.len())
        .filter(|i| !added.contains_key(i))
        .collect();
    for &(i, oneof) in &plan.added {
        let at = match oneof {
            Some(o) => in_oneof(&order, &member, &Oneof::Old(o)),
            None => order.len(),
        };
        order.insert(at, i);
    }
    for (&o, group) in &plan.out_of {
        let key = Oneof::Old(o);
        let members = (0..fields.len())
            .filter(|i| !added.contains_key(i) && before[*i].as_ref() == Some(&key))
            .count();
        let at = if group.len() == members {
            // Nothing stays in it: its fields are written where it was.
            order
                .iter()
                .position(|&i| member[i].as_ref() == Some(&key))
                .unwrap_or(order.len())
        } else {
            order.retain(|i| !group.contains(i));
            in_oneof(&order, &member, &key)
        };
        order.retain(|i| !group.contains(i));
        let at = at.min(order.len());
        order.splice(at..at, group.iter().copied());
        for &i in group {
            member[i] = None;
        }
    }
    let old: Vec<Message> = m.messages(message::ONEOF_DECL).cloned().collect();
    for (name, group) in &plan.into {
        order.retain(|i| !group.contains(i));
        let existing = old
            .iter()
            .enumerate()
            .position(|(i, d)| !plan.synthetic.contains(&(i as i32)) && d.name() == Some(name))
            .map(|i| Oneof::Old(i as i32));
        let at = match &existing {
            Some(key) => in_oneof(&order, &member, key),
            None => order.len(),
        };
        order.splice(at..at, group.iter().copied());
        let key = existing.unwrap_or_else(|| Oneof::New(name.clone()));
        for &i in group {
            member[i] = Some(key.clone());
        }
    }
    let used = |key: &Oneof| member.iter().any(|m| m.as_ref() == Some(key));
    let mut decls: Vec<Message> = Vec::new();
    let mut index_of: HashMap<Oneof, i32> = HashMap::new();
    for (i, d) in old.iter().enumerate() {
        let key = Oneof::Old(i as i32);
        if !plan.synthetic.contains(&(i as i32)) && used(&key) {
            index_of.insert(key, decls.len() as i32);
            decls.push(d.clone());
        }
    }
    for name in plan.into.keys() {
        let key = Oneof::New(name.clone());
        if used(&key) && !index_of.contains_key(&key) {
            index_of.insert(key, decls.len() as i32);
            let mut d = Message::new(Kind::Oneof);
            d.push(1, Wire::Bytes(name.as_bytes().to_vec()));
            decls.push(d);
        }
    }
    let optional: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| member[i].is_none() && fields[i].bool(field::PROTO3_OPTIONAL) == Some(true))
        .collect();
    let made = synthetic_oneofs(
        fields.iter().filter_map(Message::name),
        decls.iter().filter_map(Message::name),
        optional.iter().filter_map(|&i| fields[i].name()),
    );
    for (i, f) in fields.iter_mut().enumerate() {
        match member[i].as_ref().and_then(|k| index_of.get(k)) {
            Some(&index) => f.set_varint(field::ONEOF_INDEX, index as u64),
            None => f.remove(field::ONEOF_INDEX),
        }
    }
    let real = decls.len();
    for (k, (&i, name)) in optional.iter().zip(&made).enumerate() {
        fields[i].set_varint(field::ONEOF_INDEX, (real + k) as u64);
        let mut d = Message::new(Kind::Oneof);
        d.push(1, Wire::Bytes(name.as_bytes().to_vec()));
        decls.push(d);
    }
    let mut fields: Vec<Option<Message>> = fields.into_iter().map(Some).collect();
    for (&slot, &i) in slots.iter().zip(&order) {
        let f = fields[i].take().ok_or("a field placed twice")?;
        m.fields[slot].value = Wire::Message(f);
    }
    m.remove(message::ONEOF_DECL);
    for d in decls {
        m.push(message::ONEOF_DECL, Wire::Message(d));
    }
    Ok(())
}
