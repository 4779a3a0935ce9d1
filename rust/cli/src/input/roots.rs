//! A side's import roots: where its `.proto` files and their imports are found, and nowhere
//! else. Each side of a check (the proposed schema, the existing ones) has roots of its own, so
//! an import of one side can never resolve to a file of the other.

use crate::console::Error;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read as _};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use protox::file::{File, FileResolver, GoogleFileResolver};

use super::confine::{self, LeavesRoot};
use super::editions;
use super::overlay;

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
    /// Its symbolic links, by name: each one's target, as git stores it.
    pub links: BTreeMap<String, String>,
    /// For the copy of a directory's files that protoc is given ([`super::closure`]): the
    /// directory, which the copy is shown as.
    pub copied_from: Option<PathBuf>,
    /// For a tree read from git: where its files are in the work tree (`src/main/proto/`),
    /// so that a finding in it is located at a path an editor opens.
    pub worktree: Option<String>,
}

/// Why a file of a root was not read.
pub enum Read {
    /// Symbolic links take it out of its root: nothing of it is read.
    LeavesRoot,
    Failed(io::Error),
}

impl Root {
    fn describe(&self) -> String {
        match self {
            Root::Dir(dir) => dir.display().to_string(),
            Root::Tree(tree) => match &tree.copied_from {
                Some(dir) => dir.display().to_string(),
                None => tree.label.clone(),
            },
        }
    }

    /// Where a file of this root is shown to the user: a path that opens it, or `tree:name`.
    pub fn display(&self, name: &str) -> String {
        let in_dir = |dir: &Path| {
            if dir == Path::new(".") {
                name.to_owned()
            } else {
                shown_path(&dir.join(name))
            }
        };
        match self {
            Root::Dir(dir) => in_dir(dir),
            Root::Tree(tree) => match &tree.copied_from {
                Some(dir) => in_dir(dir),
                None => format!("{}:{name}", tree.label),
            },
        }
    }

    /// Where a declaration of file `name` is located for the user: in a git tree, the file's
    /// path in the work tree (its lines are those at the ref); else as [`Root::display`].
    pub fn source_path(&self, name: &str) -> String {
        match self {
            Root::Tree(tree) if tree.copied_from.is_none() => match &tree.worktree {
                Some(prefix) => format!("{prefix}{name}"),
                None => self.display(name),
            },
            _ => self.display(name),
        }
    }

    /// Whether `name` is a file of this root. One that symbolic links take out of the root
    /// counts, so that the import finds it here and is refused, rather than found in a later
    /// root. A name that leaves it as written (`/etc/x.proto`, `../x.proto`: another side's
    /// root file, an import) is no file of any root, and nothing outside is looked at.
    pub fn has(&self, name: &str) -> bool {
        if !confine::written_inside(name) {
            return false;
        }
        match self {
            Root::Dir(dir) => dir.join(name).is_file(),
            Root::Tree(tree) => {
                !matches!(confine::in_tree(&tree.files, &tree.links, name), Ok(None))
            }
        }
    }

    /// The refusal of `name`, a file of this root that leaves it.
    pub fn leaves(&self, name: &str, imported: bool) -> LeavesRoot {
        LeavesRoot {
            name: name.to_owned(),
            shown: self.display(name),
            root: self.describe(),
            imported,
        }
    }

    /// A tree of `files` (read from this root) shown as this root is.
    pub fn copy(&self, files: BTreeMap<String, Vec<u8>>) -> Tree {
        let (label, copied_from, worktree) = match self {
            Root::Dir(dir) => (dir.display().to_string(), Some(dir.clone()), None),
            Root::Tree(tree) => (
                tree.label.clone(),
                tree.copied_from.clone(),
                tree.worktree.clone(),
            ),
        };
        Tree {
            label,
            files,
            links: BTreeMap::new(),
            copied_from,
            worktree,
        }
    }

    /// Every `.proto` file under this root, by name.
    pub fn proto_files(&self, at_most: usize) -> Result<Vec<String>, Error> {
        match self {
            Root::Tree(tree) => Ok(tree.files.keys().take(at_most).cloned().collect()),
            Root::Dir(dir) => {
                let mut names = Vec::new();
                let mut pending = vec![(dir.clone(), String::new())];
                while let Some((path, prefix)) = pending.pop() {
                    let entries = fs::read_dir(&path).map_err(|e| {
                        Error::input(format!("cannot list {}: {e}", path.display()))
                    })?;
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

    /// The first bytes of a file, at most `at_most`: the whole of it, or enough to see an
    /// `edition` statement or a message's name. Nothing is read of a file outside the root.
    pub fn read(&self, name: &str, at_most: u64) -> Result<Vec<u8>, Read> {
        match self {
            Root::Dir(dir) => {
                let path = confine::in_dir(dir, name).map_err(|_| Read::LeavesRoot)?;
                if let Some(buffer) = overlay::buffer(&path) {
                    let bytes = buffer.as_bytes();
                    return Ok(bytes[..bytes.len().min(at_most as usize)].to_vec());
                }
                let mut head = Vec::new();
                fs::File::open(path)
                    .and_then(|file| file.take(at_most).read_to_end(&mut head))
                    .map_err(Read::Failed)?;
                Ok(head)
            }
            Root::Tree(tree) => match confine::in_tree(&tree.files, &tree.links, name) {
                Err(_) => Err(Read::LeavesRoot),
                Ok(None) => Err(Read::Failed(io::ErrorKind::NotFound.into())),
                Ok(Some(file)) => {
                    let bytes = &tree.files[&file];
                    Ok(bytes[..bytes.len().min(at_most as usize)].to_vec())
                }
            },
        }
    }

    fn open(&self, name: &str) -> Result<File, protox::Error> {
        let refused =
            || protox::Error::new(format!("{name} {}", confine::leaves(&self.describe())));
        match self {
            Root::Dir(dir) => {
                let path = confine::in_dir(dir, name).map_err(|_| refused())?;
                match overlay::buffer(&path) {
                    Some(buffer) => File::from_source(name, &buffer),
                    None => File::open(name, &path),
                }
            }
            Root::Tree(tree) => {
                let file = confine::in_tree(&tree.files, &tree.links, name)
                    .map_err(|_| refused())?
                    .ok_or_else(|| protox::Error::file_not_found(name))?;
                let bytes = &tree.files[&file];
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
    /// So is a file written under a root that symbolic links take out of it ([`confine`]).
    pub fn name_of(&self, path: &Path) -> Result<String, Error> {
        let file = fs::canonicalize(path)
            .map_err(|e| Error::input(format!("cannot read the file: {e}")))?;
        let written_under: Vec<&Path> = self
            .0
            .iter()
            .filter_map(|root| match root {
                Root::Dir(dir) if confine::written_under(path, dir) => Some(dir.as_path()),
                _ => None,
            })
            .collect();
        let stays_in = |dir: &&Path| fs::canonicalize(dir).is_ok_and(|dir| file.starts_with(dir));
        if let Some(dir) = written_under.first() {
            if !written_under.iter().any(stays_in) {
                return Err(Error::input(format!(
                    "the file {}",
                    confine::leaves(&dir.display().to_string())
                )));
            }
        }
        for (index, root) in self.0.iter().enumerate() {
            let Root::Dir(dir) = root else { continue };
            let Ok(dir) = fs::canonicalize(dir) else {
                continue;
            };
            let Ok(relative) = file.strip_prefix(&dir) else {
                continue;
            };
            let name = proto_name(relative).ok_or_else(|| {
                Error::input(format!(
                    "cannot name `{}` as a .proto import",
                    path.display()
                ))
            })?;
            if let Some(earlier) = self.0[..index].iter().find(|r| r.has(&name)) {
                return Err(Error::input(format!(
                    "`{name}` is shadowed: import root {} also holds a `{name}` ({}), and an \
                     import of `{name}` would find that one; put the root that holds this file \
                     first, or compare two trees with --against",
                    earlier.describe(),
                    earlier.display(&name)
                )));
            }
            return Ok(name);
        }
        Err(Error::input(format!(
            "the file is not under any import root ({}); protoc refuses it too. Name the \
             directory its imports are relative to with -I (here, likely -I {}), and compare two \
             trees with --against, which gives the existing side roots of its own",
            self.describe(),
            likely_root(path).display()
        )))
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

/// Why the resolver stopped protox: it is told as an error, which protox wraps in its own.
pub enum Stop {
    /// protoc compiles the set instead.
    Editions(EditionsFile),
    /// Refused, and nothing of it read.
    LeavesRoot(LeavesRoot),
}

/// Looks files up in a side's roots only (then in the files protox bundles:
/// `google/protobuf/descriptor.proto` and the well-known types). A file is first looked at for
/// an `edition` statement: protox cannot parse Editions files (it stops at `edition` with a
/// parse error), so protox is stopped before it parses one, and `stop` says which file, for
/// protoc to compile the whole set instead. A file that leaves its root stops protox too.
pub struct SideResolver {
    pub roots: Roots,
    /// The file named on the command line: every other file opened is an import.
    pub root_file: String,
    pub stop: Rc<RefCell<Option<Stop>>>,
    /// Where each opened file came from, to show positions in it.
    pub opened: Rc<RefCell<BTreeMap<String, String>>>,
}

impl FileResolver for SideResolver {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        let Some(root) = self.roots.find(name) else {
            return GoogleFileResolver::new().open_file(name);
        };
        let imported = name != self.root_file;
        let stop = |stop: Stop, said: String| {
            self.stop.borrow_mut().get_or_insert(stop);
            Err(protox::Error::new(said))
        };
        match root.read(name, EDITION_SCAN_BYTES) {
            Err(Read::LeavesRoot) => {
                let refused = root.leaves(name, imported);
                let said = refused.message();
                return stop(Stop::LeavesRoot(refused), said);
            }
            // protox reads it again and reports any other problem with the file its way.
            Err(Read::Failed(_)) => {}
            Ok(head) => {
                if let Some(edition) = editions::declared_edition(&head) {
                    let found = EditionsFile {
                        name: name.to_owned(),
                        shown: root.display(name),
                        edition,
                        imported,
                    };
                    return stop(
                        Stop::Editions(found),
                        format!("{name} is a Protobuf Editions file"),
                    );
                }
            }
        }
        self.opened
            .borrow_mut()
            .insert(name.to_owned(), root.source_path(name));
        root.open(name)
    }
}
