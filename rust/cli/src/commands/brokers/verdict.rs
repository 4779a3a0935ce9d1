//! What the brokers are compared with, and whether they all are it.

use std::collections::BTreeMap;

use protocompat::Profile;

use super::scrape::Broker;

pub(super) struct Verdict {
    /// The profile and version every broker should run: --profile's most common version, or
    /// the most common of both; `None` when no broker runs it or two are equally common.
    pub(super) expected: Option<(String, String)>,
    /// Two or more profile-and-version pairs equally common: no majority to name.
    pub(super) tie: bool,
    /// Every broker listed was asked, and runs what is expected.
    pub(super) consistent: bool,
    /// Some broker that should have been asked was not (a list cut at a bound, a cluster
    /// whose brokers are not known): those are not known to agree.
    pub(super) incomplete: bool,
}

impl Verdict {
    pub(super) fn of<'a, I>(brokers: I, profile: Option<&Profile>, incomplete: bool) -> Verdict
    where
        I: IntoIterator<Item = &'a Broker>,
        I::IntoIter: Clone,
    {
        let brokers = brokers.into_iter();
        let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for (p, v) in brokers.clone().filter_map(Broker::sound) {
            if profile.is_none_or(|wanted| wanted.name == p) {
                *counts.entry((p, v)).or_default() += 1;
            }
        }
        let top = counts.values().copied().max().unwrap_or(0);
        let leaders: Vec<_> = counts.iter().filter(|(_, &n)| n == top).collect();
        let expected = match leaders.as_slice() {
            [((p, v), _)] => Some((p.to_string(), v.to_string())),
            _ => None,
        };
        let mut brokers = brokers;
        let agree = expected
            .as_ref()
            .is_some_and(|(p, v)| brokers.all(|b| b.sound() == Some((p.as_str(), v.as_str()))));
        Verdict {
            expected,
            tie: leaders.len() > 1,
            consistent: agree && !incomplete,
            incomplete,
        }
    }

    pub(super) fn differs(&self, broker: &Broker) -> bool {
        match &self.expected {
            Some((p, v)) => broker.sound() != Some((p.as_str(), v.as_str())),
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::scrape::fixtures::*;
    use super::super::scrape::State;
    use super::*;

    #[test]
    fn the_majority_is_what_the_others_are_compared_with() {
        let brokers = [
            plugin("a:1", "pip246", "0.1.0"),
            plugin("b:1", "pip246", "0.1.0"),
            plugin("c:1", "conservative", "0.1.0"),
        ];
        let verdict = Verdict::of(&brokers, None, false);
        assert_eq!(
            verdict.expected,
            Some(("pip246".to_owned(), "0.1.0".to_owned()))
        );
        assert!(!verdict.consistent);
        // --profile decides, however many run another.
        let conservative = Profile::named("conservative").unwrap();
        let verdict = Verdict::of(&brokers, Some(conservative), false);
        assert_eq!(
            verdict.expected,
            Some(("conservative".to_owned(), "0.1.0".to_owned()))
        );
        assert_eq!(brokers.iter().filter(|b| verdict.differs(b)).count(), 2);
    }

    #[test]
    fn a_tie_or_no_sound_broker_has_no_expectation() {
        let tie = [plugin("a:1", "pip246", "1"), plugin("b:1", "pip246", "2")];
        let verdict = Verdict::of(&tie, None, false);
        assert!(verdict.tie && verdict.expected.is_none() && !verdict.consistent);
        let none = [
            other("a:1", State::BuiltIn),
            other("b:1", State::Unreachable),
        ];
        let verdict = Verdict::of(&none, None, false);
        assert!(!verdict.tie && verdict.expected.is_none() && !verdict.consistent);
    }

    #[test]
    fn a_plugin_that_does_not_say_what_it_runs_differs() {
        let mut quiet = plugin("b:1", "pip246", "1");
        quiet.error = Some("no protocompat_native_library_loaded series".to_owned());
        let brokers = [plugin("a:1", "pip246", "1"), quiet];
        let verdict = Verdict::of(&brokers, None, false);
        assert!(!verdict.consistent);
        assert!(verdict.differs(&brokers[1]) && !verdict.differs(&brokers[0]));
    }

    #[test]
    fn brokers_not_asked_are_never_the_same() {
        let brokers = [plugin("a:1", "pip246", "1"), plugin("b:1", "pip246", "1")];
        assert!(Verdict::of(&brokers, None, false).consistent);
        let verdict = Verdict::of(&brokers, None, true);
        assert!(!verdict.consistent && verdict.expected.is_some());
        assert!(!brokers.iter().any(|b| verdict.differs(b)));
    }
}
