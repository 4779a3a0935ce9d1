//! `protocompat audit`: before a stricter checker or profile is switched on, every topic's
//! retained PROTOBUF_NATIVE history is replayed under the topic's strategy as the broker would
//! check it: each version against those before it, then a consumer that brings the latest.

mod budget;
mod progress;
mod report;

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use indicatif::ProgressDrawTarget;
use protocompat::text::printable;
use protocompat::{Bounds, CheckError, Checker, Limits, Report, Strategy};

use crate::args::{AuditArgs, AuditFormat};
use crate::broker::{self, Client};
use crate::console::{self, print_out, Error, Kind};
use crate::input::Loaded;
use budget::Lane;
use progress::{progress_target, Progress};
use report::{json_report, text};

/// What one topic's history gives under its strategy.
struct TopicAudit {
    topic: String,
    strategy: Strategy,
    versions: Vec<i64>,
    /// Each version whose upload the rules refuse today: the version and its report.
    uploads: Vec<(i64, Report)>,
    /// The check a consumer bringing the latest schema gets, when it is refused.
    consumer: Option<Report>,
    /// Versions that could not be read or checked, with why.
    unreadable: Vec<String>,
}

impl TopicAudit {
    fn conflicts(&self) -> bool {
        !self.uploads.is_empty() || self.consumer.is_some() || !self.unreadable.is_empty()
    }
}

pub fn run(args: AuditArgs) -> ExitCode {
    // The message may carry the broker's text (topic names, reasons): one printable line.
    let fail = |error: &Error| {
        console::refuse("audit", error, |e| {
            (args.format == AuditFormat::Json).then(|| console::json_error(e.message()))
        })
    };
    let client = match Client::connect(&args.access, &args.admin_url, broker::AUDIT_TIMEOUT) {
        Ok(client) => client,
        Err(error) => return fail(&error),
    };
    let progress = Progress::new(progress_target(
        std::io::stderr().is_terminal(),
        ProgressDrawTarget::stderr,
    ));
    let mut skipped = Vec::new();
    let topics = match topics(&client, &args, &mut skipped, &progress) {
        Ok(topics) => topics,
        Err(error) => {
            progress.bar.finish_and_clear();
            return fail(&error);
        }
    };
    let checker = Checker::with_limits(Bounds::NONE, Limits::DEFAULT)
        .with_profile(args.profile)
        .with_examples(!args.no_examples);
    progress.auditing(topics.len());
    let share = budget::share(args.access.max_response_bytes, args.concurrency.into());
    let outcomes = audit_all(
        &client,
        &checker,
        share,
        &topics,
        args.concurrency.into(),
        &progress,
    );
    // The report follows: the line is gone before it, or before the error.
    progress.bar.finish_and_clear();
    let mut audits = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok(Outcome::Audited(audit)) => audits.push(*audit),
            Ok(Outcome::Empty) => {}
            Ok(Outcome::Skipped(line)) => skipped.push(line),
            Err(error) => return fail(&error),
        }
    }
    let conflicting = audits.iter().filter(|a| a.conflicts()).count();
    match args.format {
        AuditFormat::Text => print_out(&text(&args, &audits, &skipped)),
        AuditFormat::Json => print_out(&json_report(&args, &audits, &skipped)),
    }
    ExitCode::from(if conflicting > 0 { 1 } else { 0 })
}

/// What one topic gives the audit.
enum Outcome {
    // Boxed: an audit with its reports is far larger than the other outcomes.
    Audited(Box<TopicAudit>),
    /// No schema stored: nothing to replay.
    Empty,
    /// Another schema type, said in the report.
    Skipped(String),
}

/// The history, strategy and check of one topic; an error stops the audit. `None` when the
/// history proves larger than `share` bytes, before anything of it is kept.
fn audit_topic(
    client: &Client,
    checker: &Checker,
    topic: &str,
    share: u64,
) -> Result<Option<Outcome>, Error> {
    let found = match broker::history_within(client, topic, share) {
        Ok(Some(found)) => Ok(found),
        Ok(None) => return Ok(None),
        Err(error) => Err(error),
    };
    let outcome = match found {
        Ok((name, history)) if !history.schemas.is_empty() => {
            let strategy = history.strategy?;
            Outcome::Audited(Box::new(audit(checker, name, strategy, &history.schemas)))
        }
        Ok(_) => Outcome::Empty,
        // Another schema type: not ours to audit, but said.
        Err(error) if *error.kind() == Kind::OtherSchemaType => {
            Outcome::Skipped(printable(&format!("{topic}: {error}")).into_owned())
        }
        Err(error) => return Err(error),
    };
    Ok(Some(outcome))
}

/// Every topic audited by up to `concurrency` threads, which take the next topic in list
/// order as they come free. The outcomes are in list order, up to and including the first
/// error in that order: the one a serial audit stops at, since every topic before an error is
/// taken before it, and finished.
fn audit_all(
    client: &Client,
    checker: &Checker,
    share: u64,
    topics: &[String],
    concurrency: usize,
    progress: &Progress,
) -> Vec<Result<Outcome, Error>> {
    let next = AtomicUsize::new(0);
    // Set by an error: no topic after it is worth starting, its report will not be printed.
    let stop = AtomicBool::new(false);
    let mut slots: Vec<Option<Result<Outcome, Error>>> = Vec::new();
    slots.resize_with(topics.len(), || None);
    std::thread::scope(|scope| {
        let (lane, requests) = Lane::new();
        scope.spawn(move || {
            Lane::serve(requests, |topic| {
                audit_topic(client, checker, topic, u64::MAX)
                    .map(|outcome| outcome.expect("within the bound or refused"))
            })
        });
        let (next, stop) = (&next, &stop);
        let workers: Vec<_> = (0..concurrency.clamp(1, topics.len().max(1)))
            .map(|_| {
                let lane = lane.clone();
                scope.spawn(move || {
                    let mut done = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(topic) = topics.get(index) else {
                            break;
                        };
                        let outcome = match audit_topic(client, checker, topic, share) {
                            Ok(Some(outcome)) => Ok(outcome),
                            Ok(None) => lane.hand_over(topic),
                            Err(error) => Err(error),
                        };
                        match &outcome {
                            Ok(Outcome::Audited(audit)) => progress.audited(audit.conflicts()),
                            Ok(_) => progress.audited(false),
                            Err(_) => stop.store(true, Ordering::Relaxed),
                        }
                        done.push((index, outcome));
                    }
                    done
                })
            })
            .collect();
        // The large thread ends once the workers, who hold the other lanes, are done.
        drop(lane);
        for worker in workers {
            let done = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            for (index, outcome) in done {
                slots[index] = Some(outcome);
            }
        }
    });
    let mut outcomes = Vec::new();
    for slot in slots {
        // Only topics after an error are never taken.
        let Some(outcome) = slot else { break };
        let failed = outcome.is_err();
        outcomes.push(outcome);
        if failed {
            break;
        }
    }
    outcomes
}

/// Every topic of the namespaces asked for, once per stored schema (partitions, and the
/// persistent and non-persistent topics of a name, share one).
fn topics(
    client: &Client,
    args: &AuditArgs,
    skipped: &mut Vec<String>,
    progress: &Progress,
) -> Result<Vec<String>, Error> {
    let namespaces = match (&args.namespace, &args.tenant) {
        (Some(namespace), _) => vec![namespace.clone()],
        (None, Some(tenant)) => tenant_namespaces(client, tenant)?,
        (None, None) => {
            let mut all = Vec::new();
            for tenant in broker::names(client, "/admin/v2/tenants", "the tenants")? {
                all.extend(tenant_namespaces(client, &tenant)?);
            }
            all
        }
    };
    let mut seen = BTreeSet::new();
    progress.listing(namespaces.len());
    for namespace in namespaces {
        let Some((tenant, local)) = namespace.split_once('/') else {
            return Err(Error::usage(format!(
                "namespace `{namespace}`: expected tenant/namespace"
            )));
        };
        for domain in ["persistent", "non-persistent"] {
            let path = format!(
                "/admin/v2/{domain}/{}/{}",
                broker::encode(tenant),
                broker::encode(local)
            );
            let what = format!("the {domain} topics of {namespace}");
            // Each name kept as its schema's as it streams in; the list's once all is read.
            let mut listed = BTreeSet::new();
            let mut unnamed = None;
            let read = broker::each_name(client, &path, &what, |topic| {
                let name = broker::schema_name(topic).inspect_err(|e| unnamed = Some(e.clone()))?;
                listed.insert(name);
                Ok(())
            });
            if let Some(error) = unnamed {
                return Err(error);
            }
            match read {
                Ok(()) => seen.append(&mut listed),
                // Persistent topics are what schemas mostly belong to: without them, stop.
                Err(error) if domain == "persistent" => return Err(error),
                Err(error) => skipped.push(printable(error.message()).into_owned()),
            }
        }
        progress.listed();
    }
    Ok(seen.into_iter().collect())
}

fn tenant_namespaces(client: &Client, tenant: &str) -> Result<Vec<String>, Error> {
    broker::names(
        client,
        &format!("/admin/v2/namespaces/{}", broker::encode(tenant)),
        &format!("the namespaces of {tenant}"),
    )
}

/// Replays `versions` (oldest first) as the broker checks them under `strategy`.
fn audit(checker: &Checker, topic: String, strategy: Strategy, versions: &[Loaded]) -> TopicAudit {
    let mut result = TopicAudit {
        topic,
        strategy,
        versions: versions.iter().filter_map(|v| v.version).collect(),
        uploads: Vec::new(),
        consumer: None,
        unreadable: Vec::new(),
    };
    let version_of = |index: usize| versions[index].version.unwrap_or(index as i64);
    for index in 1..versions.len() {
        let compared: Vec<&[u8]> =
            match broker::on_upload(strategy, &versions[..index], &versions[index].data) {
                broker::Upload::Stored(_) => continue,
                broker::Upload::Compared(compared) => {
                    compared.iter().map(|v| v.data.as_slice()).collect()
                }
            };
        match checker.check(&compared, &versions[index].data, strategy) {
            Ok(report) if !report.compatible => result.uploads.push((version_of(index), report)),
            Ok(_) => {}
            Err(e) => {
                result
                    .unreadable
                    .push(format!("version {}: {}", version_of(index), error_text(e)))
            }
        }
    }
    // A consumer with the latest schema (`checkConsumerCompatibility`): against the latest
    // only, which it equals, except under BACKWARD_TRANSITIVE, FULL_TRANSITIVE and the
    // strategies that compare nothing, which check it against every version.
    let against_all = !matches!(
        strategy,
        Strategy::AlwaysCompatible
            | Strategy::Backward
            | Strategy::Forward
            | Strategy::ForwardTransitive
            | Strategy::Full
    );
    if against_all {
        let all: Vec<&[u8]> = versions.iter().map(|v| v.data.as_slice()).collect();
        let latest = &versions[versions.len() - 1].data;
        match checker.check(&all, latest, strategy) {
            Ok(report) if !report.compatible => result.consumer = Some(report),
            Ok(_) => {}
            Err(e) => result.unreadable.push(format!(
                "a consumer with the latest schema: {}",
                error_text(e)
            )),
        }
    }
    result
}

fn error_text(error: CheckError) -> String {
    let text = match error {
        CheckError::Schema(e) => format!("{}: {}", e.rule.id(), e.message),
        other => other.render(crate::args::limit_flag),
    };
    printable(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    pub(super) struct Command {
        #[command(flatten)]
        pub(super) args: AuditArgs,
    }

    #[test]
    fn concurrency_is_1_to_64_and_8_by_default() {
        let parse = |extra: &[&str]| {
            let mut argv = vec!["audit", "--admin-url", "http://broker:8080"];
            argv.extend(extra);
            Command::try_parse_from(argv).map(|c| c.args.concurrency)
        };
        assert_eq!(parse(&[]).unwrap(), 8);
        assert_eq!(parse(&["--concurrency", "1"]).unwrap(), 1);
        assert_eq!(parse(&["--concurrency", "64"]).unwrap(), 64);
        assert!(parse(&["--concurrency", "0"]).is_err());
        assert!(parse(&["--concurrency", "65"]).is_err());
    }

    #[test]
    fn examples_are_asked_for_unless_no_examples() {
        let parse = |extra: &[&str]| {
            let mut argv = vec!["audit", "--admin-url", "http://broker:8080"];
            argv.extend(extra);
            Command::parse_from(argv).args.no_examples
        };
        assert!(!parse(&[]));
        assert!(parse(&["--no-examples"]));
    }
}
