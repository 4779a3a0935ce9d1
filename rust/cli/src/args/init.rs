//! `protocompat init`'s arguments.

use std::path::PathBuf;

use crate::broker::Access;

#[derive(clap::Args)]
pub struct InitArgs {
    /// Take the topics from this broker's admin API: each PROTOBUF_NATIVE topic with a schema,
    /// its root message, and `strategy: broker`; the broker becomes the baseline.
    #[arg(long, value_name = "URL")]
    pub admin_url: Option<String>,
    /// With --admin-url, this tenant's namespaces only.
    #[arg(long, conflicts_with = "namespace", requires = "admin_url")]
    pub tenant: Option<String>,
    /// With --admin-url, this namespace (tenant/namespace) only.
    #[arg(long, value_name = "TENANT/NAMESPACE", requires = "admin_url")]
    pub namespace: Option<String>,
    /// The import root of the service's .proto files. Without --admin-url, each file no other
    /// file imports becomes a topic, named for you to correct. Default: proto if there is
    /// one, else the current directory.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include: Option<PathBuf>,
    /// The git ref to check against when the baseline is no broker.
    #[arg(long, value_name = "REF", default_value = "main")]
    pub git_ref: String,
    /// Where to write the file.
    #[arg(long, value_name = "FILE", default_value = "protocompat.yaml")]
    pub output: PathBuf,
    /// Replace the file if it exists.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub access: Access,
}
