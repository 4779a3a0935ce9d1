//! What protoc is given to read: protoc opens the files of a compile itself, following any
//! symbolic link on the way, so it never sees a side's directories. It gets copies of the named
//! file (or of a search's candidates, compiled together) and of every file they import, however
//! deep, each read through the same checks as protox's reads ([`super::confine`]); a file
//! outside the roots is refused before protoc runs. An import the scan misses
//! ([`super::imports`]) is one protoc does not find, never one it reads unchecked. The copies
//! are written out once, however many runs a search makes ([`super::protoc`]). A file of an
//! edition the checker does not read is refused here too, before protoc runs, as the broker
//! would refuse its schema.

use crate::console::Error;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::editions;
use super::roots::{Read, Root, Roots, Tree};

/// Bounds on one compile's files, as on a git tree's.
const MAX_FILES: usize = 50_000;
const MAX_BYTES: u64 = 512 << 20;

/// Copies of the files of a compile, made under the checks: all that protoc is given to read.
/// Each root of the side is an in-memory tree of the files of the compile it holds, shown as
/// the root is. Only [`for_protoc`] makes one, so no protoc run can be given a side's roots
/// themselves.
pub struct Copies {
    roots: Roots,
    trees: Vec<Rc<Tree>>,
}

impl Copies {
    /// The copies as roots, in the side's order, to look names up in and show them.
    pub fn roots(&self) -> &Roots {
        &self.roots
    }

    /// Each root's files, in the side's order.
    pub fn trees(&self) -> &[Rc<Tree>] {
        &self.trees
    }
}

/// Copies of the files protoc reads to compile `names` (one file, or a search's candidates,
/// compiled together): each named file and every file it imports, however deep, found in
/// `roots` as an import is.
pub fn for_protoc(roots: &Roots, names: &[&str]) -> Result<Copies, Error> {
    let mut copies: Vec<BTreeMap<String, Vec<u8>>> = vec![BTreeMap::new(); roots.0.len()];
    let mut seen = BTreeSet::new();
    let mut pending: Vec<String> = names.iter().rev().map(|&name| name.to_owned()).collect();
    let mut total = 0u64;
    while let Some(file) = pending.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        // protoc's own files (google/protobuf/...), or a missing one: protoc says which.
        let Some(index) = roots.0.iter().position(|root| root.has(&file)) else {
            continue;
        };
        let root = &roots.0[index];
        let bytes = match root.read(&file, MAX_BYTES - total) {
            Ok(bytes) => bytes,
            Err(Read::LeavesRoot) => {
                let imported = !names.contains(&file.as_str());
                return Err(Error::input(root.leaves(&file, imported).message()));
            }
            Err(Read::Failed(e)) => {
                return Err(Error::input(format!(
                    "cannot read {}: {e}",
                    root.display(&file)
                )));
            }
        };
        editions::readable(&bytes, &root.display(&file))?;
        total += bytes.len() as u64;
        if total >= MAX_BYTES || seen.len() > MAX_FILES {
            let what = match names {
                [name] => format!("`{name}` imports"),
                _ => format!("the {} files compiled together import", names.len()),
            };
            return Err(Error::input(format!(
                "{what} over {MAX_FILES} files or {} MiB",
                MAX_BYTES >> 20
            )));
        }
        pending.extend(super::imports::imports(&bytes));
        copies[index].insert(file, bytes);
    }
    let trees: Vec<Rc<Tree>> = roots
        .0
        .iter()
        .zip(copies)
        .map(|(root, files)| Rc::new(root.copy(files)))
        .collect();
    Ok(Copies {
        roots: Roots(trees.iter().cloned().map(Root::Tree).collect()),
        trees,
    })
}
