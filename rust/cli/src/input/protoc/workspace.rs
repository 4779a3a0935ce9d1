//! The temporary directory protoc runs in, laid out once for a compile's copies and used for
//! as many runs as a search needs: each import root is `root-N` in it, the copies of its files
//! that protoc may read ([`crate::input::closure`]) written out. No root of the side itself is
//! ever linked or named there, so protoc, which follows any symbolic link it meets, reads
//! nothing that did not pass the checks of the side's roots.
//!
//! protoc has no `--` to end its options: an argument that starts with `-` is an option
//! (`-ofoo.proto` writes its output to `foo.proto`) and one that starts with `@` names a file
//! of more arguments. So a file is never given by its name, which an input chooses, but as
//! the path `root-N/NAME` under the root that holds it, from the working directory: protoc
//! maps that path back to the name through `--proto_path=root-N` (the same name a virtual path
//! would get: it is what the descriptor set records), and no path it is given depends on the
//! user's paths, which may hold the `:` and `=` that `--proto_path` splits at.

use crate::console::Error;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use protocompat::text::bound;

use super::cleanup::TempDir;
use super::find::Protoc;
use super::run::{self, Stream};
use crate::input::closure::Copies;
use crate::input::confine::plain;
use crate::input::roots::Roots;

/// How much of protoc's complaint is shown.
const MAX_MESSAGE_BYTES: usize = 2000;

pub struct Workspace<'a> {
    dir: TempDir,
    roots: &'a Roots,
    /// Each root's `--proto_path`, and how the user knows the root, to show protoc's
    /// complaints with the user's paths.
    paths: Vec<(String, String)>,
    runs: Cell<u32>,
}

/// Why protoc gave no descriptor set.
pub enum Failure {
    /// protoc refused the files, and said this (with the user's paths): a compile error.
    Refused(String),
    /// It could not be run to the end: not found, stopped at the time limit, no set written.
    Broken(Error),
}

impl Failure {
    /// What to tell the user; `what` names the files compiled. Only now is protoc asked its
    /// version, for a refusal: a search that expects some runs to be refused never asks.
    pub fn message(self, protoc: &Protoc, what: &str) -> Error {
        match self {
            Failure::Refused(said) => Error::input(bound(
                &format!("{} could not compile {what}: {said}", protoc.describe()),
                MAX_MESSAGE_BYTES,
            )),
            Failure::Broken(message) => message,
        }
    }
}

impl<'a> Workspace<'a> {
    pub fn new(copies: &'a Copies) -> Result<Workspace<'a>, Error> {
        let dir = TempDir::new()?;
        let roots = copies.roots();
        let mut paths = Vec::new();
        for (index, (tree, root)) in copies.trees().iter().zip(&roots.0).enumerate() {
            let at = format!("root-{index}");
            write_tree(&dir.path.join(&at), &tree.files)?;
            paths.push((at, root.display("")));
        }
        Ok(Workspace {
            dir,
            roots,
            paths,
            runs: Cell::new(0),
        })
    }

    /// protoc's descriptor set of `names` and their imports, source info included; `what`
    /// names the files in a message.
    pub fn compile(&self, protoc: &Protoc, names: &[&str], what: &str) -> Result<Vec<u8>, Failure> {
        let run_number = self.runs.get();
        self.runs.set(run_number + 1);
        let out = format!("set-{run_number}.pb");
        let mut command = Command::new(&protoc.path);
        command
            .arg("--include_imports")
            .arg("--include_source_info")
            .arg(format!("--descriptor_set_out={out}"))
            .args(
                self.paths
                    .iter()
                    .map(|(path, _)| format!("--proto_path={path}")),
            );
        for name in names {
            command.arg(self.input(name).map_err(Failure::Broken)?);
        }
        command.current_dir(&self.dir.path);
        let output = match run::run(&mut command, Stream::Stderr, protoc.timeout) {
            Ok(output) => output,
            Err(run::Failure::Run(e)) => {
                return Err(Failure::Broken(Error::input(format!(
                    "cannot run {}: {e}",
                    protoc.describe()
                ))))
            }
            Err(run::Failure::TimedOut) => {
                return Err(Failure::Broken(Error::limit(
                    "--protoc-timeout",
                    format!(
                        "{} did not finish compiling {what} within --protoc-timeout {} s and \
                         was stopped; a set that only takes long needs a higher \
                         --protoc-timeout",
                        protoc.named(),
                        protoc.timeout.as_secs()
                    ),
                )))
            }
        };
        if !output.status.success() {
            let said = self.in_users_words(&output.text);
            let said = if said.is_empty() {
                format!("it exited with {} and said nothing", output.status)
            } else {
                said
            };
            return Err(Failure::Refused(said));
        }
        let out = self.dir.path.join(out);
        let bytes = fs::read(&out).map_err(|e| {
            Failure::Broken(Error::input(format!(
                "{} wrote no descriptor set: {e}; is it protoc?",
                protoc.describe()
            )))
        })?;
        let _ = fs::remove_file(&out);
        Ok(bytes)
    }

    /// The argument that names `name` to protoc: its path under the root that holds it.
    fn input(&self, name: &str) -> Result<String, Error> {
        if !plain(name) {
            return Err(Error::input(format!(
                "`{name}` is no name protoc can take: it must be a relative path of plain parts"
            )));
        }
        let index = self
            .roots
            .find(name)
            .and_then(|root| self.roots.0.iter().position(|r| std::ptr::eq(r, root)))
            .ok_or_else(|| {
                Error::input(format!("`{name}` is in none of {}", self.roots.describe()))
            })?;
        Ok(format!("{}/{name}", self.paths[index].0))
    }

    /// protoc's complaint, one line after another, with each root's path in it as the user
    /// knows the root. A path is replaced only where one starts (at the start of a line or
    /// after a space or quote), not inside a name that happens to end the same way.
    fn in_users_words(&self, said: &[u8]) -> String {
        let said = String::from_utf8_lossy(said);
        let lines: Vec<String> = said
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|line| {
                let mut line = line.to_owned();
                for (path, shown) in &self.paths {
                    line = replace_at_starts(&line, &format!("{path}/"), shown);
                }
                line
            })
            .collect();
        lines.join("; ")
    }
}

fn replace_at_starts(line: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut at_start = true;
    while let Some(at) = rest.find(from) {
        let starts = if at == 0 {
            at_start
        } else {
            rest[..at].ends_with([' ', '"', '\'', '(', '`'])
        };
        out.push_str(&rest[..at]);
        out.push_str(if starts { to } else { from });
        rest = &rest[at + from.len()..];
        at_start = false;
    }
    out.push_str(rest);
    out
}

/// Writes a root's copies where protoc can read them. A name that is not a plain relative
/// path (git never writes one, a crafted tree could) is left out, never written outside.
fn write_tree(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<(), Error> {
    fs::create_dir_all(dir)
        .map_err(|e| Error::input(format!("cannot write a tree for protoc: {e}")))?;
    for (name, bytes) in files {
        if !plain(name) {
            continue;
        }
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| Error::input(format!("cannot write {name} for protoc: {e}")))?;
        }
        fs::write(&path, bytes)
            .map_err(|e| Error::input(format!("cannot write {name} for protoc: {e}")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roots_path_is_replaced_where_a_path_starts_only() {
        let line = "root-1/a.proto:2:9: \"root-1/b.proto\" x/root-1/c.proto myroot-1/d.proto";
        assert_eq!(
            replace_at_starts(line, "root-1/", "new/"),
            "new/a.proto:2:9: \"new/b.proto\" x/root-1/c.proto myroot-1/d.proto"
        );
    }
}
