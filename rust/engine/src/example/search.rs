//! The search for an example: messages the writer schema can produce along the finding's path,
//! smallest first ([`candidates`]), each encoded and read back as protobuf-java would, until
//! one is read differently, or the search's budget ([`Meter`]) runs out.

use super::budget::{Meter, LOOK, VALUE};
use super::candidates::{candidates, default_of, minimal, Candidate, DEEPEST, FILLED};
use super::encode::encode;
use super::read::{parse, Failure};
use super::value::{braced, comparable_defaults, render_all, same, size, Msg, Val};
use super::{Example, Outcome, EXAMPLE_BYTES};
use crate::model::{FieldRef, MessageRef};

/// Bytes of text (a path, a reason) copied per [`LOOK`] charged.
const TEXT_PER_LOOK: usize = 8;

/// What the finding is about in the compared message pair, as its rule named it.
pub(crate) struct Subject {
    /// The field's name (the writer's or the reader's), or a oneof's.
    pub name: Option<String>,
    pub number: Option<u32>,
}

impl Subject {
    pub(crate) fn of(violation: &crate::rules::Violation) -> Subject {
        Subject {
            name: violation.field.clone(),
            number: violation.number,
        }
    }
}

/// The pair where the finding is, reached from the roots through `trail`, the (writer, reader)
/// fields matched by number at each step. Spends at most what `meter` allows.
pub(crate) fn search<'a>(
    roots: (MessageRef<'a>, MessageRef<'a>),
    trail: &[(FieldRef<'a>, FieldRef<'a>)],
    subject: &Subject,
    meter: &Meter,
) -> Result<Example, String> {
    if let Some(why) = super::too_deep(trail.len()) {
        return Err(why);
    }
    let (writer, reader) = match trail.last() {
        Some((w, r)) => (w.kind().message(), r.kind().message()),
        None => (Some(roots.0), Some(roots.1)),
    };
    let (Some(writer), Some(reader)) = (writer, reader) else {
        return Err("the path does not lead to a message on both sides".to_owned());
    };
    let reader_path = path_to(roots.1, trail);
    if !meter.spend(LOOK * (1 + reader_path.len() / TEXT_PER_LOOK)) {
        return Err(meter.why());
    }
    let mut failure = None;
    // Why candidates were passed over, for the reason given when none is an example.
    let (mut unfillable, mut too_large) = (false, false);
    // The smallest messages along the path, the same for every candidate: made for the first
    // one that needs them.
    let mut frame: Option<Option<Frame<'a>>> = None;
    for mut candidate in candidates(writer, reader, subject, meter) {
        if !meter.spend(VALUE) {
            break;
        }
        meter.tried_one();
        // What a writer puts on the wire is what it holds: a field without presence set to
        // its default is not written (the unset candidate comes last), and messages inside
        // are compared as protobuf-java writes them.
        if candidate
            .iter()
            .any(|(f, values)| unwritten(*f, values, meter))
        {
            continue;
        }
        for (_, values) in &mut candidate {
            for value in values {
                if let Val::Msg(inner) = value {
                    as_java_writes(inner, meter);
                }
            }
        }
        let Some(frame) = frame
            .get_or_insert_with(|| Frame::new(roots.0, trail, writer, meter))
            .as_ref()
        else {
            // Every candidate needs the same messages around it: none can be made.
            unfillable = true;
            break;
        };
        let message = assemble(frame, trail, &candidate, meter);
        let bytes = encode(&message, meter);
        if meter.out() {
            break;
        }
        if bytes.len() > EXAMPLE_BYTES {
            too_large = true;
            continue;
        }
        let parsed = parse(&bytes, roots.1, meter);
        if meter.out() {
            break;
        }
        match parsed {
            Err(why) => {
                let outcome = failed(roots.1, why);
                // A failure about this very field is the example; another (a field required
                // elsewhere) stands only if nothing about this one is found.
                if about(&outcome, &reader_path, subject, meter) {
                    return Ok(example(&message, bytes, outcome));
                }
                if failure.is_none() {
                    failure = Some(example(&message, bytes, outcome));
                }
            }
            Ok(read) => {
                let compared = compare(
                    &read,
                    &message,
                    trail,
                    reader,
                    &candidate,
                    &reader_path,
                    meter,
                );
                // What a comparison cut short found is not known to be so.
                if let (Some(outcome), false) = (compared, meter.out()) {
                    return Ok(example(&message, bytes, outcome));
                }
            }
        }
        if meter.out() {
            break;
        }
    }
    // A message that fails to parse for another reason is still what a reader meets.
    if let Some(example) = failure {
        return Ok(example);
    }
    if meter.out() {
        return Err(meter.why());
    }
    Err(if too_large {
        format!("the smallest message along this path takes more than {EXAMPLE_BYTES} bytes")
    } else if unfillable {
        format!(
            "the writer's required fields along this path need more than {FILLED} values, or \
             nest deeper than {DEEPEST}"
        )
    } else {
        "every message tried along this path reads the same under both schemas".to_owned()
    })
}

/// The reader's path from its root through `trail`: `pkg.Order.items`.
fn path_to(reader_root: MessageRef<'_>, trail: &[(FieldRef<'_>, FieldRef<'_>)]) -> String {
    let mut path = reader_root.full_name().to_owned();
    for (_, r) in trail {
        path.push('.');
        path.push_str(r.name());
    }
    path
}

fn example(message: &Msg<'_>, bytes: Vec<u8>, outcome: Outcome) -> Example {
    Example {
        writer: message.text(),
        bytes: bytes.iter().map(|b| format!("{b:02x}")).collect(),
        reader: outcome.sentence(),
        outcome,
    }
}

fn failed(reader_root: MessageRef<'_>, why: Failure) -> Outcome {
    match why {
        Failure::Utf8(path) => Outcome::ParseFailure {
            why: format!("invalid UTF-8 in {path}, a string protobuf-java checks"),
        },
        Failure::Malformed(why) => Outcome::ParseFailure { why },
        Failure::Missing(path) => Outcome::MissingRequired {
            path: format!("{}.{path}", reader_root.full_name()),
        },
    }
}

/// Whether a failure is about the subject's field.
fn about(outcome: &Outcome, pair_path: &str, subject: &Subject, meter: &Meter) -> bool {
    let Some(name) = subject.name.as_deref() else {
        return false;
    };
    let text = match outcome {
        Outcome::ParseFailure { why } => why.len(),
        Outcome::MissingRequired { path } => path.len(),
        _ => 0,
    };
    if !meter.spend(LOOK * (1 + (pair_path.len() + text) / TEXT_PER_LOOK)) {
        return false;
    }
    let field = format!("{pair_path}.{name}");
    match outcome {
        Outcome::ParseFailure { why } => why.contains(&field),
        Outcome::MissingRequired { path } => {
            // Java names repeated elements `items[0]`; the finding's path does not.
            let mut plain = String::with_capacity(path.len());
            let mut index = false;
            for c in path.chars() {
                match c {
                    '[' => index = true,
                    ']' => index = false,
                    c if !index => plain.push(c),
                    _ => {}
                }
            }
            plain == field
        }
        _ => false,
    }
}

/// The smallest messages the writer can produce along the trail, with their required fields:
/// the compared message, and each message holding the next from the deepest up to the root.
struct Frame<'a> {
    at: Msg<'a>,
    holders: Vec<Msg<'a>>,
    /// Values in all of them, each copied for every candidate.
    size: usize,
}

impl<'a> Frame<'a> {
    /// `None` when the required fields need more than [`FILLED`] values in all, nest too deep,
    /// or the meter ran out.
    fn new(
        root: MessageRef<'a>,
        trail: &[(FieldRef<'a>, FieldRef<'a>)],
        at: MessageRef<'a>,
        meter: &Meter,
    ) -> Option<Frame<'a>> {
        let mut filled = 0;
        let message = minimal(at, trail.len(), &mut filled, meter)?;
        let mut holders = Vec::with_capacity(trail.len());
        for (i, (field, _)) in trail.iter().enumerate().rev() {
            let holder = if i == 0 { root } else { field.message() };
            holders.push(minimal(holder, i, &mut filled, meter)?);
        }
        let size = message.size() + holders.iter().map(Msg::size).sum::<usize>();
        Some(Frame {
            at: message,
            holders,
            size,
        })
    }
}

/// The writer's whole message: the candidate's fields in the compared message (with its
/// required fields), nested in the smallest messages along the trail.
fn assemble<'a>(
    frame: &Frame<'a>,
    trail: &[(FieldRef<'a>, FieldRef<'a>)],
    candidate: &Candidate<'a>,
    meter: &Meter,
) -> Msg<'a> {
    let copied: usize = candidate.iter().map(|(_, values)| size(values)).sum();
    if !meter.spend(VALUE * (frame.size + copied)) {
        return Msg::new(frame.at.ty);
    }
    let mut message = frame.at.clone();
    for (field, values) in candidate {
        if values.is_empty() {
            message.fields.retain(|(f, _)| f.id() != field.id());
        } else {
            message.put(*field, values.clone());
        }
    }
    for ((field, _), holder) in trail.iter().rev().zip(&frame.holders) {
        let mut parent = holder.clone();
        parent.put(*field, vec![Val::Msg(message)]);
        message = parent;
    }
    as_java_writes(&mut message, meter);
    message
}

/// Whether a field's values are nothing on the wire: one value, its default, in a field
/// without presence.
fn unwritten(field: FieldRef<'_>, values: &[Val<'_>], meter: &Meter) -> bool {
    !field.is_repeated()
        && !field.has_presence()
        && values.len() == 1
        && default_of(field, meter).is_some_and(|d| same(field, values, field, &[d], false))
}

/// The message as protobuf-java puts it on the wire, and so as its text format reads back: a
/// field without presence that holds its default (proto3's zero, an Editions IMPLICIT field's)
/// is not written; a map entry always has its key and its value, defaults included.
fn as_java_writes(message: &mut Msg<'_>, meter: &Meter) {
    if !meter.spend(VALUE * (1 + message.fields.len())) {
        return;
    }
    if message.ty.is_map_entry() {
        for field in message.ty.fields() {
            if message.get(field.number()).is_none() {
                let value = match field.kind().message() {
                    Some(inner) => Val::Msg(Msg::new(inner)),
                    None => match default_of(field, meter) {
                        Some(value) => value,
                        None => continue,
                    },
                };
                message.put(field, vec![value]);
            }
        }
    } else {
        message
            .fields
            .retain(|(field, values)| !unwritten(*field, values, meter));
    }
    for (_, values) in &mut message.fields {
        for value in values {
            if let Val::Msg(inner) = value {
                as_java_writes(inner, meter);
            }
        }
    }
}

/// What the reader got, compared with what the writer meant (`written`, the whole message),
/// along the trail and then in the compared message; `None` when every value reads the same,
/// or once the meter ran out. Paths are written out only for the outcome.
fn compare<'a>(
    read: &Msg<'a>,
    written: &Msg<'a>,
    trail: &[(FieldRef<'a>, FieldRef<'a>)],
    reader: MessageRef<'a>,
    candidate: &Candidate<'a>,
    pair_path: &str,
    meter: &Meter,
) -> Option<Outcome> {
    let mut at = read;
    let mut wrote = Some(written);
    for (step, (w, r)) in trail.iter().enumerate() {
        if !meter.spend(VALUE) {
            return None;
        }
        let values = wrote.and_then(|m| m.get(w.number()));
        wrote = match values.and_then(|v| v.last()) {
            Some(Val::Msg(inner)) => Some(inner),
            _ => None,
        };
        let Some(Val::Msg(next)) = at.get(r.number()).and_then(|v| v.last()) else {
            let path = path_to(read.ty, &trail[..=step]);
            if at.unknown.contains(&r.number()) {
                return Some(Outcome::Unknown {
                    path,
                    number: r.number(),
                });
            }
            // Read, then dropped: a later member of the reader's oneof cleared it, as
            // protobuf-java keeps only the last member it reads.
            return Some(Outcome::Value {
                path,
                written: values.map_or_else(|| braced(""), |v| render_all(*w, v)),
                read: braced(""),
            });
        };
        at = next;
    }
    let path = pair_path;
    for (field, written) in candidate {
        let number = field.number();
        let Some(r) = reader.field(number) else {
            if written.is_empty() {
                continue;
            }
            return Some(Outcome::Unknown {
                path: format!("{path}.{}", field.name()),
                number,
            });
        };
        let here = || format!("{path}.{}", r.name());
        let got = at.get(number).map(Vec::as_slice).unwrap_or_default();
        if got.is_empty() && !written.is_empty() && at.unknown.contains(&number) {
            return Some(Outcome::Unknown {
                path: here(),
                number,
            });
        }
        // Comparing makes a value of each side's.
        if !meter.spend(VALUE * (2 + size(written) + size(got))) {
            return None;
        }
        let view = |f: FieldRef<'a>, values: &[Val<'a>]| -> Vec<Val<'a>> {
            if values.is_empty() && !f.is_repeated() {
                default_of(f, meter).into_iter().collect()
            } else {
                values.to_vec()
            }
        };
        let (meant, seen) = (view(*field, written), view(r, got));
        if written.is_empty() {
            if meant.is_empty()
                || seen.is_empty()
                || !comparable_defaults(*field, r)
                || same(*field, &meant, r, &seen, true)
            {
                continue;
            }
        } else if same(*field, &meant, r, &seen, true) {
            continue;
        }
        let read = if seen.is_empty() && r.kind().message().is_some() && !r.is_repeated() {
            braced("")
        } else {
            render_all(r, &seen)
        };
        if meant.len() >= 2 && !r.is_repeated() && r.kind().message().is_some() {
            return Some(Outcome::Merged {
                path: here(),
                elements: meant.len(),
                read,
            });
        }
        return Some(Outcome::Value {
            path: here(),
            written: render_all(*field, &meant),
            read,
        });
    }
    None
}
