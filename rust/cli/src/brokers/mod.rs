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

mod report;
mod scrape;

use std::process::ExitCode;

use clap::ValueEnum;
use protocompat::text::{bound, printable};
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
