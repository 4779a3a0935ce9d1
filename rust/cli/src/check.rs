//! `protocompat check`: loads each side with its own roots, decides which existing schemas the
//! broker would compare, runs the engine, and reports in the asked format.

use std::path::PathBuf;
use std::process::ExitCode;

use protocompat::text::printable;
use protocompat::{Bounds, CheckError, Checker, Limits, Profile, SchemaRef, Strategy};

use crate::broker;
use crate::input::{self, Loaded, SideOptions, Spec};
use crate::output::{self, Format, Run};
use crate::{
    limit_flag, parse_limits, parse_profile, parse_strategy, print_err, print_out, InputArgs,
    EXIT_BAD_INPUT,
};

#[derive(clap::Args)]
pub struct Request {
    /// Pulsar's strategy name (BACKWARD, FORWARD, FULL, *_TRANSITIVE, ALWAYS_COMPATIBLE,
    /// ALWAYS_INCOMPATIBLE). Default: the topic's with --admin-url, else FULL.
    #[arg(long, short, value_parser = parse_strategy)]
    pub strategy: Option<Strategy>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
    /// Apply the remedies to NEW's .proto files (the first one of each finding that can be
    /// placed in the source), then check again and report what is left. Review the change
    /// as a diff in your tree.
    #[arg(long, conflicts_with = "no_fixes")]
    pub fix: bool,
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
    #[arg(long, value_parser = parse_profile, default_value = "pip246")]
    pub profile: &'static Profile,
    /// The existing schemas, oldest first, then the proposed schema last; or NEW alone with
    /// --against or --admin-url. Each is a .proto file (proto2, proto3, or Editions 2023 and
    /// 2024 through protoc: see --protoc), a directory (with --root), Pulsar schema JSON, or a
    /// binary FileDescriptorSet (.pb, .binpb, .desc).
    #[arg(required = true, value_name = "[EXISTING]... NEW")]
    pub inputs: Vec<String>,
}

/// Bad input or usage: said on stderr, and on stdout in the asked format, so that a tool
/// reading stdout is never left with nothing to parse. The message may carry an input's or a
/// server's text: it is made printable here, one line whatever it holds.
fn refuse(format: Format, file: Option<&str>, rule: Option<&str>, message: &str) -> ExitCode {
    let message = printable(message);
    if let Some(out) = output::render_error(format, file, rule, &message) {
        print_out(&out);
    }
    let message = match rule {
        Some(rule) => format!("{rule}: {message}"),
        None => message.into_owned(),
    };
    match file {
        Some(file) => print_err(&format!("protocompat: {}: {message}", printable(file))),
        None => print_err(&format!("protocompat: {message}")),
    }
    ExitCode::from(EXIT_BAD_INPUT)
}

pub fn run(request: Request) -> ExitCode {
    let format = request.format;
    let limits = match parse_limits(&request.limits) {
        Ok(limits) => limits,
        Err(message) => return refuse(format, None, None, &message),
    };
    let (new_input, positional) = request.inputs.split_last().expect("clap requires NEW");
    let sides = [
        !positional.is_empty(),
        !request.against.is_empty(),
        request.broker.admin_url.is_some(),
    ];
    if sides.iter().filter(|&&given| given).count() > 1 {
        return refuse(
            format,
            None,
            None,
            "give the existing side one way only: inputs before NEW, --against, or \
             --admin-url with --topic",
        );
    }
    // Inputs are read in the order given, so the first bad one is the one named; --against
    // inputs come after NEW, whose root file they look for.
    let mut existing: Vec<Loaded> = Vec::new();
    let new_side = SideOptions {
        root_message: request.input.root.as_deref(),
        includes: &request.input.include,
        counterpart: None,
        protoc: request.input.protoc(),
    };
    for spec in positional {
        match load_side(spec, &new_side) {
            Ok(loaded) => existing.extend(loaded),
            Err(message) => return refuse(format, Some(spec), None, &message),
        }
    }
    let new = match load_one(new_input, &new_side) {
        Ok(new) => new,
        Err(message) => return refuse(format, Some(new_input), None, &message),
    };
    let (new_root, new_file) = input::root_of(&new.data).unzip();
    if !sides.contains(&true) {
        // Whatever is wrong with the new schema is said first, as the broker would say it.
        if let Err(e) = protocompat::Schema::decode(&new.data) {
            return refuse(format, Some(&new.label), Some(e.rule.id()), &e.message);
        }
        return refuse(
            format,
            Some(&new.label),
            None,
            "nothing to compare it with: give the existing schema before it \
             (protocompat check OLD NEW), as --against INPUT (a file, a directory, \
             .git#ref=main), or as a topic's history with --admin-url URL --topic TOPIC",
        );
    }

    let mut notes = Vec::new();
    let mut strategy = request.strategy;
    if let Some(url) = &request.broker.admin_url {
        let (topic, history) = match broker::fetch(&request.broker) {
            Ok(fetched) => fetched,
            Err(message) => return refuse(format, Some(url), None, &message),
        };
        match (strategy, history.strategy) {
            (Some(given), Ok(broker)) if given != broker => notes.push(format!(
                "--strategy {} replaces the topic's {}",
                given.name(),
                broker.name()
            )),
            (Some(_), _) => {}
            (None, Ok(broker)) => strategy = Some(broker),
            (None, Err(message)) => return refuse(format, Some(url), None, &message),
        }
        if history.schemas.is_empty() {
            notes.push(format!(
                "{} has no schema: the broker stores the first one without a check",
                printable(&topic)
            ));
        }
        existing = history.schemas;
    } else if !request.against.is_empty() {
        // The existing side looks for the new side's message, in its file if it has one.
        let root = request.input.root.as_deref().or(new_root.as_deref());
        for spec in &request.against {
            let against = SideOptions {
                root_message: root,
                includes: &request.against_include,
                counterpart: new_file.as_deref(),
                protoc: request.input.protoc(),
            };
            match load_side(spec, &against) {
                Ok(loaded) => existing.extend(loaded),
                Err(message) => return refuse(format, Some(spec), None, &message),
            }
        }
    }
    let reload = || load_one(new_input, &new_side);
    let sides = Sides {
        new,
        existing,
        reload: &reload,
    };
    report(&request, request.fix, limits, strategy, sides, notes)
}

/// The schemas of a check, and how to load NEW again after `--fix` edited it.
struct Sides<'r> {
    new: Loaded,
    existing: Vec<Loaded>,
    reload: &'r dyn Fn() -> Result<Loaded, String>,
}

/// `fixing`: apply the remedies (`--fix`) before reporting.
fn report(
    request: &Request,
    fixing: bool,
    limits: Limits,
    strategy: Option<Strategy>,
    sides: Sides,
    mut notes: Vec<String>,
) -> ExitCode {
    let Sides {
        new,
        existing,
        reload,
    } = sides;
    let format = request.format;
    let strategy = strategy.unwrap_or(Strategy::Full);
    let existing = match broker::on_upload(strategy, &existing, &new.data) {
        broker::Upload::Stored(stored) => {
            notes.push(format!(
                "the new schema is byte for byte {}: the broker answers with that version and checks nothing",
                printable(&stored.describe())
            ));
            &[]
        }
        broker::Upload::Compared(compared) => {
            if compared.len() < existing.len() {
                notes.push(format!(
                    "{} compares the latest of the {} existing schemas only, as the broker does; \
                     {}_TRANSITIVE compares them all",
                    strategy.name(),
                    existing.len(),
                    strategy.name()
                ));
            }
            compared
        }
    };
    let data: Vec<&[u8]> = existing.iter().map(|e| e.data.as_slice()).collect();
    let checker = Checker::with_limits(Bounds::NONE, limits)
        .with_profile(request.profile)
        .with_examples(!request.no_examples);
    let report = match checker.check(&data, &new.data, strategy) {
        Ok(report) => report,
        Err(CheckError::Schema(e)) => {
            let label = match e.schema.which {
                SchemaRef::New => &new.label,
                SchemaRef::Existing(index) => &existing[index].label,
            };
            let hint = e
                .setting
                .map(|setting| format!(" ({}=N raises it)", limit_flag(setting)))
                .unwrap_or_default();
            return refuse(
                format,
                Some(label),
                Some(e.rule.id()),
                &format!("{}{hint}", e.message),
            );
        }
        Err(internal) => return refuse(format, None, None, &internal.render(limit_flag)),
    };
    let run = Run::new(
        &report,
        strategy,
        &new,
        existing,
        &notes,
        request.fail_on_warning,
    );
    let run = if request.no_fixes {
        run
    } else {
        run.with_fixes(&limits)
    };
    if fixing {
        return fix(request, &run, limits, strategy, reload);
    }
    print_out(&output::render(format, &run));
    ExitCode::from(if run.failed() { 1 } else { 0 })
}

/// `--fix`: writes the remedies into NEW's files, says what it did on stderr, then checks the
/// edited schema against the same existing schemas and reports that.
fn fix(
    request: &Request,
    run: &Run,
    limits: Limits,
    strategy: Strategy,
    reload: &dyn Fn() -> Result<Loaded, String>,
) -> ExitCode {
    let format = request.format;
    let label = &run.new.label;
    let source = run.fix_source().and_then(|fixes| fixes.source());
    let editable = source.is_some_and(|s| s.editable());
    let Some(source) = source.filter(|_| editable) else {
        return refuse(
            format,
            Some(label),
            None,
            "--fix edits .proto source on disk: NEW must be a .proto file or a directory of them \
             (not a descriptor set, Pulsar schema JSON or a git tree)",
        );
    };
    let fixes: Vec<(String, Vec<crate::fix::Fix>)> = run
        .findings()
        .map(|(finding, _)| (run.render(finding), run.fixes(finding)))
        .collect();
    let applied = match crate::fix::apply(source, &fixes) {
        Ok(applied) => applied,
        Err(message) => return refuse(format, Some(label), None, &message),
    };
    for taken in &applied.taken {
        print_err(&format!("protocompat --fix: applied: {}", printable(taken)));
    }
    for left in &applied.left {
        print_err(&format!("protocompat --fix: {}", printable(left)));
    }
    if applied.files.is_empty() {
        print_err(
            "protocompat --fix: no finding has a remedy to apply; the report says what helps",
        );
    } else {
        print_err(&format!(
            "protocompat --fix: wrote {}; checking again",
            printable(&applied.files.join(", "))
        ));
    }
    let new = match reload() {
        Ok(new) => new,
        Err(message) => {
            // Never leave the user's tree broken: the files go back as they were.
            let restored = match crate::fix::restore(source, &applied) {
                Ok(()) => "the files are restored as they were",
                Err(_) => "and restoring the files failed too: check them with your VCS",
            };
            return refuse(
                format,
                Some(label),
                None,
                &format!("--fix made a schema that does not load ({message}); {restored}"),
            );
        }
    };
    let existing: Vec<Loaded> = run.existing.to_vec();
    let sides = Sides {
        new,
        existing,
        reload,
    };
    report(
        request,
        false,
        limits,
        Some(strategy),
        sides,
        run.notes.to_vec(),
    )
}

/// The new side: one schema.
fn load_one(spec: &str, options: &SideOptions) -> Result<Loaded, String> {
    let mut loaded = load_side(spec, options)?;
    match loaded.len() {
        1 => Ok(loaded.remove(0)),
        n => Err(format!(
            "holds {n} schemas (a history); the new side is one schema, and a history goes \
             before it or after --against"
        )),
    }
}

fn load_side(spec: &str, options: &SideOptions) -> Result<Vec<Loaded>, String> {
    input::load(&Spec::parse(spec)?, options)
}
