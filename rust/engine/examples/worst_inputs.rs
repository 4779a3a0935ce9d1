//! The CPU the costliest inputs known inside the default limits take, per check and per upload,
//! beside the work units each check is charged: what one schema upload can cost a broker
//! (RELIABILITY.md, "Worst inputs inside the default limits"). Prints figures; asserts nothing.
//!
//! `cargo run --release -p protocompat --example worst_inputs [SHAPE...]`: each shape of
//! `rust/testkit/src/shapes/` (all without arguments), under both profiles: one cold check of the
//! shape's new schema against its history (one version, FULL; more, FULL_TRANSITIVE), as a
//! broker just restarted makes it for an upload, and the same check with examples, as the CLI
//! makes it. The CPU is this thread's (`CLOCK_THREAD_CPUTIME_ID`), so other work on the machine
//! counts little. Then the spread of nanoseconds per charged unit over every row: a loop that
//! charges nothing shows up as a row far above the median.
//!
//! `… --example worst_inputs cold-history [SHAPE...]`: for each shape and profile, the longest
//! history the work budget (`limit.maxCheckWork`) lets through, checked by a checker with
//! nothing cached: the costliest upload there is.
//!
//! `… --example worst_inputs decode`: one decode of each shape, its CPU beside the work units
//! it is charged.
//!
//! `… --example worst_inputs history SHAPE|large-MB VERSIONS`: uploads 1 to VERSIONS, each
//! checked FULL_TRANSITIVE against every earlier version by one checker with the default cache
//! bounds, as a broker keeps one for its lifetime; prints the CPU of each upload. `large-16`
//! is a plain schema of about 16 MB (long field names): a history of them outgrows the caches.
//!
//! `… --example worst_inputs loop SHAPE PROFILE ROUNDS`: the shape's check, cold, ROUNDS times,
//! for a profiler (`perf record`).
//!
//! `… --example worst_inputs write DIR [SHAPE...]`: writes each shape's check to `DIR/SHAPE/`
//! as files (`existing-0.json` …, `history.json`, `new.json`), for the measurements through JNI
//! (`bench/java/…/WorstInputs.java`) and the CLI (`bench/worst-inputs-cli.sh`).

use std::time::Duration;

use protocompat::{Bounds, CheckError, Checker, Profile, Report, PROFILES};

use protocompat_testkit::shapes::{self, Shape};

#[global_allocator]
static ALLOCATOR: protocompat::budget::MeteredAllocator<mimalloc::MiMalloc> =
    protocompat::budget::MeteredAllocator(mimalloc::MiMalloc);

/// The CPU this thread has used.
fn thread_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `now` is.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

fn timed<R>(f: impl FnOnce() -> R) -> (R, Duration) {
    let started = thread_cpu();
    let result = f();
    (result, thread_cpu() - started)
}

/// The run of `f` that took the least CPU of three (`WORST_INPUTS_RUNS` to change): the first
/// also pays for growing the allocator's heap.
fn least_of_three<R>(mut f: impl FnMut() -> R) -> (R, Duration) {
    let runs = std::env::var("WORST_INPUTS_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3usize)
        .max(1);
    let mut runs: Vec<_> = (0..runs).map(|_| timed(&mut f)).collect();
    runs.sort_by_key(|(_, cpu)| *cpu);
    runs.swap_remove(0)
}

fn outcome(result: &Result<Report, CheckError>) -> String {
    match result {
        Ok(report) => protocompat::text::cut(&report.summary(), 100),
        Err(e) => protocompat::text::cut(&e.to_string(), 160),
    }
}

/// One row of the table: what a check cost and what it was charged.
struct Row {
    name: String,
    cpu: Duration,
    units: u64,
}

impl Row {
    fn ns_per_unit(&self) -> f64 {
        self.cpu.as_nanos() as f64 / self.units.max(1) as f64
    }
}

fn one_check(shape: &Shape, profile: &'static Profile, rows: &mut Vec<Row>) {
    let existing = shape.existing(shape.history);
    let new = shape.proposed(shape.history);
    let existing: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
    let strategy = shape.strategy(shape.history);
    let checker = Checker::new(Bounds::NONE).with_profile(profile);
    let (result, cpu) = least_of_three(|| checker.check(&existing, &new, strategy));
    let stats = checker.stats();
    let with_examples = Checker::new(Bounds::NONE)
        .with_profile(profile)
        .with_examples(true);
    // `WORST_INPUTS_EXAMPLES=0` leaves the checks with examples out (they can take long on an
    // engine whose example search is unbounded).
    let examples_cpu = if std::env::var("WORST_INPUTS_EXAMPLES").as_deref() == Ok("0") {
        Duration::ZERO
    } else {
        least_of_three(|| with_examples.check(&existing, &new, strategy)).1
    };
    let row = Row {
        name: format!("{} ({})", shape.name, profile.name),
        cpu,
        units: stats.last_check_work,
    };
    println!(
        "| {} | {} | {:.2} MB | {} | {:.0} ms | {:.0} ms | {} | {:.2} | {:.0} MB | {} |",
        shape.name,
        profile.name,
        new.len() as f64 / 1e6,
        existing.len(),
        cpu.as_secs_f64() * 1e3,
        examples_cpu.as_secs_f64() * 1e3,
        row.units,
        row.ns_per_unit(),
        stats.last_check_peak_bytes as f64 / 1e6,
        outcome(&result)
    );
    rows.push(row);
}

/// The spread of nanoseconds per unit over every row: its median, and each row's ratio to it,
/// the largest first.
fn spread(rows: &[Row]) {
    let mut per_unit: Vec<f64> = rows.iter().map(Row::ns_per_unit).collect();
    per_unit.sort_by(f64::total_cmp);
    let median = per_unit[per_unit.len() / 2];
    let mut ratios: Vec<(f64, &Row)> = rows.iter().map(|r| (r.ns_per_unit() / median, r)).collect();
    ratios.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!();
    println!(
        "ns per charged unit over {} rows: median {median:.2}, least {:.2} ({:.2}x the median), most {:.2}",
        rows.len(),
        per_unit[0],
        per_unit[0] / median,
        per_unit[per_unit.len() - 1]
    );
    println!(
        "largest ratio to the median: {:.2}x ({})",
        ratios[0].0, ratios[0].1.name
    );
    for (ratio, row) in ratios.iter().take(5) {
        println!(
            "  {ratio:>6.2}x  {:>8.2} ns/unit  {:>7.0} ms  {}",
            row.ns_per_unit(),
            row.cpu.as_secs_f64() * 1e3,
            row.name
        );
    }
    let slowest = rows.iter().max_by_key(|r| r.cpu).expect("rows");
    println!(
        "most CPU per check: {:.0} ms ({})",
        slowest.cpu.as_secs_f64() * 1e3,
        slowest.name
    );
}

/// One decode of each shape: its CPU beside the work units it is charged, to hold the units'
/// weights to what decoding costs (a unit should be about a nanosecond, or more).
fn decodes() {
    println!("| Shape | Schema data | CPU per decode | Work units | ns per unit |");
    println!("|---|---:|---:|---:|---:|");
    let bench = protocompat_testkit::bench_schemas();
    let normal: Vec<(&str, Vec<u8>)> = ["small", "medium", "large"]
        .iter()
        .map(|size| {
            let mut compiler = protox::Compiler::new([&bench]).expect("bench/schemas");
            compiler.include_imports(true);
            compiler
                .open_file(format!("{size}.proto"))
                .expect("a bench schema");
            let data = protocompat::model::SchemaData {
                descriptor_set: prost::Message::encode_to_vec(&compiler.file_descriptor_set()),
                root_message: "bench.Root".into(),
                root_file: format!("{size}.proto"),
            };
            (*size, data.to_json().into_bytes())
        })
        .collect();
    let shaped = shapes::SHAPES
        .iter()
        .map(|s| (s.name, s.proposed(s.history)));
    for (name, data) in normal.into_iter().chain(shaped) {
        let (decoded, cpu) = least_of_three(|| protocompat::Schema::decode(&data));
        let units = decoded.as_ref().map_or(0, |s| s.work());
        println!(
            "| {} | {:.2} MB | {:.1} ms | {} | {:.2} |",
            name,
            data.len() as f64 / 1e6,
            cpu.as_secs_f64() * 1e3,
            units,
            cpu.as_nanos() as f64 / units.max(1) as f64
        );
    }
}

fn history(which: &str, versions: usize) {
    let build: Box<dyn Fn(usize) -> Vec<u8>> = match which.strip_prefix("large-") {
        Some(mb) => {
            let bytes = mb.parse::<usize>().expect("large-MB") << 20;
            Box::new(move |v| shapes::large_version(bytes, v))
        }
        None => {
            let shape = find(which);
            Box::new(move |v| (shape.build)(v))
        }
    };
    let all: Vec<Vec<u8>> = (0..=versions).map(build).collect();
    let size: usize = all.iter().map(Vec::len).sum();
    println!(
        "FULL_TRANSITIVE history of {which}: {} versions, {:.1} MB of schema data in all",
        versions + 1,
        size as f64 / 1e6
    );
    let checker = Checker::new(Bounds::DEFAULT);
    let mut total = Duration::ZERO;
    for upload in 1..=versions {
        let existing: Vec<&[u8]> = all[..upload].iter().map(Vec::as_slice).collect();
        let (result, cpu) = timed(|| {
            checker.check(
                &existing,
                &all[upload],
                protocompat::Strategy::FullTransitive,
            )
        });
        total += cpu;
        let stats = checker.stats();
        println!(
            "upload {upload:>4} against {upload:>4}: {:>7.0} ms  (caches: {} schemas, {:.0} MB data, {} decoded, {:.0} MB)  {}",
            cpu.as_secs_f64() * 1e3,
            stats.schemas,
            stats.schema_data_bytes as f64 / 1e6,
            stats.decoded,
            stats.decoded_bytes as f64 / 1e6,
            outcome(&result)
        );
    }
    println!("all uploads: {:.1} s of CPU", total.as_secs_f64());
}

/// Longest history searched for: Pulsar keeps every version, and tiny ones cost next to nothing
/// to upload, so the work budget is what bounds it.
const LONGEST_SEARCHED: usize = 100_000;
/// Schema data a searched history may hold, all versions built at once: this machine's memory
/// is the bound here, not the broker's (which holds one version at a time).
const HISTORY_BYTES: usize = 3 << 30;

/// The costliest upload a broker can be asked to check: right after a restart (nothing
/// cached), FULL_TRANSITIVE against the longest history of `shape` the work budget lets
/// through, every version decoded.
fn cold_history(shape: &Shape, profile: &'static Profile) {
    // Variants may differ in size (odd and even ones, for some shapes): their mean decode gives
    // the upper bound, and the memory the versions take another. A shape refused as bad input
    // cannot be in a history.
    let (mut units, mut largest) = (0u64, 0usize);
    for v in 0..2 {
        let data = (shape.build)(v);
        largest = largest.max(data.len());
        match protocompat::Schema::decode(&data) {
            Ok(decoded) => units += decoded.work() / 2,
            Err(_) => return,
        }
    }
    let budget = protocompat::Limits::DEFAULT.max_check_work as u64;
    let by_work = (budget / units.max(1)) as usize;
    let by_memory = HISTORY_BYTES / largest.max(1);
    let mut n = by_work.min(by_memory).clamp(1, LONGEST_SEARCHED);
    loop {
        let existing = shape.existing(n);
        let new = shape.proposed(n);
        let slices: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
        let checker = Checker::new(Bounds::DEFAULT).with_profile(profile);
        let (result, cpu) = timed(|| checker.check(&slices, &new, shape.strategy(n)));
        if result.is_ok() || n <= 1 {
            let units = checker.stats().last_check_work;
            println!(
                "| {} | {} | {} versions, {:.0} MB | {:.2} s | {} | {:.2} | {} |",
                shape.name,
                profile.name,
                n,
                (existing.iter().map(Vec::len).sum::<usize>() + new.len()) as f64 / 1e6,
                cpu.as_secs_f64(),
                units,
                cpu.as_nanos() as f64 / units.max(1) as f64,
                outcome(&result)
            );
            return;
        }
        n = n * 9 / 10;
    }
}

/// Writes each shape's check as files, for the measurements through JNI and the CLI: each
/// existing version as schema data (`existing-N.json`), all of them as the history
/// `pulsar-admin schemas get --all-version` saves (`history.json`), and `new.json`.
fn write(dir: &std::path::Path, wanted: &[String]) {
    use base64::Engine as _;
    for shape in shapes::SHAPES.iter().filter(|s| chosen(s, wanted)) {
        let at = dir.join(shape.name);
        std::fs::create_dir_all(&at).expect("the output directory");
        let existing = shape.existing(shape.history);
        let mut history = Vec::new();
        for (i, version) in existing.iter().enumerate() {
            std::fs::write(at.join(format!("existing-{i}.json")), version).expect("a file");
            history.push(serde_json::json!({
                "version": i,
                "type": "PROTOBUF_NATIVE",
                "schema": base64::engine::general_purpose::STANDARD.encode(version),
            }));
        }
        let history = serde_json::json!({ "getSchemaResponses": history });
        std::fs::write(at.join("history.json"), history.to_string()).expect("a file");
        std::fs::write(at.join("new.json"), shape.proposed(shape.history)).expect("a file");
        println!(
            "{}: {} existing, {}",
            shape.name,
            shape.history,
            at.display()
        );
    }
}

fn find(name: &str) -> &'static Shape {
    shapes::SHAPES
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no shape {name}"))
}

fn chosen(shape: &Shape, wanted: &[String]) -> bool {
    wanted.is_empty() || wanted.iter().any(|a| a == shape.name)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("decode") => decodes(),
        Some("cold-history") => {
            println!("| Shape | Profile | Longest history allowed | CPU, cold | Work units | ns per unit | Answer |");
            println!("|---|---|---:|---:|---:|---:|---|");
            for shape in shapes::SHAPES.iter().filter(|s| chosen(s, &args[1..])) {
                for profile in PROFILES {
                    cold_history(shape, profile);
                }
            }
        }
        Some("history") => {
            let which = args.get(1).map(String::as_str).unwrap_or("large-16");
            let versions = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(8);
            history(which, versions);
        }
        Some("loop") => {
            let shape = find(args.get(1).expect("loop SHAPE PROFILE ROUNDS"));
            let profile =
                Profile::named(args.get(2).map_or("pip246", String::as_str)).expect("a profile");
            let rounds = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(10);
            let existing = shape.existing(shape.history);
            let slices: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
            let new = shape.proposed(shape.history);
            for _ in 0..rounds {
                let checker = Checker::new(Bounds::NONE).with_profile(profile);
                let (result, cpu) =
                    timed(|| checker.check(&slices, &new, shape.strategy(shape.history)));
                println!("{:.0} ms {}", cpu.as_secs_f64() * 1e3, outcome(&result));
            }
        }
        Some("write") => {
            let dir = args.get(1).expect("write DIR [SHAPE...]");
            write(std::path::Path::new(dir), &args[2..]);
        }
        _ => {
            println!("| Shape | Profile | New schema | Existing | CPU per check | With examples | Work units | ns per unit | Peak heap | Answer |");
            println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
            let mut rows = Vec::new();
            for shape in shapes::SHAPES.iter().filter(|s| chosen(s, &args)) {
                for profile in PROFILES {
                    one_check(shape, profile, &mut rows);
                }
            }
            if !rows.is_empty() {
                spread(&rows);
            }
        }
    }
}
