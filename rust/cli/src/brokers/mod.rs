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
//! The broker list is read as it streams in, and at most [`MAX_ASKED`] brokers are kept (the
//! first in sorted order), each one's texts cut: memory follows what is asked, not what the
//! admin API sends. A longer list is said in the report and is never SAME.
//!
//! `--format json` prints one object:
//! `{"reportVersion": 1, "adminUrl", "cluster", "profile": the --profile asked or null,
//! "expected": {"profile", "version"} or null, "consistent": bool, "listed": the ids in the
//! admin API's list, "truncated": bool, "brokers": [{"id", "url", "state": "plugin" |
//! "library_not_loaded" | "built_in" | "unreachable", "profile", "version", "error"}]}`, where
//! `expected` is what the brokers are compared with (the --profile's most common version, or
//! the most common profile and version; null when none or a tie), `truncated` says that
//! `brokers` holds the first [`MAX_ASKED`] ids of a longer list only, and `error` says what is
//! missing or why a broker could not be asked. A command that cannot start prints
//! `{"error": {"message"}}` instead. There is no github or junit format: the finding is about
//! a cluster's brokers, not a file an annotation or a test case could name.

mod report;
mod scrape;

use std::collections::BTreeSet;
use std::process::ExitCode;

use clap::ValueEnum;
use protocompat::text::printable;
use protocompat::Profile;
use serde_json::json;

use crate::broker::{self, Access, Client};
use crate::{parse_profile, print_err, print_out, safe, EXIT_BAD_INPUT};
use report::{json_report, text, Verdict};
use scrape::scrape_all;

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

/// Broker ids and cluster names, as shown.
pub(crate) const MAX_NAME: usize = 300;
/// Brokers asked at most: far more than a cluster runs, and what a list longer than that is
/// cut to, so that neither the brokers kept nor the report grows with the list.
pub(crate) const MAX_ASKED: usize = 4096;

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
    let what = format!("the brokers of cluster {}", safe::shown(&cluster, MAX_NAME));
    let path = format!("/admin/v2/brokers/{}", broker::encode(&cluster));
    let listed = match list(&client, &path, &what) {
        Ok(listed) if listed.ids.is_empty() => {
            return fail(&format!("{what}: the admin API lists no active broker"))
        }
        Ok(listed) => listed,
        Err(message) => return fail(&message),
    };
    let brokers = scrape_all(&client, &listed.ids);
    let cut = listed.cut.then_some(listed.count);
    let verdict = Verdict::of(&brokers, args.profile, cut.is_some());
    let cluster = safe::shown(&cluster, MAX_NAME);
    match args.format {
        BrokersFormat::Text => print_out(&text(&cluster, &brokers, cut, &verdict, args.profile)),
        BrokersFormat::Json => print_out(&json_report(
            &args,
            &cluster,
            &brokers,
            listed.count,
            &verdict,
        )),
    }
    ExitCode::from(if verdict.consistent { 0 } else { 1 })
}

/// The brokers the admin API lists, as many as are asked.
struct Listed {
    /// The first [`MAX_ASKED`] ids in sorted order, each once. An id longer than
    /// [`MAX_NAME`] is kept as shown, cut: no HOST:PORT is that long, nor is one cut.
    ids: Vec<String>,
    /// The ids in the list, repeats included.
    count: usize,
    /// Ids past the first [`MAX_ASKED`] were left out.
    cut: bool,
}

/// The broker list at `path`, read as it streams in, never more of it kept than is asked.
fn list(client: &Client, path: &str, what: &str) -> Result<Listed, String> {
    let mut ids = BTreeSet::new();
    let (mut count, mut cut) = (0, false);
    broker::each_name(client, path, what, |id| {
        count += 1;
        let id = if id.len() <= MAX_NAME {
            id.to_owned()
        } else {
            safe::shown(id, MAX_NAME)
        };
        if ids.insert(id) && ids.len() > MAX_ASKED {
            ids.pop_last();
            cut = true;
        }
        Ok(())
    })?;
    Ok(Listed {
        ids: ids.into_iter().collect(),
        count,
        cut,
    })
}

/// The cluster asked for, or the only one the admin API lists.
fn cluster(client: &Client, given: Option<&str>) -> Result<String, String> {
    const SHOWN: usize = 10;
    if let Some(cluster) = given {
        return Ok(cluster.to_owned());
    }
    let (mut count, mut first, mut shown) = (0, None, Vec::new());
    broker::each_name(client, "/admin/v2/clusters", "the clusters", |name| {
        // Older brokers list the `global` pseudo-cluster of replicated namespaces, which has
        // no brokers of its own.
        if name == "global" {
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
            format!(
                "the admin API lists one cluster, `{}`, a name longer than {MAX_NAME} bytes, \
                 which no cluster has; name the one to check with --cluster",
                shown[0]
            )
        }),
        0 => Err("the admin API lists no cluster; name one with --cluster".to_owned()),
        n => {
            let more = if n > SHOWN { ", …" } else { "" };
            Err(format!(
                "the admin API lists {n} clusters ({}{more}); name the one to check with --cluster",
                shown.join(", ")
            ))
        }
    }
}
