//! The CPU the costliest inputs known inside the default limits take, per check and per upload:
//! what one schema upload can cost a broker (RELIABILITY.md, "Worst inputs inside the default
//! limits"). Prints figures; asserts nothing.
//!
//! `cargo run --release -p protocompat --example worst_inputs [SHAPE...]`: each shape of
//! `tests/support/shapes.rs` (all without arguments), under both profiles: one cold FULL check of
//! a new variant against one existing variant, as a broker makes it for an upload. The CPU is
//! this thread's (`CLOCK_THREAD_CPUTIME_ID`), so other work on the machine does not count.
//!
//! `… --example worst_inputs cold-history [SHAPE...]`: for each shape, the longest
//! FULL_TRANSITIVE history the work budget (`limit.maxCheckWork`) lets through, checked by a
//! checker with nothing cached, as a broker just restarted checks an upload: the costliest
//! upload there is.
//!
//! `… --example worst_inputs decode`: one decode of each shape, its CPU beside the work units
//! it is charged.
//!
//! `… --example worst_inputs history SHAPE|large-MB VERSIONS`: uploads 1 to VERSIONS, each
//! checked FULL_TRANSITIVE against every earlier version by one checker with the default cache
//! bounds, as a broker keeps one for its lifetime; prints the CPU of each upload. `large-16`
//! is a plain schema of about 16 MB (long field names): a history of them outgrows the caches.

use std::time::Duration;

use protocompat::{Bounds, Checker, Profile, Strategy, PROFILES};

#[path = "../tests/support/shapes.rs"]
mod shapes;

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

/// The run of `f` that took the least CPU of three: the first also pays for growing the
/// allocator's heap.
fn least_of_three<R>(mut f: impl FnMut() -> R) -> (R, Duration) {
    let mut runs: Vec<_> = (0..3).map(|_| timed(&mut f)).collect();
    runs.sort_by_key(|(_, cpu)| *cpu);
    runs.swap_remove(0)
}

fn outcome(result: &Result<protocompat::Report, protocompat::CheckError>) -> String {
    match result {
        Ok(report) => protocompat::text::cut(&report.summary(), 100),
        Err(e) => protocompat::text::cut(&e.to_string(), 160),
    }
}

fn one_check(shape: &shapes::Shape, profile: &'static Profile) {
    let (old, new) = ((shape.build)(0), (shape.build)(1));
    let checker = Checker::new(Bounds::NONE).with_profile(profile);
    let (result, cpu) = least_of_three(|| checker.check(&[&old], &new, Strategy::Full));
    println!(
        "| {} | {} | {:.2} MB | {:.0} ms | {:.0} MB | {} |",
        shape.name,
        profile.name,
        new.len() as f64 / 1e6,
        cpu.as_secs_f64() * 1e3,
        checker.stats().last_check_peak_bytes as f64 / 1e6,
        outcome(&result)
    );
}

/// One decode of each shape: its CPU beside the work units it is charged, to hold the units'
/// weights to what decoding costs (a unit should be about a nanosecond, or more).
fn decodes() {
    println!("| Shape | Schema data | CPU per decode | Work units | ns per unit |");
    println!("|---|---:|---:|---:|---:|");
    let bench = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/schemas");
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
    let shaped = shapes::SHAPES.iter().map(|s| (s.name, (s.build)(0)));
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
            let shape = shapes::SHAPES
                .iter()
                .find(|s| s.name == which)
                .unwrap_or_else(|| panic!("no shape {which}"));
            Box::new(shape.build)
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
        let (result, cpu) =
            timed(|| checker.check(&existing, &all[upload], Strategy::FullTransitive));
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

/// The costliest upload a broker can be asked to check: right after a restart (nothing
/// cached), FULL_TRANSITIVE against the longest history of `shape` the work budget lets
/// through, every version decoded.
fn cold_history(shape: &shapes::Shape) {
    let versions = |n: usize| (0..=n).map(shape.build).collect::<Vec<_>>();
    // Variants may differ in size (odd and even ones, for some shapes): the smaller decode
    // gives the upper bound. A shape refused as bad input cannot be in a history.
    let mut units = u64::MAX;
    for v in 0..2 {
        match protocompat::Schema::decode(&(shape.build)(v)) {
            Ok(decoded) => units = units.min(decoded.work()),
            Err(_) => return,
        }
    }
    let budget = protocompat::Limits::DEFAULT.max_check_work as u64;
    // The longest history that passes: the decodes alone give an upper bound.
    let mut n = ((budget / units.max(1)) as usize).min(2_000);
    loop {
        let all = versions(n);
        let existing: Vec<&[u8]> = all[..n].iter().map(Vec::as_slice).collect();
        let checker = Checker::new(Bounds::DEFAULT);
        let (result, cpu) = timed(|| checker.check(&existing, &all[n], Strategy::FullTransitive));
        if result.is_ok() || n <= 1 {
            println!(
                "| {} | {} versions, {:.0} MB | {:.2} s | {} |",
                shape.name,
                n + 1,
                all.iter().map(Vec::len).sum::<usize>() as f64 / 1e6,
                cpu.as_secs_f64(),
                outcome(&result)
            );
            return;
        }
        n = n * 9 / 10;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("decode") {
        decodes();
        return;
    }
    if args.first().map(String::as_str) == Some("cold-history") {
        println!("| Shape | Longest history allowed | CPU, cold | Answer |");
        println!("|---|---:|---:|---|");
        for shape in shapes::SHAPES {
            if args.len() == 1 || args[1..].iter().any(|a| a == shape.name) {
                cold_history(shape);
            }
        }
        return;
    }
    if args.first().map(String::as_str) == Some("history") {
        let which = args.get(1).map(String::as_str).unwrap_or("large-16");
        let versions = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(8);
        history(which, versions);
        return;
    }
    println!("| Shape | Profile | Schema data | CPU per check | Peak heap | Answer |");
    println!("|---|---|---:|---:|---:|---|");
    for shape in shapes::SHAPES {
        if !args.is_empty() && !args.iter().any(|a| a == shape.name) {
            continue;
        }
        for profile in PROFILES {
            one_check(shape, profile);
        }
    }
}
