//! `protocompat check`: loads each side with its own roots, decides which existing schemas the
//! broker would compare, runs the engine, and reports in the asked format.

use std::path::PathBuf;
use std::process::ExitCode;

use protocompat::text::printable;
use protocompat::{Bounds, CheckError, Checker, Limits, Profile, SchemaRef, Strategy};

use crate::broker;
use crate::fix::{Scope, Status};
use crate::input::{self, Loaded, SideOptions, Spec};
use crate::output::{self, FixSetup, Format, Outcome, Run};
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
    report(
        &request,
        limits,
        strategy.unwrap_or(Strategy::Full),
        sides,
        notes,
    )
}

/// The schemas of a check, and how to load NEW again after `--fix` edited it.
struct Sides<'r> {
    new: Loaded,
    existing: Vec<Loaded>,
    reload: &'r dyn Fn() -> Result<Loaded, String>,
}

/// The check and its report; with `--fix`, two rounds: the check whose fixes are made, then
/// the check of the files they were made in, which is reported.
fn report(
    request: &Request,
    limits: Limits,
    strategy: Strategy,
    sides: Sides,
    notes: Vec<String>,
) -> ExitCode {
    let Sides {
        mut new,
        existing,
        reload,
    } = sides;
    let format = request.format;
    let mut fixed = Vec::new();
    for round in 0..2 {
        let mut notes = notes.clone();
        let compared = match broker::on_upload(strategy, &existing, &new.data) {
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
                        "{} compares the latest of the {} existing schemas only, as the broker \
                         does; {}_TRANSITIVE compares them all",
                        strategy.name(),
                        existing.len(),
                        strategy.name()
                    ));
                }
                compared
            }
        };
        let data: Vec<&[u8]> = compared.iter().map(|e| e.data.as_slice()).collect();
        let checker = Checker::with_limits(Bounds::NONE, limits)
            .with_profile(request.profile)
            .with_examples(!request.no_examples);
        let report = match checker.check(&data, &new.data, strategy) {
            Ok(report) => report,
            Err(CheckError::Schema(e)) => {
                let label = match e.schema.which {
                    SchemaRef::New => &new.label,
                    SchemaRef::Existing(index) => &compared[index].label,
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
        let mut run = Run::new(
            &report,
            strategy,
            &new,
            compared,
            &notes,
            request.fail_on_warning,
        );
        run.fixed = std::mem::take(&mut fixed);
        if !request.no_fixes {
            run = run.with_fixes(FixSetup {
                profile: request.profile,
                limits,
                work: checker.stats().last_check_work,
                scope: Scope {
                    warnings: request.fix_warnings,
                },
            });
        }
        if request.fix && round == 0 {
            match make_fixes(format, &run, reload) {
                Ok(Some((edited, outcomes))) => {
                    fixed = outcomes;
                    drop(run);
                    new = edited;
                    continue;
                }
                Ok(None) => {}
                Err(code) => return code,
            }
        }
        print_out(&output::render(format, &run));
        return ExitCode::from(if run.failed() { 1 } else { 0 });
    }
    unreachable!("the second round reports")
}

/// `--fix`: writes the fixes to make into NEW's files, says on stderr what became of each
/// finding's fix, compiles the files again and holds them against the fixes' edits. The NEW
/// loaded from the written files, and what was made of each fix; `None` when there is nothing
/// to make (the check is reported as it is).
fn make_fixes(
    format: Format,
    run: &Run,
    reload: &dyn Fn() -> Result<Loaded, String>,
) -> Result<Option<(Loaded, Vec<Outcome>)>, ExitCode> {
    let label = &run.new.label;
    let fixes = run.fixes().expect("--fix conflicts with --no-fixes");
    let Some(source) = fixes.source().filter(|s| s.editable()) else {
        return Err(refuse(
            format,
            Some(label),
            None,
            "--fix edits .proto source on disk: NEW must be a .proto file or a directory of them \
             (not a descriptor set, Pulsar schema JSON or a git tree)",
        ));
    };
    let outcomes: Vec<Outcome> = run
        .findings()
        .zip(fixes.list())
        .map(|((finding, _), entry)| Outcome {
            finding: run.render(finding),
            status: match &entry.status {
                Status::Fix => Status::Applied,
                other => other.clone(),
            },
            summary: entry
                .fix
                .as_ref()
                .map(|f| f.summary.clone())
                .or_else(|| entry.advice.first().cloned())
                .unwrap_or_default(),
        })
        .collect();
    say_outcomes(run, &outcomes);
    let to_make = fixes.to_make();
    if to_make.is_empty() {
        print_err(
            "protocompat --fix: no failure has a proven fix to make; the report says what helps",
        );
        return Ok(None);
    }
    let written = match crate::fix::write(source, &to_make) {
        Ok(written) => written,
        Err(message) => return Err(refuse(format, Some(label), None, &message)),
    };
    print_err(&format!(
        "protocompat --fix: wrote {}; checking again",
        printable(&written.files.join(", "))
    ));
    let restored = |written: &crate::fix::Written| match written.restore() {
        Ok(()) => "the files are restored as they were".to_owned(),
        Err(e) => format!("and restoring the files failed too ({e}): check them with your VCS"),
    };
    let edited = match reload() {
        Ok(edited) => edited,
        Err(message) => {
            // Never leave the user's tree broken: the files go back as they were.
            let restored = restored(&written);
            return Err(refuse(
                format,
                Some(label),
                None,
                &format!("--fix made a schema that does not load ({message}); {restored}"),
            ));
        }
    };
    if let Err(difference) = crate::fix::verify(&run.new.data, &fixes.intended(), &edited.data) {
        let restored = restored(&written);
        return Err(refuse(
            format,
            Some(label),
            None,
            &format!("--fix wrote what no proven fix names ({difference}); {restored}"),
        ));
    }
    Ok(Some((edited, outcomes)))
}

/// What `--fix` made of each finding's fix, on stderr, each line once: the fixes made, those
/// left as suggestions or left out (and why), and the findings no fix was proven for.
fn say_outcomes(run: &Run, outcomes: &[Outcome]) {
    let mut said: Vec<String> = Vec::new();
    for (index, outcome) in outcomes.iter().enumerate() {
        let line = match &outcome.status {
            Status::Applied => format!("applied: {}", outcome.summary),
            Status::Suggested => format!(
                "left as a suggestion (a warning; --fix-warnings makes it): {}",
                outcome.summary
            ),
            Status::Left { why } => format!("not made: {}: {why}", outcome.summary),
            Status::Unproven => {
                let tried = run
                    .fixes()
                    .and_then(|f| f.list().get(index))
                    .and_then(|e| e.tried.first())
                    .map(|t| format!(": tried {}, refused: {}", t.summary, t.why))
                    .unwrap_or_default();
                format!("no proven fix for {}{tried}", run.short(index))
            }
            Status::Covered { .. } | Status::Advice | Status::Fix => continue,
        };
        if !said.contains(&line) {
            print_err(&format!("protocompat --fix: {}", printable(&line)));
            said.push(line);
        }
    }
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
