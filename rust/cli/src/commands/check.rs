//! `protocompat check`: loads each side with its own roots, decides which existing schemas the
//! broker would compare, runs the engine, and reports in the asked format.

use std::process::ExitCode;

use protocompat::text::printable;
use protocompat::{Bounds, CheckError, Checker, Limits, SchemaRef, Strategy};

use crate::args::{limit_flag, parse_limits, CheckArgs};
use crate::broker;
use crate::console::{self, print_err};
use crate::fix::{Scope, Status};
use crate::input::{self, Loaded, SideOptions, Spec};
use crate::output::{self, FixSetup, Format, Outcome, Run};

/// Refuses the check ([`console::refuse`]), with the error document of the asked format.
fn refuse(format: Format, file: Option<&str>, rule: Option<&str>, message: &str) -> ExitCode {
    console::refuse("", file, rule, message, |message| {
        output::render_error(format, file, rule, message)
    })
}

pub fn run(request: CheckArgs) -> ExitCode {
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
    let mut checked_topic = None;
    if let Some(url) = &request.broker.admin_url {
        let (topic, history) = match broker::fetch(&request.broker) {
            Ok(fetched) => fetched,
            Err(message) => return refuse(format, Some(url), None, &message),
        };
        checked_topic = Some(topic.clone());
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
        topic: checked_topic,
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
    /// The topic whose history is the existing side, which the report names first.
    topic: Option<String>,
}

/// The check and its report; with `--fix`, two rounds: the check whose fixes are made, then
/// the check of the files they were made in, which is reported.
fn report(
    request: &CheckArgs,
    limits: Limits,
    strategy: Strategy,
    sides: Sides,
    notes: Vec<String>,
) -> ExitCode {
    let Sides {
        mut new,
        existing,
        reload,
        topic,
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
        run.topic = topic.clone();
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
        output::print(format, &run, request.color.enabled());
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
