//! The peak memory of a command a test runs: its own program's, not the test process's.
//!
//! Linux's peak resident set of a process (`ru_maxrss`, which `wait4` returns) is the highest of
//! every memory the process ever ran in, and a child runs in its parent's before `exec` gives it
//! its program's: at `exec`, the kernel keeps the peak of the memory left (`exec_mmap`,
//! `setmax_mm_hiwater_rss`) in a figure that only grows, exec after exec. `Command` starts a
//! child with `posix_spawn`, a `vfork` that runs in the parent's very memory until the `exec`,
//! so the child's figure starts at the whole test process's peak: every other test of the
//! binary, and a failed test's backtrace, read from the binary's debug information (62 MiB).
//! `brokers` reads a list of 500,000 ids in 21 MiB of its own, and was measured at 95 MiB once
//! another test had failed. A `fork` would carry the test process's resident memory at that
//! moment instead, and an intermediate that only `exec`s the command would pass the same figure
//! on.
//!
//! So the command is started by a process that is small and does nothing else: this test binary
//! again, which, given [`REPORT`] in its environment, runs the command in its arguments before
//! the test harness starts, reaps it with `wait4` and writes the command's wait status and
//! `ru_maxrss` to the file [`REPORT`] names. The command's figure then starts at that process's
//! peak, 3 MiB (the pages its loader touched; `/bin/true` measures so), below what any command
//! measured holds: what is read is the command's own peak.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Makes a test binary the process that runs the command measured, and names the file it
/// reports in.
const REPORT: &str = "PROTOCOMPAT_TEST_PEAK_REPORT";

/// Runs `command` to its end: what it printed, and the most memory it ever held, in KiB: its
/// peak resident set as the kernel counted it, read when it is reaped (`wait4`), so no moment is
/// missed, and no other process is counted. Its program, arguments, environment changes and
/// directory are kept; its stdin is empty.
pub fn output_and_peak_kib(command: Command) -> (Output, u64) {
    // Elsewhere this binary would run its tests again rather than the command.
    if cfg!(not(target_os = "linux")) {
        panic!("the peak is measured on Linux only (/proc, .init_array)");
    }
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let report = std::env::temp_dir().join(format!(
        "protocompat-cli-{}-peak-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let mut runner = Command::new(std::env::current_exe().expect("the test binary"));
    runner.arg(command.get_program()).args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => runner.env(key, value),
            None => runner.env_remove(key),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        runner.current_dir(dir);
    }
    let output = runner
        .env(REPORT, &report)
        .output()
        .expect("the test binary runs");
    let reported = std::fs::read_to_string(&report).unwrap_or_else(|e| {
        panic!(
            "the test binary running {:?} reported nothing ({e}), {}: {}",
            command.get_program(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let _ = std::fs::remove_file(&report);
    let (status, peak_kib) = reported
        .split_once(' ')
        .and_then(|(status, peak)| Some((status.parse().ok()?, peak.parse().ok()?)))
        .unwrap_or_else(|| panic!("running {:?}: {reported}", command.get_program()));
    let output = Output {
        status: ExitStatus::from_raw(status),
        ..output
    };
    (output, peak_kib)
}

/// Called before `main` (an `.init_array` entry): in a test binary started by
/// [`output_and_peak_kib`], runs the command and exits; in any other, does nothing.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RUN_THE_COMMAND_MEASURED: extern "C" fn() = run_the_command_measured;

// The child is reaped by wait4, which `Child::wait` cannot give the resource use of.
#[allow(clippy::zombie_processes)]
extern "C" fn run_the_command_measured() {
    let Some(report) = std::env::var_os(REPORT) else {
        return;
    };
    // The arguments from /proc, which any libc has before `main`: this binary, the command's
    // program, its arguments.
    let line = std::fs::read("/proc/self/cmdline").expect("/proc/self/cmdline");
    let args: Vec<OsString> = line
        .strip_suffix(b"\0")
        .unwrap_or(&line)
        .split(|&byte| byte == 0)
        .skip(1)
        .map(|arg| OsStr::from_bytes(arg).to_owned())
        .collect();
    // Its stdin, stdout and stderr are this process's: the test's.
    let said = match Command::new(&args[0])
        .args(&args[1..])
        .env_remove(REPORT)
        .spawn()
    {
        Ok(child) => {
            let (status, usage) = reap(child.id());
            // Linux counts ru_maxrss in KiB.
            format!("{status} {}", usage.ru_maxrss)
        }
        Err(e) => format!("not started: {e}"),
    };
    std::fs::write(&report, said).expect("the report written");
    // SAFETY: ends this process, the test harness never started, without unwinding.
    unsafe { libc::_exit(0) }
}

/// Waits for the child `pid` to end: its wait status, and its resource use, which
/// `Child::wait` does not give.
fn reap(pid: u32) -> (i32, libc::rusage) {
    let pid = libc::pid_t::try_from(pid).unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain integers, for which all zeros is a value; wait4 writes both
    // out-parameters, which live across the call.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } == pid {
            return (status, usage);
        }
        let error = std::io::Error::last_os_error();
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::Interrupted,
            "wait4: {error}"
        );
    }
}
