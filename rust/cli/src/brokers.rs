//! `protocompat brokers`: whether every broker of a cluster runs the same checker. A topic's
//! bundle moves between brokers, so one broker left on Pulsar's built-in checker, on another
//! profile or without the native library decides differently from the others for the topics
//! it happens to own.
//!
//! Each broker is asked on its Prometheus endpoint, `/metrics/`, which the plugin adds
//! `protocompat_info{profile,version}` and `protocompat_native_library_loaded` to. The token
//! goes to --admin-url's origin and the hosts of --allow-redirect-host only: Pulsar serves
//! /metrics/ without authentication by default, and a broker that asks for it says so.
//!
//! `--format json` prints one object:
//! `{"reportVersion": 1, "adminUrl", "cluster", "profile": the --profile asked or null,
//! "expected": {"profile", "version"} or null, "consistent": bool, "brokers": [{"id", "url",
//! "state": "plugin" | "library_not_loaded" | "built_in" | "unreachable", "profile", "version",
//! "error"}]}`, where `expected` is what the brokers are compared with (the --profile's most
//! common version, or the most common profile and version; null when none or a tie) and
//! `error` says what is missing or why a broker could not be asked. A command that cannot
//! start prints `{"error": {"message"}}` instead. There is no github or junit format: the
//! finding is about a cluster's brokers, not a file an annotation or a test case could name.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::ValueEnum;
use protocompat::text::{bound, printable};
use protocompat::Profile;
use serde_json::{json, Value};

use crate::broker::{self, Access, Client};
use crate::metrics::{self, Checker};
use crate::{parse_profile, print_err, print_out, safe, EXIT_BAD_INPUT};

#[derive(clap::Args)]
pub struct BrokersArgs {
    /// The cluster's admin URL, as pulsar-admin's --admin-url; its brokers' /metrics/ are
    /// read with the same scheme, at each broker's id (HOST:PORT of its web service).
    #[arg(long, value_name = "URL")]
    pub admin_url: String,
    /// The cluster whose brokers are asked; needed when the admin API lists several.
    #[arg(long, value_name = "NAME")]
    pub cluster: Option<String>,
    /// The profile every broker must run (`protocompat rules` lists them); without it, the
    /// brokers must agree with each other.
    #[arg(long, value_parser = parse_profile)]
    pub profile: Option<&'static Profile>,
    #[arg(long, value_enum, default_value_t = BrokersFormat::Text)]
    pub format: BrokersFormat,
    #[command(flatten)]
    pub access: Access,
}

/// Text or JSON only: the finding is about a cluster's brokers, which neither a CI annotation
/// (a file and line) nor a JUnit test case would name.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BrokersFormat {
    Text,
    Json,
}

/// Brokers asked at once: one that never answers holds a worker, not the others.
const WORKERS: usize = 8;
/// Broker ids and cluster names, as shown.
const MAX_NAME: usize = 300;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Plugin,
    LibraryNotLoaded,
    BuiltIn,
    Unreachable,
}

impl State {
    fn name(self) -> &'static str {
        match self {
            State::Plugin => "plugin",
            State::LibraryNotLoaded => "library_not_loaded",
            State::BuiltIn => "built_in",
            State::Unreachable => "unreachable",
        }
    }
}

/// One broker as its metrics describe it; every text in it printable and bounded.
#[derive(Debug)]
struct Broker {
    id: String,
    url: String,
    state: State,
    profile: Option<String>,
    version: Option<String>,
    /// What is missing from its metrics, or why it could not be asked.
    error: Option<String>,
}

impl Broker {
    /// Runs the plugin as it should, so that its profile and version can be compared.
    fn sound(&self) -> Option<(&str, &str)> {
        match (self.state, &self.profile, &self.version, &self.error) {
            (State::Plugin, Some(profile), Some(version), None) => Some((profile, version)),
            _ => None,
        }
    }

    /// The line the text report shows for it.
    fn describe(&self) -> String {
        let named = || match (&self.profile, &self.version) {
            // The note says which series is missing.
            (None, None) => String::new(),
            (profile, version) => format!(
                " {} {}",
                profile.as_deref().unwrap_or("(profile not reported)"),
                version.as_deref().unwrap_or("(version not reported)")
            ),
        };
        let note = self
            .error
            .as_ref()
            .map_or(String::new(), |e| format!(" ({e})"));
        match self.state {
            State::Plugin => format!("plugin{}{note}", named()),
            State::LibraryNotLoaded => format!(
                "plugin{}, NATIVE LIBRARY NOT LOADED (every PROTOBUF_NATIVE schema is rejected)",
                named()
            ),
            State::BuiltIn => "built-in checker (no protocompat_ metrics)".to_owned(),
            State::Unreachable => format!(
                "unreachable: {}",
                self.error.as_deref().unwrap_or("no answer")
            ),
        }
    }

    /// The short form the verdict names it with.
    fn short(&self) -> String {
        match self.state {
            State::Plugin => match self.sound() {
                Some((profile, version)) => format!("plugin {profile} {version}"),
                None => "plugin, profile or version not known".to_owned(),
            },
            State::LibraryNotLoaded => "native library not loaded".to_owned(),
            State::BuiltIn => "built-in checker".to_owned(),
            State::Unreachable => "unreachable".to_owned(),
        }
    }
}

pub fn run(args: BrokersArgs) -> ExitCode {
    // The message may carry the admin API's text (names, reasons): one printable line.
    let fail = |message: &str| {
        let message = printable(message);
        if args.format == BrokersFormat::Json {
            print_out(&safe::json(
                serde_json::to_string_pretty(&json!({"error": {"message": message}}))
                    .expect("JSON"),
            ));
        }
        print_err(&format!("protocompat brokers: {message}"));
        ExitCode::from(EXIT_BAD_INPUT)
    };
    let client = match Client::connect(&args.access, &args.admin_url, broker::BROKERS_TIMEOUT) {
        Ok(client) => client,
        Err(message) => return fail(&message),
    };
    let cluster = match cluster(&client, args.cluster.as_deref()) {
        Ok(cluster) => cluster,
        Err(message) => return fail(&message),
    };
    let what = format!("the brokers of cluster {}", bound(&cluster, MAX_NAME));
    let path = format!("/admin/v2/brokers/{}", broker::encode(&cluster));
    let mut ids = match broker::names(&client, &path, &what) {
        Ok(ids) if ids.is_empty() => {
            return fail(&format!("{what}: the admin API lists no active broker"))
        }
        Ok(ids) => ids,
        Err(message) => return fail(&message),
    };
    ids.sort();
    ids.dedup();
    let brokers = scrape_all(&client, &ids);
    let verdict = Verdict::of(&brokers, args.profile);
    let cluster = bound(&cluster, MAX_NAME);
    match args.format {
        BrokersFormat::Text => print_out(&text(&cluster, &brokers, &verdict, args.profile)),
        BrokersFormat::Json => print_out(&json_report(&args, &cluster, &brokers, &verdict)),
    }
    ExitCode::from(if verdict.consistent { 0 } else { 1 })
}

/// The cluster asked for, or the only one the admin API lists.
fn cluster(client: &Client, given: Option<&str>) -> Result<String, String> {
    if let Some(cluster) = given {
        return Ok(cluster.to_owned());
    }
    let mut clusters = broker::names(client, "/admin/v2/clusters", "the clusters")?;
    // Older brokers list the `global` pseudo-cluster of replicated namespaces, which has no
    // brokers of its own.
    clusters.retain(|c| c != "global");
    match clusters.len() {
        1 => Ok(clusters.remove(0)),
        0 => Err("the admin API lists no cluster; name one with --cluster".to_owned()),
        n => {
            let names: Vec<String> = clusters.iter().take(10).map(|c| bound(c, 100)).collect();
            let more = if n > 10 { ", …" } else { "" };
            Err(format!(
                "the admin API lists {n} clusters ({}{more}); name the one to check with --cluster",
                names.join(", ")
            ))
        }
    }
}

/// Every broker's metrics, read by a few workers at once, each drawing on the one deadline;
/// in the order of `ids`.
fn scrape_all(client: &Client, ids: &[String]) -> Vec<Broker> {
    let next = AtomicUsize::new(0);
    let mut found: Vec<(usize, Broker)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..ids.len().min(WORKERS))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(id) = ids.get(index) else {
                            return done;
                        };
                        done.push((index, scrape(client, id)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a scrape does not panic"))
            .collect()
    });
    found.sort_by_key(|(index, _)| *index);
    found.into_iter().map(|(_, broker)| broker).collect()
}

/// What one broker's `/metrics/` says.
fn scrape(client: &Client, id: &str) -> Broker {
    let mut broker = Broker {
        id: bound(id, MAX_NAME),
        url: String::new(),
        state: State::Unreachable,
        profile: None,
        version: None,
        error: None,
    };
    if !is_host_port(id) {
        broker.error = Some(format!(
            "the admin API names this broker `{}`, which is not HOST:PORT, so its web service is not known",
            broker.id
        ));
        return broker;
    }
    broker.url = format!("{}://{id}/metrics/", client.scheme());
    let what = format!("the metrics of broker {}", broker.id);
    let answer = match client.get_url(&broker.url, "text/plain") {
        Ok(answer) => answer,
        Err(message) => {
            broker.error = Some(message);
            return broker;
        }
    };
    let status = answer.status();
    if status != 200 {
        let token_sent = answer.token_sent();
        let reason = answer.reason();
        let hint = match status {
            401 | 403 if token_sent => " (the token was sent and refused)".to_owned(),
            401 | 403 if client.has_token() => format!(
                " (its /metrics/ asks for the token, which goes to --admin-url's host and \
                 port only: allow this broker with --allow-redirect-host {id})"
            ),
            401 | 403 => format!(
                " (its /metrics/ asks for a token: give one with --auth-token, \
                 --auth-token-file or PULSAR_AUTH_TOKEN, and allow this broker with \
                 --allow-redirect-host {id})"
            ),
            _ => String::new(),
        };
        broker.error = Some(format!("GET {}: HTTP {status}: {reason}{hint}", broker.url));
        return broker;
    }
    match answer.stream(&what, |body| metrics::scan(body)) {
        Ok(checker) => classify(&mut broker, checker),
        Err(message) => broker.error = Some(message),
    }
    broker
}

/// A broker id as Pulsar 4 lists them: `host:port` of the web service, `[v6]:port` for IPv6.
/// Anything else would put a path, user or second host in the URL made of it.
fn is_host_port(id: &str) -> bool {
    let Some((host, port)) = id.rsplit_once(':') else {
        return false;
    };
    let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => !v6.is_empty() && v6.chars().all(|c| c.is_ascii_hexdigit() || c == ':'),
        None => {
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        }
    };
    host_ok && port.parse::<u16>().is_ok_and(|p| p > 0)
}

fn classify(broker: &mut Broker, checker: Checker) {
    if !checker.plugin {
        broker.state = State::BuiltIn;
        return;
    }
    if let Some(info) = checker.info {
        (broker.profile, broker.version) = (info.profile, info.version);
    }
    broker.state = if checker.library_loaded == Some(false) {
        State::LibraryNotLoaded
    } else {
        State::Plugin
    };
    let mut missing = Vec::new();
    if broker.profile.is_none() || broker.version.is_none() {
        missing.push("no protocompat_info{profile,version} series: a plugin from before it?");
    }
    if checker.library_loaded.is_none() {
        missing.push("no protocompat_native_library_loaded series");
    }
    if checker.conflicting {
        missing.push("several protocompat_ series that disagree: two plugins in one broker?");
    }
    if !missing.is_empty() {
        broker.error = Some(missing.join("; "));
    }
}

/// What the brokers are compared with, and whether they all are it.
struct Verdict {
    /// The profile and version every broker should run: --profile's most common version, or
    /// the most common of both; `None` when no broker runs it or two are equally common.
    expected: Option<(String, String)>,
    /// Two or more profile-and-version pairs equally common: no majority to name.
    tie: bool,
    consistent: bool,
}

impl Verdict {
    fn of(brokers: &[Broker], profile: Option<&Profile>) -> Verdict {
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

fn text(cluster: &str, brokers: &[Broker], verdict: &Verdict, profile: Option<&Profile>) -> String {
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

fn json_report(args: &BrokersArgs, cluster: &str, brokers: &[Broker], verdict: &Verdict) -> String {
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
    use super::*;

    fn plugin(id: &str, profile: &str, version: &str) -> Broker {
        Broker {
            id: id.to_owned(),
            url: format!("http://{id}/metrics/"),
            state: State::Plugin,
            profile: Some(profile.to_owned()),
            version: Some(version.to_owned()),
            error: None,
        }
    }

    fn other(id: &str, state: State) -> Broker {
        Broker {
            state,
            profile: None,
            version: None,
            ..plugin(id, "", "")
        }
    }

    #[test]
    fn broker_ids_must_be_host_and_port() {
        for good in [
            "127.0.0.1:8080",
            "broker-0.broker.pulsar.svc:8443",
            "[::1]:8080",
        ] {
            assert!(is_host_port(good), "{good}");
        }
        for bad in [
            "h",
            "h:0",
            "h:x",
            ":8080",
            "evil.com/x:80",
            "user@h:80",
            "http://h:80",
            "h:80/metrics?",
            "[]:80",
            "a b:80",
        ] {
            assert!(!is_host_port(bad), "{bad}");
        }
    }

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

    #[test]
    fn classify_reads_the_states() {
        let mut broker = other("a:1", State::Unreachable);
        classify(&mut broker, Checker::default());
        assert_eq!(broker.state, State::BuiltIn);
        let mut broker = other("a:1", State::Unreachable);
        classify(
            &mut broker,
            Checker {
                plugin: true,
                info: Some(metrics::Info {
                    profile: Some("pip246".to_owned()),
                    version: Some("0.1.0".to_owned()),
                }),
                library_loaded: Some(false),
                conflicting: false,
            },
        );
        assert_eq!(broker.state, State::LibraryNotLoaded);
        assert!(broker.describe().contains("NATIVE LIBRARY NOT LOADED"));
    }
}
