//! `protocompat audit`'s arguments.

use clap::ValueEnum;
use protocompat::Profile;

use super::parse_profile;
use crate::broker::Access;

#[derive(clap::Args)]
pub struct AuditArgs {
    /// The broker's (or cluster's) admin URL, as pulsar-admin's --admin-url.
    #[arg(long, value_name = "URL")]
    pub admin_url: String,
    /// Audit this tenant's namespaces only.
    #[arg(long, conflicts_with = "namespace")]
    pub tenant: Option<String>,
    /// Audit this namespace (tenant/namespace) only.
    #[arg(long, value_name = "TENANT/NAMESPACE")]
    pub namespace: Option<String>,
    /// The rule profile to audit with, as the brokers will run it (-Dprotocompat.profile).
    #[arg(long, value_parser = parse_profile, default_value = "pip246")]
    pub profile: &'static Profile,
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub format: AuditFormat,
    /// Leave out each finding's example: the smallest message the writer schema can produce
    /// along the finding's path, its bytes, and what a protobuf-java reader makes of them.
    /// Shown by default, in both formats.
    #[arg(long)]
    pub no_examples: bool,
    /// Topics audited at once: each one's history, strategy and check. Every request still
    /// draws on the one --timeout, and the report lists the topics in the same order whatever
    /// the number.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 8,
        value_parser = clap::value_parser!(u8).range(1..=64)
    )]
    pub concurrency: u8,
    #[command(flatten)]
    pub access: Access,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    Text,
    Json,
}
