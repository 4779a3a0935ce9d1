//! The rules, one small module each, and the profiles that list them: a [`Profile`] is a list of
//! rules and how referenced types are paired (`pip246.rs` for the default, docs/rules.md#pip246;
//! `conservative.rs`, docs/rules.md#conservative), not a branch in the code. The walker
//! ([`crate::walk`]) decides which message, enum and field pairs are compared; a rule only says
//! what is wrong with one pair.

mod cardinality;
mod conservative;
mod default_value;
mod describe;
mod enum_values;
mod field_kind;
mod field_number;
mod id;
mod map;
mod message_encoding;
mod oneof;
mod packed;
mod pip246;
mod repeated;
mod required;
mod root;
mod scalar_type;
mod strategy;
mod syntax;
mod type_changed;
mod unsupported;
mod utf8;

use std::cell::Cell;

use serde::Serialize;

use crate::model::{EnumRef, FieldRef, Kind, MessageRef, Syntax};
use crate::remedy::{Remedy, Site};

pub use id::RuleId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Makes the check fail.
    Failure,
    /// Reported and logged; the check still passes.
    Warning,
}

/// Which syntaxes a rule applies to. The seeds' proto2-only rules run when both declaring files
/// are proto2 or both the same edition, which has the same features (docs/rules.md#pip246); a
/// mixed pair already fails with SYNTAX_CHANGED.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    AllSyntaxes,
    Proto2AndEditions,
}

/// A writer/reader pair of messages being compared.
pub(crate) struct MessagePair<'p, 'a> {
    pub writer: MessageRef<'a>,
    pub reader: MessageRef<'a>,
    /// The writer's fields that the reader has too, matched by number, in the writer's order,
    /// each with the reader's: looked up once for every rule. Empty for the roots' check,
    /// which runs before any field is compared.
    pub matched: &'p [(FieldRef<'a>, FieldRef<'a>)],
    /// The steps of the binary searches the rules made for fields by name, for the walk to
    /// charge: each step reads a name elsewhere in the model, and a rule may look up every
    /// field of a large message in every pair.
    pub lookup_steps: Cell<u64>,
}

impl<'p, 'a> MessagePair<'p, 'a> {
    pub(crate) fn new(
        writer: MessageRef<'a>,
        reader: MessageRef<'a>,
        matched: &'p [(FieldRef<'a>, FieldRef<'a>)],
    ) -> MessagePair<'p, 'a> {
        MessagePair {
            writer,
            reader,
            matched,
            lookup_steps: Cell::new(0),
        }
    }

    /// The same pair the other way round, with `matched` the same field pairs swapped, in the
    /// new writer's order.
    pub(crate) fn back(&self, matched: &'p [(FieldRef<'a>, FieldRef<'a>)]) -> MessagePair<'p, 'a> {
        MessagePair::new(self.reader, self.writer, matched)
    }

    /// `side`'s field called `name` ([`MessageRef::field_named`]), its search counted in
    /// [`MessagePair::lookup_steps`].
    pub(crate) fn field_named(&self, side: MessageRef<'a>, name: &str) -> Option<FieldRef<'a>> {
        let steps = usize::BITS - side.fields().len().leading_zeros();
        self.lookup_steps
            .set(self.lookup_steps.get() + u64::from(steps));
        side.field_named(name)
    }

    /// The lookup steps counted since the last call.
    pub(crate) fn take_lookup_steps(&self) -> u64 {
        self.lookup_steps.take()
    }
}

/// Two fields with the same number in a compared message pair, with their types worked out
/// once for all the rules.
pub(crate) struct FieldPair<'a> {
    pub writer: FieldRef<'a>,
    pub reader: FieldRef<'a>,
    pub writer_type: Kind<'a>,
    pub reader_type: Kind<'a>,
    /// Whether each side is a map ([`FieldRef::is_map`]), which several rules ask.
    pub writer_is_map: bool,
    pub reader_is_map: bool,
}

impl<'a> FieldPair<'a> {
    pub(crate) fn new(writer: FieldRef<'a>, reader: FieldRef<'a>) -> FieldPair<'a> {
        let (writer_type, reader_type) = (writer.kind(), reader.kind());
        FieldPair {
            writer,
            reader,
            writer_type,
            reader_type,
            writer_is_map: writer.is_map_of(writer_type),
            reader_is_map: reader.is_map_of(reader_type),
        }
    }

    /// The same fields the other way round.
    pub(crate) fn back(&self) -> FieldPair<'a> {
        FieldPair {
            writer: self.reader,
            reader: self.writer,
            writer_type: self.reader_type,
            reader_type: self.writer_type,
            writer_is_map: self.reader_is_map,
            reader_is_map: self.writer_is_map,
        }
    }

    /// The (writer, reader) messages to walk into, as `types` pairs them; `None` where the
    /// walk stops, the rules having said what changed.
    pub(crate) fn messages(&self, types: Types) -> Option<(MessageRef<'a>, MessageRef<'a>)> {
        let (writer, reader) = (self.writer_type.message()?, self.reader_type.message()?);
        match types {
            Types::ByName => {
                let same_kind = matches!(
                    (self.writer_type, self.reader_type),
                    (Kind::Message(_), Kind::Message(_)) | (Kind::Group(_), Kind::Group(_))
                );
                (same_kind && writer.name_id() == reader.name_id()).then_some((writer, reader))
            }
            // A message that became a group has its contents compared too; a map and a
            // repeated message are not alike enough for that (MAP_CHANGED).
            Types::ByStructure => {
                (self.writer_is_map == self.reader_is_map).then_some((writer, reader))
            }
        }
    }

    /// The (writer, reader) enums of two enum fields, whatever they are called.
    pub(crate) fn enums(&self) -> Option<(EnumRef<'a>, EnumRef<'a>)> {
        match (self.writer_type, self.reader_type) {
            (Kind::Enum(w), Kind::Enum(r)) => Some((w, r)),
            _ => None,
        }
    }

    /// The keys of two map entries: MAP_CHANGED, on the map field, says if they differ.
    pub(crate) fn is_map_key(&self) -> bool {
        self.writer.number() == 1
            && self.writer.message().is_map_entry()
            && self.reader.message().is_map_entry()
    }
}

/// How the walk pairs the message and enum types that matched fields refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Types {
    /// Only types of the same full name are compared; a changed name is FIELD_KIND_CHANGED.
    ByName,
    /// Any two message types (any two enums) are compared by their contents.
    ByStructure,
}

/// What a rule found, relative to the compared message pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Violation {
    /// The field the finding is about, appended to the pair's path; `None` for the message.
    pub field: Option<String>,
    pub number: Option<u32>,
    pub writer: String,
    pub reader: String,
}

impl Violation {
    /// The bytes of its text: its field's name and what it says of each side, each copied
    /// again (into the guard's set, the path, the report) and hashed.
    pub(crate) fn text_bytes(&self) -> usize {
        self.field.as_ref().map_or(0, String::len) + self.writer.len() + self.reader.len()
    }

    /// A finding about a field matched by number.
    pub(crate) fn on_fields(pair: &FieldPair, writer: String, reader: String) -> Violation {
        Violation {
            field: Some(pair.reader.name().to_owned()),
            number: Some(pair.writer.number()),
            writer,
            reader,
        }
    }
}

/// A rule on one pair of fields matched by number.
pub(crate) type FieldCheck = fn(&FieldPair) -> Option<Violation>;

/// A rule on a message pair as a whole.
pub(crate) type MessageCheck = fn(&MessagePair, &mut Vec<Violation>);

#[derive(Clone, Copy)]
pub(crate) enum Check {
    /// Compares the two root messages before any walk; a finding stops the walk.
    Roots(fn(&MessagePair) -> Option<Violation>),
    /// Looks at a message pair as a whole.
    Messages(MessageCheck),
    /// Looks at one pair of fields matched by number.
    Fields(FieldCheck),
    /// Looks at a pair of enums that matched fields refer to, once per pair.
    Enums(fn(EnumRef, EnumRef, &mut Vec<Violation>)),
    /// Looks at every message and field reachable from each root, matched or not: what the
    /// side holding it cannot have.
    Reachable {
        /// Whether the schema of this root can hold anything to report at all: a cheap look
        /// that spares the walk through the graph for almost every schema.
        worth_looking: fn(MessageRef) -> bool,
        message: fn(MessageRef) -> Option<String>,
        field: fn(FieldRef) -> Option<String>,
    },
}

/// How a rule's findings are remedied ([`crate::remedy`]): candidate edits for one finding.
pub(crate) type Plan = fn(&Site) -> Vec<Remedy>;

/// A rule's facts, kept in the rule's own file: its ID, what it finds, the one-line hint the
/// broker's rejection carries, the syntaxes it applies to, what it checks, and how its
/// findings are remedied. A profile lists rules with a severity ([`rule`]); lookups by ID go
/// through [`RuleId::spec`].
pub(crate) struct Spec {
    pub id: RuleId,
    pub description: &'static str,
    pub hint: &'static str,
    pub scope: Scope,
    /// `None` for the strategy's own rejections, which no walk makes.
    pub check: Option<Check>,
    pub plan: Plan,
}

/// A rule of a profile: its spec's facts, with the severity the profile gives it.
pub(crate) const fn rule(spec: &'static Spec, severity: Severity) -> Rule {
    let check = match spec.check {
        Some(check) => check,
        None => panic!("a strategy's own rule is in no profile"),
    };
    Rule {
        id: spec.id,
        description: spec.description,
        severity,
        scope: spec.scope,
        check,
    }
}

/// A rule as a profile runs it.
pub struct Rule {
    pub id: RuleId,
    /// One line: what the rule finds, for `protocompat rules`.
    pub description: &'static str,
    pub severity: Severity,
    pub(crate) scope: Scope,
    pub(crate) check: Check,
}

impl Rule {
    #[inline]
    pub(crate) fn applies_to(&self, pair: &MessagePair) -> bool {
        match self.scope {
            Scope::AllSyntaxes => true,
            Scope::Proto2AndEditions => {
                let writer = pair.writer.file().syntax();
                writer != Syntax::Proto3 && writer == pair.reader.file().syntax()
            }
        }
    }
}

/// Which rules a check runs, with which severity, in the order findings about one pair are
/// reported.
pub struct Profile {
    /// As an operator or a CLI user names it.
    pub name: &'static str,
    /// One line: what the profile is, for `protocompat rules`.
    pub summary: &'static str,
    pub rules: &'static [Rule],
    /// Another profile's rules, reported as warnings wherever this profile's own rules find
    /// nothing at the same path (docs/rules.md#no-silent-data-loss). They never change a
    /// verdict.
    pub guard: &'static [Rule],
    pub(crate) types: Types,
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for Profile {
    fn eq(&self, other: &Profile) -> bool {
        self.name == other.name
    }
}

impl Eq for Profile {}

pub use conservative::CONSERVATIVE;
pub use pip246::PIP246;

/// Every profile, the default first.
pub static PROFILES: &[&Profile] = &[&PIP246, &CONSERVATIVE];

impl Profile {
    /// The profile called `name`; an unknown name is refused with the names there are.
    pub fn named(name: &str) -> Result<&'static Profile, String> {
        PROFILES
            .iter()
            .copied()
            .find(|p| p.name == name.trim())
            .ok_or_else(|| {
                let known: Vec<&str> = PROFILES.iter().map(|p| p.name).collect();
                format!(
                    "unknown profile `{}`; the profiles are {}",
                    crate::text::bound(name, 100),
                    known.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_found_by_name_and_list_each_rule_once_with_a_description() {
        for profile in PROFILES {
            assert_eq!(Profile::named(profile.name), Ok(*profile));
            let mut ids: Vec<RuleId> = profile.rules.iter().map(|r| r.id).collect();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), profile.rules.len(), "{}", profile.name);
            for rule in profile.rules {
                assert!(!rule.description.is_empty() && !rule.description.contains('\n'));
            }
        }
        assert_eq!(PROFILES[0], &PIP246, "the default comes first");
        let unknown = Profile::named("strict").unwrap_err();
        assert_eq!(
            unknown,
            "unknown profile `strict`; the profiles are pip246, conservative"
        );
    }
}
