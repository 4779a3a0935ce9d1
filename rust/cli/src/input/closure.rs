//! What protoc is given to read: protoc opens the files of a compile itself, following any
//! symbolic link on the way, so it never sees a side's directories. It gets copies of the named
//! file and of every file it imports, however deep, each read through the same checks as
//! protox's reads ([`super::confine`]); a file outside the roots is refused before protoc runs.
//! An import the scan misses ([`super::imports`]) is one protoc does not find, never one it
//! reads unchecked.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use super::roots::{Read, Root, Roots};

/// Bounds on one compile's files, as on a git tree's.
const MAX_FILES: usize = 50_000;
const MAX_BYTES: u64 = 512 << 20;

/// The roots protoc is given for compiling `name`: each root of `roots` as an in-memory tree
/// of the files of the compile it holds, shown as the root is.
pub fn for_protoc(roots: &Roots, name: &str) -> Result<Roots, String> {
    let mut copies: Vec<BTreeMap<String, Vec<u8>>> = vec![BTreeMap::new(); roots.0.len()];
    let mut seen = BTreeSet::new();
    let mut pending = vec![name.to_owned()];
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
                return Err(root.leaves(&file, file != name).message());
            }
            Err(Read::Failed(e)) => {
                return Err(format!("cannot read {}: {e}", root.display(&file)));
            }
        };
        total += bytes.len() as u64;
        if total >= MAX_BYTES || seen.len() > MAX_FILES {
            return Err(format!(
                "`{name}` imports over {MAX_FILES} files or {} MiB",
                MAX_BYTES >> 20
            ));
        }
        pending.extend(super::imports::imports(&bytes));
        copies[index].insert(file, bytes);
    }
    Ok(Roots(
        roots
            .0
            .iter()
            .zip(copies)
            .map(|(root, files)| Root::Tree(Rc::new(root.copy(files))))
            .collect(),
    ))
}
