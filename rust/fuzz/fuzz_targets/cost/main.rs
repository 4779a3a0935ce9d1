//! Fuzzing for cost (issue 27): large, structured schemas built from the input, checked as a
//! broker checks an upload, each check held to CPU per charged work unit.
//!
//! From the input (`arbitrary`, `cost/plan.rs`): a syntax (proto2, proto3, Editions 2023,
//! 2024 or 2026, with file-wide features), a package up to 510 parts deep, type names relative or
//! fully qualified, and up to eight parts of a root message, each in a count the input scales
//! by up to 1,000 within `Limits::DEFAULT`: scalar fields with labels, packing, JSON names,
//! long names and defaults of every type (typed or thousands of characters long); enums of
//! many values, aliased, open or closed, and fields typed with them (with defaults); oneofs of
//! many members; maps of every key and value kind; messages held by the root (one of them
//! large, recursive, delimited); messages nested up to 95 deep; extension ranges and
//! extensions; reserved ranges and names; fields typed from an imported file; services. Then
//! a history: one to four versions, or 40 to 2,560 (the first eight large or tiny as the input
//! says, the rest tiny), every odd version changing each part as the input says (retyped,
//! relabeled, defaults changed, renamed, renumbered, half dropped, features flipped, types
//! shared) so that every pair has something to find (`cost/build.rs`, `cost/parts.rs`,
//! `cost/declared.rs`).
//!
//! Each input is checked under both profiles, FULL against the last version and
//! FULL_TRANSITIVE against all of them, with nothing cached (as a broker just restarted
//! checks an upload), and with examples when the input says so (as the CLI checks). Each check
//! fails the run when it panics inside the engine, when a backstop under the work budget
//! (`limit.maxCheckCpuMillis`, `limit.maxCheckMemoryBytes`) had to stop it, or when it used
//! more than 20 ns of CPU per charged work unit over at least 20 ms (`cost/measure.rs` says
//! why those bounds). Run it with `-timeout` and `-rss_limit_mb` (`rust/fuzz/run.sh` does) so
//! that a slow or fat input is a finding too.
#![no_main]

mod budget;
mod build;
mod declared;
mod desc;
mod measure;
mod parts;
mod plan;

use std::sync::OnceLock;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use protocompat::budget::MeteredAllocator;
use protocompat::{Bounds, Checker, Limits, Strategy, PROFILES};

use plan::Plan;

/// The library's metering allocator, as the JNI library and the CLI install it: the memory
/// budget then measures, and the figures say how much heap each check held.
#[global_allocator]
static ALLOCATOR: MeteredAllocator<std::alloc::System> = MeteredAllocator(std::alloc::System);

/// The default limits, but for the CPU backstop (`limit.maxCheckCpuMillis`), which is set for
/// an engine built without coverage instrumentation: this build runs it 2 to 4 times slower
/// (the counters on every edge), so the backstop is 4 times the default here, to stop the same
/// checks it would stop in a broker.
fn limits() -> Limits {
    Limits {
        max_check_cpu_millis: Limits::DEFAULT.max_check_cpu_millis * 4,
        ..Limits::DEFAULT
    }
}

/// A checker per profile, with and without examples, that caches nothing.
fn checker(profile: usize, examples: bool) -> &'static Checker {
    static CHECKERS: OnceLock<Vec<Checker>> = OnceLock::new();
    let checkers = CHECKERS.get_or_init(|| {
        PROFILES
            .iter()
            .flat_map(|p| {
                [false, true].map(|e| {
                    Checker::with_limits(Bounds::NONE, limits())
                        .with_profile(p)
                        .with_examples(e)
                })
            })
            .collect()
    });
    &checkers[profile * 2 + usize::from(examples)]
}

/// `COST_VERBOSE=1`: every check's figures and plan on stderr, to look into one input.
fn verbose() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("COST_VERBOSE").is_some_and(|v| v == "1"))
}

fn run(data: &[u8]) -> arbitrary::Result<()> {
    let plan = Plan::read(&mut Unstructured::new(data))?;
    let existing: Vec<Vec<u8>> = (0..plan.existing)
        .map(|v| build::version(&plan, v, v >= 8 || plan.large & (1 << v) == 0))
        .collect();
    let new = build::version(&plan, plan.existing, plan.new_tiny);
    let largest = existing
        .iter()
        .chain([&new])
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    measure::input(existing.len() + 1, largest);
    let all: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
    let last = &all[all.len() - 1..];
    for (p, profile) in PROFILES.iter().enumerate() {
        let checker = checker(p, plan.examples);
        let mut checks = vec![(Strategy::Full, last)];
        if all.len() > 1 {
            checks.push((Strategy::FullTransitive, &all[..]));
        }
        for (strategy, against) in checks {
            let m = measure::check(checker, against, &new, strategy);
            let what = || {
                format!(
                    "{strategy:?} under {} against {} version(s), examples {}, new schema {} bytes, largest {largest} bytes: {}\nplan: {plan:?}",
                    profile.name,
                    against.len(),
                    plan.examples,
                    new.len(),
                    m.outcome()
                )
            };
            if verbose() {
                eprintln!(
                    "cost: {:.1} ms, {} units, {:.2} ns per unit, {:.0} MB peak: {}",
                    m.cpu_ns / 1e6,
                    m.units,
                    m.cpu_ns / m.units.max(1) as f64,
                    m.peak_bytes as f64 / 1e6,
                    what()
                );
            }
            measure::record(&m, data, what);
            m.judge(what);
        }
    }
    Ok(())
}

extern "C" {
    fn atexit(callback: extern "C" fn()) -> i32;
}

extern "C" fn print_at_exit() {
    measure::print();
}

fuzz_target!(|data: &[u8]| {
    static AT_EXIT: OnceLock<()> = OnceLock::new();
    AT_EXIT.get_or_init(|| unsafe {
        atexit(print_at_exit);
    });
    static INPUTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let _ = run(data);
    if INPUTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 50 == 49 {
        measure::print();
    }
});
