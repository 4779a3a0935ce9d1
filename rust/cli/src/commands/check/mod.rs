//! `protocompat check`: loads each side with its own roots, decides which existing schemas the
//! broker would compare, runs the engine, and reports in the asked format.

pub mod project;

use std::path::PathBuf;
use std::process::ExitCode;

use protocompat::text::printable;
use protocompat::{Bounds, CheckError, Checker, Limits, Profile, SchemaRef, Strategy};

use crate::args::{limit_flag, parse_limits, CheckArgs, DEFAULT_PROFILE};
use crate::broker;
use crate::console::{self, print_err, print_out, Error};
use crate::fix::{Scope, Status};
use crate::input::{self, Loaded, SideOptions, Spec};
use crate::output::{self, FixSetup, Format, Outcome, Run};

/// Refuses the check ([`console::refuse`]), with the error document of the asked format.
pub fn refuse(format: Format, error: &Error) -> ExitCode {
    console::refuse("", error, |e| {
        output::render_error(format, e.about(), e.rule_id(), e.message())
    })
}

pub fn run(request: CheckArgs) -> ExitCode {
    if request.inputs.is_empty() {
        // No file named: the project file's topics, each checked as below.
        return project::run(&request);
    }
    let format = request.format;
    if request.broker.admin_url.is_some() && request.broker.topic.is_none() {
        return refuse(
            format,
            &Error::usage(
                "--admin-url needs --topic TOPIC when a file is named (without files, it is the \
             baseline of every topic of the project file)",
            ),
        );
    }
    let (new_input, positional) = request.inputs.split_last().expect("not empty");
    let given = Given {
        new_input,
        positional,
        against: &request.against,
        against_include: &request.against_include,
        broker: request
            .broker
            .admin_url
            .as_deref()
            .zip(request.broker.topic.as_deref()),
        root: request.input.root.as_deref(),
        includes: &request.input.include,
        strategy: request.strategy,
        profile: request.profile.unwrap_or(DEFAULT_PROFILE),
    };
    match check(&request, &given) {
        Ok(done) => {
            match &done.painted {
                Some(painted) => output::paint::print(painted, request.color.enabled()),
                None => print_out(&done.output),
            }
            ExitCode::from(if done.failed { 1 } else { 0 })
        }
        Err(error) => refuse(format, &error),
    }
}

/// What one check compares: the inputs and roots of each side, from the command line or from
/// a topic of the project file.
pub struct Given<'a> {
    pub new_input: &'a str,
    pub positional: &'a [String],
    pub against: &'a [String],
    pub against_include: &'a [PathBuf],
    /// `--admin-url` and `--topic`.
    pub broker: Option<(&'a str, &'a str)>,
    pub root: Option<&'a str>,
    pub includes: &'a [PathBuf],
    pub strategy: Option<Strategy>,
    pub profile: &'static Profile,
}

/// A check's report, rendered in the asked format.
pub struct Done {
    pub output: String,
    /// The text report in its colours' spans, printed as the terminal takes it.
    pub painted: Option<output::Painted>,
    pub failed: bool,
    /// The existing side lacks the schema: it is new, and nothing was compared.
    pub new: bool,
    /// The paths of the new schema's files, where it was compiled from `.proto` source: its
    /// root file and every file it imports (what `protocompat lsp` checks it again for).
    pub new_files: Vec<String>,
}

/// One check: loads each side, runs the engine, renders the report.
pub fn check(request: &CheckArgs, given: &Given) -> Result<Done, Error> {
    let limits = parse_limits(&request.limits)?;
    let (new_input, positional) = (given.new_input, given.positional);
    let sides = [
        !positional.is_empty(),
        !given.against.is_empty(),
        given.broker.is_some(),
    ];
    if sides.iter().filter(|&&given| given).count() > 1 {
        return Err(Error::usage(
            "give the existing side one way only: inputs before NEW, --against, or \
             --admin-url with --topic",
        ));
    }
    // Inputs are read in the order given, so the first bad one is the one named; --against
    // inputs come after NEW, whose root file they look for.
    let mut existing: Vec<Loaded> = Vec::new();
    let new_side = SideOptions {
        root_message: given.root,
        includes: given.includes,
        counterpart: None,
        protoc: request.input.protoc(),
    };
    for spec in positional {
        existing.extend(load_side(spec, &new_side).map_err(|e| e.at(spec))?);
    }
    let new = match Spec::parse(new_input).and_then(|spec| input::find(&spec, &new_side)) {
        Ok(input::Found::Absent(why)) => return Err(Error::absent(why).at(new_input)),
        Ok(input::Found::Schemas(loaded)) => one_schema(loaded).map_err(|e| e.at(new_input))?,
        Err(e) => return Err(e.at(new_input)),
    };
    let new_files: Vec<String> = new
        .sources
        .iter()
        .flat_map(|sources| sources.files.values().cloned())
        .collect();
    let (new_root, new_file) = input::root_of(&new.data).unzip();
    if !sides.contains(&true) {
        // Whatever is wrong with the new schema is said first, as the broker would say it.
        if let Err(e) = protocompat::Schema::decode(&new.data) {
            return Err(Error::input(e.message).under(e.rule.id()).at(&new.label));
        }
        return Err(Error::usage(
            "nothing to compare it with: give the existing schema before it \
             (protocompat check OLD NEW), as --against INPUT (a file, a directory, \
             .git#ref=main), or as a topic's history with --admin-url URL --topic TOPIC",
        )
        .at(&new.label));
    }

    let mut notes = Vec::new();
    let mut strategy = given.strategy;
    let mut is_new = false;
    let mut checked_topic = None;
    if let Some((url, topic)) = given.broker {
        let (topic, history) =
            broker::fetch_topic(&request.broker.access, url, topic).map_err(|e| e.at(url))?;
        checked_topic = Some(topic.clone());
        match (strategy, history.strategy) {
            (Some(given), Ok(broker)) if given != broker => notes.push(format!(
                "--strategy {} replaces the topic's {}",
                given.name(),
                broker.name()
            )),
            (Some(_), _) => {}
            (None, Ok(broker)) => strategy = Some(broker),
            (None, Err(error)) => return Err(error.at(url)),
        }
        if history.schemas.is_empty() {
            is_new = true;
            notes.push(format!(
                "{} has no schema: the broker stores the first one without a check",
                printable(&topic)
            ));
        }
        existing = history.schemas;
    } else if !given.against.is_empty() {
        // The existing side looks for the new side's message, in its file if it has one.
        let root = given.root.or(new_root.as_deref());
        for spec in given.against {
            let against = SideOptions {
                root_message: root,
                includes: given.against_include,
                counterpart: new_file.as_deref(),
                protoc: request.input.protoc(),
            };
            let found = Spec::parse(spec)
                .and_then(|parsed| input::find(&parsed, &against))
                .map_err(|e| e.at(spec))?;
            match found {
                input::Found::Schemas(loaded) => existing.extend(loaded),
                // Not there: the schema is new, as a topic's first upload is.
                input::Found::Absent(why) => notes.push(format!(
                    "new: {why}: nothing to compare, and the broker stores a topic's first \
                     schema without a check"
                )),
            }
        }
        is_new = existing.is_empty();
    }
    let reload = || load_one(new_input, &new_side);
    let sides = Sides {
        new,
        existing,
        reload: &reload,
        topic: checked_topic,
    };
    let mut done = report(
        request,
        given.profile,
        limits,
        strategy.unwrap_or(Strategy::Full),
        sides,
        notes,
    )?;
    done.new = is_new;
    done.new_files = new_files;
    Ok(done)
}

/// The schemas of a check, and how to load NEW again after `--fix` edited it.
struct Sides<'r> {
    new: Loaded,
    existing: Vec<Loaded>,
    reload: &'r dyn Fn() -> Result<Loaded, Error>,
    /// The topic whose history is the existing side, which the report names first.
    topic: Option<String>,
}

/// The check and its report; with `--fix`, two rounds: the check whose fixes are made, then
/// the check of the files they were made in, which is reported.
fn report(
    request: &CheckArgs,
    profile: &'static Profile,
    limits: Limits,
    strategy: Strategy,
    sides: Sides,
    notes: Vec<String>,
) -> Result<Done, Error> {
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
            .with_profile(profile)
            .with_examples(!request.no_examples);
        let report = match checker.check(&data, &new.data, strategy) {
            Ok(report) => report,
            Err(CheckError::Schema(e)) => {
                let label = match e.schema.which {
                    SchemaRef::New => &new.label,
                    SchemaRef::Existing(index) => &compared[index].label,
                };
                let error = match e.setting.map(limit_flag) {
                    Some(flag) => {
                        let message = format!("{} ({flag}=N raises it)", e.message);
                        Error::limit(flag, message)
                    }
                    None => Error::input(e.message),
                };
                return Err(error.under(e.rule.id()).at(label));
            }
            Err(internal @ CheckError::TooMuchWork(_, setting)) => {
                return Err(Error::limit(
                    limit_flag(setting),
                    internal.render(limit_flag),
                ))
            }
            Err(internal) => return Err(Error::internal(internal.render(limit_flag))),
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
                profile,
                limits,
                work: checker.stats().last_check_work,
                scope: Scope {
                    warnings: request.fix_warnings,
                },
            });
        }
        if request.fix && round == 0 {
            if let Some((edited, outcomes)) = make_fixes(&run, reload)? {
                fixed = outcomes;
                drop(run);
                new = edited;
                continue;
            }
        }
        return Ok(Done {
            output: output::render(format, &run),
            painted: (format == Format::Text).then(|| output::painted(&run)),
            failed: run.failed(),
            new: false,
            new_files: Vec::new(),
        });
    }
    unreachable!("the second round reports")
}

/// `--fix`: writes the fixes to make into NEW's files, says on stderr what became of each
/// finding's fix, compiles the files again and holds them against the fixes' edits. The NEW
/// loaded from the written files, and what was made of each fix; `None` when there is nothing
/// to make (the check is reported as it is).
fn make_fixes(
    run: &Run,
    reload: &dyn Fn() -> Result<Loaded, Error>,
) -> Result<Option<(Loaded, Vec<Outcome>)>, Error> {
    let label = &run.new.label;
    let fixes = run.fixes().expect("--fix conflicts with --no-fixes");
    let Some(source) = fixes.source().filter(|s| s.editable()) else {
        return Err(Error::usage(
            "--fix edits .proto source on disk: NEW must be a .proto file or a directory of them \
             (not a descriptor set, Pulsar schema JSON or a git tree)",
        )
        .at(label));
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
    let written = crate::fix::write(source, &to_make).map_err(|e| e.at(label))?;
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
        Err(error) => {
            // Never leave the user's tree broken: the files go back as they were.
            let restored = restored(&written);
            return Err(error
                .map_message(|m| {
                    format!("--fix made a schema that does not load ({m}); {restored}")
                })
                .at(label));
        }
    };
    if let Err(difference) = crate::fix::verify(&run.new.data, &fixes.intended(), &edited.data) {
        let restored = restored(&written);
        return Err(difference
            .map_message(|d| format!("--fix wrote what no proven fix names ({d}); {restored}"))
            .at(label));
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
fn load_one(spec: &str, options: &SideOptions) -> Result<Loaded, Error> {
    one_schema(load_side(spec, options)?)
}

fn one_schema(mut loaded: Vec<Loaded>) -> Result<Loaded, Error> {
    match loaded.len() {
        1 => Ok(loaded.remove(0)),
        n => Err(Error::input(format!(
            "holds {n} schemas (a history); the new side is one schema, and a history goes \
             before it or after --against"
        ))),
    }
}

fn load_side(spec: &str, options: &SideOptions) -> Result<Vec<Loaded>, Error> {
    input::load(&Spec::parse(spec)?, options)
}
