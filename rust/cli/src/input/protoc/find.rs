//! Which protoc runs, as build tools look for it: `--protoc PATH`, else the `PROTOC` environment
//! variable, else `protoc` on `PATH`, else the binary the `protoc-bin-vendored` crate carries
//! (protoc 36.2 in its 3.3 release, which reads editions 2023, 2024 and 2026), so that a user with
//! nothing installed can check Editions files too. That crate's binary stays in cargo's
//! registry, where the build found it: a `protocompat` copied to another machine has to be
//! given a protoc.

use crate::console::Error;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use protocompat::text::bound;

use super::run::{self, Stream};

/// What the command line says of protoc: `--protoc` and `--protoc-timeout`.
#[derive(Clone, Copy)]
pub struct ProtocOptions<'a> {
    pub path: Option<&'a Path>,
    /// How long one protoc run may take.
    pub timeout: Duration,
}

/// A protoc to run, how it was found (to name it when it fails), and its time limit.
pub struct Protoc {
    pub path: PathBuf,
    pub found: &'static str,
    pub timeout: Duration,
}

/// The most `--version` may take, whatever --protoc-timeout allows: it only adds to a message.
const VERSION_TIMEOUT: Duration = Duration::from_secs(10);

impl Protoc {
    /// --protoc, else `PROTOC`, else `protoc` on `PATH`, else the vendored binary.
    pub fn find(options: ProtocOptions) -> Result<Protoc, Error> {
        let (path, found) = if let Some(path) = options.path {
            (given(path.to_path_buf(), "--protoc")?, "--protoc")
        } else if let Some(path) = std::env::var_os("PROTOC").filter(|p| !p.is_empty()) {
            (given(PathBuf::from(path), "PROTOC")?, "PROTOC")
        } else if let Some(path) = on_path() {
            (path, "PATH")
        } else {
            (vendored()?, "bundled")
        };
        Ok(Protoc {
            path,
            found,
            timeout: options.timeout,
        })
    }

    /// `protoc (PATH /usr/bin/protoc)`: which one ran.
    pub fn named(&self) -> String {
        format!("protoc ({} {})", self.found, self.path.display())
    }

    /// `protoc (PATH /usr/bin/protoc, libprotoc 3.21.12)`: which one failed, and its version,
    /// since an old protoc refuses Editions files with a parse error that does not say so.
    pub fn describe(&self) -> String {
        let mut command = Command::new(&self.path);
        command.arg("--version");
        let version = run::run(
            &mut command,
            Stream::Stdout,
            self.timeout.min(VERSION_TIMEOUT),
        )
        .ok()
        .filter(|o| o.status.success())
        .map(|o| bound(String::from_utf8_lossy(&o.text).trim(), 100))
        .filter(|v| !v.is_empty())
        .map(|v| format!(", {v}"))
        .unwrap_or_default();
        format!("protoc ({} {}{version})", self.found, self.path.display())
    }
}

/// A path as given is taken from the current directory (protoc runs in another one); a bare
/// name is looked up on PATH when it runs.
fn given(path: PathBuf, found: &str) -> Result<PathBuf, Error> {
    if path.parent().is_none_or(|p| p.as_os_str().is_empty()) {
        return Ok(path);
    }
    std::path::absolute(&path)
        .map_err(|e| Error::input(format!("cannot resolve {found} {}: {e}", path.display())))
}

fn on_path() -> Option<PathBuf> {
    let name = if cfg!(windows) {
        "protoc.exe"
    } else {
        "protoc"
    };
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The crate asserts that its binary exists: on a machine the CLI was copied to, it panics.
/// That is caught here, quietly, and said as a missing protoc.
fn vendored() -> Result<PathBuf, Error> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // protoc finds the `.proto` files protobuf ships (descriptor.proto, java_features.proto)
    // beside its binary, where the crate keeps them: no -I is needed for them.
    let found = std::panic::catch_unwind(protoc_bin_vendored::protoc_bin_path);
    std::panic::set_hook(hook);
    match found {
        Ok(Ok(path)) => Ok(path),
        Ok(Err(e)) => Err(not_found(&e.to_string())),
        Err(_) => Err(not_found(
            "the protoc bundled at build time is no longer where the build left it",
        )),
    }
}

fn not_found(why: &str) -> Error {
    Error::input(format!(
        "found no protoc to run ({why}): give one with --protoc PATH or the PROTOC environment \
         variable, or put it on PATH (protoc 27 or newer reads edition 2023, 32 or newer \
         edition 2024)"
    ))
}
