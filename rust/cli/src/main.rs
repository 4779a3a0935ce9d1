//! `protocompat`: the broker plugin's PIP-246 verdict, on the command line.

mod editions;
mod input;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use protocompat::{
    Bounds, CheckError, Checker, Limits, Profile, SchemaRef, Settings, Severity, Strategy, PROFILES,
};

use input::InputOptions;

/// The same allocator as the broker plugin's library, metered as there, so the CLI's timings
/// and memory budget match it.
#[global_allocator]
static ALLOCATOR: protocompat::budget::MeteredAllocator<mimalloc::MiMalloc> =
    protocompat::budget::MeteredAllocator(mimalloc::MiMalloc);

/// Exit status for bad input or usage, as for clap's own usage errors.
const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "protocompat",
    version,
    about = "PIP-246 compatibility checks for Apache Pulsar PROTOBUF_NATIVE schemas"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a proposed schema against existing ones, as the broker plugin does.
    ///
    /// Exit status: 0 compatible, 1 incompatible, 2 bad input or usage.
    Check {
        /// Pulsar's strategy name (BACKWARD, FORWARD, FULL, *_TRANSITIVE, ALWAYS_COMPATIBLE,
        /// ALWAYS_INCOMPATIBLE).
        #[arg(long, short, default_value = "FULL", value_parser = parse_strategy)]
        strategy: Strategy,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        input: InputArgs,
        /// Raise or lower a resource limit, as the broker's -Dprotocompat.limit.NAME does
        /// (maxSchemaBytes, maxFiles, maxMessages, maxFields, maxFieldComparisons, ...);
        /// repeatable.
        #[arg(long = "limit", value_name = "NAME=N")]
        limits: Vec<String>,
        /// The rule profile, as the broker's -Dprotocompat.profile picks it (`protocompat rules`
        /// lists them).
        #[arg(long, value_parser = parse_profile, default_value = "pip246")]
        profile: &'static Profile,
        /// The existing schemas, oldest first, then the proposed schema last. Each is Pulsar
        /// schema JSON, a .proto file, or a binary FileDescriptorSet (.pb, .binpb, .desc).
        #[arg(required = true, value_name = "EXISTING... NEW")]
        files: Vec<PathBuf>,
    },
    /// Print the Pulsar schema data for a schema file: the JSON the broker stores, or with
    /// --upload the file `pulsar-admin schemas upload --filename` takes.
    Schema {
        #[arg(long)]
        upload: bool,
        #[command(flatten)]
        input: InputArgs,
        file: PathBuf,
    },
    /// List the rules a profile runs: each rule ID, whether it fails a check or only warns, and
    /// what it finds. Without --profile, every profile.
    Rules {
        /// The profile to list.
        #[arg(long, value_parser = parse_profile)]
        profile: Option<&'static Profile>,
    },
}

#[derive(clap::Args)]
struct InputArgs {
    /// The root message's full name (pkg.Order), for .proto and descriptor-set files; optional
    /// when the file declares one top-level message.
    #[arg(long)]
    root: Option<String>,
    /// A directory to find .proto imports in (the file's own directory is searched last).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    include: Vec<PathBuf>,
}

impl InputArgs {
    fn options(self) -> InputOptions {
        InputOptions {
            root: self.root,
            include: self.include,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

fn parse_strategy(name: &str) -> Result<Strategy, String> {
    name.parse()
}

fn parse_profile(name: &str) -> Result<&'static Profile, String> {
    Profile::named(name)
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Check {
            strategy,
            format,
            input,
            limits,
            profile,
            files,
        } => match parse_limits(&limits) {
            Ok(limits) => check(strategy, format, limits, profile, &input.options(), &files),
            Err(message) => {
                eprintln!("protocompat: {message}");
                ExitCode::from(EXIT_BAD_INPUT)
            }
        },
        Command::Schema {
            upload,
            input,
            file,
        } => schema(upload, &input.options(), &file),
        Command::Rules { profile } => {
            let profiles = match profile {
                Some(profile) => vec![profile],
                None => PROFILES.to_vec(),
            };
            print!("{}", rules(&profiles));
            ExitCode::SUCCESS
        }
    }
}

/// Each profile's name and summary, then its rules, one a line.
fn rules(profiles: &[&Profile]) -> String {
    let mut out = String::new();
    for (i, profile) in profiles.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{}: {}\n", profile.name, profile.summary));
        let width = profile
            .rules
            .iter()
            .map(|r| r.id.id().len())
            .max()
            .unwrap_or(0);
        for rule in profile.rules {
            let severity = match rule.severity {
                Severity::Failure => "fails",
                Severity::Warning => "warns",
            };
            out.push_str(&format!(
                "  {:width$}  {severity}  {}\n",
                rule.id.id(),
                rule.description
            ));
        }
    }
    out
}

/// How a limit is spelled on this command line.
fn limit_flag(name: &str) -> String {
    format!("--limit {}", name.strip_prefix("limit.").unwrap_or(name))
}

/// `--limit maxFields=N` (or `limit.maxFields=N`) into the engine's limits; the caches are
/// the broker's business, not the command's.
fn parse_limits(given: &[String]) -> Result<Limits, String> {
    let mut settings = Settings::DEFAULT;
    for limit in given {
        let Some((name, value)) = limit.split_once('=') else {
            return Err(format!(
                "--limit {limit}: expected NAME=N, such as maxFields=1000000"
            ));
        };
        let name = name.trim();
        let name = if name.starts_with("limit.") {
            name.to_owned()
        } else {
            format!("limit.{name}")
        };
        settings.set(&name, value, limit_flag)?;
    }
    Ok(settings.limits)
}

fn check(
    strategy: Strategy,
    format: Format,
    limits: Limits,
    profile: &'static Profile,
    options: &InputOptions,
    files: &[PathBuf],
) -> ExitCode {
    // Bad input is said on stderr, and with --format json also as an error object on stdout,
    // so that a tool reading stdout is never left with nothing to parse.
    let refuse = |file: &Path, rule: Option<&str>, message: &str| {
        if let Format::Json = format {
            let error = serde_json::json!({
                "error": { "file": file.display().to_string(), "rule": rule, "message": message }
            });
            print_out(&serde_json::to_string_pretty(&error).expect("JSON renders"));
        }
        match rule {
            Some(rule) => bad_input(file, &format!("{rule}: {message}")),
            None => bad_input(file, message),
        }
    };
    let mut data = Vec::with_capacity(files.len());
    for file in files {
        match input::load(file, options) {
            Ok(bytes) => data.push(bytes),
            Err(message) => return refuse(file, None, &message),
        }
    }
    let (proposed, existing) = data.split_last().expect("clap requires at least one file");
    let existing: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
    let (new_file, existing_files) = files.split_last().expect("one file at least");

    let checker = Checker::with_limits(Bounds::NONE, limits).with_profile(profile);
    let report = match checker.check(&existing, proposed, strategy) {
        Ok(report) => report,
        Err(CheckError::Schema(e)) => {
            let file = match e.schema.which {
                SchemaRef::New => new_file,
                SchemaRef::Existing(index) => &existing_files[index],
            };
            let hint = e
                .setting
                .map(|setting| format!(" ({}=N raises it)", limit_flag(setting)))
                .unwrap_or_default();
            return refuse(file, Some(e.rule.id()), &format!("{}{hint}", e.message));
        }
        Err(internal) => {
            let message = internal.render(limit_flag);
            if let Format::Json = format {
                let error = serde_json::json!({ "error": { "file": null, "rule": null, "message": message } });
                print_out(&serde_json::to_string_pretty(&error).expect("JSON renders"));
            }
            eprintln!("protocompat: {message}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };

    match format {
        Format::Text => {
            let mut lines = vec![report.summary()];
            lines.extend(report.failures.iter().map(|f| f.render()));
            lines.extend(
                report
                    .warnings
                    .iter()
                    .map(|w| format!("warning: {}", w.render())),
            );
            let unlisted = report.total_failures + report.total_warnings
                - report.failures.len()
                - report.warnings.len();
            if unlisted > 0 {
                lines.push(format!("… and {unlisted} more findings not shown"));
            }
            lines.extend(
                existing_files
                    .iter()
                    .enumerate()
                    .map(|(index, file)| format!("existing #{index}: {}", file.display())),
            );
            lines.push(format!("new: {}", new_file.display()));
            print_out(&lines.join("\n"));
        }
        Format::Json => {
            let mut json = serde_json::to_value(&report).expect("a report serializes");
            json["files"] = serde_json::json!({
                "existing": existing_files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>(),
                "new": new_file.display().to_string(),
            });
            print_out(&serde_json::to_string_pretty(&json).expect("JSON renders"));
        }
    }
    ExitCode::from(if report.compatible { 0 } else { 1 })
}

fn schema(upload: bool, options: &InputOptions, file: &Path) -> ExitCode {
    let data = match input::load(file, options) {
        Ok(data) => data,
        Err(message) => return bad_input(file, &message),
    };
    // Refuse to print schema data the broker plugin would refuse.
    if let Err(e) = protocompat::Schema::decode(&data) {
        return bad_input(file, &format!("{}: {}", e.rule.id(), e.message));
    }
    let text = String::from_utf8_lossy(&data).into_owned();
    if upload {
        let payload = serde_json::json!({
            "type": "PROTOBUF_NATIVE",
            "schema": text,
            "properties": {},
        });
        print_out(&serde_json::to_string_pretty(&payload).expect("JSON renders"));
    } else {
        print_out(&text);
    }
    ExitCode::SUCCESS
}

/// Prints `text` and a newline; a closed pipe (`| head`) is not an error worth a panic.
fn print_out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}").and_then(|()| stdout.flush());
}

fn bad_input(file: &Path, message: &str) -> ExitCode {
    eprintln!("protocompat: {}: {message}", file.display());
    ExitCode::from(EXIT_BAD_INPUT)
}
