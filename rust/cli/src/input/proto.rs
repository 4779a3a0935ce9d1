//! Compiles a `.proto` file in its side's roots into the schema data the Java client would
//! upload, keeping the source positions aside to show where a finding is.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

use prost::Message;
use protocompat::ErrorRule;

use super::roots::{Roots, SideResolver};
use super::{descriptor_set, java_order};
use super::{Loaded, Sources};

/// Compiles the file named `name` in `roots`; `shown` is how the user named it.
pub fn compile(
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
) -> Result<Loaded, String> {
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
            return Err(editions_refused(shown, &found, roots, root_message));
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
    let data = descriptor_set::wrap(set.encode_to_vec(), Some(name), root_message)?;
    let files = opened.borrow().clone();
    Ok(Loaded {
        data,
        label: shown.to_owned(),
        version: None,
        sources: Some(Sources {
            set: with_sources,
            files,
        }),
    })
}

/// UNSUPPORTED_FEATURE for an Editions file, with the protoc command that makes a descriptor
/// set of the named file, which the CLI reads as it is.
fn editions_refused(
    shown: &str,
    found: &super::roots::EditionsFile,
    roots: &Roots,
    root_message: Option<&str>,
) -> String {
    let what = if found.imported {
        format!(
            "the imported file `{}` ({}) uses Protobuf Editions (edition = \"{}\")",
            found.name, found.shown, found.edition
        )
    } else {
        format!(
            "file `{}` uses Protobuf Editions (edition = \"{}\")",
            found.name, found.edition
        )
    };
    let stem = Path::new(shown)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "schema".to_owned());
    let out = format!("{stem}.pb");
    let mut protoc = vec![
        "protoc".to_owned(),
        "--include_imports".to_owned(),
        format!("--descriptor_set_out={}", shell_word(&out)),
    ];
    for root in &roots.0 {
        if let super::roots::Root::Dir(dir) = root {
            protoc.push("-I".to_owned());
            protoc.push(shell_word(&dir.display().to_string()));
        }
    }
    protoc.push(shell_word(shown));
    let root = root_message
        .map(shell_word)
        .unwrap_or_else(|| "<Message>".to_owned());
    format!(
        "{}: {what}, which protocompat cannot compile from .proto source (protox reads syntax \
         proto2 and proto3 only); make a descriptor set with protoc and pass that instead: {}, \
         then protocompat check ... {} --root {root}",
        ErrorRule::UnsupportedFeature.id(),
        protoc.join(" "),
        shell_word(&out)
    )
}

/// `word` as one shell word: as it is when it is plain, else in single quotes.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./=+:,@%".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Which files of a root declare `message` (a full name): a cheap look at each file's text
/// for the message's simple name, then a compile of the few that mention it.
pub fn files_declaring(
    roots: &Roots,
    message: &str,
    at_most_files: usize,
) -> Result<Vec<String>, String> {
    let simple = message.rsplit('.').next().unwrap_or(message);
    let Some(first) = roots.0.first() else {
        return Ok(Vec::new());
    };
    let mut declaring = Vec::new();
    for name in first.proto_files(at_most_files)? {
        let Ok(head) = first.head(&name, 16 << 20) else {
            continue;
        };
        if !mentions_message(&head, simple) {
            continue;
        }
        if compile(roots, &name, &name, Some(message)).is_ok() {
            declaring.push(name);
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
    fn the_protoc_hint_quotes_what_a_shell_would_split() {
        assert_eq!(shell_word("dir/order.proto"), "dir/order.proto");
        assert_eq!(shell_word("my dir/o.proto"), "'my dir/o.proto'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn a_message_is_found_by_its_simple_name_only() {
        assert!(mentions_message(b"message Order {", "Order"));
        assert!(mentions_message(b"x\nmessage\n  Order{", "Order"));
        assert!(!mentions_message(b"message OrderLine {", "Order"));
        assert!(!mentions_message(b"message Line {", "Order"));
    }
}
