//! Compiles a `.proto` file in its side's roots into the schema data the Java client would
//! upload, keeping the source positions aside to show where a finding is: with protox, or with
//! protoc when a file of the set uses Protobuf Editions ([`super::protoc`] says why).

use crate::console::Error;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use prost::Message;
use protocompat::ErrorRule;

use super::closure;
use super::confine;
use super::java_order;
use super::protoc::{Protoc, ProtocOptions};
use super::roots::{EditionsFile, Roots, SideResolver, Stop};
use super::{Loaded, Sources};

/// Compiles the file named `name` in `roots`; `shown` is how the user named it. `protoc` is
/// looked at only for an Editions file, which protoc compiles from copies of the files of the
/// compile, made under the checks protox's reads get ([`closure`]).
pub fn compile(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
    protoc: ProtocOptions,
) -> Result<Loaded, Error> {
    match with_protox(roots, name, shown, root_message).map_err(Failed::error)? {
        Protox::Compiled(loaded) => Ok(loaded),
        Protox::Editions(found) => {
            let copies = closure::for_protoc(roots, &[name])?;
            let protoc = find_protoc(protoc, &found)?;
            super::protoc::compile(&protoc, &copies, name, shown, root_message).map_err(|e| {
                Error::input(format!(
                    "{}, so protoc compiles it: {e}",
                    uses_editions(&found)
                ))
            })
        }
    }
}

/// What protox makes of a file: its schema, or the Editions file that stopped it.
enum Protox {
    Compiled(Loaded),
    Editions(EditionsFile),
}

/// Why protox gave no schema.
enum Failed {
    /// The file, or a file it imports, leaves its import root: refused, whatever else it holds.
    Refused(Error),
    /// It does not compile.
    Other(Error),
}

impl Failed {
    fn error(self) -> Error {
        match self {
            Failed::Refused(error) | Failed::Other(error) => error,
        }
    }
}

fn with_protox(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
) -> Result<Protox, Failed> {
    let stop = Rc::new(RefCell::new(None));
    let opened = Rc::new(RefCell::new(BTreeMap::new()));
    let mut compiler = protox::Compiler::with_file_resolver(SideResolver {
        roots: roots.clone(),
        root_file: name.to_owned(),
        stop: Rc::clone(&stop),
        opened: Rc::clone(&opened),
    });
    compiler.include_imports(true).include_source_info(true);
    if let Err(e) = compiler.open_file(name) {
        // protox's own message would carry the text of what it parsed: only ours is told.
        let stopped = stop.borrow_mut().take();
        return match stopped {
            Some(Stop::LeavesRoot(refused)) => {
                Err(Failed::Refused(Error::input(refused.message())))
            }
            Some(Stop::Editions(found)) => Ok(Protox::Editions(found)),
            None => Err(Failed::Other(Error::input(format!(
                "does not compile: {e:?}"
            )))),
        };
    }
    let with_sources = compiler.file_descriptor_set();
    // The schema data carries no source info (the Java client's descriptors have none) and
    // lists the files in the client's order: the bytes must be the ones it would upload.
    let mut set = java_order::order(with_sources.clone(), name);
    for file in &mut set.file {
        file.source_code_info = None;
    }
    let files = opened.borrow().clone();
    let sources = Sources {
        set: with_sources,
        files,
    };
    Loaded::compiled(set.encode_to_vec(), name, root_message, shown, sources)
        .map(Protox::Compiled)
        .map_err(Failed::Other)
}

fn find_protoc(protoc: ProtocOptions, found: &EditionsFile) -> Result<Protoc, Error> {
    Protoc::find(protoc).map_err(|e| {
        Error::input(format!(
            "{}: {}, and protocompat compiles such files with protoc: {e}",
            ErrorRule::UnsupportedFeature.id(),
            uses_editions(found)
        ))
    })
}

/// Which file of the set uses Editions: the reason protoc runs at all.
fn uses_editions(found: &EditionsFile) -> String {
    if found.imported {
        format!(
            "the imported file `{}` ({}) uses Protobuf Editions (edition = \"{}\")",
            found.name, found.shown, found.edition
        )
    } else {
        format!(
            "file `{}` uses Protobuf Editions (edition = \"{}\")",
            found.name, found.edition
        )
    }
}

/// Which files of a root declare `message` (a full name), each with its schema; `shown` tells
/// how the user knows a file. A cheap look at each file's text for the message's simple name,
/// then a compile of the few that mention it: in the process with protox, and those that
/// need protoc all in one protoc run ([`super::protoc::declaring`]). A candidate that leaves
/// the roots (or imports a file that does) is told, not passed over for another.
pub fn files_declaring(
    roots: &Roots,
    message: &str,
    at_most_files: usize,
    protoc: ProtocOptions,
    shown: &dyn Fn(&str) -> String,
) -> Result<Vec<(String, Loaded)>, Error> {
    let simple = message.rsplit('.').next().unwrap_or(message);
    let Some(first) = roots.0.first() else {
        return Ok(Vec::new());
    };
    let mut declaring = Vec::new();
    let mut editions = Vec::new();
    // The first Editions file met, to say why protoc runs.
    let mut why = None;
    for name in first.proto_files(at_most_files)? {
        let Ok(head) = first.read(&name, 16 << 20) else {
            continue;
        };
        if !mentions_message(&head, simple) {
            continue;
        }
        // A file that does not compile declares nothing; one that leaves the roots is told.
        match with_protox(roots, &name, &shown(&name), Some(message)) {
            Ok(Protox::Compiled(loaded)) => declaring.push((name, loaded)),
            // A name no file can have on disk (a crafted git tree's) is no candidate.
            Ok(Protox::Editions(_)) if !confine::plain(&name) => {}
            Ok(Protox::Editions(found)) => {
                why.get_or_insert(found);
                editions.push(name);
            }
            Err(Failed::Refused(error)) => return Err(error),
            Err(Failed::Other(_)) => {}
        }
    }
    if let Some(found) = why {
        // Their files are copied once, checked as protox's reads are, for the one run.
        let names: Vec<&str> = editions.iter().map(String::as_str).collect();
        let copies = closure::for_protoc(roots, &names)?;
        let protoc = find_protoc(protoc, &found)?;
        let by_protoc = super::protoc::declaring(&protoc, &copies, &editions, message, shown)
            .map_err(|e| {
                Error::input(format!(
                    "{}, so protoc compiles it: {e}",
                    uses_editions(&found)
                ))
            })?;
        declaring.extend(by_protoc);
        // In the order of the files, whichever compiler took each.
        declaring.sort_by(|a, b| a.0.cmp(&b.0));
    }
    Ok(declaring)
}

/// Whether `source` has `message NAME` in it, NAME followed by no identifier character.
fn mentions_message(source: &[u8], simple: &str) -> bool {
    let needle = simple.as_bytes();
    let mut rest = source;
    while let Some(at) = find(rest, b"message") {
        let after = rest[at + 7..].trim_ascii_start();
        if after.starts_with(needle)
            && after
                .get(needle.len())
                .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        {
            return true;
        }
        rest = &rest[at + 7..];
    }
    false
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_found_by_its_simple_name_only() {
        assert!(mentions_message(b"message Order {", "Order"));
        assert!(mentions_message(b"x\nmessage\n  Order{", "Order"));
        assert!(!mentions_message(b"message OrderLine {", "Order"));
        assert!(!mentions_message(b"message Line {", "Order"));
    }
}
