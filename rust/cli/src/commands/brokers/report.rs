//! What `brokers` prints: each cluster's brokers, and whether they all run one checker.

use protocompat::text::printable;
use protocompat::Profile;
use serde::Serialize;

use super::scrape::Broker;
use super::verdict::Verdict;
use super::{Block, Survey, MAX_ASKED, MAX_CLUSTERS};
use crate::args::BrokersArgs;
use crate::safe;

/// Brokers (or clusters) the verdict names; those past them are listed above it.
const MAX_NAMED: usize = 10;

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The report for people: each cluster's block, then the verdict.
pub(super) fn text(survey: &Survey, verdict: &Verdict, profile: Option<&Profile>) -> String {
    let across = survey.clusters_listed.is_some();
    let mut lines = Vec::new();
    for block in &survey.blocks {
        block_lines(&mut lines, block, across);
    }
    if let Some(listed) = survey.clusters_listed.filter(|_| survey.clusters_cut) {
        lines.push(format!(
            "the admin API lists {listed} clusters; the first {MAX_CLUSTERS} of them in sorted \
             order are asked, the rest are not"
        ));
    }
    lines.push(match (across, survey.blocks.as_slice()) {
        (false, [block]) => one_verdict(&block.brokers, verdict, profile),
        _ => all_verdict(survey, verdict, profile),
    });
    lines.join("\n")
}

/// "cluster NAME: N brokers" and a line for each broker, or why they are not known.
fn block_lines(lines: &mut Vec<String>, block: &Block, across: bool) {
    let cluster = printable(&block.cluster);
    if let Some(unknown) = &block.unknown {
        lines.push(format!("cluster {cluster}: brokers not known"));
        lines.push(format!("  {}", unknown.reason()));
        return;
    }
    let brokers = &block.brokers;
    lines.push(format!(
        "cluster {cluster}: {}",
        plural(brokers.len(), "broker", "brokers")
    ));
    let width = brokers
        .iter()
        .map(|b| b.id.chars().count())
        .max()
        .unwrap_or(0);
    for broker in brokers {
        lines.push(format!("  {:width$}  {}", broker.id, broker.describe()));
    }
    if block.truncated {
        let listed = block.listed;
        let asked = brokers.len();
        let bound = if across {
            format!(" ({MAX_ASKED} brokers are asked at most, of all clusters together)")
        } else {
            String::new()
        };
        lines.push(format!(
            "the admin API lists {listed} broker ids; the first {asked} of them in sorted \
             order are asked, the rest are not{bound}"
        ));
    }
}

/// The verdict on one cluster's brokers.
fn one_verdict(brokers: &[Broker], verdict: &Verdict, profile: Option<&Profile>) -> String {
    let all = brokers.len();
    let differing: Vec<&Broker> = brokers.iter().filter(|b| verdict.differs(b)).collect();
    let named = named(&differing, |b| format!("{} ({})", b.id, b.short()));
    match (&verdict.expected, verdict.consistent) {
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
        (Some((p, v)), false) if differing.is_empty() && verdict.incomplete => format!(
            "DIFFER: the {all} brokers asked run protocompat {p} {v}, native library loaded; \
             the others listed were not asked"
        ),
        (Some((p, v)), false) => format!(
            "DIFFER: {} of {all} do not run protocompat {p} {v} ({}): {named}",
            differing.len(),
            majority(profile),
        ),
        (None, _) => format!("DIFFER: {}", no_expected(verdict, profile, &named)),
    }
}

/// Why there is nothing the brokers are compared with: a tie, or no broker runs the plugin
/// (the one `--profile` names) with its library loaded.
fn no_expected(verdict: &Verdict, profile: Option<&Profile>, named: &str) -> String {
    if verdict.tie {
        format!(
            "the brokers disagree, and no profile and version is run by more of them than any other: {named}"
        )
    } else {
        format!(
            "no broker runs protocompat{} with its native library loaded: {named}",
            profile.map_or(String::new(), |p| format!(" {}", p.name)),
        )
    }
}

/// The verdict on the brokers of every cluster: each broker named with its cluster, and the
/// clusters and brokers that were not asked said after them.
fn all_verdict(survey: &Survey, verdict: &Verdict, profile: Option<&Profile>) -> String {
    let clusters = survey.blocks.len();
    let all = survey.brokers().count();
    if let (Some((p, v)), true) = (&verdict.expected, verdict.consistent) {
        let (brokers, runs) = match all {
            1 => ("the one broker".to_owned(), "runs"),
            2 => ("both brokers".to_owned(), "run"),
            n => (format!("all {n} brokers"), "run"),
        };
        let of = match clusters {
            1 => "the one cluster".to_owned(),
            n => format!("{n} clusters"),
        };
        return format!(
            "SAME: {brokers} of {of} {runs} protocompat {p} {v}, native library loaded"
        );
    }
    let differing: Vec<(&Block, &Broker)> = survey
        .blocks
        .iter()
        .flat_map(|block| block.brokers.iter().map(move |b| (block, b)))
        .filter(|(_, b)| verdict.differs(b))
        .collect();
    let named = named(&differing, |(block, b)| {
        format!("{} {} ({})", printable(&block.cluster), b.id, b.short())
    });
    let mut says = vec![match &verdict.expected {
        Some((p, v)) if differing.is_empty() => format!(
            "the {} protocompat {p} {v}, native library loaded",
            plural(all, "broker asked runs", "brokers asked run")
        ),
        Some((p, v)) => format!(
            "{} of {all} brokers do not run protocompat {p} {v} ({}): {named}",
            differing.len(),
            majority(profile),
        ),
        None if all == 0 => "no broker of any cluster is known".to_owned(),
        None => no_expected(verdict, profile, &named),
    }];
    says.extend(not_asked(survey));
    format!("DIFFER: {}", says.join("; "))
}

/// What the expected profile and version is.
fn majority(profile: Option<&Profile>) -> &'static str {
    match profile {
        Some(_) => "--profile's, at the version most brokers run",
        None => "what most brokers run",
    }
}

/// The clusters and brokers that were not asked, for the verdict line.
fn not_asked(survey: &Survey) -> Vec<String> {
    let mut says = Vec::new();
    let unknown: Vec<&Block> = survey
        .blocks
        .iter()
        .filter(|block| block.unknown.is_some())
        .collect();
    if !unknown.is_empty() {
        let named = named(&unknown, |block| {
            let why = block.unknown.as_ref().map_or("", |u| u.short());
            format!("{} ({why})", printable(&block.cluster))
        });
        says.push(format!(
            "the brokers of {} of {} clusters are not known: {named}",
            unknown.len(),
            survey.blocks.len()
        ));
    }
    if survey.blocks.iter().any(|block| block.truncated) {
        says.push(format!(
            "brokers listed past the first {MAX_ASKED} were not asked"
        ));
    }
    if survey.clusters_cut {
        says.push(format!(
            "clusters listed past the first {MAX_CLUSTERS} were not asked"
        ));
    }
    says
}

/// The first [`MAX_NAMED`] of `items`, each as `label` shows it.
fn named<T>(items: &[T], label: impl Fn(&T) -> String) -> String {
    let mut named: Vec<String> = items.iter().take(MAX_NAMED).map(label).collect();
    if items.len() > MAX_NAMED {
        named.push(format!(
            "… and {} more, listed above",
            items.len() - MAX_NAMED
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
    /// Null with --all-clusters.
    cluster: Option<&'a str>,
    profile: Option<&'static str>,
    expected: Option<Expected<'a>>,
    consistent: bool,
    listed: usize,
    truncated: bool,
    /// With --all-clusters only, as `clusters`.
    #[serde(skip_serializing_if = "Option::is_none")]
    clusters_listed: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clusters: Option<Vec<ClusterEntry<'a>>>,
    brokers: Vec<BrokerEntry<'a>>,
}

#[derive(Serialize)]
struct Expected<'a> {
    profile: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
struct ClusterEntry<'a> {
    cluster: &'a str,
    listed: usize,
    truncated: bool,
    error: Option<String>,
}

#[derive(Serialize)]
struct BrokerEntry<'a> {
    /// With --all-clusters only.
    #[serde(skip_serializing_if = "Option::is_none")]
    cluster: Option<&'a str>,
    id: &'a str,
    url: &'a str,
    state: &'static str,
    profile: Option<&'a str>,
    version: Option<&'a str>,
    error: Option<&'a str>,
}

/// The report for automation.
pub(super) fn json_report(args: &BrokersArgs, survey: &Survey, verdict: &Verdict) -> String {
    let across = survey.clusters_listed.is_some();
    let report = Report {
        report_version: 1,
        admin_url: &args.admin_url,
        cluster: match survey.blocks.as_slice() {
            [block] if !across => Some(&block.cluster),
            _ => None,
        },
        profile: args.profile.map(|p| p.name),
        expected: verdict
            .expected
            .as_ref()
            .map(|(profile, version)| Expected { profile, version }),
        consistent: verdict.consistent,
        listed: survey.blocks.iter().map(|block| block.listed).sum(),
        truncated: survey.truncated(),
        clusters_listed: survey.clusters_listed,
        clusters: across.then(|| survey.blocks.iter().map(cluster_entry).collect()),
        brokers: survey
            .blocks
            .iter()
            .flat_map(|block| {
                let cluster = across.then_some(block.cluster.as_str());
                block.brokers.iter().map(move |b| broker_entry(cluster, b))
            })
            .collect(),
    };
    safe::json(serde_json::to_string_pretty(&report).expect("JSON renders"))
}

fn cluster_entry(block: &Block) -> ClusterEntry<'_> {
    ClusterEntry {
        cluster: &block.cluster,
        listed: block.listed,
        truncated: block.truncated,
        error: block.unknown.as_ref().map(|u| u.reason()),
    }
}

fn broker_entry<'a>(cluster: Option<&'a str>, b: &'a Broker) -> BrokerEntry<'a> {
    BrokerEntry {
        cluster,
        id: &b.id,
        url: &b.url,
        state: b.state.name(),
        profile: b.profile.as_deref(),
        version: b.version.as_deref(),
        error: b.error.as_deref(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::scrape::fixtures::*;
    use super::super::scrape::State;
    use super::super::Unknown;
    use super::*;

    fn block(cluster: &str, brokers: Vec<Broker>) -> Block {
        Block {
            cluster: cluster.to_owned(),
            listed: brokers.len(),
            truncated: false,
            unknown: None,
            brokers,
        }
    }

    fn one(brokers: Vec<Broker>) -> Survey {
        Survey {
            blocks: vec![block("c", brokers)],
            clusters_listed: None,
            clusters_cut: false,
        }
    }

    fn verdict(survey: &Survey) -> Verdict {
        Verdict::of(survey.brokers(), None, !survey.complete())
    }

    #[test]
    fn the_verdict_names_who_differs_from_the_majority() {
        let survey = one(vec![
            plugin("a:1", "pip246", "0.1.0"),
            plugin("b:1", "pip246", "0.1.0"),
            plugin("c:1", "conservative", "0.1.0"),
        ]);
        let out = text(&survey, &verdict(&survey), None);
        assert!(
            out.ends_with("DIFFER: 1 of 3 do not run protocompat pip246 0.1.0 (what most brokers run): c:1 (plugin conservative 0.1.0)"),
            "{out}"
        );
        let none = one(vec![
            other("a:1", State::BuiltIn),
            other("b:1", State::Unreachable),
        ]);
        let out = text(&none, &verdict(&none), None);
        assert!(out.contains("no broker runs protocompat with"), "{out}");
    }

    #[test]
    fn a_cut_list_is_never_the_same_and_the_verdict_names_a_few() {
        let mut survey = one((0..12)
            .map(|i| plugin(&format!("b{i:02}:1"), "pip246", "1"))
            .collect());
        (survey.blocks[0].listed, survey.blocks[0].truncated) = (9000, true);
        let verdict = verdict(&survey);
        assert!(!verdict.consistent && verdict.expected.is_some());
        let out = text(&survey, &verdict, None);
        let last: Vec<&str> = out.lines().rev().take(2).collect();
        assert_eq!(
            last,
            [
                "DIFFER: the 12 brokers asked run protocompat pip246 1, native library loaded; \
                 the others listed were not asked",
                "the admin API lists 9000 broker ids; the first 12 of them in sorted order \
                 are asked, the rest are not",
            ]
        );
        let json: serde_json::Value =
            serde_json::from_str(&json_report(&args(), &survey, &verdict)).unwrap();
        assert_eq!(
            (&json["listed"], &json["truncated"], &json["cluster"]),
            (&9000.into(), &true.into(), &"c".into())
        );
        assert!(json.get("clusters").is_none() && json["brokers"][0].get("cluster").is_none());

        let built_in = one((0..12)
            .map(|i| other(&format!("b{i:02}:1"), State::BuiltIn))
            .collect());
        let out = text(&built_in, &self::verdict(&built_in), None);
        let last = out.lines().last().unwrap();
        assert!(
            last.ends_with("b09:1 (built-in checker), … and 2 more, listed above"),
            "{last}"
        );
    }

    #[test]
    fn across_clusters_each_broker_is_named_with_its_cluster() {
        let mut survey = Survey {
            blocks: vec![
                block("east", vec![plugin("a:1", "pip246", "1")]),
                block("west", vec![plugin("b:1", "pip246", "1")]),
            ],
            clusters_listed: Some(2),
            clusters_cut: false,
        };
        let out = text(&survey, &verdict(&survey), None);
        assert!(
            out.ends_with(
                "SAME: both brokers of 2 clusters run protocompat pip246 1, native library loaded"
            ),
            "{out}"
        );

        survey.blocks[1].brokers.push(other("c:1", State::BuiltIn));
        survey.blocks.push(Block {
            unknown: Some(Unknown::NoneListed),
            ..block("north", Vec::new())
        });
        (survey.clusters_listed, survey.clusters_cut) = (Some(70), true);
        let verdict = verdict(&survey);
        let out = text(&survey, &verdict, None);
        assert!(
            out.contains(
                "cluster north: brokers not known\n  the admin API lists no active broker\n"
            ),
            "{out}"
        );
        assert_eq!(
            out.lines().last().unwrap(),
            "DIFFER: 1 of 3 brokers do not run protocompat pip246 1 (what most brokers run): \
             west c:1 (built-in checker); the brokers of 1 of 3 clusters are not known: north \
             (no active broker listed); clusters listed past the first 64 were not asked"
        );
        let json: serde_json::Value =
            serde_json::from_str(&json_report(&args(), &survey, &verdict)).unwrap();
        assert_eq!(json["cluster"], serde_json::Value::Null);
        assert_eq!(
            (&json["clustersListed"], &json["truncated"]),
            (&70.into(), &true.into())
        );
        assert_eq!(
            json["clusters"][2],
            serde_json::json!({"cluster": "north", "listed": 0, "truncated": false,
                "error": "the admin API lists no active broker"})
        );
        assert_eq!(json["brokers"][2]["cluster"], "west");
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
