//! What to write instead: for a finding, the edits to the **new** schema that make it go away
//! (docs/rules.md, "What to write instead" under each rule). The stored versions are history,
//! so a remedy never edits them.
//!
//! Each rule's spec names its planner (`crate::rules`, [`crate::rules::RuleId::hint`] its
//! one-line hint), which looks at the two declarations a finding names and says which
//! [`Edit`]s to make, as candidates in the order to try them; the planner here proves each
//! by a re-check before it is offered ([`Planner`]). Edits are about
//! declarations (a field's number, an option, a field to add), not text: the CLI turns them
//! into positions in the new side's `.proto` source (`rust/cli/src/fix/`), or shows them as the
//! declaration to write. Planning decodes both schemas again, so it runs only where remedies
//! are shown, never in the broker.

mod declare;
pub mod descriptor;
mod edit;
pub(crate) mod enums;
mod fresh;
pub(crate) mod keep;
pub(crate) mod oneof;
mod planner;
pub mod print;
mod prove;
mod rename;
pub(crate) mod required;
pub(crate) mod retype;
mod site;
pub(crate) mod syntax;
pub(crate) mod unfixable;

pub use edit::{Edit, EnumOption, FieldOption, FieldType, FileOption, Label, NewField, Value};
pub use planner::{Planner, Together};
pub use prove::{Recheck, RefusalKind, PROOF_WORK};
pub(crate) use site::Site;

/// One way to make a finding go away.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Remedy {
    /// What to do, in a sentence.
    pub summary: String,
    /// The edits to the new schema, in the order given; empty where no edit of the new schema
    /// helps (the summary says why, and what does).
    pub edits: Vec<Edit>,
}

impl Remedy {
    pub(crate) fn advice(summary: impl Into<String>) -> Remedy {
        Remedy {
            summary: summary.into(),
            edits: Vec::new(),
        }
    }

    pub(crate) fn edits(summary: impl Into<String>, edits: Vec<Edit>) -> Remedy {
        Remedy {
            summary: summary.into(),
            edits,
        }
    }
}

/// What became of a finding's candidate remedies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Planned {
    /// The first candidate the re-check proved: its finding gone, nothing new found.
    pub fix: Option<Remedy>,
    /// What helps where no edit does, or besides the fix (which side to upgrade first).
    pub advice: Vec<Remedy>,
    /// The candidates tried before the fix (or all of them, when none held), each with why
    /// the re-check refused it.
    pub refused: Vec<Refused>,
}

/// A candidate remedy the re-check refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub remedy: Remedy,
    pub why: String,
    pub kind: RefusalKind,
}

#[cfg(test)]
mod tests {
    use crate::rules::RuleId;

    #[test]
    fn every_hint_is_one_short_line() {
        for rule in RuleId::all() {
            let hint = rule.hint();
            assert!(hint.len() <= 72, "{rule}: {hint}");
            assert!(!hint.contains('\n'), "{rule}");
        }
    }
}
