//! The Check procedure: each root of the options (or topic of the project file) is one
//! topic's schema, checked as `protocompat check --root ROOT --against …` checks it, and each
//! change an annotation at the new file's declaration, its message the change with its
//! examples and fix on one line.

use protocompat::text::{bound, printable};
use protocompat::{Bounds, CheckError, Checker, SchemaRef};

use super::options::{self, limit_option, MAX_ROOTS};
use super::place::{root_location, Places};
use super::project::{self, Target};
use super::proto::{Annotation, CheckResponse, FileLocation};
use super::request::CheckRequest;
use super::rules;
use super::side::Side;
use super::Failure;
use crate::console::print_err;
use crate::fix::Scope;
use crate::input::Loaded;
use crate::locate::declarations;
use crate::output::{FixSetup, Run};

pub fn check(request: &CheckRequest) -> Result<CheckResponse, Failure> {
    // buf runs the plugin where it runs itself: a project file is named from there.
    let options = options::parse(&request.options, std::path::Path::new("."))?;
    let new = Side::read(&request.files, &options.limits, "the module")?;
    let old = Side::read(&request.against_files, &options.limits, "the against input")?;
    let asked = Asked::new(&request.rule_ids);
    let mut annotations: Vec<Annotation> = Vec::new();
    let (new_declared, old_declared) = (declarations(&new.set).0, declarations(&old.set).0);
    let mut skipped = Vec::new();
    let mut from_broker = Vec::new();
    let mut compared = 0;
    for target in &options.targets {
        let root = target.root.as_str();
        let in_new = new_declared.get(root);
        let in_old = old_declared.get(root);
        if let Some(topic) = &target.topic {
            // A project lists every topic of the service; buf sends the modules it checks.
            let names = || new.set.file.iter().chain(&old.set.file).map(|f| f.name());
            let sent = match &topic.file {
                Some(file) => project::sent(file, names()),
                None => in_new.is_some() || in_old.is_some(),
            };
            if !sent {
                skipped.push(topic.name.as_str());
                continue;
            }
        }
        let named = match &target.topic {
            Some(topic) => format!("topic {}: ", printable(&bound(&topic.name, 200))),
            None => String::new(),
        };
        match (in_new, in_old) {
            (Some(&(new_file, ..)), Some(&(old_file, ..))) => {
                compared += 1;
                if compared > MAX_ROOTS {
                    return Err(Failure::exhausted(format!(
                        "over {MAX_ROOTS} roots to check in one request; list fewer topics, or \
                         run buf on fewer modules at a time"
                    )));
                }
                if let Some(topic) = target.topic.as_ref().filter(|t| t.broker_strategy) {
                    from_broker.push(topic.name.as_str());
                }
                let new_schema = new.schema(root, new_file, &options.limits)?;
                let old_schema = old.schema(root, old_file, &options.limits)?;
                for annotation in compare(target, options.limits, &new_schema, &old_schema)? {
                    // Two topics with one root and strategy find the same changes.
                    if asked.wants(&annotation.rule_id) && !annotations.contains(&annotation) {
                        annotations.push(annotation);
                    }
                }
            }
            (Some(_), None) => {
                // A topic's first schema: the broker stores it without a check.
                print_err(&format!(
                    "protocompat: {named}{}: new: {} declares it and {} does not; nothing to check it against",
                    printable(root),
                    new.which,
                    old.which
                ));
            }
            (None, Some((old_file, path, _))) => {
                let id = protocompat::RuleId::RootMessageChanged.id();
                if asked.wants(id) {
                    annotations.push(Annotation {
                        rule_id: id.to_owned(),
                        message: format!(
                            "{id} {named}{root}: the root message is gone from {}; the topic's \
                             schema still has it, and a schema with another root is refused",
                            new.which
                        ),
                        file_location: None,
                        against_file_location: Some(FileLocation {
                            file_name: old.set.file[*old_file].name().to_owned(),
                            source_path: path.clone(),
                        }),
                    });
                }
            }
            (None, None) => {
                let what = match &target.topic {
                    Some(topic) => format!(
                        "{named}the project file's root `{}`: {} declares no such message on \
                         either side",
                        bound(root, 200),
                        topic.file.as_deref().unwrap_or("no file")
                    ),
                    None => format!(
                        "option `roots`: no file of {} or of {} declares `{}`",
                        new.which,
                        old.which,
                        bound(root, 200)
                    ),
                };
                return Err(Failure::invalid(format!(
                    "{what}; a root is a message's full name, package included (shop.Order)"
                )));
            }
        }
    }
    if !from_broker.is_empty() {
        // `protocompat init --admin-url` writes `broker` for every topic: one line for them all.
        print_err(&format!(
            "protocompat: {} of the project's topics take their strategy from the broker, which \
             buf breaking cannot ask: checked under FULL, which refuses what BACKWARD or FORWARD \
             would (the plugin option `strategy` names another): {}",
            from_broker.len(),
            shortlist(&from_broker)
        ));
    }
    if !skipped.is_empty() {
        print_err(&format!(
            "protocompat: {} of the project's topics not checked: buf sent no file of theirs \
             (they are outside the modules it checks): {}",
            skipped.len(),
            shortlist(&skipped)
        ));
    }
    Ok(CheckResponse { annotations })
}

/// The first few names of a list, for one line of stderr.
fn shortlist(names: &[&str]) -> String {
    const SHOWN: usize = 5;
    let mut line: Vec<String> = names
        .iter()
        .take(SHOWN)
        .map(|n| printable(&bound(n, 200)).into_owned())
        .collect();
    if names.len() > SHOWN {
        line.push(format!("and {} more", names.len() - SHOWN));
    }
    line.join(", ")
}

/// The rule IDs buf asks for; none means the default rules (the default profile's failures).
struct Asked(Vec<String>);

impl Asked {
    fn new(ids: &[String]) -> Asked {
        if !ids.is_empty() {
            return Asked(ids.to_vec());
        }
        let default = rules::failures_category(protocompat::PROFILES[0]);
        Asked(
            rules::all()
                .into_iter()
                .filter(|r| r.categories.contains(&default))
                .map(|r| r.id.to_owned())
                .collect(),
        )
    }

    fn wants(&self, id: &str) -> bool {
        self.0.iter().any(|i| i == id)
    }
}

/// One root's check: the engine's findings, or its refusal of a schema, as annotations.
fn compare(
    target: &Target,
    limits: protocompat::Limits,
    new: &Loaded,
    old: &Loaded,
) -> Result<Vec<Annotation>, Failure> {
    let root = target.root.as_str();
    let checker = Checker::with_limits(Bounds::NONE, limits)
        .with_profile(target.profile)
        .with_examples(true);
    let existing = std::slice::from_ref(old);
    let report = match checker.check(&[old.data.as_slice()], &new.data, target.strategy) {
        Ok(report) => report,
        Err(CheckError::Schema(e)) => {
            let (side, name) = match e.schema.which {
                SchemaRef::New => (new, "new"),
                SchemaRef::Existing(_) => (old, "existing"),
            };
            let hint = e
                .setting
                .map(|setting| format!(" ({} raises it)", limit_option(setting)))
                .unwrap_or_default();
            let location = root_location(side, root);
            let (file_location, against_file_location) = match e.schema.which {
                SchemaRef::New => (location, None),
                SchemaRef::Existing(_) => (None, location),
            };
            return Ok(vec![Annotation {
                rule_id: e.rule.id().to_owned(),
                message: format!(
                    "{} {root}: the {name} schema is refused: {}{hint}",
                    e.rule.id(),
                    e.message
                ),
                file_location,
                against_file_location,
            }]);
        }
        Err(error @ CheckError::TooMuchWork(..)) => {
            return Ok(vec![Annotation {
                rule_id: error.rule_id().to_owned(),
                message: format!("{} {root}: {}", error.rule_id(), error.render(limit_option)),
                file_location: root_location(new, root),
                against_file_location: None,
            }]);
        }
        Err(internal) => {
            return Err(Failure {
                code: super::proto::Code::Internal,
                message: internal.render(limit_option),
            })
        }
    };
    let notes = Vec::new();
    let run =
        Run::new(&report, target.strategy, new, existing, &notes, false).with_fixes(FixSetup {
            profile: target.profile,
            limits,
            work: checker.stats().last_check_work,
            scope: Scope { warnings: false },
        });
    let places = Places::new(root, new, old);
    // One annotation a change: a change FULL finds both ways names both directions, with each
    // one's example and the fix once, as protocompat check's report shows it. Both findings
    // are of one declaration, so the first places it.
    let mut annotations: Vec<Annotation> = run
        .changes()
        .iter()
        .map(|change| {
            let first = run.findings_of(change)[0];
            let (file_location, against_file_location) = places.of(first);
            let lead = if run.is_warning(change) {
                "warning: "
            } else {
                ""
            };
            Annotation {
                rule_id: first.rule.id().to_owned(),
                message: format!("{lead}{}", run.render_change_inline(change)),
                file_location,
                against_file_location,
            }
        })
        .collect();
    let unlisted = run.unlisted();
    if unlisted > 0 {
        print_err(&format!(
            "protocompat: {root}: {unlisted} more findings not shown (the report keeps the first)"
        ));
    }
    // Identical annotations (the same change found twice at one place) would show twice.
    annotations.dedup();
    Ok(annotations)
}
