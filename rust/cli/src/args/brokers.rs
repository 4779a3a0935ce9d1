//! `protocompat brokers`'s arguments.

use clap::ValueEnum;
use protocompat::Profile;

use super::parse_profile;
use crate::broker::Access;

#[derive(clap::Args)]
pub struct BrokersArgs {
    /// The cluster's admin URL, as pulsar-admin's --admin-url; its brokers' /metrics/ are
    /// read with the same scheme, at each broker's id (HOST:PORT of its web service).
    #[arg(long, value_name = "URL")]
    pub admin_url: String,
    /// The cluster whose brokers are asked; needed when the admin API lists several.
    #[arg(long, value_name = "NAME")]
    pub cluster: Option<String>,
    /// Ask the brokers of every cluster the admin API lists, as geo-replicated clusters
    /// sharing one configuration store do, and compare them all: a replicated topic's schema
    /// is checked in each cluster it reaches. Each cluster is asked at the web service its
    /// entry records (`pulsar-admin clusters get NAME`): with a token, allow its host with
    /// --allow-redirect-host.
    #[arg(long, conflicts_with = "cluster")]
    pub all_clusters: bool,
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
