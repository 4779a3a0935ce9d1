//! Runs protoc as an untrusted input can make it behave: an import that is a link to
//! `/dev/zero` keeps it reading for ever, an error it repeats fills its output. So it runs in a
//! process group of its own under a time limit, killed with whatever it started when the
//! limit runs out or the CLI is stopped ([`super::cleanup`]), and only a bounded part of its
//! output is kept; the rest is read and dropped, so that a full pipe never stalls it. It gets
//! none of the CLI's environment but the few variables in [`PASSED`]: the CLI's may hold
//! `PULSAR_AUTH_TOKEN` and whatever else its caller has (a CI job's tokens), and protoc is a
//! program the user's PATH or a repository's settings chose.

use std::io::{self, Read};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::cleanup;

/// Which of protoc's streams is read; the other goes nowhere.
pub enum Stream {
    Stdout,
    Stderr,
}

/// How much of the stream read is kept: far more than a message shows, so that the lines
/// that matter are there once the work directory's paths are replaced.
const MAX_KEPT_BYTES: usize = 64 << 10;

/// The pause between two looks at whether protoc has ended, doubling up to this: short for a
/// run of a few milliseconds, and no busy loop for a long one.
const MAX_PAUSE: Duration = Duration::from_millis(20);

/// What protoc is given of the CLI's environment: nothing it needs to compile (it finds the
/// `.proto` files shipped with it beside its own binary, writes no temporary files, and says
/// its errors in English whatever the locale), only what starting it can take. `PATH` finds a
/// protoc named by a bare name (`--protoc protoc`) and what a wrapper script runs; `HOME` is
/// where a version manager's shim (asdf, mise) reads which protoc to run; `LD_LIBRARY_PATH`
/// and `DYLD_LIBRARY_PATH` load a protoc linked to a libprotobuf outside the system's library
/// directories. On Windows, a process cannot start without `SystemRoot`.
const PASSED: &[&str] = &[
    "PATH",
    "HOME",
    "LD_LIBRARY_PATH",
    "DYLD_LIBRARY_PATH",
    #[cfg(windows)]
    "SystemRoot",
];

/// A run to its end.
pub struct Output {
    pub status: ExitStatus,
    /// The stream read, up to [`MAX_KEPT_BYTES`].
    pub text: Vec<u8>,
}

pub enum Failure {
    /// It could not be started, or not waited for.
    Run(io::Error),
    /// It ran past the time limit and was killed.
    TimedOut,
}

/// Runs `command` with no input, reading `stream`, for at most `limit`.
pub fn run(command: &mut Command, stream: Stream, limit: Duration) -> Result<Output, Failure> {
    command.env_clear();
    for name in PASSED {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    command.stdin(Stdio::null());
    match stream {
        Stream::Stdout => command.stdout(Stdio::piped()).stderr(Stdio::null()),
        Stream::Stderr => command.stdout(Stdio::null()).stderr(Stdio::piped()),
    };
    let deadline = Instant::now() + limit;
    let mut running = cleanup::spawn(command).map_err(Failure::Run)?;
    let pipe: Box<dyn Read + Send> = match stream {
        Stream::Stdout => Box::new(running.child.stdout.take().expect("piped")),
        Stream::Stderr => Box::new(running.child.stderr.take().expect("piped")),
    };
    let (sender, text) = std::sync::mpsc::channel();
    thread::spawn(move || {
        let _ = sender.send(read_bounded(pipe));
    });
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match running.child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            // It is no child of ours any more: reaped already, so nothing is left to kill.
            Err(e) => return Err(Failure::Run(e)),
        }
        let now = Instant::now();
        if now >= deadline {
            running.kill();
            return Err(Failure::TimedOut);
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(MAX_PAUSE);
    };
    // The pipe closes when every process holding it has ended: at once, unless protoc left
    // something running that still holds it.
    let left = deadline.saturating_duration_since(Instant::now());
    match text.recv_timeout(left) {
        Ok(text) => Ok(Output { status, text }),
        Err(_) => {
            running.kill();
            Err(Failure::TimedOut)
        }
    }
}

fn read_bounded(mut pipe: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buffer = [0; 8192];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => return kept,
            Ok(read) => {
                let room = MAX_KEPT_BYTES - kept.len();
                kept.extend_from_slice(&buffer[..read.min(room)]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return kept,
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_bytes_are_kept_and_the_rest_is_drained() {
        let mut command = Command::new("sh");
        command.args(["-c", "head -c 1000000 /dev/zero; echo done >&2"]);
        let output = match run(&mut command, Stream::Stdout, Duration::from_secs(600)) {
            Ok(output) => output,
            Err(_) => panic!("sh did not run"),
        };
        assert!(output.status.success());
        assert_eq!(output.text.len(), MAX_KEPT_BYTES);
    }
}
