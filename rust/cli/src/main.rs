//! `protocompat`: the broker plugin's PIP-246 verdict, on the command line.

mod audit;
mod broker;
mod brokers;
mod check;
mod fix;
mod input;
mod locate;
mod metrics;
mod output;
mod safe;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use protocompat::text::printable;
use protocompat::{ErrorRule, Limits, Profile, RuleId, Settings, Severity, Strategy, PROFILES};

/// The same allocator as the broker plugin's library, metered as there, so the CLI's timings
/// and memory budget match it.
#[global_allocator]
static ALLOCATOR: protocompat::budget::MeteredAllocator<mimalloc::MiMalloc> =
    protocompat::budget::MeteredAllocator(mimalloc::MiMalloc);

/// Keeps the process's memory in small pages, for the commands that run many threads on the
/// network. mimalloc asks Linux for transparent huge pages on its arenas, and each thread's
/// first allocations then take a 2 MiB page or two of their own: about 4 MiB resident a thread,
/// whatever it holds (an audit of 300 small histories at --concurrency 8 took 61 MiB, 20 in
/// small pages, for the same CPU time). `check` keeps huge pages: it runs one thread, and a
/// large schema's check took a third more CPU time in small pages. mimalloc does the same when
/// told `MIMALLOC_ALLOW_THP=0`; this reaches the mappings it made before `main` too.
fn small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of ours; should it
    // fail (a kernel before 3.15), pages stay as they were.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Exit status for bad input or usage, as for clap's own usage errors.
pub const EXIT_BAD_INPUT: u8 = 2;

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

// Parsed once per run: the size of the largest variant costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Check a proposed schema against existing ones, as the broker plugin does.
    ///
    /// The existing side is the inputs before NEW (sharing NEW's -I roots), or --against
    /// inputs (with roots of their own), or a topic's history on a broker (--admin-url with
    /// --topic). Exit status: 0 compatible, 1 incompatible (or warnings with
    /// --fail-on-warning), 2 bad input or usage.
    Check(check::Request),
    /// Replay every topic's retained PROTOBUF_NATIVE history on a broker under the topic's
    /// strategy, as the broker would check it, before a stricter checker or profile is
    /// switched on. Exit status: 0 no conflict, 1 a history the profile refuses, 2 bad usage
    /// or an unreachable broker.
    Audit(audit::AuditArgs),
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
    Brokers(brokers::BrokersArgs),
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

pub fn parse_strategy(name: &str) -> Result<Strategy, String> {
    name.parse()
}

pub fn parse_profile(name: &str) -> Result<&'static Profile, String> {
    Profile::named(name)
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Check(request) => check::run(request),
        Command::Audit(args) => {
            small_pages();
            audit::run(args)
        }
        Command::Brokers(args) => {
            small_pages();
            brokers::run(args)
        }
        Command::Schema {
            upload,
            input,
            file,
        } => schema(upload, &input, &file),
        Command::Rules { profile } => {
            let profiles = match profile {
                Some(profile) => vec![profile],
                None => PROFILES.to_vec(),
            };
            print_out(rules(&profiles).trim_end_matches('\n'));
            ExitCode::SUCCESS
        }
    }
}

/// Each profile's name and summary, then its rules, one a line, then the rules it reports as
/// warnings where its own find nothing at the path (docs/rules.md#no-silent-data-loss); last,
/// the IDs no profile lists, which a user meets all the same.
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
            .chain(profile.guard)
            .map(|r| r.id.id().len())
            .max()
            .unwrap_or(0);
        let list = |out: &mut String, rules: &[protocompat::rules::Rule]| {
            for rule in rules {
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
        };
        list(&mut out, profile.rules);
        if !profile.guard.is_empty() {
            out.push_str(
                "  and, so that no data is lost silently, wherever the rules above find nothing:\n",
            );
            list(&mut out, profile.guard);
        }
    }
    // Taken from every profile, not only those shown: a strategy's rejection is no profile's.
    let in_a_profile = |id: RuleId| {
        PROFILES
            .iter()
            .flat_map(|p| p.rules.iter().chain(p.guard))
            .any(|r| r.id == id)
    };
    let rejections: Vec<&str> = RuleId::all()
        .filter(|&id| !in_a_profile(id))
        .map(RuleId::id)
        .collect();
    let errors: Vec<&str> = ErrorRule::all().map(ErrorRule::id).collect();
    out.push_str(&format!(
        "\nevery profile: {} fail a check by its strategy alone; {} refuse a schema it cannot compare\n\
         what each rule decides, with examples: docs/rules.md#rule-index\n",
        rejections.join(", "),
        errors.join(", ")
    ));
    out
}

/// How a limit is spelled on this command line.
pub fn limit_flag(name: &str) -> String {
    format!("--limit {}", name.strip_prefix("limit.").unwrap_or(name))
}

/// `--limit maxFields=N` (or `limit.maxFields=N`) into the engine's limits; the caches are
/// the broker's business, not the command's.
pub fn parse_limits(given: &[String]) -> Result<Limits, String> {
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

fn schema(upload: bool, input: &InputArgs, file: &str) -> ExitCode {
    let loaded = input::Spec::parse(file).and_then(|spec| {
        input::load(
            &spec,
            &input::SideOptions {
                root_message: input.root.as_deref(),
                includes: &input.include,
                counterpart: None,
                protoc: input.protoc(),
            },
        )
    });
    let data = match loaded {
        Ok(mut loaded) if loaded.len() == 1 => loaded.remove(0).data,
        Ok(loaded) => {
            return bad_input(
                file,
                &format!(
                    "holds {} schemas (a history); `schema` prints one",
                    loaded.len()
                ),
            )
        }
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
        print_out(&safe::json(
            serde_json::to_string_pretty(&payload).expect("JSON renders"),
        ));
    } else {
        print_out(&safe::json(text));
    }
    ExitCode::SUCCESS
}

/// Prints `text` and a newline; a closed pipe (`| head`) is not an error worth a panic. No
/// control character but our newlines gets through ([`safe::lines`]).
pub fn print_out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", safe::lines(text)).and_then(|()| stdout.flush());
}

/// Prints a message and a newline on stderr, as [`print_out`] does on stdout.
pub fn print_err(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{}", safe::lines(text)).and_then(|()| stderr.flush());
}

pub fn bad_input(file: &str, message: &str) -> ExitCode {
    print_err(&format!(
        "protocompat: {}: {}",
        printable(file),
        printable(message)
    ));
    ExitCode::from(EXIT_BAD_INPUT)
}
