//! Findings no edit of the new schema fixes: what helps instead, said plainly.

use crate::report::Finding;
use crate::rules::RuleId;

use super::{Remedy, Site};

pub(crate) fn root_message_changed(site: &Site) -> Vec<Remedy> {
    vec![Remedy::advice(format!(
        "keep {} as the root message: register the schema with it as the root (the producer's \
         class, or --root {}); if {} is the payload now, add it to {} as a field with a new \
         number, or give it a topic of its own",
        site.old_root.full_name(),
        site.old_root.full_name(),
        site.new_root.full_name(),
        site.old_root.full_name()
    ))]
}

pub(crate) fn unsupported_feature(_: &Site) -> Vec<Remedy> {
    vec![Remedy::advice(
        "take out of what the root reaches what the schema does not use (an `extensions` range \
         nobody extends, `message_set_wire_format`); where it is needed no edit helps, since \
         no check can compare extensions",
    )]
}

pub(crate) fn always_incompatible(_: &Site) -> Vec<Remedy> {
    without_site_of(RuleId::AlwaysIncompatible)
}

pub(crate) fn unknown_strategy(_: &Site) -> Vec<Remedy> {
    without_site_of(RuleId::UnknownStrategy)
}

/// A finding whose declarations cannot be found again (a strategy's own, or a path cut short).
pub(crate) fn without_site(finding: &Finding) -> Vec<Remedy> {
    without_site_of(finding.rule)
}

fn without_site_of(rule: RuleId) -> Vec<Remedy> {
    match rule {
        RuleId::AlwaysIncompatible => vec![Remedy::advice(
            "no edit of the schema helps: ALWAYS_INCOMPATIBLE refuses every new schema; change \
             the topic's strategy only if its schema is meant to change, which gives up the \
             promise that it never does",
        )],
        RuleId::UnknownStrategy => vec![Remedy::advice(
            "no edit of the schema helps: set the namespace's or the topic's strategy to one \
             this checker knows (BACKWARD, FORWARD, FULL, their _TRANSITIVE forms, \
             ALWAYS_COMPATIBLE, ALWAYS_INCOMPATIBLE)",
        )],
        _ => Vec::new(),
    }
}
