//! Compiles `.proto` files that use Protobuf Editions with protoc, which protox cannot parse.
//!
//! Which compiler: protox for an input set of proto2 and proto3 files only, protoc as soon as
//! one file of the set (the named file or any import, however deep) declares `edition = …`,
//! and then for the whole set, since one compiler has to resolve every import. protox stays
//! the default because it runs in the process (no subprocess to start), needs nothing
//! installed, and is what every existing proto2 and
//! proto3 check was made with: their schema data stays the same bytes. protoc is needed only
//! where protox has no answer at all.
//!
//! What protoc reads is [`super::closure`]'s business: copies of the compile's files, made
//! under the checks every read of a side's roots gets. Which protoc runs is [`find`]'s; how it
//! runs (its own process group, a time limit, bounded output, nothing left behind) is [`run`]'s
//! and [`cleanup`]'s; the directory it runs in, and how file names reach it so that none reads
//! as an option, [`workspace`]'s.
//!
//! The descriptor set protoc writes is kept as its bytes (see [`super::wire`]): only the
//! source info is cut out and the files put in the Java client's order, so the schema data is
//! what a protoc-built descriptor set of the same files gives, Editions features included.

mod cleanup;
mod find;
mod run;
mod workspace;

use std::collections::{HashMap, HashSet};

use prost::Message;
use prost_types::{FileDescriptorProto, FileDescriptorSet};

pub use find::{Protoc, ProtocOptions};
use workspace::{Failure, Workspace};

use super::closure::Copies;
use super::roots::Roots;
use super::{java_order, wire};
use super::{Loaded, Sources};

/// `FileDescriptorSet.file` and `FileDescriptorProto.source_code_info`.
const SET_FILE: u32 = 1;
const SOURCE_CODE_INFO: u32 = 9;

/// Compiles `name` and its imports (`copies`) with protoc into the schema data the Java client
/// would upload, keeping the source info aside for positions.
pub fn compile(
    protoc: &Protoc,
    copies: &Copies,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
) -> Result<Loaded, String> {
    let workspace = Workspace::new(copies)?;
    let what = if shown == name {
        format!("`{name}`")
    } else {
        format!("`{name}` ({shown})")
    };
    let bytes = workspace
        .compile(protoc, &[name], &what)
        .map_err(|e| e.message(protoc, &what))?;
    Compiled::parse(&bytes, protoc)?.loaded(copies.roots(), name, shown, root_message)
}

/// Of `names`, the files that compile and declare `message`, each with its schema, in the
/// order given; `copies` holds them and their imports, and `shown` tells how the user knows a
/// file. A directory or tree searched for the root message has many candidates: they are
/// compiled together, in one protoc run, their copies written out once. protoc refuses the
/// whole run if one of them does not compile, or two declare the same name (two versions of a
/// package side by side), so a refused run is split in halves, each run again (in the same
/// directory), down to single files: as many runs as the files that do not compile, times the
/// depth of the halving. A run protoc cannot finish (the time limit) ends the search: the same
/// file would stop each half that holds it.
pub fn declaring(
    protoc: &Protoc,
    copies: &Copies,
    names: &[String],
    message: &str,
    shown: &dyn Fn(&str) -> String,
) -> Result<Vec<(String, Loaded)>, String> {
    let workspace = Workspace::new(copies)?;
    let mut found = Vec::new();
    let search = Search {
        protoc,
        roots: copies.roots(),
        workspace: &workspace,
        message,
        shown,
    };
    search.in_group(names, &mut found)?;
    Ok(found)
}

struct Search<'a> {
    protoc: &'a Protoc,
    roots: &'a Roots,
    workspace: &'a Workspace<'a>,
    message: &'a str,
    shown: &'a dyn Fn(&str) -> String,
}

impl Search<'_> {
    fn in_group(&self, names: &[String], found: &mut Vec<(String, Loaded)>) -> Result<(), String> {
        let Some(first) = names.first() else {
            return Ok(());
        };
        let what = match names.len() {
            1 => format!("`{first}` ({})", (self.shown)(first)),
            n => format!(
                "`{first}` and {} other files searched for `{}`",
                n - 1,
                self.message
            ),
        };
        let inputs: Vec<&str> = names.iter().map(String::as_str).collect();
        match self.workspace.compile(self.protoc, &inputs, &what) {
            Ok(bytes) => {
                let compiled = Compiled::parse(&bytes, self.protoc)?;
                for name in names {
                    let shown = (self.shown)(name);
                    if let Ok(loaded) =
                        compiled.loaded(self.roots, name, &shown, Some(self.message))
                    {
                        found.push((name.clone(), loaded));
                    }
                }
                Ok(())
            }
            // A file that does not compile declares nothing.
            Err(Failure::Refused(_)) if names.len() == 1 => Ok(()),
            Err(Failure::Refused(_)) => {
                let (a, b) = names.split_at(names.len() / 2);
                self.in_group(a, found)?;
                self.in_group(b, found)
            }
            Err(broken @ Failure::Broken(_)) => Err(broken.message(self.protoc, &what)),
        }
    }
}

/// protoc's descriptor set, each file at hand by name.
struct Compiled {
    files: HashMap<String, CompiledFile>,
}

struct CompiledFile {
    /// As protoc wrote it, less its source info: what the schema data holds.
    bare: Vec<u8>,
    /// Decoded, source info included, for positions (and its imports).
    decoded: FileDescriptorProto,
}

impl Compiled {
    fn parse(set: &[u8], protoc: &Protoc) -> Result<Compiled, String> {
        Compiled::read(set).map_err(|e| {
            format!(
                "{} wrote a descriptor set that cannot be read ({e}); is it protoc?",
                protoc.named()
            )
        })
    }

    fn read(set: &[u8]) -> Result<Compiled, String> {
        let mut files = HashMap::new();
        for record in wire::records(set)? {
            let (SET_FILE, Some(file)) = (record.field, record.payload) else {
                continue;
            };
            let decoded = FileDescriptorProto::decode(file).map_err(|e| e.to_string())?;
            let bare = wire::without_field(file, SOURCE_CODE_INFO)?;
            files.insert(decoded.name().to_owned(), CompiledFile { bare, decoded });
        }
        Ok(Compiled { files })
    }

    /// The schema of the root file `name`: its import closure only, as protoc writes it for
    /// `name` alone, whatever else was compiled with it.
    fn loaded(
        &self,
        roots: &Roots,
        name: &str,
        shown: &str,
        root_message: Option<&str>,
    ) -> Result<Loaded, String> {
        let closure = self.closure(name);
        let with_sources = FileDescriptorSet {
            file: closure.iter().map(|f| f.decoded.clone()).collect(),
        };
        let files = with_sources
            .file
            .iter()
            .filter_map(|f| {
                Some((
                    f.name().to_owned(),
                    roots.find(f.name())?.source_path(f.name()),
                ))
            })
            .collect();
        let sources = Sources {
            set: with_sources,
            files,
        };
        Loaded::compiled(
            schema_set(closure, name),
            name,
            root_message,
            shown,
            sources,
        )
    }

    /// `root` and every file it imports, however deep, in protoc's order: each file's imports
    /// (in the order it lists them) before the file.
    fn closure(&self, root: &str) -> Vec<&CompiledFile> {
        let mut order = Vec::new();
        let mut seen = HashSet::new();
        // Each file on the path from the root, with the index of its next import to visit.
        let mut path: Vec<(&CompiledFile, usize)> = Vec::new();
        if let Some(file) = self.files.get(root) {
            seen.insert(root);
            path.push((file, 0));
        }
        while let Some((file, next)) = path.last_mut() {
            let file: &CompiledFile = file;
            match file.decoded.dependency.get(*next) {
                Some(import) => {
                    *next += 1;
                    if let Some(imported) = self.files.get(import) {
                        if seen.insert(import.as_str()) {
                            path.push((imported, 0));
                        }
                    }
                }
                None => {
                    order.push(file);
                    path.pop();
                }
            }
        }
        order
    }
}

/// The schema data's descriptor set: no source info (the Java client's descriptors have none),
/// the files in the client's order, each otherwise as protoc wrote it.
fn schema_set(files: Vec<&CompiledFile>, root: &str) -> Vec<u8> {
    let mut set = Vec::new();
    for file in java_order::order_by(files, root, |f| (f.decoded.name(), &f.decoded.dependency)) {
        wire::push_bytes(&mut set, SET_FILE, &file.bare);
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file as protoc writes one: name (1), imports (3), source info (9), edition (14), the
    /// last a field prost-types 0.14 does not know.
    fn file(name: &str, imports: &[&str]) -> Vec<u8> {
        let mut file = Vec::new();
        wire::push_bytes(&mut file, 1, name.as_bytes());
        for import in imports {
            wire::push_bytes(&mut file, 3, import.as_bytes());
        }
        // One location, path [1].
        wire::push_bytes(&mut file, SOURCE_CODE_INFO, b"\x0A\x03\x0A\x01\x01");
        file.extend([0x70, 0xE8, 0x07]);
        file
    }

    #[test]
    fn the_schema_set_is_protocs_files_in_java_order_without_source_info() {
        // protoc lists imports first; the Java client's HashMap puts "BB" and "Aa" (one
        // bucket, in insertion order) before "a".
        let mut protoc_set = Vec::new();
        for file in [file("a", &[]), file("BB", &[]), file("Aa", &["a", "BB"])] {
            wire::push_bytes(&mut protoc_set, SET_FILE, &file);
        }
        let compiled = Compiled::read(&protoc_set).unwrap();
        let set = schema_set(compiled.closure("Aa"), "Aa");
        let files: Vec<&[u8]> = wire::records(&set)
            .unwrap()
            .iter()
            .map(|r| r.payload.unwrap())
            .collect();
        let mut want = Vec::new();
        for (name, imports) in [("BB", &[][..]), ("Aa", &["a", "BB"]), ("a", &[])] {
            want.push(wire::without_field(&file(name, imports), SOURCE_CODE_INFO).unwrap());
        }
        assert_eq!(files, want);
        assert!(want[1].ends_with(&[0x70, 0xE8, 0x07]), "edition kept");
    }

    /// A file compiled with others gets the closure protoc writes for it alone: the files it
    /// imports, each one's imports first, in the order listed; none of the others.
    #[test]
    fn a_files_closure_is_protocs_set_for_it_alone() {
        // protoc's set for `x.proto y.proto`: x imports c; y imports b and c; b imports d.
        let mut protoc_set = Vec::new();
        for file in [
            file("c", &[]),
            file("x", &["c"]),
            file("d", &[]),
            file("b", &["d"]),
            file("y", &["b", "c"]),
        ] {
            wire::push_bytes(&mut protoc_set, SET_FILE, &file);
        }
        let compiled = Compiled::read(&protoc_set).unwrap();
        let names = |root: &str| -> Vec<String> {
            compiled
                .closure(root)
                .iter()
                .map(|f| f.decoded.name().to_owned())
                .collect()
        };
        assert_eq!(names("y"), ["d", "b", "c", "y"]);
        assert_eq!(names("x"), ["c", "x"]);
        assert_eq!(names("missing"), Vec::<String>::new());
    }
}
