//! Turns what the user names into Pulsar PROTOBUF_NATIVE schema data, the bytes the broker
//! would hold, so the engine sees exactly what a broker sees. Each side of a check is loaded
//! with import roots of its own.

mod closure;
mod confine;
mod descriptor_set;
mod editions;
mod git;
mod imports;
pub mod java_order;
pub mod json_names;
pub mod overlay;
mod proto;
mod protoc;
mod pulsar;
pub mod roots;
pub mod wire;

use crate::console::Error;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use prost_types::FileDescriptorSet;
use protocompat::model::SchemaData;

pub use confine::written_inside;
pub use protoc::ProtocOptions;
use roots::{Root, Roots};

/// One schema of a side, ready for the engine.
#[derive(Clone)]
pub struct Loaded {
    pub data: Vec<u8>,
    /// How the user knows it: a file, `.git#ref=main:acme/order.proto`, a topic.
    pub label: String,
    /// Pulsar's version number, where the input gives it.
    pub version: Option<i64>,
    /// Where its declarations are written, for a schema compiled from `.proto` source.
    pub sources: Option<Sources>,
}

impl Loaded {
    /// A schema compiled from `.proto` source, by protox or protoc: `set`, the root file's
    /// closure in the Java client's order, with JSON names as generated classes carry them
    /// ([`json_names`]), so that the schema data is what a Java producer uploads; wrapped as
    /// Pulsar's schema data for the root file `name`, and `sources` for the positions of its
    /// declarations.
    fn compiled(
        set: Vec<u8>,
        name: &str,
        root_message: Option<&str>,
        shown: &str,
        sources: Sources,
    ) -> Result<Loaded, Error> {
        let set = json_names::as_generated(&set, &sources.set)
            .map_err(|e| Error::input(format!("{shown}: the compiled descriptor set: {e}")))?;
        Ok(Loaded {
            data: descriptor_set::wrap(set, Some(name), root_message)?,
            label: shown.to_owned(),
            version: None,
            sources: Some(sources),
        })
    }

    /// The label, with Pulsar's version where known: `persistent://public/default/orders version 3`.
    pub fn describe(&self) -> String {
        match self.version {
            Some(version) => format!("{} version {version}", self.label),
            None => self.label.clone(),
        }
    }
}

/// The descriptors of a compiled schema with their source positions, and where each file is.
#[derive(Clone)]
pub struct Sources {
    pub set: FileDescriptorSet,
    /// File name in the set → the path that opens it.
    pub files: BTreeMap<String, String>,
}

/// An input as written on the command line: a path, or a git tree at a ref.
#[derive(Debug, PartialEq)]
pub enum Spec {
    Path(PathBuf),
    Git {
        repo: PathBuf,
        rev: String,
        subdir: String,
        label: String,
    },
}

impl Spec {
    /// `path`, `dir#subdir=proto`, `.git#ref=main,subdir=proto` (Buf's `branch=`, `tag=` and
    /// `commit=` are read as `ref=`). A path ending in `.git` is a repository at HEAD.
    pub fn parse(text: &str) -> Result<Spec, Error> {
        let (path, options) = match text.split_once('#') {
            Some((path, options)) => (path, Some(options)),
            None => (text, None),
        };
        let mut rev = None;
        let mut subdir = String::new();
        for option in options.into_iter().flat_map(|o| o.split(',')) {
            match option.split_once('=') {
                Some(("ref" | "branch" | "tag" | "commit", value)) if !value.is_empty() => {
                    rev = Some(value.to_owned())
                }
                Some(("subdir", value)) => subdir = value.to_owned(),
                _ => {
                    return Err(Error::input(format!(
                        "input `{text}`: unknown option `{option}`; an input takes ref=REF \
                         (or branch=, tag=, commit=) and subdir=DIR, as in .git#ref=main,subdir=proto"
                    )))
                }
            }
        }
        let path = if path.is_empty() { "." } else { path };
        let is_git_dir = path.trim_end_matches('/').ends_with(".git");
        match rev.or_else(|| is_git_dir.then(|| "HEAD".to_owned())) {
            Some(rev) => Ok(Spec::Git {
                repo: PathBuf::from(path),
                rev,
                subdir,
                label: text.to_owned(),
            }),
            None if subdir.is_empty() => Ok(Spec::Path(PathBuf::from(path))),
            None => Ok(Spec::Path(Path::new(path).join(subdir))),
        }
    }
}

/// What a side is loaded with besides its input.
pub struct SideOptions<'a> {
    /// The root message's full name, from --root, or the other side's.
    pub root_message: Option<&'a str>,
    /// Import roots besides the input's own (a directory or tree is its own first root).
    pub includes: &'a [PathBuf],
    /// In a directory or tree, the file to compare: the other side's root file.
    pub counterpart: Option<&'a str>,
    /// The protoc that --protoc names, and its time limit, for Editions files.
    pub protoc: ProtocOptions<'a>,
}

/// Files of a directory or tree looked at to find the one that declares the root message.
const MAX_SCANNED_FILES: usize = 20_000;

/// Every schema `spec` names: one for a file, each version for a saved history.
pub fn load(spec: &Spec, options: &SideOptions) -> Result<Vec<Loaded>, Error> {
    match find(spec, options)? {
        Found::Schemas(schemas) => Ok(schemas),
        Found::Absent(why) => Err(Error::absent(why)),
    }
}

/// What a side holds for the schema asked for.
pub enum Found {
    Schemas(Vec<Loaded>),
    /// A directory or git tree in which no file declares the root message (and none has the
    /// other side's file name): the message is new there. Says so, in words.
    Absent(String),
}

/// As [`load`], but a directory or tree that lacks the message says so rather than failing:
/// against a baseline, a schema the baseline lacks is new.
pub fn find(spec: &Spec, options: &SideOptions) -> Result<Found, Error> {
    match spec {
        Spec::Git {
            repo,
            rev,
            subdir,
            label,
        } => {
            let tree = git::read_tree(repo, rev, subdir, label)?;
            in_tree(Root::Tree(Rc::new(tree)), options)
        }
        Spec::Path(path) if path.is_dir() => in_tree(Root::Dir(path.clone()), options),
        Spec::Path(path) => load_file(path, options).map(Found::Schemas),
    }
}

fn one(loaded: Loaded) -> Result<Vec<Loaded>, Error> {
    Ok(vec![loaded])
}

fn load_file(path: &Path, options: &SideOptions) -> Result<Vec<Loaded>, Error> {
    let shown = path.display().to_string();
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if extension == "proto" {
        if !path.is_file() {
            return Err(Error::input("cannot read the file: no such file"));
        }
        let roots = Roots::from_includes(options.includes);
        let name = roots.name_of(path)?;
        return one(proto::compile(
            &roots,
            &name,
            &shown,
            options.root_message,
            options.protoc,
        )?);
    }
    let bytes = fs::read(path).map_err(|e| Error::input(format!("cannot read the file: {e}")))?;
    if matches!(extension.as_str(), "pb" | "binpb" | "desc" | "protoset") {
        return one(Loaded {
            data: descriptor_set::wrap(bytes, None, options.root_message)?,
            label: shown,
            version: None,
            sources: None,
        });
    }
    let schemas = pulsar::schemas(bytes)?;
    let several = schemas.len() > 1;
    Ok(schemas
        .into_iter()
        .enumerate()
        .map(|(index, schema)| Loaded {
            label: match (schema.version, several) {
                (Some(_), _) => shown.clone(),
                (None, true) => format!("{shown} [{index}]"),
                (None, false) => shown.clone(),
            },
            data: schema.data,
            version: schema.version,
            sources: None,
        })
        .collect())
}

/// The schema of a directory or tree: the other side's root file if it has one by that name,
/// else the one file that declares the root message.
fn in_tree(first: Root, options: &SideOptions) -> Result<Found, Error> {
    let mut roots = vec![first.clone()];
    roots.extend(options.includes.iter().cloned().map(Root::Dir));
    let roots = Roots(roots);
    if let Some(name) = options
        .counterpart
        .filter(|name| roots.find(name).is_some())
    {
        return one(proto::compile(
            &roots,
            name,
            &first.display(name),
            options.root_message,
            options.protoc,
        )?)
        .map(Found::Schemas);
    }
    let Some(message) = options.root_message else {
        return Err(Error::input(format!(
            "{} is a directory of .proto files: name the root message with --root so that the \
             file declaring it is found",
            roots.describe()
        )));
    };
    let shown = |name: &str| first.display(name);
    let mut found =
        proto::files_declaring(&roots, message, MAX_SCANNED_FILES, options.protoc, &shown)?;
    if found.len() == 1 {
        return Ok(Found::Schemas(vec![found.remove(0).1]));
    }
    let names: Vec<&str> = found.iter().map(|(name, _)| name.as_str()).collect();
    match names.as_slice() {
        [] => Ok(Found::Absent(format!(
            "no .proto file of {} declares `{message}`{}",
            first_label(&first),
            options
                .counterpart
                .map(|name| format!(" (and it has no `{name}`)"))
                .unwrap_or_default()
        ))),
        several => Err(Error::input(format!(
            "{} files of {} declare `{message}`: {}",
            several.len(),
            first_label(&first),
            several.join(", ")
        ))),
    }
}

fn first_label(root: &Root) -> String {
    match root {
        Root::Dir(dir) => dir.display().to_string(),
        Root::Tree(tree) => tree.label.clone(),
    }
}

/// The root message and root file a schema's data names, to find the same in another side.
pub fn root_of(data: &[u8]) -> Option<(String, String)> {
    SchemaData::parse(data)
        .ok()
        .map(|d| (d.root_message, d.root_file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use serde_json::Value;

    fn data(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/editions")
            .join(name)
    }

    /// A descriptor set protoc made of an Editions file reaches the schema data byte for byte:
    /// the `edition` field and the feature options, which prost-types 0.14 has no fields for,
    /// are not lost to a decode and re-encode. (Whether the engine accepts it is its business.)
    #[test]
    fn a_protoc_editions_descriptor_set_is_wrapped_unchanged() {
        let pb = data("order.pb");
        let bytes = fs::read(&pb).unwrap();
        for root in [None, Some("shop.Order"), Some("Order")] {
            let options = SideOptions {
                root_message: root,
                includes: &[],
                counterpart: None,
                protoc: ProtocOptions {
                    path: None,
                    timeout: std::time::Duration::from_secs(60),
                },
            };
            let loaded = load(&Spec::Path(pb.clone()), &options).unwrap();
            let json: Value = serde_json::from_slice(&loaded[0].data).unwrap();
            let set = base64::engine::general_purpose::STANDARD
                .decode(json["fileDescriptorSet"].as_str().unwrap())
                .unwrap();
            assert_eq!(set, bytes, "--root {root:?}");
            assert_eq!(json["rootMessageTypeName"], "shop.Order");
            assert_eq!(json["rootFileDescriptorName"], "order.proto");
        }
    }

    #[test]
    fn inputs_are_paths_or_git_trees() {
        assert_eq!(
            Spec::parse("v1/order.proto"),
            Ok(Spec::Path("v1/order.proto".into()))
        );
        assert_eq!(
            Spec::parse("v1#subdir=proto"),
            Ok(Spec::Path("v1/proto".into()))
        );
        assert_eq!(
            Spec::parse(".git#branch=main,subdir=proto"),
            Ok(Spec::Git {
                repo: ".git".into(),
                rev: "main".into(),
                subdir: "proto".into(),
                label: ".git#branch=main,subdir=proto".into(),
            })
        );
        assert!(matches!(Spec::parse("../repo.git"), Ok(Spec::Git { rev, .. }) if rev == "HEAD"));
        assert!(Spec::parse(".git#depth=1")
            .unwrap_err()
            .message()
            .contains("unknown option `depth=1`"));
    }
}
