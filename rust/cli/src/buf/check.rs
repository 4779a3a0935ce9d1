//! The Check procedure: each root of the options is one topic's schema, checked as
//! `protocompat check --root ROOT --against …` checks it, and each finding an annotation at
//! the new file's declaration, its message the finding with its example and fix on one line.

use protocompat::{Bounds, CheckError, Checker, SchemaRef};

use super::options::{self, limit_option, Options};
use super::place::{root_location, Places};
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
    let options = options::parse(&request.options)?;
    let new = Side::read(&request.files, &options.limits, "the module")?;
    let old = Side::read(&request.against_files, &options.limits, "the against input")?;
    let asked = Asked::new(&request.rule_ids);
    let mut annotations = Vec::new();
    let (new_declared, old_declared) = (declarations(&new.set).0, declarations(&old.set).0);
    for root in &options.roots {
        let in_new = new_declared.get(root.as_str());
        let in_old = old_declared.get(root.as_str());
        match (in_new, in_old) {
            (Some(&(new_file, ..)), Some(&(old_file, ..))) => {
                let new_schema = new.schema(root, new_file, &options.limits)?;
                let old_schema = old.schema(root, old_file, &options.limits)?;
                annotations.extend(
                    compare(root, &options, &new_schema, &old_schema)?
                        .into_iter()
                        .filter(|a| asked.wants(&a.rule_id)),
                );
            }
            (Some(_), None) => {
                // A topic's first schema: the broker stores it without a check.
                print_err(&format!(
                    "protocompat: {}: new: {} declares it and {} does not; nothing to check it against",
                    protocompat::text::printable(root),
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
                            "{id} {root}: the root message is gone from {}; the topic's \
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
                return Err(Failure::invalid(format!(
                    "option `roots`: no file of {} or of {} declares `{}`; a root is a message's \
                     full name, package included (shop.Order)",
                    new.which,
                    old.which,
                    protocompat::text::bound(root, 200)
                )))
            }
        }
    }
    Ok(CheckResponse { annotations })
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
    root: &str,
    options: &Options,
    new: &Loaded,
    old: &Loaded,
) -> Result<Vec<Annotation>, Failure> {
    let checker = Checker::with_limits(Bounds::NONE, options.limits)
        .with_profile(options.profile)
        .with_examples(true);
    let existing = std::slice::from_ref(old);
    let report = match checker.check(&[old.data.as_slice()], &new.data, options.strategy) {
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
        Run::new(&report, options.strategy, new, existing, &notes, false).with_fixes(FixSetup {
            profile: options.profile,
            limits: options.limits,
            work: checker.stats().last_check_work,
            scope: Scope { warnings: false },
        });
    let places = Places::new(root, new, old);
    let mut annotations: Vec<Annotation> = run
        .findings()
        .map(|(finding, warning)| {
            let (file_location, against_file_location) = places.of(finding);
            let lead = if warning { "warning: " } else { "" };
            Annotation {
                rule_id: finding.rule.id().to_owned(),
                message: format!("{lead}{}", run.render_with_example(finding)),
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
