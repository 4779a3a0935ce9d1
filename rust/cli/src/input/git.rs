//! Reads the `.proto` files of a git tree at a ref into memory, through the git command, so
//! that a check against `main` needs no checkout and leaves nothing behind.

use crate::console::Error;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::roots::Tree;

/// Bounds on what one tree may bring into memory.
const MAX_FILES: usize = 50_000;
const MAX_BYTES: u64 = 512 << 20;

/// The `.proto` files under `subdir` of `rev`'s tree in the repository at `repo`, named by
/// their path under `subdir`, and the tree's symbolic links (git keeps each as a blob holding
/// its target), which are followed inside the tree only ([`super::confine::in_tree`]). A ref
/// the repository lacks is refused with the command that fetches it; a `subdir` that `rev`
/// lacks is an empty tree: what is declared in it at `rev` is nothing.
pub fn read_tree(repo: &Path, rev: &str, subdir: &str, label: &str) -> Result<Tree, Error> {
    // `subdir=.`, `./proto`, `proto/`: git's `REV:PATH` takes `.` for the current directory,
    // not the tree's root, so a `.` part would name another tree, or none.
    let parts: Vec<&str> = subdir
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    let subdir = parts.join("/");
    let subdir = subdir.as_str();
    let rev = &resolve_ref(repo, rev, label)?;
    let worktree = worktree_prefix(repo, subdir);
    let tree = if subdir.is_empty() {
        format!("{rev}^{{tree}}")
    } else {
        format!("{rev}:{subdir}")
    };
    if !subdir.is_empty() && git(repo, &["cat-file", "-e", &tree]).is_err() {
        return Ok(Tree {
            label: label.to_owned(),
            files: BTreeMap::new(),
            links: BTreeMap::new(),
            copied_from: None,
            worktree,
        });
    }
    let listing = git(repo, &["ls-tree", "-r", "-z", "--full-tree", &tree])?;
    let mut wanted: Vec<(String, String)> = Vec::new();
    let mut link_names = BTreeSet::new();
    for entry in listing.split(|&b| b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, name)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (mode, kind, object) = (meta.next(), meta.next(), meta.next());
        // A link may name a directory on the way to a file: every one is kept, whatever its name.
        let is_link = mode == Some(LINK_MODE);
        if kind == Some("blob") && (is_link || name.ends_with(".proto")) {
            if wanted.len() == MAX_FILES {
                return Err(Error::input(format!(
                    "{label} holds more than {MAX_FILES} .proto files and links; name a smaller \
                     subdir="
                )));
            }
            if is_link {
                link_names.insert(name.to_owned());
            }
            wanted.push((name.to_owned(), object.unwrap_or_default().to_owned()));
        }
    }
    let mut files = read_blobs(repo, wanted, label)?;
    let mut links = BTreeMap::new();
    for name in link_names {
        if let Some(target) = files.remove(&name) {
            links.insert(name, String::from_utf8_lossy(&target).into_owned());
        }
    }
    Ok(Tree {
        label: label.to_owned(),
        files,
        links,
        copied_from: None,
        worktree,
    })
}

/// The commit `rev` names: itself, or for a branch name the clone has only as a remote branch
/// (CI's checkout of a pull request has `origin/main`, not `main`), `origin/REV`. A ref the
/// repository does not have at all is refused, saying how to get it: in CI, a clone is often
/// shallow or holds the checked-out branch alone.
fn resolve_ref(repo: &Path, rev: &str, label: &str) -> Result<String, Error> {
    let is_commit = |rev: &str| {
        let commit = format!("{rev}^{{commit}}");
        git(repo, &["rev-parse", "--verify", "--quiet", &commit]).is_ok()
    };
    if is_commit(rev) {
        return Ok(rev.to_owned());
    }
    let plain_branch = !rev.is_empty()
        && !rev.starts_with('-')
        && !rev.contains(['~', '^', '@', ':', '/'])
        && !rev.bytes().all(|b| b.is_ascii_hexdigit());
    if plain_branch {
        let remote = format!("origin/{rev}");
        if is_commit(&remote) {
            return Ok(remote);
        }
    }
    if git(repo, &["rev-parse", "--git-dir"]).is_err() {
        return Err(Error::input(format!(
            "{label}: {} is not a git repository (or git cannot read it)",
            repo.display()
        )));
    }
    Err(Error::input(format!(
        "{label}: the repository has no commit `{rev}`: fetch it first ({}; in GitHub Actions, \
         actions/checkout with `fetch-depth: 0`; in GitLab CI, `GIT_DEPTH: 0`)",
        fetch_hint(rev)
    )))
}

/// The command that brings `rev` into the repository.
fn fetch_hint(rev: &str) -> String {
    if let Some(branch) = rev.strip_prefix("origin/") {
        format!("`git fetch origin {branch}`")
    } else if rev.len() >= 7 && rev.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!("`git fetch origin {rev}`, or `git fetch --unshallow`")
    } else if rev.contains(['~', '^', '@']) {
        "`git fetch --unshallow`, or fetch the branch it names".to_owned()
    } else {
        format!("`git fetch origin {rev}:{rev}`")
    }
}

/// Where `subdir` of the repository is in its work tree, as a path from the current
/// directory (`src/main/proto/`); `None` for a repository without a work tree (a bare one).
fn worktree_prefix(repo: &Path, subdir: &str) -> Option<String> {
    let work = match repo.file_name().and_then(|n| n.to_str()) {
        Some(".git") => match repo.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        },
        Some(name) if name.ends_with(".git") => return None,
        _ => repo,
    };
    let top = git(work, &["rev-parse", "--show-toplevel"]).ok()?;
    let top = std::path::PathBuf::from(String::from_utf8(top).ok()?.trim_end_matches('\n'));
    let dir = if subdir.is_empty() {
        top
    } else {
        top.join(subdir)
    };
    let shown = super::roots::shown_path(&dir);
    // The current directory itself is shown as nothing, so that names start at the file.
    let cwd = std::env::current_dir().ok();
    if cwd.is_some_and(|cwd| cwd == dir || dir.canonicalize().ok() == cwd.canonicalize().ok()) {
        return Some(String::new());
    }
    Some(format!("{}/", shown.trim_end_matches('/')))
}

/// The mode git gives a symbolic link.
const LINK_MODE: &str = "120000";

/// Every blob's content through one `git cat-file --batch`.
fn read_blobs(
    repo: &Path,
    wanted: Vec<(String, String)>,
    label: &str,
) -> Result<BTreeMap<String, Vec<u8>>, Error> {
    let mut files = BTreeMap::new();
    if wanted.is_empty() {
        return Ok(files);
    }
    let mut child = git_command(repo)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::input(format!("cannot run git: {e}")))?;
    let mut stdin = child.stdin.take().expect("piped");
    let objects: String = wanted
        .iter()
        .map(|(_, object)| format!("{object}\n"))
        .collect();
    // Written from a thread: git answers while it reads, and a full pipe would stall both.
    let writer = std::thread::spawn(move || stdin.write_all(objects.as_bytes()));
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut total = 0u64;
    for (name, _) in wanted {
        let mut header = String::new();
        out.read_line(&mut header)
            .map_err(|e| Error::input(format!("git cat-file: {e}")))?;
        let size: u64 = header
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Error::input(format!("git cat-file answered `{}`", header.trim())))?;
        total += size;
        if total > MAX_BYTES {
            let _ = child.kill();
            return Err(Error::input(format!(
                "{label}: its .proto files are over {} MiB; name a smaller subdir=",
                MAX_BYTES >> 20
            )));
        }
        let mut content = vec![0; size as usize + 1];
        out.read_exact(&mut content)
            .map_err(|e| Error::input(format!("git cat-file: {e}")))?;
        content.pop();
        files.insert(name, content);
    }
    let _ = writer.join();
    let _ = child.wait();
    Ok(files)
}

fn git_command(repo: &Path) -> Command {
    let mut command = Command::new("git");
    // A path that names a git directory (`.git`, `x.git`) is one; anything else is a work tree.
    let is_git_dir = repo
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".git"));
    if is_git_dir {
        command.arg("--git-dir").arg(repo);
    } else {
        command.arg("-C").arg(repo);
    }
    command
}

fn git(repo: &Path, args: &[&str]) -> Result<Vec<u8>, Error> {
    let output = git_command(repo)
        .args(args)
        .output()
        .map_err(|e| Error::input(format!("cannot run git: {e}")))?;
    if !output.status.success() {
        return Err(Error::input(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(output.stdout)
}
