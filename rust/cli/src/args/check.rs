//! `protocompat check`'s arguments.

use std::path::PathBuf;

use protocompat::{Profile, Strategy};

use super::{parse_profile, parse_strategy, InputArgs};
use crate::broker;
use crate::output::paint::ColorChoice;
use crate::output::Format;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Pulsar's strategy name (BACKWARD, FORWARD, FULL, *_TRANSITIVE, ALWAYS_COMPATIBLE,
    /// ALWAYS_INCOMPATIBLE). Default: the topic's with --admin-url, else FULL.
    #[arg(long, short, value_parser = parse_strategy)]
    pub strategy: Option<Strategy>,
    /// The report's format; `--error-format`, Buf's spelling, is taken too.
    #[arg(long, visible_alias = "error-format", value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Colour the text report: rule IDs of failures red, of warnings yellow, fixes green,
    /// locations dim. auto: when stdout is a terminal and NO_COLOR is unset (CLICOLOR_FORCE
    /// colours any stdout).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Exit 1 when the check finds warnings, even if the broker would accept the schema.
    #[arg(long)]
    pub fail_on_warning: bool,
    /// Leave out each finding's example: the smallest message the writer schema can produce
    /// along the finding's path, its bytes, and what a protobuf-java reader makes of them.
    /// Shown by default, in every format.
    #[arg(long)]
    pub no_examples: bool,
    /// Leave out each finding's remedies: the edits to NEW that make the finding go away
    /// (docs/rules.md, "What to write instead"). Shown by default, in every format.
    #[arg(long)]
    pub no_fixes: bool,
    /// Make the proven fixes of the check's failures in NEW's .proto files, then check again
    /// and report what is left. Each fix was applied in memory and the check made again
    /// before it is offered; the files written are compiled and held against those edits, and
    /// restored if they differ. Review the change as a diff in your tree.
    #[arg(long, conflicts_with = "no_fixes")]
    pub fix: bool,
    /// Count warnings' proven fixes among those --fix makes (without --fix, the report shows
    /// them so). The broker accepts a change that has only warnings; their fixes keep the old
    /// field and add the new one beside it, which changes the generated code (a getter named
    /// after the new field), so a plain --fix leaves them as suggestions.
    #[arg(long, conflicts_with = "no_fixes")]
    pub fix_warnings: bool,
    /// The existing schema, as an input of its own: a .proto file, a directory or git
    /// tree (.git#ref=main,subdir=proto) holding NEW's file or --root's message, Pulsar
    /// schema JSON (one, or a saved `schemas get --all-version` history), or a descriptor
    /// set. Repeat it for a history, oldest first.
    #[arg(long, value_name = "INPUT")]
    pub against: Vec<String>,
    /// An import root for the --against side only (a directory or git tree input is its
    /// own first root). Without it a .proto --against file has the current directory.
    #[arg(long, value_name = "DIR")]
    pub against_include: Vec<PathBuf>,
    #[command(flatten)]
    pub broker: broker::BrokerArgs,
    #[command(flatten)]
    pub input: InputArgs,
    /// Raise or lower a resource limit, as the broker's -Dprotocompat.limit.NAME does
    /// (maxSchemaBytes, maxFiles, maxMessages, maxFields, maxFieldComparisons, ...);
    /// repeatable.
    #[arg(long = "limit", value_name = "NAME=N")]
    pub limits: Vec<String>,
    /// The rule profile, as the broker's -Dprotocompat.profile picks it (`protocompat rules`
    /// lists them).
    /// Default: the project file's, else pip246.
    #[arg(long, value_parser = parse_profile)]
    pub profile: Option<&'static Profile>,
    /// The existing schemas, oldest first, then the proposed schema last; or NEW alone with
    /// --against or --admin-url. Each is a .proto file (proto2, proto3, or Editions 2023, 2024
    /// and 2026 through protoc: see --protoc), a directory (with --root), Pulsar schema JSON, or
    /// a binary FileDescriptorSet (.pb, .binpb, .desc). None: every topic of the project file
    /// (protocompat.yaml, found from the current directory up to the repository's root, or
    /// --project).
    #[arg(value_name = "[EXISTING]... NEW")]
    pub inputs: Vec<String>,
    /// The project file to check every topic of, when no file is named: by default
    /// protocompat.yaml in the current directory or the nearest one above it, up to the git
    /// work tree's root.
    #[arg(long, value_name = "FILE", conflicts_with = "inputs")]
    pub project: Option<PathBuf>,
}
