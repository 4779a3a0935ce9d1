//! `protocompat audit`: before a stricter checker or profile is switched on, every topic's
//! retained PROTOBUF_NATIVE history is replayed under the topic's strategy as the broker would
//! check it: each version against those before it, then a consumer that brings the latest.

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use protocompat::text::printable;
use protocompat::{Bounds, CheckError, Checker, Limits, Profile, Report, Strategy};
use serde_json::{json, Value};

use crate::broker::{self, Access, Client};
use crate::input::Loaded;
use crate::{parse_profile, print_err, print_out, safe, EXIT_BAD_INPUT};

#[derive(clap::Args)]
pub struct AuditArgs {
    /// The broker's (or cluster's) admin URL, as pulsar-admin's --admin-url.
    #[arg(long, value_name = "URL")]
    pub admin_url: String,
    /// Audit this tenant's namespaces only.
    #[arg(long, conflicts_with = "namespace")]
    pub tenant: Option<String>,
    /// Audit this namespace (tenant/namespace) only.
    #[arg(long, value_name = "TENANT/NAMESPACE")]
    pub namespace: Option<String>,
    /// The rule profile to audit with, as the brokers will run it (-Dprotocompat.profile).
    #[arg(long, value_parser = parse_profile, default_value = "pip246")]
    pub profile: &'static Profile,
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub format: AuditFormat,
    /// Leave out each finding's example: the smallest message the writer schema can produce
    /// along the finding's path, its bytes, and what a protobuf-java reader makes of them.
    /// Shown by default, in both formats.
    #[arg(long)]
    pub no_examples: bool,
    /// Topics audited at once: each one's history, strategy and check. Every request still
    /// draws on the one --timeout, and the report lists the topics in the same order whatever
    /// the number.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 8,
        value_parser = clap::value_parser!(u8).range(1..=64)
    )]
    pub concurrency: u8,
    #[command(flatten)]
    pub access: Access,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    Text,
    Json,
}

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
    let fail = |message: &str| {
        let message = printable(message);
        if args.format == AuditFormat::Json {
            print_out(&safe::json(
                serde_json::to_string_pretty(&json!({"error": {"message": message}}))
                    .expect("JSON"),
            ));
        }
        print_err(&format!("protocompat audit: {message}"));
        ExitCode::from(EXIT_BAD_INPUT)
    };
    let client = match Client::connect(&args.access, &args.admin_url, broker::AUDIT_TIMEOUT) {
        Ok(client) => client,
        Err(message) => return fail(&message),
    };
    let progress = Progress::new(progress_target(
        std::io::stderr().is_terminal(),
        ProgressDrawTarget::stderr,
    ));
    let mut skipped = Vec::new();
    let topics = match topics(&client, &args, &mut skipped, &progress) {
        Ok(topics) => topics,
        Err(message) => {
            progress.bar.finish_and_clear();
            return fail(&message);
        }
    };
    let checker = Checker::with_limits(Bounds::NONE, Limits::DEFAULT)
        .with_profile(args.profile)
        .with_examples(!args.no_examples);
    progress.auditing(topics.len());
    let outcomes = audit_all(
        &client,
        &checker,
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
            Err(message) => return fail(&message),
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

/// The history, strategy and check of one topic; an error stops the audit.
fn audit_topic(client: &Client, checker: &Checker, topic: &str) -> Result<Outcome, String> {
    match broker::history(client, topic) {
        Ok((name, history)) if !history.schemas.is_empty() => {
            let strategy = history.strategy?;
            Ok(Outcome::Audited(Box::new(audit(
                checker,
                name,
                strategy,
                &history.schemas,
            ))))
        }
        Ok(_) => Ok(Outcome::Empty),
        // Another schema type: not ours to audit, but said.
        Err(message) if message.contains("PROTOBUF_NATIVE schemas only") => Ok(Outcome::Skipped(
            printable(&format!("{topic}: {message}")).into_owned(),
        )),
        Err(message) => Err(message),
    }
}

/// Every topic audited by up to `concurrency` threads, which take the next topic in list
/// order as they come free. The outcomes are in list order, up to and including the first
/// error in that order: the one a serial audit stops at, since every topic before an error is
/// taken before it, and finished.
fn audit_all(
    client: &Client,
    checker: &Checker,
    topics: &[String],
    concurrency: usize,
    progress: &Progress,
) -> Vec<Result<Outcome, String>> {
    let next = AtomicUsize::new(0);
    // Set by an error: no topic after it is worth starting, its report will not be printed.
    let stop = AtomicBool::new(false);
    let mut slots: Vec<Option<Result<Outcome, String>>> = Vec::new();
    slots.resize_with(topics.len(), || None);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..concurrency.clamp(1, topics.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(topic) = topics.get(index) else {
                            break;
                        };
                        let outcome = audit_topic(client, checker, topic);
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

/// `listed the topics of 12/300 namespaces`, then `audited 312/1000 topics, 2 conflicts`,
/// redrawn in place on stderr as namespaces and topics are done.
struct Progress {
    bar: ProgressBar,
    /// Counted and shown under one lock, the line written whole: a count shown after a higher
    /// one, or one phase's count in the other's line, would go back.
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    done: usize,
    total: usize,
    conflicts: usize,
}

impl Progress {
    fn new(target: ProgressDrawTarget) -> Progress {
        let bar = ProgressBar::with_draw_target(None, target)
            .with_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
        // Redrawn now and then too: a redraw skipped by indicatif's rate limit is shown then,
        // not only at the next topic, which may take long. No ticking thread for no line.
        if !bar.is_hidden() {
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
        }
        Progress {
            bar,
            counts: Mutex::new(Counts::default()),
        }
    }

    fn update(&self, change: impl FnOnce(&mut Counts), line: impl FnOnce(&Counts) -> String) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut counts);
        self.bar.set_message(line(&counts));
    }

    fn listing_line(counts: &Counts) -> String {
        format!(
            "listed the topics of {}/{} namespaces",
            counts.done, counts.total
        )
    }

    fn audit_line(counts: &Counts) -> String {
        let conflicts = match counts.conflicts {
            1 => "1 conflict".to_owned(),
            n => format!("{n} conflicts"),
        };
        format!(
            "audited {}/{} topics, {conflicts}",
            counts.done, counts.total
        )
    }

    /// Listing a cluster's topics takes two requests a namespace, one after another.
    fn listing(&self, namespaces: usize) {
        self.update(
            |counts| {
                *counts = Counts {
                    total: namespaces,
                    ..Counts::default()
                }
            },
            Progress::listing_line,
        );
    }

    fn listed(&self) {
        self.update(|counts| counts.done += 1, Progress::listing_line);
    }

    fn auditing(&self, topics: usize) {
        self.update(
            |counts| {
                *counts = Counts {
                    total: topics,
                    ..Counts::default()
                }
            },
            Progress::audit_line,
        );
    }

    fn audited(&self, conflicts: bool) {
        self.update(
            |counts| {
                counts.done += 1;
                counts.conflicts += usize::from(conflicts);
            },
            Progress::audit_line,
        );
    }
}

/// The progress line is drawn for a person at a terminal only: never into a pipe, a file or a
/// CI log, where a line redrawn with carriage returns is noise.
fn progress_target(
    stderr_is_terminal: bool,
    terminal: impl FnOnce() -> ProgressDrawTarget,
) -> ProgressDrawTarget {
    if stderr_is_terminal {
        terminal()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// Every topic of the namespaces asked for, once per stored schema (partitions, and the
/// persistent and non-persistent topics of a name, share one).
fn topics(
    client: &Client,
    args: &AuditArgs,
    skipped: &mut Vec<String>,
    progress: &Progress,
) -> Result<Vec<String>, String> {
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
            return Err(format!(
                "namespace `{namespace}`: expected tenant/namespace"
            ));
        };
        for domain in ["persistent", "non-persistent"] {
            let path = format!(
                "/admin/v2/{domain}/{}/{}",
                broker::encode(tenant),
                broker::encode(local)
            );
            let what = format!("the {domain} topics of {namespace}");
            match broker::names(client, &path, &what) {
                Ok(listed) => {
                    for topic in listed {
                        seen.insert(broker::schema_name(&topic)?);
                    }
                }
                // Persistent topics are what schemas mostly belong to: without them, stop.
                Err(message) if domain == "persistent" => return Err(message),
                Err(message) => skipped.push(printable(&message).into_owned()),
            }
        }
        progress.listed();
    }
    Ok(seen.into_iter().collect())
}

fn tenant_namespaces(client: &Client, tenant: &str) -> Result<Vec<String>, String> {
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
        other => other.render(crate::limit_flag),
    };
    printable(&text).into_owned()
}

/// A version's findings named as the broker's report names them, but with versions; each
/// finding's example indented under it, as `check` shows it.
fn findings(report: &Report, versions: &[i64]) -> Vec<String> {
    let name = |index: usize| match versions.get(index) {
        Some(version) => format!("version {version}"),
        None => format!("existing[{index}]"),
    };
    let mut lines = Vec::new();
    for finding in &report.failures {
        lines.push(printable(&finding.render_naming(&name)).into_owned());
        lines.extend(
            crate::output::example_lines(finding)
                .into_iter()
                .map(|l| format!("    {l}")),
        );
    }
    let unlisted = report.total_failures - report.failures.len();
    if unlisted > 0 {
        lines.push(format!("… and {unlisted} more"));
    }
    lines
}

/// The versions an upload of `version` was compared with, for naming its findings.
fn compared_versions(audit: &TopicAudit, version: i64) -> Vec<i64> {
    let before: Vec<i64> = audit
        .versions
        .iter()
        .copied()
        .filter(|v| *v < version)
        .collect();
    if broker::is_transitive(audit.strategy) {
        before
    } else {
        before.last().copied().into_iter().collect()
    }
}

/// For people: topics named by the broker are made printable, like every other text of its.
fn text(args: &AuditArgs, audits: &[TopicAudit], skipped: &[String]) -> String {
    let mut lines = Vec::new();
    for audit in audits {
        let versions = match audit.versions.len() {
            1 => "1 version".to_owned(),
            n => format!("{n} versions"),
        };
        let topic = printable(&audit.topic);
        if !audit.conflicts() {
            lines.push(format!(
                "ok        {topic} ({versions}, {})",
                audit.strategy.name()
            ));
            continue;
        }
        lines.push(format!(
            "CONFLICTS {topic} ({versions}, {})",
            audit.strategy.name()
        ));
        for (version, report) in &audit.uploads {
            lines.push(format!(
                "  version {version} would be refused today: {}",
                report.summary()
            ));
            let compared = compared_versions(audit, *version);
            lines.extend(
                findings(report, &compared)
                    .into_iter()
                    .map(|l| format!("    {l}")),
            );
        }
        if let Some(report) = &audit.consumer {
            lines.push(format!(
                "  a consumer with the latest schema is refused: {}",
                report.summary()
            ));
            lines.extend(
                findings(report, &audit.versions)
                    .into_iter()
                    .map(|l| format!("    {l}")),
            );
        }
        lines.extend(
            audit
                .unreadable
                .iter()
                .map(|u| format!("  cannot check {u}")),
        );
    }
    lines.extend(skipped.iter().map(|s| format!("skipped   {s}")));
    let conflicting = audits.iter().filter(|a| a.conflicts()).count();
    let topics = match audits.len() {
        1 => "1 topic".to_owned(),
        n => format!("{n} topics"),
    };
    lines.push(format!(
        "{topics} with PROTOBUF_NATIVE schemas at {}, {conflicting} with a history the profile {} refuses",
        printable(&args.admin_url),
        args.profile.name
    ));
    lines.join("\n")
}

fn json_report(args: &AuditArgs, audits: &[TopicAudit], skipped: &[String]) -> String {
    let topics: Vec<Value> = audits
        .iter()
        .map(|audit| {
            json!({
                "topic": audit.topic,
                "strategy": audit.strategy.name(),
                "versions": audit.versions,
                "conflicts": audit.conflicts(),
                "refusedUploads": audit.uploads.iter().map(|(version, report)| json!({
                    "version": version,
                    "comparedWith": compared_versions(audit, *version),
                    "report": report,
                })).collect::<Vec<_>>(),
                "consumerWithLatest": audit.consumer.as_ref().map(|report| json!({
                    "refused": true,
                    "report": report,
                })),
                "unreadable": audit.unreadable,
            })
        })
        .collect();
    safe::json(
        serde_json::to_string_pretty(&json!({
            "reportVersion": 1,
            "adminUrl": args.admin_url,
            "profile": args.profile.name,
            "failed": audits.iter().any(|a| a.conflicts()),
            "topics": topics,
            "skipped": skipped,
        }))
        .expect("JSON renders"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use protocompat::{Direction, Example, Finding, NamedSchema, Outcome, RuleId, SchemaRef};

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: AuditArgs,
    }

    /// A topic whose version 2 is refused, with an example holding an escape sequence.
    fn conflicting() -> TopicAudit {
        let finding = Finding {
            rule: RuleId::FieldNumberChanged,
            severity: protocompat::Severity::Failure,
            strategy: "FULL".to_owned(),
            direction: Some(Direction::ExistingWritesNewReads),
            existing: Some(NamedSchema::new(SchemaRef::Existing(0), "bab686181224")),
            path: "shop.Order.note".to_owned(),
            field_number: Some(4),
            writer: "number 4".to_owned(),
            reader: "number 5".to_owned(),
            example: Some(Example {
                writer: "note: \"\u{1b}[2J\"".to_owned(),
                bytes: "22025b4a".to_owned(),
                reader: "keeps shop.Order.note only as unknown field 4".to_owned(),
                outcome: Outcome::Unknown {
                    path: "shop.Order.note".to_owned(),
                    number: 4,
                },
            }),
            no_example: None,
        };
        let report = Report {
            compatible: false,
            strategy: "FULL".to_owned(),
            profile: "pip246",
            existing_schemas: 1,
            new_schema_sha256: "d5675e93d237".into(),
            total_failures: 1,
            total_warnings: 0,
            failures: vec![finding],
            warnings: Vec::new(),
        };
        TopicAudit {
            topic: "persistent://t/ns/orders".to_owned(),
            strategy: Strategy::Full,
            versions: vec![1, 2],
            uploads: vec![(2, report)],
            consumer: None,
            unreadable: Vec::new(),
        }
    }

    #[test]
    fn the_text_shows_each_example_under_its_finding() {
        let args = Command::parse_from(["audit", "--admin-url", "http://broker:8080"]).args;
        let out = text(&args, &[conflicting()], &[]);
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[2].starts_with("    FIELD_NUMBER_CHANGED shop.Order.note (field 4)"),
            "{out}"
        );
        assert_eq!(
            lines[3..6],
            [
                "        writer: { note: \"\\u{1b}[2J\" }",
                "        bytes:  22 02 5b 4a",
                "        reader: keeps shop.Order.note only as unknown field 4",
            ],
            "{out}"
        );
    }

    #[test]
    fn the_json_carries_each_example() {
        let args = Command::parse_from(["audit", "--admin-url", "http://broker:8080"]).args;
        let out = json_report(&args, &[conflicting()], &[]);
        assert!(!out.contains('\u{1b}'), "{out}");
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let finding = &json["topics"][0]["refusedUploads"][0]["report"]["failures"][0];
        assert_eq!(
            finding["example"],
            serde_json::json!({
                "writer": "note: \"\u{1b}[2J\"",
                "bytes": "22025b4a",
                "reader": "keeps shop.Order.note only as unknown field 4",
                "outcome": {"kind": "unknown", "path": "shop.Order.note", "number": 4},
            }),
            "{out}"
        );
    }

    /// A terminal that keeps what is written to it.
    #[derive(Debug, Default, Clone)]
    struct Screen(std::sync::Arc<std::sync::Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.write_str("\r")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// One of three namespaces listed, then two topics audited, one with conflicts, then the
    /// line cleared as `run` clears it: what was drawn at each step.
    fn drawn(stderr_is_terminal: bool) -> (String, String) {
        let screen = Screen::default();
        let term = screen.clone();
        let progress = Progress::new(progress_target(stderr_is_terminal, || {
            ProgressDrawTarget::term_like(Box::new(term))
        }));
        let shown = || std::mem::take(&mut *screen.0.lock().unwrap());
        progress.listing(3);
        progress.listed();
        // Redraws are rate-limited: the last state is drawn on demand.
        progress.bar.tick();
        let listing = shown();
        progress.auditing(2);
        progress.audited(true);
        progress.audited(false);
        progress.bar.tick();
        let auditing = shown();
        progress.bar.finish_and_clear();
        (listing, auditing)
    }

    #[test]
    fn the_progress_line_is_drawn_on_a_terminal_only() {
        let (listing, auditing) = drawn(true);
        assert!(
            listing.contains("listed the topics of 1/3 namespaces"),
            "{listing:?}"
        );
        assert!(
            auditing.contains("audited 2/2 topics, 1 conflict"),
            "{auditing:?}"
        );
        // Each line drawn is one of the phase's own, with its counts.
        for line in auditing
            .split('\r')
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            assert!(
                [
                    "audited 0/2 topics, 0 conflicts",
                    "audited 1/2 topics, 1 conflict",
                    "audited 2/2 topics, 1 conflict"
                ]
                .contains(&line),
                "{auditing:?}"
            );
        }
        assert_eq!(drawn(false), (String::new(), String::new()));
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
