//! The strategy's own rejections: ALWAYS_INCOMPATIBLE refuses every new schema, and
//! UNKNOWN_STRATEGY a strategy this checker does not know (UNDEFINED, or a newer Pulsar's
//! code). No walk makes them (`crate::checker` does), and no edit of a schema helps.
use super::{RuleId, Scope, Spec};
use crate::remedy;

pub(crate) const ALWAYS_INCOMPATIBLE: Spec = Spec {
    id: RuleId::AlwaysIncompatible,
    description: "the strategy ALWAYS_INCOMPATIBLE refuses every new schema",
    hint: "no schema edit helps: the strategy refuses every change",
    scope: Scope::AllSyntaxes,
    check: None,
    plan: remedy::unfixable::always_incompatible,
};

pub(crate) const UNKNOWN_STRATEGY: Spec = Spec {
    id: RuleId::UnknownStrategy,
    description: "the strategy is UNDEFINED or one this checker does not know",
    hint: "no schema edit helps: set a known strategy",
    scope: Scope::AllSyntaxes,
    check: None,
    plan: remedy::unfixable::unknown_strategy,
};
