//! `--all-clusters`: the brokers of every cluster the admin API lists, asked together.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::scrape::scrape_all;
use super::{is_pseudo_cluster, list, Block, Survey, Unknown, MAX_ASKED, MAX_CLUSTERS, MAX_NAME};
use crate::broker::{self, Client};
use crate::console::Error;
use crate::safe;

/// Every cluster's brokers, each scraped: the first [`MAX_CLUSTERS`] clusters in sorted order,
/// and of their lists the first [`MAX_ASKED`] brokers in all. A cluster whose brokers cannot
/// be listed is a block that says why, not an error: the others are still worth knowing.
pub(super) fn survey(client: &Client) -> Result<Survey, Error> {
    let (clusters, listed, cut) = clusters(client)?;
    if clusters.is_empty() {
        return Err(Error::server("the admin API lists no cluster"));
    }
    let (mut blocks, mut asked) = (Vec::new(), Vec::new());
    let mut ids = Vec::new();
    for (name, too_long) in clusters {
        let (block, its) = brokers_of(client, &name, too_long, MAX_ASKED - ids.len());
        blocks.push(block);
        asked.push(its.len());
        ids.extend(its);
    }
    // One pool of workers for all clusters' brokers, as many at once as for one cluster's.
    let mut scraped = scrape_all(client, &ids).into_iter();
    for (block, asked) in blocks.iter_mut().zip(asked) {
        block.brokers = scraped.by_ref().take(asked).collect();
    }
    Ok(Survey {
        blocks,
        clusters_listed: Some(listed),
        clusters_cut: cut,
    })
}

/// The first [`MAX_CLUSTERS`] clusters in sorted order, each once, `global` aside, with
/// whether its name is longer than any cluster's (then kept as shown, cut); how many the admin
/// API lists, repeats included; and whether some were left out.
fn clusters(client: &Client) -> Result<(BTreeMap<String, bool>, usize, bool), Error> {
    let mut kept = BTreeMap::new();
    let (mut count, mut cut) = (0, false);
    broker::each_name(client, "/admin/v2/clusters", "the clusters", |name| {
        if is_pseudo_cluster(name) {
            return Ok(());
        }
        count += 1;
        let too_long = name.len() > MAX_NAME;
        let name = if too_long {
            safe::shown(name, MAX_NAME)
        } else {
            name.to_owned()
        };
        kept.entry(name).or_insert(too_long);
        if kept.len() > MAX_CLUSTERS {
            kept.pop_last();
            cut = true;
        }
        Ok(())
    })?;
    Ok((kept, count, cut))
}

/// A cluster's block, its brokers not scraped yet, and the ids to scrape for it: at most
/// `room`.
fn brokers_of(client: &Client, name: &str, too_long: bool, room: usize) -> (Block, Vec<String>) {
    let shown = safe::shown(name, MAX_NAME);
    let mut block = Block {
        cluster: shown.clone(),
        listed: 0,
        truncated: false,
        unknown: None,
        brokers: Vec::new(),
    };
    if too_long {
        block.unknown = Some(Unknown::NameTooLong);
        return (block, Vec::new());
    }
    let what = format!("the brokers of cluster {shown}");
    let url = match web_service(client, name, &shown) {
        Ok(web) => format!("{web}/admin/v2/brokers/{}", broker::encode(name)),
        Err(error) => {
            block.unknown = Some(Unknown::NotRead(error.to_string()));
            return (block, Vec::new());
        }
    };
    match list(client, &url, &what, room) {
        Err(error) => block.unknown = Some(Unknown::NotRead(error.to_string())),
        Ok(listed) if listed.count == 0 => block.unknown = Some(Unknown::NoneListed),
        Ok(listed) => {
            (block.listed, block.truncated) = (listed.count, listed.cut);
            return (block, listed.ids);
        }
    }
    (block, Vec::new())
}

/// The web service URL the cluster's entry records (`pulsar-admin clusters get NAME`), in
/// --admin-url's scheme: where the cluster's own brokers answer. A broker asked for another
/// cluster's brokers may answer with its own cluster's list (Pulsar 5.0.1 does, where 4.0
/// redirects), so every cluster is asked at its own web service.
fn web_service(client: &Client, name: &str, shown: &str) -> Result<String, Error> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Entry {
        service_url: Option<String>,
        service_url_tls: Option<String>,
    }
    let what = format!("the entry of cluster {shown}");
    let answer = client.get(&format!("/admin/v2/clusters/{}", broker::encode(name)))?;
    if answer.status() != 200 {
        return Err(answer.refused(&what));
    }
    let entry: Entry = answer.parse(&what, "not a cluster's entry", |reader| {
        serde_json::from_reader(reader)
    })?;
    let (url, field) = if client.scheme() == "https" {
        (entry.service_url_tls, "serviceUrlTls")
    } else {
        (entry.service_url, "serviceUrl")
    };
    url.map(|url| url.trim().trim_end_matches('/').to_owned())
        .filter(|url| !url.is_empty())
        .ok_or_else(|| {
            Error::server(format!(
                "{what}: it records no {field}, the web service its brokers are asked at \
                 (pulsar-admin clusters update {shown} --url …)"
            ))
        })
}
