//! A side's import roots: where its `.proto` files and their imports are found, and nowhere
//! else. Each side of a check (the proposed schema, the existing ones) has roots of its own, so
//! an import of one side can never resolve to a file of the other.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use protox::file::{File, FileResolver, GoogleFileResolver};

use super::editions;

/// One import root: a directory, or a tree read from git into memory.
#[derive(Clone)]
pub enum Root {
    Dir(PathBuf),
    Tree(Rc<Tree>),
}

/// `.proto` files of a git tree, by their name under the tree's root directory.
pub struct Tree {
    /// How the user named it: `.git#ref=main,subdir=proto`.
    pub label: String,
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Root {
    fn describe(&self) -> String {
        match self {
            Root::Dir(dir) => dir.display().to_string(),
            Root::Tree(tree) => tree.label.clone(),
        }
    }

    /// Where a file of this root is shown to the user: a path that opens it, or `tree:name`.
    pub fn display(&self, name: &str) -> String {
        match self {
            Root::Dir(dir) if dir == Path::new(".") => name.to_owned(),
            Root::Dir(dir) => shown_path(&dir.join(name)),
            Root::Tree(tree) => format!("{}:{name}", tree.label),
        }
    }

    fn has(&self, name: &str) -> bool {
        match self {
            Root::Dir(dir) => dir.join(name).is_file(),
            Root::Tree(tree) => tree.files.contains_key(name),
        }
    }

    /// Every `.proto` file under this root, by name.
    pub fn proto_files(&self, at_most: usize) -> Result<Vec<String>, String> {
        match self {
            Root::Tree(tree) => Ok(tree.files.keys().take(at_most).cloned().collect()),
            Root::Dir(dir) => {
                let mut names = Vec::new();
                let mut pending = vec![(dir.clone(), String::new())];
                while let Some((path, prefix)) = pending.pop() {
                    let entries = fs::read_dir(&path)
                        .map_err(|e| format!("cannot list {}: {e}", path.display()))?;
                    for entry in entries.flatten() {
                        let name = entry.file_name().to_string_lossy().into_owned();
                        let Ok(kind) = entry.file_type() else {
                            continue;
                        };
                        if kind.is_dir() && !name.starts_with('.') {
                            pending.push((entry.path(), format!("{prefix}{name}/")));
                        } else if kind.is_file() && name.ends_with(".proto") {
                            names.push(format!("{prefix}{name}"));
                            if names.len() >= at_most {
                                return Ok(names);
                            }
                        }
                    }
                }
                names.sort();
                Ok(names)
            }
        }
    }

    /// The first bytes of a file: enough to see an `edition` statement or a message's name.
    pub fn head(&self, name: &str, at_most: u64) -> io::Result<Vec<u8>> {
        match self {
            Root::Dir(dir) => {
                let mut head = Vec::new();
                fs::File::open(dir.join(name))?
                    .take(at_most)
                    .read_to_end(&mut head)?;
                Ok(head)
            }
            Root::Tree(tree) => tree
                .files
                .get(name)
                .map(|bytes| bytes[..bytes.len().min(at_most as usize)].to_vec())
                .ok_or_else(|| io::ErrorKind::NotFound.into()),
        }
    }

    fn open(&self, name: &str) -> Result<File, protox::Error> {
        match self {
            Root::Dir(dir) => File::open(name, &dir.join(name)),
            Root::Tree(tree) => {
                let bytes = tree
                    .files
                    .get(name)
                    .ok_or_else(|| protox::Error::file_not_found(name))?;
                let source = std::str::from_utf8(bytes).map_err(|_| {
                    protox::Error::new(format!("{}:{name} is not valid UTF-8", tree.label))
                })?;
                File::from_source(name, source)
            }
        }
    }
}

/// A path as the user would type it: relative to the current directory when under it.
pub fn shown_path(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    match relative {
        Some(relative) if !relative.as_os_str().is_empty() => relative.display().to_string(),
        _ => path.display().to_string(),
    }
}

/// The import roots of one side, in the order imports are looked up.
#[derive(Clone)]
pub struct Roots(pub Vec<Root>);

impl Roots {
    /// `-I` directories as given, or the current directory, as protoc does.
    pub fn from_includes(includes: &[PathBuf]) -> Roots {
        if includes.is_empty() {
            Roots(vec![Root::Dir(PathBuf::from("."))])
        } else {
            Roots(includes.iter().cloned().map(Root::Dir).collect())
        }
    }

    pub fn describe(&self) -> String {
        let roots: Vec<String> = self.0.iter().map(Root::describe).collect();
        roots.join(", ")
    }

    /// The name protoc gives `path` with these roots: its path under the first root holding it.
    /// A file under none of them is refused, as protoc refuses it, rather than renamed; and a
    /// file that an earlier root shadows is refused, since its imports would not be its own.
    pub fn name_of(&self, path: &Path) -> Result<String, String> {
        let file = fs::canonicalize(path).map_err(|e| format!("cannot read the file: {e}"))?;
        for (index, root) in self.0.iter().enumerate() {
            let Root::Dir(dir) = root else { continue };
            let Ok(dir) = fs::canonicalize(dir) else {
                continue;
            };
            let Ok(relative) = file.strip_prefix(&dir) else {
                continue;
            };
            let name = proto_name(relative)
                .ok_or_else(|| format!("cannot name `{}` as a .proto import", path.display()))?;
            if let Some(earlier) = self.0[..index].iter().find(|r| r.has(&name)) {
                return Err(format!(
                    "`{name}` is shadowed: import root {} also holds a `{name}` ({}), and an \
                     import of `{name}` would find that one; put the root that holds this file \
                     first, or compare two trees with --against",
                    earlier.describe(),
                    earlier.display(&name)
                ));
            }
            return Ok(name);
        }
        Err(format!(
            "the file is not under any import root ({}); protoc refuses it too. Name the \
             directory its imports are relative to with -I (here, likely -I {}), and compare two \
             trees with --against, which gives the existing side roots of its own",
            self.describe(),
            likely_root(path).display()
        ))
    }

    /// Which root holds `name`, if any.
    pub fn find(&self, name: &str) -> Option<&Root> {
        self.0.iter().find(|root| root.has(name))
    }
}

/// The directory a file's imports are likely relative to: the nearest enclosing directory that
/// holds every file it imports (protobuf's own excepted), else the one its package names as
/// the path to it (`package acme.orders.v1;` in `proto/acme/orders/v1/`), else its own.
fn likely_root(path: &Path) -> PathBuf {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let source = fs::read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 20)]).into_owned())
        .unwrap_or_default();
    let imports: Vec<&str> = source
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("import"))
        .filter_map(|rest| rest.split('"').nth(1))
        .filter(|name| !name.starts_with("google/protobuf/"))
        .collect();
    if !imports.is_empty() {
        if let Some(dir) = parent
            .ancestors()
            .find(|dir| imports.iter().all(|name| dir.join(name).is_file()))
        {
            return dir.to_path_buf();
        }
    }
    let package = source
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("package "))
        .map(|rest| {
            rest.trim_end()
                .trim_end_matches(';')
                .trim()
                .replace('.', "/")
        });
    match package {
        Some(package) if !package.is_empty() && parent.ends_with(&package) => {
            let depth = package.split('/').count();
            let mut root = parent.to_path_buf();
            for _ in 0..depth {
                root.pop();
            }
            if root.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                root
            }
        }
        _ => parent.to_path_buf(),
    }
}

/// `acme/orders/order.proto` from a relative path; `None` for `..` or odd components.
fn proto_name(relative: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?.to_owned()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// An Editions file met while compiling: the named file itself, or one of its imports.
pub struct EditionsFile {
    pub name: String,
    pub shown: String,
    pub edition: String,
    pub imported: bool,
}

/// How much of a file is read to find its first statement: past any licence header.
const EDITION_SCAN_BYTES: u64 = 1 << 20;

/// Looks files up in a side's roots only (then in the files protox bundles:
/// `google/protobuf/descriptor.proto` and the well-known types). A file is first looked at for
/// an `edition` statement: protox cannot parse Editions files (it stops at `edition` with a
/// parse error), so protox is stopped before it parses one, and `found` says which file, for
/// protoc to compile the whole set instead.
pub struct SideResolver {
    pub roots: Roots,
    /// The file named on the command line: every other file opened is an import.
    pub root_file: String,
    pub found: Rc<RefCell<Option<EditionsFile>>>,
    /// Where each opened file came from, to show positions in it.
    pub opened: Rc<RefCell<BTreeMap<String, String>>>,
}

impl FileResolver for SideResolver {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        let Some(root) = self.roots.find(name) else {
            return GoogleFileResolver::new().open_file(name);
        };
        match root.head(name, EDITION_SCAN_BYTES) {
            // protox reads it again and reports any other problem with the file its way.
            Err(_) => {}
            Ok(head) => {
                if let Some(edition) = editions::declared_edition(&head) {
                    *self.found.borrow_mut() = Some(EditionsFile {
                        name: name.to_owned(),
                        shown: root.display(name),
                        edition,
                        imported: name != self.root_file,
                    });
                    return Err(protox::Error::new(format!(
                        "{name} is a Protobuf Editions file"
                    )));
                }
            }
        }
        self.opened
            .borrow_mut()
            .insert(name.to_owned(), root.display(name));
        root.open(name)
    }
}
