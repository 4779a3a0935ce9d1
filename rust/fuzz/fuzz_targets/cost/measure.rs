//! One check, measured: the CPU its thread used and the work units it was charged
//! (`checker.stats().last_check_work`), held to a bound that finds a loop nobody charged; and
//! the figures of a run (`cost: …` on stderr every 50 inputs and at exit).
//!
//! Timing decides nothing but a failure: the comparisons of CPU times are done in floating
//! point, which the coverage instrumentation does not trace, and nothing that depends on a
//! time branches, so the same inputs reach the same code whatever the clock says.
//!
//! For exploration, two settings look into shapes that come near the bound without crossing
//! it (they branch on the clock): `COST_WORST=1` keeps the check with the most CPU per unit,
//! prints it with the figures and writes its input to `cost-worst` in the working directory
//! (`rust/fuzz/`); `COST_NEAR=<ns>` prints every check of more nanoseconds per unit than that
//! (and of [`MIN_CPU_NS`] or more) and writes its input to `cost-near-<ns per unit>-<n>`.

use std::collections::BTreeMap;
use std::sync::Mutex;

use protocompat::{CheckError, Checker, Report, Requested};

/// A unit is weighed to about a nanosecond of one core for the costliest shapes known
/// (`rust/engine/src/budget/work.rs`; `worst_inputs` prints 0.2 to 1 ns per unit on this
/// project's machine). The fuzz build adds coverage instrumentation (some 1.5 to 2 times
/// slower) and the machine is shared, so a charged loop stays within a few nanoseconds per
/// unit. A loop that charges nothing over a large input costs its whole CPU against the few
/// units charged around it: tens to thousands of nanoseconds per unit. 20 ns per unit, 20
/// times the weight, sits between the two with room on both sides.
pub const MAX_NS_PER_UNIT: f64 = 20.0;

/// Below this, a check is not held to [`MAX_NS_PER_UNIT`]: a first large allocation's page
/// faults, the clock's granularity and being descheduled weigh on a small check more than
/// anything it loops over, and a check this short cannot hurt a broker anyway.
pub const MIN_CPU_NS: f64 = 20e6;

/// The CPU this thread has used, in nanoseconds.
pub fn thread_cpu_ns() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `now` is.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    now.tv_sec as f64 * 1e9 + now.tv_nsec as f64
}

pub struct Measured {
    pub result: Result<Report, CheckError>,
    pub cpu_ns: f64,
    pub units: u64,
    pub peak_bytes: usize,
}

/// One check of `new` against `existing` by `checker`, measured.
pub fn check(
    checker: &Checker,
    existing: &[&[u8]],
    new: &[u8],
    strategy: impl Into<Requested>,
) -> Measured {
    let strategy = strategy.into();
    let started = thread_cpu_ns();
    let result = checker.check(existing, new, strategy);
    let cpu_ns = thread_cpu_ns() - started;
    let stats = checker.stats();
    Measured {
        result,
        cpu_ns,
        units: stats.last_check_work,
        peak_bytes: stats.last_check_peak_bytes,
    }
}

impl Measured {
    /// What the check answered, in a few words: a key of the run's figures.
    pub fn outcome(&self) -> String {
        match &self.result {
            Ok(r) if r.compatible => "compatible".into(),
            Ok(_) => "incompatible".into(),
            Err(e) => match (e.setting(), e) {
                (Some(setting), _) => format!("refused ({setting})"),
                // Which schema, and the numbers in names, would make every case a key of its own.
                (None, CheckError::Schema(e)) => {
                    let message: String = e
                        .message
                        .chars()
                        .map(|c| if c.is_ascii_digit() { 'N' } else { c })
                        .collect();
                    format!("{}: {}", e.rule.id(), protocompat::text::cut(&message, 90))
                }
                (None, e) => protocompat::text::cut(&e.to_string(), 90),
            },
        }
    }

    /// Panics on what this target exists to find: a contained panic, a backstop under the
    /// work budget that had to stop the check (CPU or memory), or more CPU per charged unit
    /// than [`MAX_NS_PER_UNIT`] in a check of [`MIN_CPU_NS`] or more. `what` says which check.
    pub fn judge(&self, what: impl Fn() -> String) {
        match &self.result {
            Err(CheckError::Internal(message)) => {
                panic!("cost: contained panic: {message}\n{}", what())
            }
            Err(CheckError::TooMuchWork(message, setting))
                if *setting == "limit.maxCheckCpuMillis"
                    || *setting == "limit.maxCheckMemoryBytes" =>
            {
                panic!(
                    "cost: a backstop under the work budget stopped the check ({setting}): \
                     {message}\n{}",
                    what()
                )
            }
            _ => {}
        }
        // Floating point and a non-short-circuiting `&`: no branch on the clock but this one.
        let over =
            (self.cpu_ns >= MIN_CPU_NS) & (self.cpu_ns > MAX_NS_PER_UNIT * self.units as f64);
        if over {
            panic!(
                "cost: {:.1} ms of CPU for {} units, {:.1} ns per unit (bound {MAX_NS_PER_UNIT}): \
                 an uncharged loop?\n{}",
                self.cpu_ns / 1e6,
                self.units,
                self.cpu_ns / self.units.max(1) as f64,
                what()
            );
        }
    }
}

/// The figures of a run.
#[derive(Default)]
struct Figures {
    inputs: u64,
    versions: u64,
    largest_version: usize,
    checks: u64,
    outcomes: BTreeMap<String, u64>,
    /// Checks of [`MIN_CPU_NS`] or more: how many, their CPU and their units.
    held: u64,
    held_cpu_ns: f64,
    held_units: f64,
    /// Most CPU per unit among them, most CPU and most units of any check, most heap.
    most_ns_per_unit: f64,
    most_cpu_ns: f64,
    most_units: u64,
    most_peak_bytes: usize,
    /// How many held checks fell in each band of ns per unit: under 0.5, 1, 2, 4, 8, 16, more.
    bands: [u64; 7],
    /// With `COST_WORST=1`: the held check with the most CPU per unit, described.
    worst: Option<(f64, String)>,
    /// With `COST_NEAR`: how many checks came over it.
    near: u64,
}

static FIGURES: Mutex<Option<Figures>> = Mutex::new(None);

fn figures<R>(f: impl FnOnce(&mut Figures) -> R) -> R {
    let mut lock = FIGURES.lock().unwrap_or_else(|e| e.into_inner());
    f(lock.get_or_insert_with(Figures::default))
}

fn track_worst() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("COST_WORST").is_some_and(|v| v == "1"))
}

fn near() -> Option<f64> {
    static NEAR: std::sync::OnceLock<Option<f64>> = std::sync::OnceLock::new();
    *NEAR.get_or_init(|| std::env::var("COST_NEAR").ok()?.parse().ok())
}

pub fn input(versions: usize, largest: usize) {
    figures(|f| {
        f.inputs += 1;
        f.versions += versions as u64;
        f.largest_version = f.largest_version.max(largest);
    });
}

pub fn record(m: &Measured, input: &[u8], what: impl Fn() -> String) {
    let held = m.cpu_ns >= MIN_CPU_NS;
    let per_unit = m.cpu_ns / m.units.max(1) as f64;
    let outcome = m.outcome();
    figures(|f| {
        f.checks += 1;
        *f.outcomes.entry(outcome).or_insert(0) += 1;
        // Branch-free in the clock: a check below the floor adds zeros.
        let weight = f64::from(u8::from(held));
        f.held += u64::from(held);
        f.held_cpu_ns += weight * m.cpu_ns;
        f.held_units += weight * m.units as f64;
        f.most_ns_per_unit = f.most_ns_per_unit.max(weight * per_unit);
        f.most_cpu_ns = f.most_cpu_ns.max(m.cpu_ns);
        f.most_units = f.most_units.max(m.units);
        f.most_peak_bytes = f.most_peak_bytes.max(m.peak_bytes);
        let band = ((per_unit * 2.0).max(0.5).log2().ceil() as usize).min(6);
        f.bands[band] += u64::from(held);
        if track_worst() && held && f.worst.as_ref().is_none_or(|(w, _)| per_unit > *w) {
            f.worst = Some((per_unit, what()));
            let _ = std::fs::write("cost-worst", input);
        }
        if let Some(near) = near().filter(|n| held && per_unit > *n) {
            f.near += 1;
            eprintln!(
                "cost: near {near} ns per unit: {:.1} ms, {} units, {per_unit:.2} ns per unit: {}",
                m.cpu_ns / 1e6,
                m.units,
                what()
            );
            let _ = std::fs::write(format!("cost-near-{per_unit:.1}-{}", f.near), input);
        }
    });
}

pub fn print() {
    figures(|f| {
        let per_unit = f.held_cpu_ns / f.held_units.max(1.0);
        eprintln!(
            "cost: inputs={} versions={} largest_version_bytes={} checks={} held_checks={} held_ns_per_unit={per_unit:.2} most_ns_per_unit={:.2} most_cpu_ms={:.0} most_units={} most_peak_mb={:.0}",
            f.inputs,
            f.versions,
            f.largest_version,
            f.checks,
            f.held,
            f.most_ns_per_unit,
            f.most_cpu_ns / 1e6,
            f.most_units,
            f.most_peak_bytes as f64 / 1e6,
        );
        eprintln!(
            "cost:   held checks by ns per unit: <0.5 {} | <1 {} | <2 {} | <4 {} | <8 {} | <16 {} | more {}",
            f.bands[0], f.bands[1], f.bands[2], f.bands[3], f.bands[4], f.bands[5], f.bands[6]
        );
        for (outcome, n) in &f.outcomes {
            eprintln!("cost:   {n:>8}  {outcome}");
        }
        if let Some((per_unit, what)) = &f.worst {
            eprintln!("cost:   most ns per unit: {per_unit:.2}, {what}");
        }
    });
}
