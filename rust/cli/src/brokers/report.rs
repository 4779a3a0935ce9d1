//! What `brokers` prints: each broker, and whether they all run one checker.

use std::collections::BTreeMap;

use protocompat::text::printable;
use protocompat::Profile;
use serde_json::{json, Value};

use super::scrape::Broker;
use super::BrokersArgs;
use crate::safe;

/// What the brokers are compared with, and whether they all are it.
pub(super) struct Verdict {
    /// The profile and version every broker should run: --profile's most common version, or
    /// the most common of both; `None` when no broker runs it or two are equally common.
    pub(super) expected: Option<(String, String)>,
    /// Two or more profile-and-version pairs equally common: no majority to name.
    pub(super) tie: bool,
    pub(super) consistent: bool,
}

impl Verdict {
    pub(super) fn of(brokers: &[Broker], profile: Option<&Profile>) -> Verdict {
        let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for (p, v) in brokers.iter().filter_map(Broker::sound) {
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
        let consistent = expected.as_ref().is_some_and(|(p, v)| {
            brokers
                .iter()
                .all(|b| b.sound() == Some((p.as_str(), v.as_str())))
        });
        Verdict {
            expected,
            tie: leaders.len() > 1,
            consistent,
        }
    }

    fn differs(&self, broker: &Broker) -> bool {
        match &self.expected {
            Some((p, v)) => broker.sound() != Some((p.as_str(), v.as_str())),
            None => true,
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

pub(super) fn text(
    cluster: &str,
    brokers: &[Broker],
    verdict: &Verdict,
    profile: Option<&Profile>,
) -> String {
    let mut lines = vec![format!(
        "cluster {}: {}",
        printable(cluster),
        plural(brokers.len(), "broker", "brokers")
    )];
    let width = brokers
        .iter()
        .map(|b| b.id.chars().count())
        .max()
        .unwrap_or(0);
    for broker in brokers {
        lines.push(format!("  {:width$}  {}", broker.id, broker.describe()));
    }
    let all = brokers.len();
    let differing: Vec<String> = brokers
        .iter()
        .filter(|b| verdict.differs(b))
        .map(|b| format!("{} ({})", b.id, b.short()))
        .collect();
    lines.push(match (&verdict.expected, verdict.consistent) {
        (Some((p, v)), true) => format!(
            "SAME: {} protocompat {p} {v}, native library loaded",
            if all == 1 {
                "the one broker runs".to_owned()
            } else if all == 2 {
                "both brokers run".to_owned()
            } else {
                format!("all {all} brokers run")
            }
        ),
        (Some((p, v)), false) => format!(
            "DIFFER: {} of {all} do not run protocompat {p} {v} ({}): {}",
            differing.len(),
            match profile {
                Some(_) => "--profile's, at the version most brokers run",
                None => "what most brokers run",
            },
            differing.join(", ")
        ),
        (None, _) if verdict.tie => format!(
            "DIFFER: the brokers disagree, and no profile and version is run by more of them than any other: {}",
            differing.join(", ")
        ),
        (None, _) => format!(
            "DIFFER: no broker runs protocompat{} with its native library loaded: {}",
            profile.map_or(String::new(), |p| format!(" {}", p.name)),
            differing.join(", ")
        ),
    });
    lines.join("\n")
}

pub(super) fn json_report(
    args: &BrokersArgs,
    cluster: &str,
    brokers: &[Broker],
    verdict: &Verdict,
) -> String {
    let brokers: Vec<Value> = brokers
        .iter()
        .map(|b| {
            json!({
                "id": b.id,
                "url": b.url,
                "state": b.state.name(),
                "profile": b.profile,
                "version": b.version,
                "error": b.error,
            })
        })
        .collect();
    safe::json(
        serde_json::to_string_pretty(&json!({
            "reportVersion": 1,
            "adminUrl": args.admin_url,
            "cluster": cluster,
            "profile": args.profile.map(|p| p.name),
            "expected": verdict.expected.as_ref().map(|(p, v)| json!({"profile": p, "version": v})),
            "consistent": verdict.consistent,
            "brokers": brokers,
        }))
        .expect("JSON renders"),
    )
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
        let verdict = Verdict::of(&brokers, None);
        assert_eq!(
            verdict.expected,
            Some(("pip246".to_owned(), "0.1.0".to_owned()))
        );
        assert!(!verdict.consistent);
        let out = text("c", &brokers, &verdict, None);
        assert!(
            out.ends_with("DIFFER: 1 of 3 do not run protocompat pip246 0.1.0 (what most brokers run): c:1 (plugin conservative 0.1.0)"),
            "{out}"
        );
        // --profile decides, however many run another.
        let conservative = Profile::named("conservative").unwrap();
        let verdict = Verdict::of(&brokers, Some(conservative));
        assert_eq!(
            verdict.expected,
            Some(("conservative".to_owned(), "0.1.0".to_owned()))
        );
        assert_eq!(brokers.iter().filter(|b| verdict.differs(b)).count(), 2);
    }

    #[test]
    fn a_tie_or_no_sound_broker_has_no_expectation() {
        let tie = [plugin("a:1", "pip246", "1"), plugin("b:1", "pip246", "2")];
        let verdict = Verdict::of(&tie, None);
        assert!(verdict.tie && verdict.expected.is_none() && !verdict.consistent);
        let none = [
            other("a:1", State::BuiltIn),
            other("b:1", State::Unreachable),
        ];
        let verdict = Verdict::of(&none, None);
        assert!(!verdict.tie && verdict.expected.is_none() && !verdict.consistent);
        let out = text("c", &none, &verdict, None);
        assert!(out.contains("no broker runs protocompat with"), "{out}");
    }

    #[test]
    fn a_plugin_that_does_not_say_what_it_runs_differs() {
        let mut quiet = plugin("b:1", "pip246", "1");
        quiet.error = Some("no protocompat_native_library_loaded series".to_owned());
        let brokers = [plugin("a:1", "pip246", "1"), quiet];
        let verdict = Verdict::of(&brokers, None);
        assert!(!verdict.consistent);
        assert!(verdict.differs(&brokers[1]) && !verdict.differs(&brokers[0]));
    }
}
