//! What a protoc run leaves behind unless it is cleaned up: protoc's process group and its
//! temporary directory. Both are registered here while they exist. Dropped, they go; on
//! SIGINT, SIGTERM or SIGHUP the CLI kills the groups and removes the directories, then ends by
//! the signal as it would have without a handler. protoc runs in a group of its own so that
//! the group can be killed whole, whatever protoc started; the group also keeps a Ctrl-C at
//! the terminal from reaching protoc directly, which is why the CLI passes it on.
//!
//! The handler is installed with the first temporary directory, so that a command that runs
//! no protoc keeps the default handling; a signal the CLI was started with ignored (`nohup`,
//! a background job of a script) stays ignored.

use crate::console::Error;
use std::fs;
use std::io;
use std::path::PathBuf;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Process groups and directories to clean up if the CLI is stopped.
struct Pending {
    groups: Vec<u32>,
    dirs: Vec<PathBuf>,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    groups: Vec::new(),
    dirs: Vec::new(),
});

/// Registration happens under this lock, and the signal handler keeps it until the process
/// ends: nothing is started or made that it would miss.
fn pending() -> MutexGuard<'static, Pending> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// A directory of our own under the system's temporary one, removed when dropped.
pub struct TempDir {
    pub path: PathBuf,
}

impl TempDir {
    pub fn new() -> Result<TempDir, Error> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        watch_signals();
        let base = std::path::absolute(std::env::temp_dir())
            .map_err(|e| Error::input(format!("cannot find the temporary directory: {e}")))?;
        loop {
            let path = base.join(format!(
                "protocompat-protoc-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            let mut pending = pending();
            match fs::create_dir(&path) {
                Ok(()) => {
                    pending.dirs.push(path.clone());
                    return Ok(TempDir { path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(Error::input(format!(
                        "cannot make a temporary directory in {}: {e}",
                        base.display()
                    )))
                }
            }
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let mut pending = pending();
        remove(&self.path);
        pending.dirs.retain(|dir| dir != &self.path);
    }
}

/// A process started in a group of its own, registered until dropped.
pub struct Running {
    pub child: Child,
}

/// Starts `command` as the leader of a new process group.
pub fn spawn(command: &mut Command) -> io::Result<Running> {
    watch_signals();
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let mut pending = pending();
    let child = command.spawn()?;
    pending.groups.push(child.id());
    Ok(Running { child })
}

impl Running {
    /// Kills the process and its group, and waits for it.
    pub fn kill(&mut self) {
        #[cfg(unix)]
        kill_group(self.child.id());
        #[cfg(not(unix))]
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let id = self.child.id();
        pending().groups.retain(|&group| group != id);
    }
}

#[cfg(unix)]
fn kill_group(group: u32) {
    let Ok(group) = libc::pid_t::try_from(group) else {
        return;
    };
    // SAFETY: killpg takes plain integers and touches no memory of ours; the group is one this
    // process started, and a group that has ended makes it fail harmlessly.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}

/// Removes `dir`; tried again while a process just killed may still be writing into it.
fn remove(dir: &std::path::Path) {
    for _ in 0..5 {
        if fs::remove_dir_all(dir).is_ok() || !dir.exists() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn watch_signals() {
    #[cfg(unix)]
    {
        static WATCH: std::sync::Once = std::sync::Once::new();
        WATCH.call_once(unix::watch);
    }
}

#[cfg(unix)]
mod unix {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use super::{kill_group, pending, remove};

    pub fn watch() {
        let signals: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&signal| !ignored(signal))
            .collect();
        let Ok(mut signals) = Signals::new(signals) else {
            return;
        };
        std::thread::spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            // Held until the process ends: nothing new starts meanwhile.
            let pending = pending();
            for &group in &pending.groups {
                kill_group(group);
            }
            for &group in &pending.groups {
                reap(group);
            }
            for dir in &pending.dirs {
                remove(dir);
            }
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        });
    }

    /// Waits, a second at most, for a killed protoc (a child of ours, its group's leader) to
    /// end, so that it writes nothing more into the directory about to be removed: a SIGKILL
    /// takes effect when the process next runs. The main thread may reap it first, which
    /// waitpid then says (no such child).
    fn reap(leader: u32) {
        let Ok(leader) = libc::pid_t::try_from(leader) else {
            return;
        };
        for _ in 0..200 {
            // SAFETY: plain integers and a null status pointer, which waitpid accepts.
            if unsafe { libc::waitpid(leader, std::ptr::null_mut(), libc::WNOHANG) } != 0 {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Whether `signal` is ignored, as the CLI was started.
    fn ignored(signal: i32) -> bool {
        // SAFETY: with no new action, sigaction only writes the current one into `current`,
        // a zeroed sigaction of our own (all-zero is a valid value of that plain C struct).
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut current) == 0
                && current.sa_sigaction == libc::SIG_IGN
        }
    }
}
