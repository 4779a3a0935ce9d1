//! Schema evolution against real data. From the input (`arbitrary`): a random proto2 or proto3
//! schema (`protocompat_testkit::evolve`, in `rust/testkit`), evolved by random steps into a
//! second one; both are checked by the engine in each direction under `pip246` and
//! `conservative`; then random messages written with one schema (`evolve/gen.rs`) are encoded
//! and read with the other as protobuf-java would (`evolve/wire.rs`), and every value of a
//! field the two share by number is compared (`evolve/compare.rs`). It fails when
//! - `conservative` passes a direction in which a value was misread: an engine bug (UNSOUND);
//! - a value was misread and `pip246` reports neither a failure nor a warning for that
//!   direction (SILENT, docs/rules.md#no-silent-data-loss);
//! - a finding's example contradicts the schemas (`evolve/examples.rs`);
//! - when no step applied (a schema against itself): any finding, or any misread (which would
//!   be a fault of this target's model of protobuf-java, not of the engine).
//!
//! `EVOLVE_COUNT=silent` (or `silent,unsound`, `all`) counts those instead of failing, and
//! prints the first few cases of each kind; every 15 seconds and at exit the figures go to
//! stderr (`evolve: inputs=…`), with the counted kinds.
#![no_main]

mod compare;
mod examples;
mod gen;
mod wire;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use prost::Message;
use prost_reflect::DescriptorPool;
use prost_types::FileDescriptorSet;
use protocompat::{Bounds, Checker, Report, Strategy, CONSERVATIVE, PIP246};
use protocompat_testkit::evolve::{Schema, Step, Syntax, FILE, ROOT};
use protocompat_testkit::schema_of_bytes;
use protocompat_testkit::tail::tail;

use compare::Misread;
use wire::Pools;

/// One schema of the pair, in every form the checks need.
struct Side {
    ir: Schema,
    json: Vec<u8>,
    pool: DescriptorPool,
    raw: DescriptorPool,
}

impl Side {
    fn new(ir: Schema) -> Option<Side> {
        let file = ir.fdp();
        let set = FileDescriptorSet {
            file: vec![file.clone()],
        }
        .encode_to_vec();
        let pool = DescriptorPool::decode(set.as_slice()).ok()?;
        let raw = wire::raw_pool(&file).ok()?;
        let json = schema_of_bytes(set, ROOT, FILE);
        Some(Side {
            ir,
            json,
            pool,
            raw,
        })
    }

    fn pools(&self) -> Pools<'_> {
        Pools {
            pool: &self.pool,
            raw: &self.raw,
            proto3: self.ir.syntax == Syntax::Proto3,
        }
    }
}

#[derive(Default)]
struct Stats {
    inputs: AtomicU64,
    schemas: AtomicU64,
    invalid: AtomicU64,
    refused: AtomicU64,
    directions: AtomicU64,
    messages: AtomicU64,
    misread_messages: AtomicU64,
    misread_directions: AtomicU64,
    conservative_flagged: AtomicU64,
    pip_failed: AtomicU64,
    pip_warned_only: AtomicU64,
    silent: AtomicU64,
    unsound: AtomicU64,
    examples: AtomicU64,
}

static STATS: OnceLock<Stats> = OnceLock::new();

fn stats() -> &'static Stats {
    STATS.get_or_init(Stats::default)
}

/// Counted kinds (key: what was misread and the evolution steps taken) with how often.
static KINDS: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());
static LAST_PRINT: Mutex<Option<Instant>> = Mutex::new(None);

fn counting(what: &str) -> bool {
    static MODE: OnceLock<String> = OnceLock::new();
    let mode = MODE.get_or_init(|| std::env::var("EVOLVE_COUNT").unwrap_or_default());
    mode == "all" || mode.split(',').any(|m| m == what)
}

fn print_stats() {
    let s = stats();
    let g = |a: &AtomicU64| a.load(Relaxed);
    eprintln!(
        "evolve: inputs={} schemas_evolved={} invalid_evolutions={} refused_by_engine={} directions={} messages={} misread_messages={} misread_directions={} conservative_flagged={} pip246_failed={} pip246_warned_only={} silent={} unsound={} examples_checked={}",
        g(&s.inputs), g(&s.schemas), g(&s.invalid), g(&s.refused), g(&s.directions), g(&s.messages),
        g(&s.misread_messages), g(&s.misread_directions), g(&s.conservative_flagged), g(&s.pip_failed),
        g(&s.pip_warned_only), g(&s.silent), g(&s.unsound), g(&s.examples)
    );
    for (kind, n) in KINDS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        eprintln!("evolve:   {n:>8}  {kind}");
    }
}

fn maybe_print_stats() {
    let mut last = LAST_PRINT.lock().unwrap_or_else(|e| e.into_inner());
    let now = Instant::now();
    match *last {
        None => *last = Some(now),
        Some(t) if now.duration_since(t).as_secs() >= 15 => {
            *last = Some(now);
            drop(last);
            print_stats();
        }
        _ => {}
    }
}

fn checker(profile: usize) -> &'static Checker {
    static CHECKERS: OnceLock<[Checker; 2]> = OnceLock::new();
    &CHECKERS.get_or_init(|| {
        [&PIP246, &CONSERVATIVE].map(|p| {
            Checker::new(Bounds::NONE)
                .with_profile(p)
                .with_examples(true)
        })
    })[profile]
}

fn findings(report: &Report) -> String {
    let mut out = format!(
        "compatible={} failures={} warnings={}",
        report.compatible, report.total_failures, report.total_warnings
    );
    for f in report.failures.iter().chain(&report.warnings) {
        out.push_str(&format!("\n    {:?} {}", f.severity, f.render()));
    }
    out
}

/// A direction's first misread message.
struct Case {
    text: String,
    bytes: Vec<u8>,
    misreads: Vec<Misread>,
}

#[allow(clippy::too_many_arguments)]
fn describe(
    what: &str,
    direction: &str,
    steps: &[Step],
    case: &Case,
    pip: &Report,
    conservative: &Report,
    old: &Side,
    new: &Side,
) -> String {
    let misreads: Vec<String> = case
        .misreads
        .iter()
        .map(|m| format!("  {} [{}]: {}", m.path, m.kind, m.what))
        .collect();
    format!(
        "evolve: {what} ({direction})\nsteps: {steps:?}\nmisread:\n{}\nwriter message: {}\nbytes: {}\npip246: {}\nconservative: {}\n--- old schema ---\n{}--- new schema ---\n{}",
        misreads.join("\n"),
        case.text,
        case.bytes.iter().map(|b| format!("{b:02x}")).collect::<String>(),
        findings(pip),
        findings(conservative),
        old.ir.proto_text(),
        new.ir.proto_text()
    )
}

/// Counts `what` under `key`, printing the first three cases of each key.
fn count(what: &str, key: String, report: impl FnOnce() -> String) {
    let mut kinds = KINDS.lock().unwrap_or_else(|e| e.into_inner());
    let n = kinds.entry(format!("{what}: {key}")).or_insert(0);
    *n += 1;
    if *n <= 3 {
        eprintln!("{}\n", report());
    }
}

fn run(data: &[u8]) -> arbitrary::Result<()> {
    let s = stats();
    s.inputs.fetch_add(1, Relaxed);
    // The input, then a fixed pseudo-random tail: a short input still gets rich schemas and
    // messages, and the same input always means the same case (so crashes minimize).
    let mut input = data.to_vec();
    input.extend_from_slice(tail());
    let mut u = Unstructured::new(&input);
    let old = Schema::generate(&mut u)?;
    let (new, steps) = old.evolve(&mut u)?;
    let (Some(old), Some(new)) = (Side::new(old), Side::new(new)) else {
        s.invalid.fetch_add(1, Relaxed);
        return Ok(());
    };
    s.schemas.fetch_add(1, Relaxed);
    let dump = std::env::var_os("EVOLVE_DUMP").is_some();
    if dump {
        eprintln!(
            "steps: {steps:?}\n--- old ---\n{}--- new ---\n{}",
            old.ir.proto_text(),
            new.ir.proto_text()
        );
    }

    // reports[profile][direction]: profile 0 pip246, 1 conservative; direction 0 is BACKWARD
    // (old writes, new reads), 1 FORWARD (new writes, old reads).
    let mut reports: Vec<Vec<Report>> = vec![];
    for profile in 0..2 {
        let mut row = vec![];
        for strategy in [Strategy::Backward, Strategy::Forward] {
            match checker(profile).check(&[&old.json], &new.json, strategy) {
                Ok(report) => row.push(report),
                Err(e) => {
                    s.refused.fetch_add(1, Relaxed);
                    if counting("refused") {
                        count("refused", e.to_string(), || {
                            format!("{e}\n{}---\n{}", old.ir.proto_text(), new.ir.proto_text())
                        });
                    }
                    return Ok(());
                }
            }
        }
        reports.push(row);
    }

    // A schema checked against itself: nothing to find, in any direction or profile.
    if steps.is_empty() {
        for report in reports.iter().flatten() {
            assert!(
                report.compatible && report.total_warnings == 0,
                "evolve: IDENTITY: a schema against itself has findings:\n{}\n{}",
                findings(report),
                old.ir.proto_text()
            );
        }
    }

    let mut kinds: Vec<Step> = steps.clone();
    kinds.sort();
    kinds.dedup();
    for (d, (writer, reader, direction)) in [
        (&old, &new, "old writes, new reads"),
        (&new, &old, "new writes, old reads"),
    ]
    .into_iter()
    .enumerate()
    {
        s.directions.fetch_add(1, Relaxed);
        let root = writer.raw.get_message_by_name(ROOT).unwrap();
        let mut first: Option<Case> = None;
        for _ in 0..u.int_in_range(2..=6)? {
            let message = gen::message(&mut u, &root, &writer.pools(), 0)?;
            let bytes = wire::encode(&message);
            s.messages.fetch_add(1, Relaxed);
            if dump {
                eprintln!(
                    "{direction}: {} = {}",
                    message.to_text_format(),
                    bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
                );
            }
            let mut misreads = vec![];
            match wire::read(&bytes, &reader.pools(), ROOT) {
                Err(e) => misreads.push(Misread {
                    path: ROOT.into(),
                    kind: match e {
                        wire::ReadError::Parse(_) => "parse failure".into(),
                        wire::ReadError::MissingRequired(_) => "missing required".into(),
                    },
                    what: e.to_string(),
                }),
                Ok(read) => {
                    for lost in &read.lost {
                        misreads.push(Misread {
                            path: lost.path.clone(),
                            kind: format!("unknown: {}", lost.why),
                            what: format!("field {} kept as unknown", lost.number),
                        });
                    }
                    compare::compare(&message, &read.message, ROOT, &mut misreads);
                }
            }
            if !misreads.is_empty() {
                s.misread_messages.fetch_add(1, Relaxed);
                if first.is_none() {
                    first = Some(Case {
                        text: message.to_text_format(),
                        bytes,
                        misreads,
                    });
                }
            }
        }
        let (pip, conservative) = (&reports[0][d], &reports[1][d]);
        let Some(case) = first else { continue };
        s.misread_directions.fetch_add(1, Relaxed);
        // The same schema on both sides reads back everything: else the model is wrong.
        if steps.is_empty() {
            let report = || {
                describe(
                    "ORACLE: a value misread between a schema and itself",
                    direction,
                    &steps,
                    &case,
                    &reports[0][d],
                    &reports[1][d],
                    &old,
                    &new,
                )
            };
            if counting("oracle") {
                count("oracle", case.misreads[0].kind.clone(), report);
                continue;
            }
            print_stats();
            panic!("{}", report());
        }
        let misread_kind = case.misreads[0].kind.clone();
        let key = format!("{misread_kind} after {kinds:?}");
        if conservative.compatible {
            s.unsound.fetch_add(1, Relaxed);
            let report = || {
                describe(
                    "UNSOUND: conservative passes a direction in which a value was misread",
                    direction,
                    &steps,
                    &case,
                    pip,
                    conservative,
                    &old,
                    &new,
                )
            };
            if counting("unsound") {
                count("unsound", key.clone(), report);
            } else {
                print_stats();
                panic!("{}", report());
            }
        } else {
            s.conservative_flagged.fetch_add(1, Relaxed);
        }
        if pip.total_failures > 0 {
            s.pip_failed.fetch_add(1, Relaxed);
        } else if pip.total_warnings > 0 {
            s.pip_warned_only.fetch_add(1, Relaxed);
        } else {
            // docs/rules.md#no-silent-data-loss: pip246 must at least warn.
            s.silent.fetch_add(1, Relaxed);
            let report = || {
                describe(
                    "SILENT: pip246 reports nothing for a direction in which a value was misread",
                    direction,
                    &steps,
                    &case,
                    pip,
                    conservative,
                    &old,
                    &new,
                )
            };
            if counting("silent") {
                count("silent", key, report);
            } else {
                print_stats();
                panic!("{}", report());
            }
        }
    }

    // The engine's examples, when it gives them.
    for (d, (writer, reader)) in [(&old, &new), (&new, &old)].into_iter().enumerate() {
        for report in [&reports[0][d], &reports[1][d]] {
            for finding in report.failures.iter().chain(&report.warnings) {
                let Some(example) = &finding.example else {
                    continue;
                };
                s.examples.fetch_add(1, Relaxed);
                if let Err(why) = examples::check(example, &writer.pools(), &reader.pools()) {
                    let report = || {
                        format!(
                            "evolve: EXAMPLE of {} contradicts the schemas: {why}\nexample: {example:?}\n--- old schema ---\n{}--- new schema ---\n{}",
                            finding.render(),
                            old.ir.proto_text(),
                            new.ir.proto_text()
                        )
                    };
                    if counting("example") {
                        count("example", format!("{}: {why}", finding.rule), report);
                    } else {
                        print_stats();
                        panic!("{}", report());
                    }
                }
            }
        }
    }
    Ok(())
}

extern "C" {
    fn atexit(callback: extern "C" fn()) -> i32;
}

extern "C" fn print_stats_at_exit() {
    print_stats();
}

fuzz_target!(|data: &[u8]| {
    // The figures once more when libFuzzer exits (its time is up, or a crash).
    static AT_EXIT: OnceLock<()> = OnceLock::new();
    AT_EXIT.get_or_init(|| unsafe {
        atexit(print_stats_at_exit);
    });
    let _ = run(data);
    maybe_print_stats();
});
