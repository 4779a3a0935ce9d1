//! Compiles a `.proto` file in its side's roots into the schema data the Java client would
//! upload, keeping the source positions aside to show where a finding is: with protox, or with
//! protoc when a file of the set uses Protobuf Editions ([`super::protoc`] says why).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

use prost::Message;
use protocompat::ErrorRule;

use super::closure;
use super::java_order;
use super::protoc::Protoc;
use super::roots::{EditionsFile, Roots, SideResolver, Stop};
use super::{Loaded, Sources};

/// Why a file did not compile.
enum Failed {
    /// It, or a file it imports, leaves its import root (or protoc's copies of its files are
    /// past their bounds): refused, whatever else it holds.
    Refused(String),
    Other(String),
}

/// Compiles the file named `name` in `roots`; `shown` is how the user named it. `protoc` is
/// the --protoc flag, looked at only for an Editions file.
pub fn compile(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
    protoc: Option<&Path>,
) -> Result<Loaded, String> {
    compile_or_refuse(roots, name, shown, root_message, protoc).map_err(|failed| match failed {
        Failed::Refused(message) | Failed::Other(message) => message,
    })
}

fn compile_or_refuse(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
    protoc: Option<&Path>,
) -> Result<Loaded, Failed> {
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
            Some(Stop::LeavesRoot(refused)) => Err(Failed::Refused(refused.message())),
            Some(Stop::Editions(found)) => {
                with_protoc(roots, name, shown, root_message, protoc, &found)
            }
            None => Err(Failed::Other(format!("does not compile: {e:?}"))),
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
    Loaded::compiled(set.encode_to_vec(), name, root_message, shown, sources).map_err(Failed::Other)
}

/// The set compiled by protoc, from copies of its files made after the checks protox's reads
/// get ([`closure`]). A root file name that protoc would take for an option (`-…`) or a file of
/// arguments (`@…`) is refused.
fn with_protoc(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
    protoc: Option<&Path>,
    found: &EditionsFile,
) -> Result<Loaded, Failed> {
    let copies = closure::for_protoc(roots, name).map_err(Failed::Refused)?;
    if name.starts_with(['-', '@']) {
        return Err(Failed::Other(format!(
            "{}, and protoc would read its name `{name}` as an option: rename the file, or \
             its directory",
            uses_editions(found)
        )));
    }
    let protoc = Protoc::find(protoc).map_err(|e| {
        Failed::Other(format!(
            "{}: {}, and protocompat compiles such files with protoc: {e}",
            ErrorRule::UnsupportedFeature.id(),
            uses_editions(found)
        ))
    })?;
    super::protoc::compile(&protoc, &copies, name, shown, root_message).map_err(|e| {
        Failed::Other(format!(
            "{}, so protoc compiles it: {e}",
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

/// Which files of a root declare `message` (a full name): a cheap look at each file's text
/// for the message's simple name, then a compile of the few that mention it.
pub fn files_declaring(
    roots: &Roots,
    message: &str,
    at_most_files: usize,
    protoc: Option<&Path>,
) -> Result<Vec<String>, String> {
    let simple = message.rsplit('.').next().unwrap_or(message);
    let Some(first) = roots.0.first() else {
        return Ok(Vec::new());
    };
    let mut declaring = Vec::new();
    for name in first.proto_files(at_most_files)? {
        let Ok(head) = first.read(&name, 16 << 20) else {
            continue;
        };
        if !mentions_message(&head, simple) {
            continue;
        }
        // A file that does not compile declares nothing; one that leaves the roots is told.
        match compile_or_refuse(roots, &name, &name, Some(message), protoc) {
            Ok(_) => declaring.push(name),
            Err(Failed::Refused(message)) => return Err(message),
            Err(Failed::Other(_)) => {}
        }
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
