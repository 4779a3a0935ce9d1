//! `protocompat brokers`: whether every broker of a cluster runs the same checker. A topic's
//! bundle moves between brokers, so one broker left on Pulsar's built-in checker, on another
//! profile or without the native library decides differently from the others for the topics
//! it happens to own.
//!
//! With `--all-clusters`, every cluster the admin API lists is asked, and one verdict covers
//! the brokers of all of them: geo-replicated clusters share one configuration store, and a
//! replicated topic's schema is checked by the brokers of each cluster it reaches (the
//! replicator registers it there), so one cluster on another checker or profile decides
//! differently from the others for the same schema.
//!
//! Each broker is asked on its Prometheus endpoint, `/metrics/`, which the plugin adds
//! `protocompat_info{profile,version}` and `protocompat_native_library_loaded` to. The token
//! goes to --admin-url's origin and the hosts of --allow-redirect-host only: Pulsar serves
//! /metrics/ without authentication by default, and a broker that asks for it says so. With
//! --all-clusters, each cluster's brokers are asked for at the web service its entry records
//! (`pulsar-admin clusters get NAME`), never at --admin-url: a broker asked for another
//! cluster's brokers redirects to that cluster's web service (Pulsar 4), or answers with its own
//! cluster's (Pulsar 5.0.1). The same rule governs the token there: it goes to that web service,
//! and a redirect from it is followed, only where the token may go; without a token, anywhere.
//!
//! Each broker list is read as it streams in, and at most [`MAX_ASKED`] brokers are kept in
//! all (the first in sorted order, cluster by cluster in sorted order), each one's texts cut,
//! and at most [`MAX_CLUSTERS`] clusters are asked: memory follows what is asked, not what the
//! admin API sends. A longer list is said in the report and is never SAME; so is a cluster
//! whose broker list cannot be read or names no active broker, whose topics would be checked
//! by brokers not asked.
//!
//! `--format json` prints one object:
//! `{"reportVersion": 1, "adminUrl", "cluster", "profile": the --profile asked or null,
//! "expected": {"profile", "version"} or null, "consistent": bool, "listed": the ids in the
//! admin API's list, "truncated": bool, "brokers": [{"id", "url", "state": "plugin" |
//! "library_not_loaded" | "built_in" | "unreachable", "profile", "version", "error"}]}`, where
//! `expected` is what the brokers are compared with (the --profile's most common version, or
//! the most common profile and version; null when none or a tie), `truncated` says that
//! `brokers` holds the first [`MAX_ASKED`] ids of a longer list only, and `error` says what is
//! missing or why a broker could not be asked. With `--all-clusters`, `cluster` is null,
//! `listed` counts the ids of every cluster's list, `truncated` is also true when clusters
//! past the first [`MAX_CLUSTERS`] were left out, and three fields are added:
//! `"clustersListed"`: the clusters the admin API lists (`global` aside), `"clusters"`:
//! `[{"cluster", "listed", "truncated", "error"}]` for each cluster asked, where `error` says
//! why its brokers are not known (null when they are), and each entry of `brokers` has a
//! `"cluster"`. A command that cannot start prints `{"error": {"message"}}` instead. There is
//! no github or junit format: the finding is about a cluster's brokers, not a file an
//! annotation or a test case could name.

mod clusters;
mod report;
mod scrape;
mod verdict;

use std::collections::BTreeSet;
use std::process::ExitCode;

use crate::args::{BrokersArgs, BrokersFormat};
use crate::broker::{self, Client};
use crate::console::{self, print_out, Error, Kind};
use crate::safe;
use report::{json_report, text};
use scrape::{scrape_all, Broker};
use verdict::Verdict;

/// Broker ids and cluster names, as shown.
pub(crate) const MAX_NAME: usize = 300;
/// Brokers asked at most, across clusters: far more than a cluster runs, and what a list
/// longer than that is cut to, so that neither the brokers kept nor the report grows with it.
pub(crate) const MAX_ASKED: usize = 4096;
/// Clusters asked at most with --all-clusters: far more than one configuration store holds,
/// and each costs a request before any broker is asked.
pub(crate) const MAX_CLUSTERS: usize = 64;

/// What was asked of one cluster: its block in the report.
struct Block {
    /// Its name as shown.
    cluster: String,
    /// The ids in its broker list, repeats included; 0 when the list was not read.
    listed: usize,
    /// Ids of its list were left out, past [`MAX_ASKED`] in all.
    truncated: bool,
    /// Why its brokers are not known, when they are not.
    unknown: Option<Unknown>,
    brokers: Vec<Broker>,
}

/// Why a cluster's brokers are not known: a namespace replicated there is checked by brokers
/// nobody asked.
enum Unknown {
    /// Its broker list could not be read; the message says why and what to pass.
    NotRead(String),
    NoneListed,
    /// The admin API names it with more than [`MAX_NAME`] bytes: no cluster is named so, and
    /// the name as kept is cut, so its brokers cannot be asked for.
    NameTooLong,
}

impl Unknown {
    /// The whole reason, for the cluster's block.
    fn reason(&self) -> String {
        match self {
            Unknown::NotRead(message) => message.clone(),
            Unknown::NoneListed => "the admin API lists no active broker".to_owned(),
            Unknown::NameTooLong => format!(
                "the admin API names this cluster with more than {MAX_NAME} bytes, which no \
                 cluster's name has, so its brokers were not asked for"
            ),
        }
    }

    /// A few words for the verdict line, which names the cluster.
    fn short(&self) -> &'static str {
        match self {
            Unknown::NotRead(_) => "broker list not read",
            Unknown::NoneListed => "no active broker listed",
            Unknown::NameTooLong => "name too long",
        }
    }
}

/// Everything asked: one cluster's block, or with --all-clusters each cluster's.
struct Survey {
    blocks: Vec<Block>,
    /// With --all-clusters, the clusters the admin API lists, `global` aside, repeats
    /// included.
    clusters_listed: Option<usize>,
    /// Clusters past the first [`MAX_CLUSTERS`] were left out.
    clusters_cut: bool,
}

impl Survey {
    /// Every broker asked, cluster by cluster.
    fn brokers(&self) -> impl Iterator<Item = &Broker> + Clone {
        self.blocks.iter().flat_map(|block| &block.brokers)
    }

    /// Some cluster or broker listed was left out at a bound.
    fn truncated(&self) -> bool {
        self.clusters_cut || self.blocks.iter().any(|block| block.truncated)
    }

    /// Every broker of every cluster listed was asked.
    fn complete(&self) -> bool {
        !self.truncated() && self.blocks.iter().all(|block| block.unknown.is_none())
    }
}

pub fn run(args: BrokersArgs) -> ExitCode {
    // The message may carry the admin API's text (names, reasons): one printable line.
    let fail = |error: &Error| {
        console::refuse("brokers", error, |e| {
            (args.format == BrokersFormat::Json).then(|| console::json_error(e.message()))
        })
    };
    let client = match Client::connect(&args.access, &args.admin_url, broker::BROKERS_TIMEOUT) {
        Ok(client) => client,
        Err(error) => return fail(&error),
    };
    let survey = if args.all_clusters {
        clusters::survey(&client)
    } else {
        one_cluster(&client, args.cluster.as_deref())
    };
    let survey = match survey {
        Ok(survey) => survey,
        Err(error) => return fail(&error),
    };
    let verdict = Verdict::of(survey.brokers(), args.profile, !survey.complete());
    match args.format {
        BrokersFormat::Text => print_out(&text(&survey, &verdict, args.profile)),
        BrokersFormat::Json => print_out(&json_report(&args, &survey, &verdict)),
    }
    ExitCode::from(if verdict.consistent { 0 } else { 1 })
}

/// The brokers of the cluster named, or of the only one the admin API lists; one that lists
/// none is an error, as there is nothing to compare.
fn one_cluster(client: &Client, given: Option<&str>) -> Result<Survey, Error> {
    let cluster = cluster(client, given)?;
    let what = format!("the brokers of cluster {}", safe::shown(&cluster, MAX_NAME));
    let path = format!("/admin/v2/brokers/{}", broker::encode(&cluster));
    let listed = list(client, &client.url(&path), &what, MAX_ASKED).map_err(not_listed)?;
    if listed.ids.is_empty() {
        return Err(Error::server(format!(
            "{what}: the admin API lists no active broker"
        )));
    }
    let block = Block {
        cluster: safe::shown(&cluster, MAX_NAME),
        listed: listed.count,
        truncated: listed.cut,
        unknown: None,
        brokers: scrape_all(client, &listed.ids),
    };
    Ok(Survey {
        blocks: vec![block],
        clusters_listed: None,
        clusters_cut: false,
    })
}

/// The brokers the admin API lists, as many as are asked.
struct Listed {
    /// The first ids in sorted order, each once, as many as were asked for. An id longer than
    /// [`MAX_NAME`] is kept as shown, cut: no HOST:PORT is that long, nor is one cut.
    ids: Vec<String>,
    /// The ids in the list, repeats included.
    count: usize,
    /// Ids past those kept were left out.
    cut: bool,
}

/// The broker list at `url`, read as it streams in, never more than `keep` of its ids kept; an
/// error says whose list it was.
fn list(client: &Client, url: &str, what: &str, keep: usize) -> Result<Listed, Error> {
    let mut ids = BTreeSet::new();
    let (mut count, mut cut) = (0, false);
    broker::each_name_at(client, url, what, |id| {
        count += 1;
        let id = if id.len() <= MAX_NAME {
            id.to_owned()
        } else {
            safe::shown(id, MAX_NAME)
        };
        if ids.insert(id) && ids.len() > keep {
            ids.pop_last();
            cut = true;
        }
        Ok(())
    })
    .map_err(|error| {
        if error.message().starts_with(what) {
            error
        } else {
            error.context(what)
        }
    })?;
    Ok(Listed {
        ids: ids.into_iter().collect(),
        count,
        cut,
    })
}

/// Why the broker list of a cluster named to --admin-url was not read. A redirect the token
/// may not follow is, there, a broker sending the request to another cluster's web service,
/// which the message alone would take for a topic's owner. (With --all-clusters, each cluster
/// is asked at its own web service already.)
fn not_listed(error: Error) -> Error {
    if *error.kind() != Kind::TokenHeldBack {
        return error;
    }
    error.map_message(|message| {
        format!(
            "{message}. A broker answers for its own cluster only, and sends a request for \
             another cluster's brokers to that cluster's web service: pass that \
             --allow-redirect-host to let the token go there, or ask that cluster with its own \
             --admin-url"
        )
    })
}

/// The cluster asked for, or the only one the admin API lists.
fn cluster(client: &Client, given: Option<&str>) -> Result<String, Error> {
    const SHOWN: usize = 10;
    if let Some(cluster) = given {
        return Ok(cluster.to_owned());
    }
    let (mut count, mut first, mut shown) = (0, None, Vec::new());
    broker::each_name(client, "/admin/v2/clusters", "the clusters", |name| {
        if is_pseudo_cluster(name) {
            return Ok(());
        }
        count += 1;
        if count == 1 {
            first = Some(name.to_owned()).filter(|name| name.len() <= MAX_NAME);
        }
        if shown.len() < SHOWN {
            shown.push(safe::shown(name, 100));
        }
        Ok(())
    })?;
    match count {
        1 => first.ok_or_else(|| {
            Error::server(format!(
                "the admin API lists one cluster, `{}`, a name longer than {MAX_NAME} bytes, \
                 which no cluster has; name the one to check with --cluster",
                shown[0]
            ))
        }),
        0 => Err(Error::server(
            "the admin API lists no cluster; name one with --cluster",
        )),
        n => {
            let more = if n > SHOWN { ", …" } else { "" };
            Err(Error::usage(format!(
                "the admin API lists {n} clusters ({}{more}); name the one to check with \
                 --cluster, or check them all with --all-clusters",
                shown.join(", ")
            )))
        }
    }
}

/// Older brokers list the `global` pseudo-cluster of replicated namespaces, which has no
/// brokers of its own.
fn is_pseudo_cluster(name: &str) -> bool {
    name == "global"
}
