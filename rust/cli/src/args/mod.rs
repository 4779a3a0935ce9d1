//! The command line's grammar: every command's arguments and their parsers, apart from the
//! commands that act on them (`commands/`).

mod audit;
mod brokers;
mod check;
mod init;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use protocompat::{Limits, Profile, Settings, Strategy};

use crate::console::Error;
use crate::input;
pub use audit::{AuditArgs, AuditFormat};
pub use brokers::{BrokersArgs, BrokersFormat};
pub use check::CheckArgs;
pub use init::InitArgs;

#[derive(Parser)]
#[command(
    name = "protocompat",
    version,
    about = "PIP-246 compatibility checks for Apache Pulsar PROTOBUF_NATIVE schemas"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once per run: the size of the largest variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Check a proposed schema against existing ones, as the broker plugin does.
    ///
    /// The existing side is the inputs before NEW (sharing NEW's -I roots), or --against
    /// inputs (with roots of their own), or a topic's history on a broker (--admin-url with
    /// --topic). Exit status: 0 compatible, 1 incompatible (or warnings with
    /// --fail-on-warning), 2 bad input or usage.
    Check(CheckArgs),
    /// Write a first protocompat.yaml for a service: its topics from a broker (--admin-url),
    /// or from the .proto files under -I. An existing file is left alone without --force.
    Init(InitArgs),
    /// Replay every topic's retained PROTOBUF_NATIVE history on a broker under the topic's
    /// strategy, as the broker would check it, before a stricter checker or profile is
    /// switched on. Exit status: 0 no conflict, 1 a history the profile refuses, 2 bad usage
    /// or an unreachable broker.
    Audit(AuditArgs),
    /// Whether every broker of a cluster runs the same checker: the protocompat plugin, its
    /// native library loaded, with one profile and one version, as each broker's /metrics/
    /// says.
    ///
    /// A topic's bundle moves between brokers: one left on Pulsar's built-in checker, on
    /// another profile or without the library accepts or refuses what the others do not.
    /// Exit status: 0 every broker runs the plugin with its library loaded, one profile (the
    /// --profile, if given) and one version; 1 a broker differs, lacks the plugin or the
    /// library, or could not be asked; 2 bad usage, or the list of clusters or brokers could
    /// not be read.
    Brokers(BrokersArgs),
    /// Print the Pulsar schema data for a schema file: the JSON the broker stores (what the
    /// Java client uploads for the same descriptors), or with --upload the file
    /// `pulsar-admin schemas upload --filename` takes.
    Schema {
        #[arg(long)]
        upload: bool,
        #[command(flatten)]
        input: InputArgs,
        file: String,
    },
    /// List the rules a profile runs: each rule ID, whether it fails a check or only warns, and
    /// what it finds. Without --profile, every profile.
    Rules {
        /// The profile to list.
        #[arg(long, value_parser = parse_profile)]
        profile: Option<&'static Profile>,
    },
    /// Print the shell completion script for bash, zsh or fish (also elvish and powershell):
    /// `protocompat completions bash > ~/.local/share/bash-completion/completions/protocompat`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print protocompat's man page (roff): `protocompat man | man -l -`.
    Man,
    /// Run as a Buf check plugin (PluginRPC), for `buf breaking`: in buf.yaml, `plugins: -
    /// plugin: [protocompat, buf-plugin]` with `options: {roots: [pkg.Order]}`, and the
    /// category PIP246 in `breaking: use:` (docs/buf.md). buf gives the arguments.
    #[command(name = "buf-plugin", disable_help_flag = true)]
    BufPlugin {
        /// --protocol, --spec, --format binary|json, or a procedure's path.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Run as a language server (LSP 3.17) on stdin and stdout, for an editor: each topic of
    /// the workspace's protocompat.yaml is checked as its .proto files are edited, unsaved
    /// buffers included; findings are diagnostics, their proven fixes quick fixes, and a
    /// finding's example its hover (docs/editors.md).
    Lsp {
        /// Taken and ignored: stdio is the only transport (some clients pass it).
        #[arg(long)]
        stdio: bool,
    },
}

#[derive(clap::Args)]
pub struct InputArgs {
    /// The root message's full name (pkg.Order); optional when the file declares one
    /// top-level message. An --against directory or tree is searched for it.
    #[arg(long)]
    pub root: Option<String>,
    /// An import root for NEW (and the inputs before it), as protoc's -I: a .proto file is
    /// named by its path under the first root holding it. Default: the current directory.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// The protoc that compiles a set of .proto files when one of them uses Protobuf Editions
    /// (`edition = "2023";`), which protocompat's own compiler (protox) does not read; proto2
    /// and proto3 files need none. Default: $PROTOC, else protoc on PATH, else the protoc
    /// 36.2 that cargo fetched with protocompat's build (protoc-bin-vendored).
    #[arg(long, value_name = "PATH")]
    pub protoc: Option<PathBuf>,
    /// Seconds one protoc run may take: compiling an Editions file with its imports, or the
    /// files of a directory or tree searched for --root. Past it, protoc (and whatever it
    /// started) is stopped and the input refused: a protoc that hangs, or a set too large to
    /// compile in time, never holds up the check.
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub protoc_timeout: u64,
}

impl InputArgs {
    pub fn protoc(&self) -> input::ProtocOptions<'_> {
        input::ProtocOptions {
            path: self.protoc.as_deref(),
            timeout: std::time::Duration::from_secs(self.protoc_timeout),
        }
    }
}

// clap's value parsers: clap takes their `String` errors and says them as its own usage errors.

pub fn parse_strategy(name: &str) -> Result<Strategy, String> {
    name.parse()
}

/// The profile without --profile or a project file's: the broker plugin's default.
pub static DEFAULT_PROFILE: &Profile = &protocompat::PIP246;

pub fn parse_profile(name: &str) -> Result<&'static Profile, String> {
    Profile::named(name)
}

/// How a limit is spelled on this command line.
pub fn limit_flag(name: &str) -> String {
    format!("--limit {}", name.strip_prefix("limit.").unwrap_or(name))
}

/// `--limit maxFields=N` (or `limit.maxFields=N`) into the engine's limits; the caches are
/// the broker's business, not the command's.
pub fn parse_limits(given: &[String]) -> Result<Limits, Error> {
    let mut settings = Settings::DEFAULT;
    for limit in given {
        let Some((name, value)) = limit.split_once('=') else {
            return Err(Error::usage(format!(
                "--limit {limit}: expected NAME=N, such as maxFields=1000000"
            )));
        };
        let name = name.trim();
        let name = if name.starts_with("limit.") {
            name.to_owned()
        } else {
            format!("limit.{name}")
        };
        settings
            .set(&name, value, limit_flag)
            .map_err(Error::usage)?;
    }
    Ok(settings.limits)
}
