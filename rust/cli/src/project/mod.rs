//! `protocompat.yaml`: which message goes to which topic under which strategy, for a whole
//! service, and the baseline its schemas are checked against. [`load`] reads and checks the
//! file; [`plan`] turns it into one check a topic; [`check`] runs them and [`report`] renders
//! them as one report.

pub mod model;
pub mod plan;
pub mod report;
mod write;
mod yaml;

use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

pub use model::{Baseline, Error, Project, TopicStrategy};
pub use write::{quote, valid_entry};
use yaml::At;

/// The file's name, found at a repository's root (or a service's directory in a monorepo).
pub const FILE_NAME: &str = "protocompat.yaml";
/// A project file is a few dozen lines: a larger one is refused before it is read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A project file read and checked.
#[derive(Debug)]
pub struct Loaded {
    /// The file, as shown in messages.
    pub file: String,
    /// Its directory: every path of the file is relative to it.
    pub dir: PathBuf,
    pub project: Project,
}

/// The project file for a command run in `start`: `protocompat.yaml` there or in the nearest
/// directory above it, up to the root of the git work tree holding `start`. Outside a git work
/// tree, only `start` is looked in: a file in some directory above is no project of this one.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let mut dir = start.to_path_buf();
    let in_git = start.ancestors().any(|d| d.join(".git").exists());
    loop {
        let candidate = dir.join(FILE_NAME);
        if candidate.is_file() {
            return Some(candidate);
        }
        if !in_git || dir.join(".git").exists() || !dir.pop() {
            return None;
        }
    }
}

/// Reads and checks the project file at `path` (as the user or [`discover`] named it).
pub fn load(path: &Path) -> Result<Loaded, Error> {
    let file = shown(path);
    let whole = |message: String| Error {
        file: file.clone(),
        at: At { line: 1, column: 1 },
        key: String::new(),
        message,
    };
    let text = read(path).map_err(whole)?;
    let tree = yaml::parse(&text).map_err(|e| Error {
        file: file.clone(),
        at: e.at,
        key: String::new(),
        message: format!("not YAML the project file can hold: {}", e.message),
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let reader = model::Reader {
        file: &file,
        dir: &dir,
    };
    let project = reader.project(&tree)?;
    Ok(Loaded { file, dir, project })
}

/// The file's text, within [`MAX_FILE_BYTES`]; why not is the message of the [`Error`] that
/// [`load`] makes of it, at the file's start.
fn read(path: &Path) -> Result<String, String> {
    // Opening a FIFO waits for a writer: what is no regular file is refused before it is opened.
    let kind = fs::metadata(path).map_err(|e| format!("cannot read the project file: {e}"))?;
    if !kind.is_file() {
        return Err("the project file is not a regular file".to_owned());
    }
    let opened = fs::File::open(path).map_err(|e| format!("cannot read the project file: {e}"))?;
    let meta = opened
        .metadata()
        .map_err(|e| format!("cannot read the project file: {e}"))?;
    if !meta.is_file() {
        return Err("the project file is not a regular file".to_owned());
    }
    let mut bytes = Vec::new();
    opened
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the project file: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "the project file is over {} KiB; it lists topics, not schemas",
            MAX_FILE_BYTES >> 10
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "the project file is not UTF-8 (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        )
    })
}

fn shown(path: &Path) -> String {
    crate::input::roots::shown_path(&std::path::absolute(path).unwrap_or(path.to_path_buf()))
}

#[cfg(test)]
mod tests;
