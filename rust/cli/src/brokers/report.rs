//! What `brokers` prints: each broker, and whether they all run one checker.

use std::collections::BTreeMap;

use protocompat::text::printable;
use protocompat::Profile;
use serde::Serialize;

use super::scrape::Broker;
use super::{BrokersArgs, MAX_ASKED};
use crate::safe;

/// Brokers the verdict names; those past them are listed above it.
const MAX_NAMED: usize = 10;

/// What the brokers are compared with, and whether they all are it.
pub(super) struct Verdict {
    /// The profile and version every broker should run: --profile's most common version, or
    /// the most common of both; `None` when no broker runs it or two are equally common.
    pub(super) expected: Option<(String, String)>,
    /// Two or more profile-and-version pairs equally common: no majority to name.
    pub(super) tie: bool,
    /// Every broker listed was asked, and runs what is expected.
    pub(super) consistent: bool,
    /// The list was cut at [`MAX_ASKED`]: the brokers past it are not known to agree.
    cut: bool,
}

impl Verdict {
    pub(super) fn of(brokers: &[Broker], profile: Option<&Profile>, cut: bool) -> Verdict {
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
        let agree = expected.as_ref().is_some_and(|(p, v)| {
            brokers
                .iter()
                .all(|b| b.sound() == Some((p.as_str(), v.as_str())))
        });
        Verdict {
            expected,
            tie: leaders.len() > 1,
            consistent: agree && !cut,
            cut,
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

/// The report for people; `listed` is the number of ids in the admin API's list when it was
/// cut at [`MAX_ASKED`].
pub(super) fn text(
    cluster: &str,
    brokers: &[Broker],
    listed: Option<usize>,
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
    if let Some(listed) = listed {
        lines.push(format!(
            "the admin API lists {listed} broker ids; the first {MAX_ASKED} of them in sorted \
             order are asked, the rest are not"
        ));
    }
    let all = brokers.len();
    let differing: Vec<&Broker> = brokers.iter().filter(|b| verdict.differs(b)).collect();
    let named = named(&differing);
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
        (Some((p, v)), false) if differing.is_empty() && verdict.cut => format!(
            "DIFFER: the {all} brokers asked run protocompat {p} {v}, native library loaded; \
             the others listed were not asked"
        ),
        (Some((p, v)), false) => format!(
            "DIFFER: {} of {all} do not run protocompat {p} {v} ({}): {named}",
            differing.len(),
            match profile {
                Some(_) => "--profile's, at the version most brokers run",
                None => "what most brokers run",
            },
        ),
        (None, _) if verdict.tie => format!(
            "DIFFER: the brokers disagree, and no profile and version is run by more of them than any other: {named}"
        ),
        (None, _) => format!(
            "DIFFER: no broker runs protocompat{} with its native library loaded: {named}",
            profile.map_or(String::new(), |p| format!(" {}", p.name)),
        ),
    });
    lines.join("\n")
}

/// The first [`MAX_NAMED`] of `brokers`, each with what it runs.
fn named(brokers: &[&Broker]) -> String {
    let mut named: Vec<String> = brokers
        .iter()
        .take(MAX_NAMED)
        .map(|b| format!("{} ({})", b.id, b.short()))
        .collect();
    if brokers.len() > MAX_NAMED {
        named.push(format!(
            "… and {} more, listed above",
            brokers.len() - MAX_NAMED
        ));
    }
    named.join(", ")
}

/// The JSON report: the module's documentation describes it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report<'a> {
    report_version: u32,
    admin_url: &'a str,
    cluster: &'a str,
    profile: Option<&'static str>,
    expected: Option<Expected<'a>>,
    consistent: bool,
    listed: usize,
    truncated: bool,
    brokers: Vec<BrokerEntry<'a>>,
}

#[derive(Serialize)]
struct Expected<'a> {
    profile: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
struct BrokerEntry<'a> {
    id: &'a str,
    url: &'a str,
    state: &'static str,
    profile: Option<&'a str>,
    version: Option<&'a str>,
    error: Option<&'a str>,
}

/// The report for automation; `listed` is the number of ids in the admin API's list.
pub(super) fn json_report(
    args: &BrokersArgs,
    cluster: &str,
    brokers: &[Broker],
    listed: usize,
    verdict: &Verdict,
) -> String {
    let report = Report {
        report_version: 1,
        admin_url: &args.admin_url,
        cluster,
        profile: args.profile.map(|p| p.name),
        expected: verdict
            .expected
            .as_ref()
            .map(|(profile, version)| Expected { profile, version }),
        consistent: verdict.consistent,
        listed,
        truncated: verdict.cut,
        brokers: brokers
            .iter()
            .map(|b| BrokerEntry {
                id: &b.id,
                url: &b.url,
                state: b.state.name(),
                profile: b.profile.as_deref(),
                version: b.version.as_deref(),
                error: b.error.as_deref(),
            })
            .collect(),
    };
    safe::json(serde_json::to_string_pretty(&report).expect("JSON renders"))
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
        let out = text("c", &brokers, None, &verdict, None);
        assert!(
            out.ends_with("DIFFER: 1 of 3 do not run protocompat pip246 0.1.0 (what most brokers run): c:1 (plugin conservative 0.1.0)"),
            "{out}"
        );
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
        let out = text("c", &none, None, &verdict, None);
        assert!(out.contains("no broker runs protocompat with"), "{out}");
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
    fn a_cut_list_is_never_the_same_and_the_verdict_names_a_few() {
        let brokers: Vec<Broker> = (0..12)
            .map(|i| plugin(&format!("b{i:02}:1"), "pip246", "1"))
            .collect();
        let verdict = Verdict::of(&brokers, None, true);
        assert!(!verdict.consistent && verdict.expected.is_some());
        let out = text("c", &brokers, Some(9000), &verdict, None);
        let last: Vec<&str> = out.lines().rev().take(2).collect();
        assert_eq!(
            last,
            [
                "DIFFER: the 12 brokers asked run protocompat pip246 1, native library loaded; \
                 the others listed were not asked",
                "the admin API lists 9000 broker ids; the first 4096 of them in sorted order \
                 are asked, the rest are not",
            ]
        );
        let json: serde_json::Value =
            serde_json::from_str(&json_report(&args(), "c", &brokers, 9000, &verdict)).unwrap();
        assert_eq!(
            (&json["listed"], &json["truncated"]),
            (&9000.into(), &true.into())
        );

        let built_in: Vec<Broker> = (0..12)
            .map(|i| other(&format!("b{i:02}:1"), State::BuiltIn))
            .collect();
        let verdict = Verdict::of(&built_in, None, false);
        let out = text("c", &built_in, None, &verdict, None);
        let last = out.lines().last().unwrap();
        assert!(
            last.ends_with("b09:1 (built-in checker), … and 2 more, listed above"),
            "{last}"
        );
    }

    fn args() -> BrokersArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Command {
            #[command(flatten)]
            args: BrokersArgs,
        }
        Command::parse_from(["brokers", "--admin-url", "http://a:8080"]).args
    }
}
