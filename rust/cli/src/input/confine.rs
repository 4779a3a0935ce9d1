//! Keeps every read of a side's `.proto` files inside its import roots. A repository can hold a
//! symbolic link (`proto/secret.proto -> /home/me/.ssh/id_rsa`, or a directory link on the
//! way to one): followed, the compiler would read a file the roots do not hold, and its parse
//! error would quote the first token of it, in every output format. So a file whose real path
//! leaves its root is refused by name before anything reads it; a link that stays inside is
//! followed, as protoc follows it. A git tree stores a link as a blob holding its target: that
//! is resolved inside the tree the same way, and never on the disk.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// What a refusal says: the file, as named and where it is, and the root it leaves.
pub struct LeavesRoot {
    pub name: String,
    pub shown: String,
    pub root: String,
    /// Whether the file is imported, rather than the one named on the command line.
    pub imported: bool,
}

impl LeavesRoot {
    pub fn message(&self) -> String {
        let file = if self.imported {
            format!("the imported file `{}` ({})", self.name, self.shown)
        } else if self.shown == self.name {
            format!("`{}`", self.name)
        } else {
            format!("`{}` ({})", self.name, self.shown)
        };
        format!("{file} {}", leaves(&self.root))
    }
}

/// The reason, for a file already named: `leaves its import root proto ...`.
pub fn leaves(root: &str) -> String {
    format!(
        "leaves its import root {root}: a symbolic link on its path points outside the root, \
         and protocompat reads no file outside its import roots (nothing of it was read)"
    )
}

/// The path of `name` under `dir`, unless its real path (symbolic links followed) is outside
/// `dir`'s real path. A file that does not exist is no file to read: its path is returned, for
/// the open to say so.
pub fn in_dir(dir: &Path, name: &str) -> Result<PathBuf, Outside> {
    if !written_inside(name) {
        return Err(Outside);
    }
    let path = dir.join(name);
    let Ok(real) = path.canonicalize() else {
        return Ok(path);
    };
    match dir.canonicalize() {
        Ok(real_dir) if real != real_dir && real.starts_with(&real_dir) => Ok(path),
        _ => Err(Outside),
    }
}

/// Whether `name`, as written, stays under whatever root it is joined to: relative, with no
/// `..`. A name can come from another input (the other side's root file, an import): one that
/// does not stay is no file of any root, and is never joined to one, so that not even whether
/// it exists is looked up outside.
pub fn written_inside(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|part| matches!(part, Component::Normal(_) | Component::CurDir))
}

/// A name as protoc names a file: a relative path of plain parts (no `..` or `.`, no empty
/// part, so no leading `/`, and no `\`). protoc is given no other, and copies are written
/// for it under no other.
pub fn plain(name: &str) -> bool {
    name.split('/')
        .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\\'))
}

/// A path that symbolic links (or its name) take out of its root.
#[derive(Debug, PartialEq)]
pub struct Outside;

/// Whether `path`, as written (no link followed), is under `dir`, as written.
pub fn written_under(path: &Path, dir: &Path) -> bool {
    match (std::path::absolute(path), std::path::absolute(dir)) {
        (Ok(path), Ok(dir)) => lexical(&path).starts_with(lexical(&dir)),
        _ => false,
    }
}

/// `a/./b/../c` as `a/c`, without looking at the disk.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Links followed for one name before it is taken for a loop (Linux's own bound).
const MAX_LINKS: usize = 40;

/// The file of a git tree that `name` opens, following the tree's symbolic links (`links`:
/// each link's name and its target) as a checkout of it would: `Ok(None)` where there is no
/// such file (or a loop of links), `Err` where a link, or the name itself, leads out of the
/// tree's root: an absolute target, or `..` above the root.
pub fn in_tree(
    files: &BTreeMap<String, Vec<u8>>,
    links: &BTreeMap<String, String>,
    name: &str,
) -> Result<Option<String>, Outside> {
    if files.contains_key(name) {
        return Ok(Some(name.to_owned()));
    }
    if name.starts_with('/') {
        return Err(Outside);
    }
    // Components still to walk, the next one last; and the directories walked so far.
    let mut pending: Vec<String> = name.rsplit('/').map(str::to_owned).collect();
    let mut walked: Vec<String> = Vec::new();
    let mut followed = 0;
    while let Some(part) = pending.pop() {
        match part.as_str() {
            "" | "." => continue,
            ".." => {
                if walked.pop().is_none() {
                    return Err(Outside);
                }
                continue;
            }
            _ => walked.push(part),
        }
        let at = walked.join("/");
        if let Some(target) = links.get(&at) {
            followed += 1;
            if followed > MAX_LINKS {
                return Ok(None);
            }
            if target.starts_with('/') {
                return Err(Outside);
            }
            // A link's target is relative to the directory holding it.
            walked.pop();
            pending.extend(target.rsplit('/').map(str::to_owned));
        } else if !pending.is_empty() && files.contains_key(&at) {
            return Ok(None);
        }
    }
    let at = walked.join("/");
    Ok(files.contains_key(&at).then_some(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(
        files: &[&str],
        links: &[(&str, &str)],
    ) -> impl Fn(&str) -> Result<Option<String>, Outside> {
        let files: BTreeMap<String, Vec<u8>> =
            files.iter().map(|f| (f.to_string(), Vec::new())).collect();
        let links: BTreeMap<String, String> = links
            .iter()
            .map(|(l, t)| (l.to_string(), t.to_string()))
            .collect();
        move |name| in_tree(&files, &links, name)
    }

    #[test]
    fn a_tree_link_inside_the_root_opens_its_target() {
        let open = tree(
            &["a/b.proto", "c.proto"],
            &[
                ("a/link.proto", "b.proto"),
                ("up.proto", "a/../c.proto"),
                ("dir", "a"),
                ("a/chain.proto", "../up.proto"),
            ],
        );
        assert_eq!(open("a/b.proto"), Ok(Some("a/b.proto".into())));
        assert_eq!(open("a/link.proto"), Ok(Some("a/b.proto".into())));
        assert_eq!(open("up.proto"), Ok(Some("c.proto".into())));
        assert_eq!(open("dir/b.proto"), Ok(Some("a/b.proto".into())));
        assert_eq!(open("dir/link.proto"), Ok(Some("a/b.proto".into())));
        assert_eq!(open("a/chain.proto"), Ok(Some("c.proto".into())));
        assert_eq!(open("missing.proto"), Ok(None));
        assert_eq!(open("c.proto/x.proto"), Ok(None));
    }

    #[test]
    fn a_tree_link_out_of_the_root_is_refused() {
        let open = tree(
            &["a/b.proto"],
            &[
                ("abs.proto", "/etc/passwd"),
                ("up.proto", "../outside.proto"),
                ("a/deep.proto", "../../x.proto"),
                ("out", ".."),
                ("loop.proto", "loop.proto"),
            ],
        );
        assert_eq!(open("abs.proto"), Err(Outside));
        assert_eq!(open("up.proto"), Err(Outside));
        assert_eq!(open("a/deep.proto"), Err(Outside));
        assert_eq!(open("out/a/b.proto"), Err(Outside));
        assert_eq!(open("../a/b.proto"), Err(Outside));
        assert_eq!(open("/a/b.proto"), Err(Outside));
        assert_eq!(open("loop.proto"), Ok(None));
    }

    #[test]
    fn a_name_from_an_input_stays_under_its_root_as_written() {
        for name in [
            "a.proto",
            "a/b.proto",
            "./a.proto",
            "a//b.proto",
            "-o.proto",
        ] {
            assert!(written_inside(name), "{name}");
        }
        for name in [
            "",
            "/etc/passwd",
            "../a.proto",
            "a/../../b.proto",
            "a/../b.proto",
        ] {
            assert!(!written_inside(name), "{name}");
        }
    }

    #[test]
    fn only_plain_relative_names_reach_protoc() {
        for name in ["a.proto", "-o.proto", "@x.proto", "a/b c.proto"] {
            assert!(plain(name), "{name}");
        }
        for name in [
            "/a.proto",
            "../a.proto",
            "a/./b.proto",
            "a//b.proto",
            "a\\b.proto",
            "",
        ] {
            assert!(!plain(name), "{name}");
        }
    }

    #[test]
    fn a_path_is_under_a_directory_as_written() {
        assert!(written_under(
            Path::new("proto/a.proto"),
            Path::new("proto")
        ));
        assert!(written_under(
            Path::new("./proto/x/../a.proto"),
            Path::new("proto/")
        ));
        assert!(!written_under(
            Path::new("proto/../a.proto"),
            Path::new("proto")
        ));
        assert!(!written_under(
            Path::new("protos/a.proto"),
            Path::new("proto")
        ));
        assert!(written_under(Path::new("a.proto"), Path::new(".")));
    }
}
