//! `protocompat init`: a first project file for an existing service, from a broker's topics
//! or from the `.proto` files of its tree. Names and roots a broker gives are the broker's
//! (or whoever wrote its topics): each is checked as the project file's reader checks it,
//! skipped if it fails, and written double-quoted with every special character escaped, so
//! that no value can add a key, a line or a comment.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::args::InitArgs;
use crate::broker::{self, Client};
use crate::console::{self, print_err};
use crate::project::{quote, valid_entry};

/// Files looked at in the tree: a service's own, not a vendored universe.
const MAX_FILES: usize = 10_000;
/// Topics asked about on a broker.
const MAX_TOPICS: usize = crate::project::model::MAX_TOPICS;

/// A topic for the file: its name, root, file (under the project) and strategy.
struct Entry {
    name: String,
    root: String,
    file: Option<String>,
    strategy: &'static str,
    /// Said above the entry in the file.
    comment: Option<&'static str>,
}

pub fn run(args: &InitArgs) -> ExitCode {
    let refuse = |message: &str| console::refuse("init", None, None, message, |_| None);
    if args.output.exists() && !args.force {
        return refuse(&format!(
            "{} exists; --force replaces it",
            args.output.display()
        ));
    }
    let include = args.include.clone().unwrap_or_else(|| {
        if Path::new("proto").is_dir() {
            PathBuf::from("proto")
        } else {
            PathBuf::from(".")
        }
    });
    let local = match proto_files(&include) {
        Ok(files) => files,
        Err(message) => return refuse(&message),
    };
    let entries = match &args.admin_url {
        Some(url) => match from_broker(args, url, &include, &local) {
            Ok(entries) => entries,
            Err(message) => return refuse(&message),
        },
        None => from_tree(&include, &local),
    };
    if entries.is_empty() {
        return refuse("found no topic to write: no PROTOBUF_NATIVE topic with a schema, or no .proto file declaring a message");
    }
    let text = render(args, &include, &entries);
    let written = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .create_new(!args.force)
        .open(&args.output)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    if let Err(e) = written {
        return refuse(&format!("cannot write {}: {e}", args.output.display()));
    }
    print_err(&format!(
        "protocompat init: wrote {} with {} topic{}; check each name, root and strategy, then run `protocompat check`",
        args.output.display(),
        entries.len(),
        if entries.len() == 1 { "" } else { "s" }
    ));
    ExitCode::SUCCESS
}

/// The PROTOBUF_NATIVE topics of the namespaces asked for, with the root of their latest
/// schema, and the file of `local` that has the root file's name.
fn from_broker(
    args: &InitArgs,
    url: &str,
    include: &Path,
    local: &[(String, String)],
) -> Result<Vec<Entry>, String> {
    let client = Client::connect(&args.access, url, broker::AUDIT_TIMEOUT)?;
    let namespaces = match (&args.namespace, &args.tenant) {
        (Some(namespace), _) => vec![namespace.clone()],
        (None, Some(tenant)) => namespaces_of(&client, tenant)?,
        (None, None) => {
            let mut all = Vec::new();
            for tenant in broker::names(&client, "/admin/v2/tenants", "the tenants")? {
                all.extend(namespaces_of(&client, &tenant)?);
            }
            all
        }
    };
    let mut topics = BTreeSet::new();
    for namespace in namespaces {
        let Some((tenant, local_name)) = namespace.split_once('/') else {
            return Err(format!(
                "namespace `{namespace}`: expected tenant/namespace"
            ));
        };
        let path = format!(
            "/admin/v2/persistent/{}/{}",
            broker::encode(tenant),
            broker::encode(local_name)
        );
        broker::each_name(
            &client,
            &path,
            &format!("the topics of {namespace}"),
            |topic| {
                if let Ok(name) = broker::schema_name(topic) {
                    if topics.len() < MAX_TOPICS {
                        topics.insert(format!("persistent://{name}"));
                    }
                }
                Ok(())
            },
        )?;
    }
    let mut entries = Vec::new();
    for topic in topics {
        let Ok((name, history)) = broker::history(&client, &topic) else {
            continue; // another schema type, or unreadable: not a topic of ours
        };
        let Some((root, root_file)) = history
            .schemas
            .last()
            .and_then(|latest| crate::input::root_of(&latest.data))
        else {
            continue;
        };
        if !valid_entry(&name, &root) {
            print_err(&format!(
                "protocompat init: skipped {}: its name or root `{}` is not one a project file takes",
                protocompat::text::printable(&name),
                protocompat::text::printable(&root)
            ));
            continue;
        }
        let file = local
            .iter()
            .find(|(file, _)| *file == root_file)
            .map(|(file, _)| under(include, file));
        entries.push(Entry {
            name,
            root,
            file,
            strategy: "broker",
            comment: None,
        });
    }
    Ok(entries)
}

fn namespaces_of(client: &Client, tenant: &str) -> Result<Vec<String>, String> {
    broker::names(
        client,
        &format!("/admin/v2/namespaces/{}", broker::encode(tenant)),
        &format!("the namespaces of {tenant}"),
    )
}

/// Each file declaring a message, as a topic of its first message; the topic's name is a
/// guess (public/default, the message's name) for the user to correct, and a file other files
/// import is said to be perhaps shared types rather than a topic's.
fn from_tree(include: &Path, local: &[(String, String)]) -> Vec<Entry> {
    let imported: BTreeSet<String> = local.iter().flat_map(|(_, text)| imports(text)).collect();
    local
        .iter()
        .filter_map(|(name, text)| {
            let (package, message) = first_message(text)?;
            let root = if package.is_empty() {
                message.clone()
            } else {
                format!("{package}.{message}")
            };
            let topic = format!("persistent://public/default/{}", kebab(&message));
            valid_entry(&topic, &root).then(|| Entry {
                name: topic,
                root,
                file: Some(under(include, name)),
                strategy: "FULL",
                comment: imported.contains(name).then_some(
                    "other files import this one: if it only holds shared types, take it out",
                ),
            })
        })
        .collect()
}

fn render(args: &InitArgs, include: &Path, entries: &[Entry]) -> String {
    let mut out = String::from(
        "# Point your editor at protocompat's docs/protocompat.schema.json for completion and checks.\n\
         # Written by `protocompat init`: check each topic's name, root, file and strategy.\n\
         version: 1\nbaseline:\n",
    );
    match &args.admin_url {
        Some(url) => out.push_str(&format!("  admin-url: {}\n", quote(url))),
        None => out.push_str(&format!("  git: {}\n", quote(&args.git_ref))),
    }
    out.push_str(&format!(
        "imports: [{}]\ntopics:\n",
        quote(&include.display().to_string())
    ));
    for entry in entries {
        if let Some(comment) = entry.comment {
            out.push_str(&format!("  # {comment}\n"));
        }
        out.push_str(&format!(
            "  - name: {}\n    root: {}\n",
            quote(&entry.name),
            quote(&entry.root)
        ));
        if let Some(file) = &entry.file {
            out.push_str(&format!("    file: {}\n", quote(file)));
        }
        out.push_str(&format!("    strategy: {}\n", entry.strategy));
    }
    out
}

/// The `.proto` files under `root`, by name under it, with their text; hidden directories
/// and links are not followed.
fn proto_files(root: &Path) -> Result<Vec<(String, String)>, String> {
    let mut found = Vec::new();
    let mut pending = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = pending.pop() {
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() && !name.starts_with('.') && name != "target" && name != "node_modules"
            {
                pending.push((entry.path(), format!("{prefix}{name}/")));
            } else if kind.is_file() && name.ends_with(".proto") {
                if found.len() == MAX_FILES {
                    return Err(format!("more than {MAX_FILES} .proto files under {}: name the service's import root with -I", root.display()));
                }
                let text = fs::read(entry.path())
                    .map(|b| String::from_utf8_lossy(&b[..b.len().min(1 << 20)]).into_owned())
                    .unwrap_or_default();
                found.push((format!("{prefix}{name}"), text));
            }
        }
    }
    found.sort();
    Ok(found)
}

fn under(include: &Path, name: &str) -> String {
    if include == Path::new(".") {
        name.to_owned()
    } else {
        format!(
            "{}/{name}",
            include.display().to_string().trim_end_matches('/')
        )
    }
}

/// The files a `.proto` text imports: `import "a/b.proto";` (and `import public`, `weak`).
fn imports(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix("import")?;
            let start = rest.find('"')? + 1;
            let end = start + rest[start..].find('"')?;
            Some(rest[start..end].to_owned())
        })
        .collect()
}

/// The package and the first top-level message of a `.proto` text, read by tokens: enough
/// for a suggestion, which the check compiles properly.
fn first_message(text: &str) -> Option<(String, String)> {
    let mut package = String::new();
    let mut depth = 0usize;
    let mut words = Vec::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        for token in line.split_inclusive(['{', '}', ';']) {
            let opens = token.ends_with('{');
            let closes = token.ends_with('}');
            words.extend(
                token
                    .trim_end_matches(['{', '}', ';'])
                    .split_whitespace()
                    .map(str::to_owned),
            );
            if depth == 0 && words.first().is_some_and(|w| w == "package") && token.ends_with(';') {
                package = words.get(1).cloned().unwrap_or_default();
            }
            if depth == 0 && opens && words.first().is_some_and(|w| w == "message") {
                return words.get(1).map(|m| (package, m.clone()));
            }
            if opens {
                depth += 1;
            }
            if closes {
                depth = depth.saturating_sub(1);
            }
            if opens || closes || token.ends_with(';') {
                words.clear();
            }
        }
    }
    None
}

/// `OrderEvent` as `order-event`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_no_other_imports_is_a_topic_of_its_first_message() {
        let local = vec![
            ("shop/order.proto".to_owned(), "syntax = \"proto3\";\npackage shop;\nmessage Order { message Line {} }\nmessage Money {}\n".to_owned()),
            ("shop/shipment.proto".to_owned(), "package shop;\nimport \"shop/order.proto\";\n// message Nope {\nmessage Shipment {}\n".to_owned()),
        ];
        let entries = from_tree(Path::new("proto"), &local);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].root, "shop.Order");
        assert!(entries[0].comment.is_some(), "shipment.proto imports it");
        assert_eq!(entries[1].root, "shop.Shipment");
        assert_eq!(entries[1].name, "persistent://public/default/shipment");
        assert_eq!(
            entries[1].file.as_deref(),
            Some("proto/shop/shipment.proto")
        );
        assert!(entries[1].comment.is_none());
        assert!(!crate::project::valid_entry(
            "persistent://a/b/c\nx",
            "shop.Order"
        ));
    }
}
