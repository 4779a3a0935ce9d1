//! How a case is checked against the engine: each direction, FULL, FULL as one traversal, and
//! each side against itself, every disagreement with `expect.json` reported as a line.

use std::collections::BTreeSet;

use protocompat::{Bounds, Checker, Profile, Report, Strategy, PIP246, PROFILES};
use serde_json::Value;

use super::{Case, DIRECTIONS};
use crate::sorted_keys;

/// A checker of `profile`'s rules with the default bounds.
pub fn checker(profile: &'static Profile) -> Checker {
    Checker::new(Bounds::DEFAULT).with_profile(profile)
}

impl Case {
    /// What `expect.json` says of `profile`: the default profile's expectations are at its top
    /// level, another profile's under its name.
    pub fn block(&self, profile: &Profile) -> &Value {
        if *profile == PIP246 {
            return &self.expect;
        }
        let block = &self.expect[profile.name];
        assert!(
            block.is_object(),
            "{}: no `{}` block",
            self.name,
            profile.name
        );
        block
    }

    /// `expect.json`'s `direction.list` (`failures` or `warnings`) under `profile`, sorted.
    pub fn expected(&self, profile: &Profile, direction: &str, list: &str) -> Vec<String> {
        let mut keys: Vec<String> = self.block(profile)[direction][list]
            .as_array()
            .unwrap_or_else(|| {
                panic!(
                    "{}: {}: {direction}.{list} missing",
                    self.name, profile.name
                )
            })
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        keys.sort();
        keys
    }

    pub fn compatible(&self, profile: &Profile, direction: &str) -> bool {
        self.block(profile)[direction]["compatible"]
            .as_bool()
            .unwrap_or_else(|| {
                panic!(
                    "{}: {}: {direction}.compatible missing",
                    self.name, profile.name
                )
            })
    }

    /// The check of `new` against `old` as the one existing schema.
    pub fn run(&self, profile: &'static Profile, strategy: Strategy) -> Result<Report, String> {
        checker(profile)
            .check(&[self.old.as_slice()], &self.new, strategy)
            .map_err(|e| format!("{} under {strategy:?} ({}): {e}", self.name, profile.name))
    }

    /// Compares one direction (BACKWARD or FORWARD); returns each disagreement.
    pub fn compare(
        &self,
        profile: &'static Profile,
        direction: &str,
        strategy: Strategy,
    ) -> Vec<String> {
        let report = match self.run(profile, strategy) {
            Ok(report) => report,
            Err(e) => return vec![e],
        };
        let mut problems = Vec::new();
        for (list, actual) in [
            ("failures", &report.failures),
            ("warnings", &report.warnings),
        ] {
            let want = self.expected(profile, direction, list);
            let got = sorted_keys(actual);
            if want != got {
                problems.push(format!(
                    "{} ({}) {direction} {list}: expected {want:?}, got {got:?}\n  report:\n{}",
                    self.name,
                    profile.name,
                    report.render_text()
                ));
            }
        }
        let want_compatible = self.compatible(profile, direction);
        if report.compatible != want_compatible {
            problems.push(format!(
                "{} ({}) {direction}: expected compatible={want_compatible}",
                self.name, profile.name
            ));
        }
        problems
    }

    /// Both directions, each under its strategy.
    pub fn compare_both_directions(&self, profile: &'static Profile) -> Vec<String> {
        DIRECTIONS
            .iter()
            .flat_map(|(direction, strategy)| self.compare(profile, direction, *strategy))
            .collect()
    }

    /// FULL finds the failures of both directions and passes only when both do.
    pub fn compare_full(&self, profile: &'static Profile) -> Vec<String> {
        let full = match self.run(profile, Strategy::Full) {
            Ok(report) => report,
            Err(e) => return vec![e],
        };
        let mut want: Vec<String> = DIRECTIONS
            .iter()
            .flat_map(|(direction, _)| self.expected(profile, direction, "failures"))
            .collect();
        want.sort();
        let both_compatible = DIRECTIONS.iter().all(|(d, _)| self.compatible(profile, d));
        let mut problems = Vec::new();
        let got = sorted_keys(&full.failures);
        if got != want {
            problems.push(format!(
                "{} ({}) FULL failures: expected {want:?}, got {got:?}",
                self.name, profile.name
            ));
        }
        if full.compatible != both_compatible {
            problems.push(format!(
                "{} ({}) FULL: expected compatible={both_compatible}",
                self.name, profile.name
            ));
        }
        problems
    }

    /// FULL walks both directions in one traversal; its report must be exactly the one built
    /// from each direction walked on its own (remembered by a checker that was asked BACKWARD
    /// and FORWARD first): the same findings, paths, order and text.
    pub fn compare_full_with_separate_walks(&self, profile: &'static Profile) -> Vec<String> {
        let (old, new) = (self.old.as_slice(), self.new.as_slice());
        let one_traversal = checker(profile).check(&[old], new, Strategy::Full);
        let separate = checker(profile);
        for strategy in [Strategy::Backward, Strategy::Forward] {
            separate.check(&[old], new, strategy).ok();
        }
        let remembered = separate.check(&[old], new, Strategy::Full);
        match (one_traversal, remembered) {
            (Ok(a), Ok(b)) if a.render_text() == b.render_text() && a.to_json() == b.to_json() => {
                vec![]
            }
            (Ok(a), Ok(b)) => vec![format!(
                "{} ({}): FULL in one traversal:\n{}\nfrom separate walks:\n{}",
                self.name,
                profile.name,
                a.to_json(),
                b.to_json()
            )],
            (a, b) => vec![format!("{}: {:?} / {:?}", self.name, a.err(), b.err())],
        }
    }

    /// Each side checked against itself under FULL finds nothing.
    pub fn compare_with_itself(&self, profile: &'static Profile) -> Vec<String> {
        let mut problems = Vec::new();
        for (side, data) in [("old", &self.old), ("new", &self.new)] {
            match checker(profile).check(&[data.as_slice()], data, Strategy::Full) {
                Ok(report) if report.failures.is_empty() && report.warnings.is_empty() => {}
                Ok(report) => problems.push(format!(
                    "{} {side} against itself: {}",
                    self.name,
                    report.render_text()
                )),
                Err(e) => problems.push(format!("{} {side} against itself: {e}", self.name)),
            }
        }
        problems
    }
}

/// The rule IDs `expect.json` says fire (failures and warnings) under `profile` in `direction`
/// over `cases`.
pub fn rules_fired(cases: &[Case], profile: &Profile, direction: &str) -> BTreeSet<String> {
    cases
        .iter()
        .flat_map(|c| {
            let mut keys = c.expected(profile, direction, "failures");
            keys.extend(c.expected(profile, direction, "warnings"));
            keys
        })
        .map(|k| k.split(' ').next().unwrap().to_owned())
        .collect()
}

/// What `compare` finds wrong with each of `cases` under each profile: the test bodies the
/// compat, conservative and Editions fixtures share.
pub fn problems(
    cases: &[Case],
    compare: impl Fn(&Case, &'static Profile) -> Vec<String>,
) -> Vec<String> {
    cases
        .iter()
        .flat_map(|c| PROFILES.iter().flat_map(|p| compare(c, p)))
        .collect()
}
