//! What one schema holds that comparing fields cannot vouch for (`Check::Reachable`, the rule
//! UNSUPPORTED_FEATURE): every message and field reachable from the root, matched or not, each
//! looked at once. The look costs what decoding the schema costs (each message and field once),
//! so it is made once per decoded schema, the first time a walk asks, and kept with it: a
//! history of a thousand versions compared with one large new schema does not look at the new
//! one a thousand times.

use std::collections::VecDeque;
use std::sync::OnceLock;

use super::paths::Paths;
use super::seen::Seen;
use super::verdict::KEPT_FINDINGS;
use crate::model::{FieldRef, MessageRef, Schema};
use crate::rules::{Rule, RuleId};

/// A decoded schema as walks take it: the schema, and what its root reaches that a Reachable
/// rule reports, once worked out.
pub(crate) struct Side {
    schema: Schema,
    reached: OnceLock<(RuleId, Reached)>,
}

/// What a Reachable rule found from one root: the first [`KEPT_FINDINGS`], and how many in
/// all.
pub(super) struct Reached {
    pub kept: Vec<OneSided>,
    pub total: usize,
}

/// One finding about one schema alone.
pub(super) struct OneSided {
    pub path: String,
    pub number: Option<u32>,
    pub what: String,
}

/// About what a [`Reached`] holds at most, besides the schema, for the decoded-schema cache's
/// weight: its findings' paths and descriptions are bounded (`PATH_LIMIT`, the rules' texts).
const REACHED_WEIGHT: usize = KEPT_FINDINGS * 1024;

/// What a [`Side`] of `schema` may hold beyond the schema once a walk has asked what its root
/// reaches: only a schema that holds something to report (almost none) keeps anything.
pub(crate) fn reached_weight(schema: &Schema) -> usize {
    if schema.model().beyond_fields() {
        REACHED_WEIGHT
    } else {
        0
    }
}

impl Side {
    pub(crate) fn new(schema: Schema) -> Side {
        Side {
            schema,
            reached: OnceLock::new(),
        }
    }

    pub(crate) fn schema(&self) -> &Schema {
        &self.schema
    }

    pub(crate) fn root(&self) -> MessageRef<'_> {
        self.schema.root()
    }

    /// What `rule`'s checks find from the root: worked out on the first ask, kept after. Every
    /// profile has the one Reachable rule, so what is kept is that rule's; another rule's
    /// findings are worked out anew (and still cost what the decode did).
    pub(super) fn reached(
        &self,
        rule: &Rule,
        worth_looking: fn(MessageRef) -> bool,
        message: fn(MessageRef) -> Option<String>,
        field: fn(FieldRef) -> Option<String>,
    ) -> std::borrow::Cow<'_, Reached> {
        let look = || {
            if worth_looking(self.root()) {
                scan(self.root(), message, field)
            } else {
                Reached {
                    kept: Vec::new(),
                    total: 0,
                }
            }
        };
        let (id, reached) = self.reached.get_or_init(|| (rule.id, look()));
        if *id == rule.id {
            std::borrow::Cow::Borrowed(reached)
        } else {
            std::borrow::Cow::Owned(look())
        }
    }
}

impl Clone for Reached {
    fn clone(&self) -> Reached {
        Reached {
            kept: self
                .kept
                .iter()
                .map(|f| OneSided {
                    path: f.path.clone(),
                    number: f.number,
                    what: f.what.clone(),
                })
                .collect(),
            total: self.total,
        }
    }
}

/// Every message reachable from `root` through its fields, matched or not, each once, with
/// the findings of `message` and `field`; paths rendered only for the findings that are kept.
fn scan(
    root: MessageRef<'_>,
    message: fn(MessageRef) -> Option<String>,
    field: fn(FieldRef) -> Option<String>,
) -> Reached {
    let mut reached = Reached {
        kept: Vec::new(),
        total: 0,
    };
    let mut found = |path: &dyn Fn() -> String, number: Option<u32>, what: String| {
        reached.total += 1;
        if reached.kept.len() < KEPT_FINDINGS {
            reached.kept.push(OneSided {
                path: path(),
                number,
                what,
            });
        }
    };
    let mut paths = Paths::new(root.full_name());
    let mut seen = Seen::default();
    seen.insert(root.id());
    let mut queue: VecDeque<(MessageRef<'_>, usize)> = VecDeque::from([(root, 0)]);
    while let Some((at, step)) = queue.pop_front() {
        if let Some(what) = message(at) {
            found(&|| paths.render(step, None), None, what);
        }
        for f in at.fields() {
            if let Some(what) = field(f) {
                found(
                    &|| paths.render(step, Some(f.name())),
                    Some(f.number()),
                    what,
                );
            }
            if let Some(next) = f.kind().message() {
                if seen.insert(next.id()) {
                    let next_step = paths.push(step, (f, f));
                    queue.push_back((next, next_step));
                }
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Check, CONSERVATIVE};

    fn unsupported() -> &'static Rule {
        CONSERVATIVE
            .rules
            .iter()
            .find(|r| r.id == RuleId::UnsupportedFeature)
            .expect("conservative has UNSUPPORTED_FEATURE")
    }

    /// What a schema holds on its own is looked at once, however many pairs ask.
    #[test]
    fn what_a_root_reaches_is_worked_out_once_per_schema() {
        let data = crate::model::SchemaData {
            descriptor_set: prost::Message::encode_to_vec(&prost_types::FileDescriptorSet {
                file: vec![prost_types::FileDescriptorProto {
                    name: Some("order.proto".into()),
                    package: Some("shop".into()),
                    syntax: Some("proto2".into()),
                    message_type: vec![prost_types::DescriptorProto {
                        name: Some("Order".into()),
                        extension_range: vec![prost_types::descriptor_proto::ExtensionRange {
                            start: Some(100),
                            end: Some(200),
                            options: None,
                        }],
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
            }),
            root_message: "shop.Order".into(),
            root_file: "order.proto".into(),
        };
        let side = Side::new(Schema::decode(data.to_json().as_bytes()).unwrap());
        let rule = unsupported();
        let Check::Reachable {
            worth_looking,
            message,
            field,
        } = rule.check
        else {
            panic!("UNSUPPORTED_FEATURE looks at what is reachable");
        };
        let first = side.reached(rule, worth_looking, message, field);
        let second = side.reached(rule, worth_looking, message, field);
        assert_eq!((first.total, first.kept.len()), (1, 1));
        assert_eq!(first.kept[0].path, "shop.Order");
        match (first, second) {
            (std::borrow::Cow::Borrowed(a), std::borrow::Cow::Borrowed(b)) => {
                assert!(
                    std::ptr::eq(a, b),
                    "the second ask gets what the first kept"
                )
            }
            _ => panic!("kept with the schema"),
        }
    }
}
