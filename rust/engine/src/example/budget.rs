//! What the search for examples may spend (docs/rules.md#examples): a budget of its own, not the
//! check's work budget, so that a verdict never depends on examples. Each finding's search gets
//! at most [`PER_FINDING`] units, and all the searches of one check share [`PER_CHECK`]: a
//! check keeps up to 128 findings per compared pair and direction, and a history may hold many
//! schemas.
//!
//! A unit is meant to be about a nanosecond: [`LOOK`] at one declaration (a field scanned for
//! required ones, an enum value, a byte of a declared default), [`VALUE`] for one value built,
//! copied, encoded, read back or compared, which allocates. On the worst shapes we could build
//! (`example::tests::unit_costs` prints them: a oneof of 8,000 members whose pairs all read
//! alike, pairs the writer cannot set together, a path 85 messages deep, members too large to
//! show, enums of 100,000 values), a unit cost 0.6 to 1.6 ns in a release build, so
//!
//! - one finding's search stays under about 3 ms: [`PER_FINDING`] is 2 million units, which
//!   is still hundreds of messages along a path through messages of thousands of fields, where
//!   a real schema's finding finds its example in the first few (a few thousand units);
//! - one check's examples stay under about 65 ms: [`PER_CHECK`] is twenty findings' budgets,
//!   whether twenty searches spend all of theirs or thousands spend a little.

use std::cell::Cell;

/// Looking at one declaration: a field scanned, an enum value compared.
pub(crate) const LOOK: usize = 1;
/// One value of a message built, copied, encoded, read back or compared.
pub(crate) const VALUE: usize = 64;
/// What one finding's search may spend.
pub(crate) const PER_FINDING: usize = 2_000_000;
/// What the searches of one check may spend together.
pub(crate) const PER_CHECK: usize = 40_000_000;

/// The examples' budget of one check, shared by the searches for its findings' examples. The
/// walk hands it, by reference, to every place that asks for an example; what each search
/// spends is taken off it when the search ends.
pub(crate) struct ExampleBudget {
    left: Cell<usize>,
    /// Whether a search stopped because this total ran out, not its own share.
    ran_out: Cell<bool>,
}

impl Default for ExampleBudget {
    fn default() -> ExampleBudget {
        ExampleBudget::of(PER_CHECK)
    }
}

impl ExampleBudget {
    pub(crate) fn of(units: usize) -> ExampleBudget {
        ExampleBudget {
            left: Cell::new(units),
            ran_out: Cell::new(false),
        }
    }

    /// Whether some search stopped for want of the check's total: its finding's example then
    /// depends on what came before it in the check, so the verdict holding it is not one to
    /// remember for other checks.
    pub(crate) fn ran_out(&self) -> bool {
        self.ran_out.get()
    }

    /// What the next search may spend: its own share, or what the check has left.
    pub(crate) fn meter(&self) -> Meter {
        let left = self.left.get();
        Meter {
            left: Cell::new(left.min(PER_FINDING)),
            allowed: left.min(PER_FINDING),
            out: Cell::new(false),
            by_check: left < PER_FINDING,
            tried: Cell::new(0),
        }
    }

    /// Takes what a search spent off the check's total.
    pub(crate) fn settle(&self, meter: &Meter) {
        self.left.set(self.left.get() - meter.spent());
        if meter.out() && meter.by_check {
            self.ran_out.set(true);
        }
    }
}

/// What one search may still spend. Shared by reference between the candidates it generates
/// and the steps that try each one; once it runs out, every later charge fails too.
pub(crate) struct Meter {
    left: Cell<usize>,
    allowed: usize,
    /// Set by the first charge that failed.
    out: Cell<bool>,
    /// Whether the allowance is what the check had left, less than a finding's own share.
    by_check: bool,
    /// Candidates tried, for the tests that bound the search.
    tried: Cell<usize>,
}

impl Meter {
    /// A meter of `units`, as if it were one finding's share.
    #[cfg(test)]
    pub(crate) fn of(units: usize) -> Meter {
        Meter {
            left: Cell::new(units),
            allowed: units,
            out: Cell::new(false),
            by_check: false,
            tried: Cell::new(0),
        }
    }

    /// Takes `units` off; false, leaving nothing, when there are not that many.
    pub(crate) fn spend(&self, units: usize) -> bool {
        match self.left.get().checked_sub(units) {
            Some(left) => {
                self.left.set(left);
                true
            }
            None => {
                self.left.set(0);
                self.out.set(true);
                false
            }
        }
    }

    /// Counts one candidate tried.
    pub(crate) fn tried_one(&self) {
        self.tried.set(self.tried.get() + 1);
    }

    #[cfg(test)]
    pub(crate) fn tried(&self) -> usize {
        self.tried.get()
    }

    /// Whether a charge failed: what the search built since is incomplete.
    pub(crate) fn out(&self) -> bool {
        self.out.get()
    }

    pub(crate) fn spent(&self) -> usize {
        self.allowed - self.left.get()
    }

    /// Why a search stopped by this meter has no example.
    pub(crate) fn why(&self) -> String {
        if self.by_check {
            "the check's budget for examples ran out before this finding's search found one \
             (earlier findings used it)"
                .to_owned()
        } else {
            let tried = self.tried.get();
            let messages = if tried == 1 { "message" } else { "messages" };
            format!(
                "the search's budget ran out after trying {tried} {messages} along this path \
                 without finding one"
            )
        }
    }
}
