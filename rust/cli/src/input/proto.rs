//! Compiles a `.proto` file in its side's roots into the schema data the Java client would
//! upload, keeping the source positions aside to show where a finding is: with protox, or with
//! protoc when a file of the set uses Protobuf Editions ([`super::protoc`] says why).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use prost::Message;
use protocompat::ErrorRule;

use super::java_order;
use super::protoc::{Protoc, ProtocOptions};
use super::roots::{EditionsFile, Roots, SideResolver};
use super::{Loaded, Sources};

/// Compiles the file named `name` in `roots`; `shown` is how the user named it. `protoc` is
/// looked at only for an Editions file.
pub fn compile(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
    protoc: ProtocOptions,
) -> Result<Loaded, String> {
    match with_protox(roots, name, shown, root_message)? {
        Protox::Compiled(loaded) => Ok(loaded),
        Protox::Editions(found) => {
            let protoc = find_protoc(protoc, &found)?;
            super::protoc::compile(&protoc, roots, name, shown, root_message)
                .map_err(|e| format!("{}, so protoc compiles it: {e}", uses_editions(&found)))
        }
    }
}

/// What protox makes of a file: its schema, or the Editions file that stopped it.
enum Protox {
    Compiled(Loaded),
    Editions(EditionsFile),
}

fn with_protox(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
) -> Result<Protox, String> {
    let found = Rc::new(RefCell::new(None));
    let opened = Rc::new(RefCell::new(BTreeMap::new()));
    let mut compiler = protox::Compiler::with_file_resolver(SideResolver {
        roots: roots.clone(),
        root_file: name.to_owned(),
        found: Rc::clone(&found),
        opened: Rc::clone(&opened),
    });
    compiler.include_imports(true).include_source_info(true);
    if let Err(e) = compiler.open_file(name) {
        if let Some(found) = found.borrow_mut().take() {
            return Ok(Protox::Editions(found));
        }
        return Err(format!("does not compile: {e:?}"));
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
    Loaded::compiled(set.encode_to_vec(), name, root_message, shown, sources).map(Protox::Compiled)
}

fn find_protoc(protoc: ProtocOptions, found: &EditionsFile) -> Result<Protoc, String> {
    Protoc::find(protoc).map_err(|e| {
        format!(
            "{}: {}, and protocompat compiles such files with protoc: {e}",
            ErrorRule::UnsupportedFeature.id(),
            uses_editions(found)
        )
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
/// need protoc all in one protoc run ([`super::protoc::declaring`]).
pub fn files_declaring(
    roots: &Roots,
    message: &str,
    at_most_files: usize,
    protoc: ProtocOptions,
    shown: &dyn Fn(&str) -> String,
) -> Result<Vec<(String, Loaded)>, String> {
    let simple = message.rsplit('.').next().unwrap_or(message);
    let Some(first) = roots.0.first() else {
        return Ok(Vec::new());
    };
    let mut declaring = Vec::new();
    let mut editions = Vec::new();
    // The first Editions file met, to say why protoc runs.
    let mut why = None;
    for name in first.proto_files(at_most_files)? {
        let Ok(head) = first.head(&name, 16 << 20) else {
            continue;
        };
        if !mentions_message(&head, simple) {
            continue;
        }
        match with_protox(roots, &name, &shown(&name), Some(message)) {
            Ok(Protox::Compiled(loaded)) => declaring.push((name, loaded)),
            Ok(Protox::Editions(found)) => {
                why.get_or_insert(found);
                editions.push(name);
            }
            Err(_) => {}
        }
    }
    if let Some(found) = why {
        let protoc = find_protoc(protoc, &found)?;
        let by_protoc = super::protoc::declaring(&protoc, roots, &editions, message, shown)
            .map_err(|e| format!("{}, so protoc compiles it: {e}", uses_editions(&found)))?;
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
