//! Reads the `.proto` files of a git tree at a ref into memory, through the git command, so
//! that a check against `main` needs no checkout and leaves nothing behind.

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
/// its target), which are followed inside the tree only ([`super::confine::in_tree`]).
pub fn read_tree(repo: &Path, rev: &str, subdir: &str, label: &str) -> Result<Tree, String> {
    let subdir = subdir.trim_matches('/');
    let tree = if subdir.is_empty() {
        format!("{rev}^{{tree}}")
    } else {
        format!("{rev}:{subdir}")
    };
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
                return Err(format!(
                    "{label} holds more than {MAX_FILES} .proto files and links; name a smaller \
                     subdir="
                ));
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
    })
}

/// The mode git gives a symbolic link.
const LINK_MODE: &str = "120000";

/// Every blob's content through one `git cat-file --batch`.
fn read_blobs(
    repo: &Path,
    wanted: Vec<(String, String)>,
    label: &str,
) -> Result<BTreeMap<String, Vec<u8>>, String> {
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
        .map_err(|e| format!("cannot run git: {e}"))?;
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
            .map_err(|e| format!("git cat-file: {e}"))?;
        let size: u64 = header
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("git cat-file answered `{}`", header.trim()))?;
        total += size;
        if total > MAX_BYTES {
            let _ = child.kill();
            return Err(format!(
                "{label}: its .proto files are over {} MiB; name a smaller subdir=",
                MAX_BYTES >> 20
            ));
        }
        let mut content = vec![0; size as usize + 1];
        out.read_exact(&mut content)
            .map_err(|e| format!("git cat-file: {e}"))?;
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

fn git(repo: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = git_command(repo)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(output.stdout)
}
