//! `--fix`'s writes, all or nothing: a fix spread over several files, half of it written, is a
//! tree that may not compile and that the user has to mend by hand. Each new text is first
//! written in full beside its target (in the same directory, so that the rename over the target
//! is atomic) and flushed to disk; only when every one is there are they renamed over their
//! targets. A target already renamed when a later one fails gets its old text back, the same
//! way.
//!
//! What a rename cannot keep of a file: its other hard links keep the old text (the target's
//! name is given a new file), and its extended attributes and ACLs are not copied. Its
//! permissions are, and its owner where the CLI may set it (as root). A target that is a
//! symbolic link is written through: the file it points at gets the new text, the link stays
//! a link (a rename over the link would have put a plain file in its place). A target the CLI
//! could not write in place (a read-only file) is refused, as a plain write would be, though the
//! directory would allow the rename.

use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::console::Error;

/// One file's new text, and the text it had when read (to restore it).
pub struct FileWrite {
    pub path: PathBuf,
    pub text: String,
    pub was: String,
}

/// A new text on disk beside its target, not yet renamed over it.
struct Staged {
    /// The file written: the path itself, or the file its link points at.
    target: PathBuf,
    temporary: PathBuf,
}

/// Writes every file or none: each new text goes to a temporary file beside its target, fsynced;
/// only when all are written are they renamed over their targets. If any step fails, the
/// temporaries are removed and any target already renamed gets its old text back. Keeps each
/// target's permissions. The error says which file and why, and whether restoring succeeded.
pub fn write_all(files: &[FileWrite]) -> Result<(), Error> {
    write_all_with(files, |from, to| fs::rename(from, to))
}

/// [`write_all`] with the rename that puts the new texts in place given, so that a test can
/// make one fail after others succeeded; restoring uses the real one.
fn write_all_with(
    files: &[FileWrite],
    rename: impl Fn(&Path, &Path) -> io::Result<()>,
) -> Result<(), Error> {
    let mut staged = Vec::with_capacity(files.len());
    for file in files {
        match stage(&file.path, &file.text) {
            Ok(one) => staged.push(one),
            Err(e) => {
                discard(&staged);
                return Err(Error::input(format!(
                    "cannot write {}: {e}; no file was changed",
                    file.path.display()
                )));
            }
        }
    }
    for (index, one) in staged.iter().enumerate() {
        if let Err(e) = rename(&one.temporary, &one.target) {
            discard(&staged[index..]);
            let failed = format!("cannot write {}: {e}", files[index].path.display());
            if index == 0 {
                return Err(Error::input(format!("{failed}; no file was changed")));
            }
            let written: Vec<&Path> = staged[..index].iter().map(|s| s.target.as_path()).collect();
            let back = put_back(&files[..index], &written);
            sync_directories(&written);
            let names = files[..index]
                .iter()
                .map(|f| f.path.display().to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(Error::input(match back {
                Ok(()) => format!("{failed}; restored the old text of {names}, written before it"),
                Err(why) => format!(
                    "{failed}; restoring the old text of {names}, written before it, failed for \
                     {why}: check the files with your VCS"
                ),
            }));
        }
    }
    let targets: Vec<&Path> = staged.iter().map(|s| s.target.as_path()).collect();
    sync_directories(&targets);
    Ok(())
}

/// Puts back the old texts (used when a later step — compiling the written files — fails),
/// atomically per file, all attempted.
pub fn restore_all(files: &[FileWrite]) -> Result<(), Error> {
    let mut failed = Vec::new();
    let mut targets = Vec::new();
    for file in files {
        match replace(&file.path, &file.was) {
            Ok(target) => targets.push(target),
            Err(e) => failed.push(format!("{}: {e}", file.path.display())),
        }
    }
    sync_directories(&targets.iter().map(PathBuf::as_path).collect::<Vec<_>>());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::input(format!(
            "cannot restore {}",
            failed.join("; ")
        )))
    }
}

/// The old text of each of `files` put back into `targets` (their resolved paths); every one is
/// attempted. The error names each that could not be, and why: a list the caller's message
/// says in its words.
fn put_back(files: &[FileWrite], targets: &[&Path]) -> Result<(), String> {
    let failed: Vec<String> = files
        .iter()
        .zip(targets)
        .filter_map(|(file, target)| {
            replace(target, &file.was)
                .err()
                .map(|e| format!("{} ({e})", file.path.display()))
        })
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join(", "))
    }
}

/// `text` written over `path` (through a link), atomically; the file written.
fn replace(path: &Path, text: &str) -> io::Result<PathBuf> {
    let staged = stage(path, text)?;
    if let Err(e) = fs::rename(&staged.temporary, &staged.target) {
        discard(std::slice::from_ref(&staged));
        return Err(e);
    }
    Ok(staged.target)
}

/// `text` written to a new file beside `path`'s target, with the target's permissions (and
/// owner, where that may be set), flushed to disk.
fn stage(path: &Path, text: &str) -> io::Result<Staged> {
    let target = if fs::symlink_metadata(path)?.file_type().is_symlink() {
        fs::canonicalize(path)?
    } else {
        path.to_path_buf()
    };
    let metadata = fs::metadata(&target)?;
    if !metadata.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    // Opened, not truncated: only to learn that a plain write would be allowed.
    OpenOptions::new().write(true).open(&target)?;
    let (mut file, temporary) = create_beside(&target)?;
    let written = (|| {
        file.write_all(text.as_bytes())?;
        keep_owner(&file, &metadata);
        file.set_permissions(metadata.permissions())?;
        file.sync_all()
    })();
    drop(file);
    match written {
        Ok(()) => Ok(Staged { target, temporary }),
        Err(e) => {
            let _ = fs::remove_file(&temporary);
            Err(e)
        }
    }
}

/// A new file, readable by its owner only until it gets the target's permissions, in the
/// target's directory: `.NAME.protocompat-PID-N.tmp`, which names the file it was for if a crash
/// leaves it behind.
fn create_beside(target: &Path) -> io::Result<(File, PathBuf)> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let directory = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Short enough that the temporary's name stays within a file system's 255 bytes.
    let mut end = name.len().min(100);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let name = &name[..end];
    loop {
        let temporary = directory.join(format!(
            ".{name}.protocompat-{}-{}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&temporary) {
            Ok(file) => return Ok((file, temporary)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The target's owner and group given to the new file, where the CLI may (as root, or a group
/// of its own); else the file is the CLI's, as any file it creates.
fn keep_owner(file: &File, target: &fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(target.uid()), Some(target.gid()));
    }
    #[cfg(not(unix))]
    let _ = (file, target);
}

fn discard(staged: &[Staged]) {
    for one in staged {
        let _ = fs::remove_file(&one.temporary);
    }
}

/// The renames flushed to disk: each directory written into, once. A directory that cannot be
/// opened or synced (not every system allows it) leaves the renames to the system's own time.
fn sync_directories(targets: &[&Path]) {
    let directories: BTreeSet<&Path> = targets
        .iter()
        .map(|t| {
            t.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
        })
        .collect();
    for directory in directories {
        if let Ok(handle) = File::open(directory) {
            let _ = handle.sync_all();
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "protocompat-fix-write-{}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(path: &Path, was: &str, text: &str) -> FileWrite {
        fs::write(path, was).unwrap();
        FileWrite {
            path: path.to_path_buf(),
            text: text.to_owned(),
            was: was.to_owned(),
        }
    }

    /// Every name in `dir` and its subdirectories, relative to it.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(at) = pending.pop() {
            for entry in fs::read_dir(&at).unwrap() {
                let path = entry.unwrap().path();
                names.push(path.strip_prefix(dir).unwrap().display().to_string());
                if path.is_dir() && !path.is_symlink() {
                    pending.push(path);
                }
            }
        }
        names.sort();
        names
    }

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn every_file_gets_its_new_text_and_keeps_its_permissions() {
        let dir = dir("all");
        fs::create_dir_all(dir.join("sub")).unwrap();
        let files = [
            write(&dir.join("a.proto"), "a old", "a new"),
            write(&dir.join("sub/b.proto"), "b old", "b new"),
        ];
        fs::set_permissions(&files[0].path, fs::Permissions::from_mode(0o640)).unwrap();
        fs::set_permissions(&files[1].path, fs::Permissions::from_mode(0o755)).unwrap();
        write_all(&files).unwrap();
        assert_eq!(fs::read_to_string(&files[0].path).unwrap(), "a new");
        assert_eq!(fs::read_to_string(&files[1].path).unwrap(), "b new");
        assert_eq!(mode(&files[0].path), 0o640);
        assert_eq!(mode(&files[1].path), 0o755);
        assert_eq!(listing(&dir), ["a.proto", "sub", "sub/b.proto"]);
        restore_all(&files).unwrap();
        assert_eq!(fs::read_to_string(&files[0].path).unwrap(), "a old");
        assert_eq!(fs::read_to_string(&files[1].path).unwrap(), "b old");
        assert_eq!(mode(&files[0].path), 0o640);
        assert_eq!(listing(&dir), ["a.proto", "sub", "sub/b.proto"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The second target is a directory: nothing is written, the first file keeps its text,
    /// and no temporary is left.
    #[test]
    fn a_directory_in_place_of_the_second_file_changes_nothing() {
        let dir = dir("directory");
        let first = write(&dir.join("a.proto"), "a old", "a new");
        fs::create_dir_all(dir.join("b.proto")).unwrap();
        let second = FileWrite {
            path: dir.join("b.proto"),
            text: "b new".into(),
            was: "b old".into(),
        };
        let error = write_all(&[first, second]).unwrap_err().to_string();
        assert!(
            error.contains("b.proto: not a regular file; no file was changed"),
            "{error}"
        );
        assert_eq!(fs::read_to_string(dir.join("a.proto")).unwrap(), "a old");
        assert_eq!(listing(&dir), ["a.proto", "b.proto"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The second target's directory cannot be written in: the temporary beside it cannot be
    /// made, and the first file keeps its text. Root may write there all the same, so the case
    /// is left out where it can.
    #[test]
    fn a_read_only_directory_for_the_second_file_changes_nothing() {
        let dir = dir("read-only");
        fs::create_dir_all(dir.join("locked")).unwrap();
        let first = write(&dir.join("a.proto"), "a old", "a new");
        let second = write(&dir.join("locked/b.proto"), "b old", "b new");
        fs::set_permissions(dir.join("locked"), fs::Permissions::from_mode(0o555)).unwrap();
        let probe = dir.join("locked/probe");
        if fs::write(&probe, "").is_ok() {
            let _ = fs::remove_file(&probe);
            fs::set_permissions(dir.join("locked"), fs::Permissions::from_mode(0o755)).unwrap();
            let _ = fs::remove_dir_all(&dir);
            eprintln!("skipped: this user can write into a read-only directory (root)");
            return;
        }
        let error = write_all(&[first, second]).unwrap_err().to_string();
        fs::set_permissions(dir.join("locked"), fs::Permissions::from_mode(0o755)).unwrap();
        assert!(error.contains("b.proto"), "{error}");
        assert!(error.ends_with("no file was changed"), "{error}");
        assert_eq!(fs::read_to_string(dir.join("a.proto")).unwrap(), "a old");
        assert_eq!(
            fs::read_to_string(dir.join("locked/b.proto")).unwrap(),
            "b old"
        );
        assert_eq!(listing(&dir), ["a.proto", "locked", "locked/b.proto"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The renames fail at the third file: the two renamed before it get their old text back
    /// (with their permissions), and no temporary is left.
    #[test]
    fn a_rename_that_fails_puts_back_the_files_renamed_before_it() {
        let dir = dir("rename-fails");
        let files = [
            write(&dir.join("a.proto"), "a old", "a new"),
            write(&dir.join("b.proto"), "b old", "b new"),
            write(&dir.join("c.proto"), "c old", "c new"),
        ];
        fs::set_permissions(&files[1].path, fs::Permissions::from_mode(0o600)).unwrap();
        let c = files[2].path.clone();
        let error = write_all_with(&files, |from, to| {
            if to == c {
                Err(io::Error::other("disk on fire"))
            } else {
                fs::rename(from, to)
            }
        })
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("c.proto: disk on fire; restored the old text of ")
                && error.contains("a.proto, ")
                && error.ends_with("b.proto, written before it"),
            "{error}"
        );
        for (file, old) in files.iter().zip(["a old", "b old", "c old"]) {
            assert_eq!(fs::read_to_string(&file.path).unwrap(), old);
        }
        assert_eq!(mode(&files[1].path), 0o600);
        assert_eq!(listing(&dir), ["a.proto", "b.proto", "c.proto"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A link is written through: the file it points at gets the text, the link stays a link.
    #[test]
    fn a_link_is_written_through() {
        let dir = dir("link");
        fs::create_dir_all(dir.join("real")).unwrap();
        fs::write(dir.join("real/a.proto"), "a old").unwrap();
        std::os::unix::fs::symlink("real/a.proto", dir.join("a.proto")).unwrap();
        let files = [FileWrite {
            path: dir.join("a.proto"),
            text: "a new".into(),
            was: "a old".into(),
        }];
        write_all(&files).unwrap();
        assert!(dir.join("a.proto").is_symlink());
        assert_eq!(
            fs::read_to_string(dir.join("real/a.proto")).unwrap(),
            "a new"
        );
        restore_all(&files).unwrap();
        assert!(dir.join("a.proto").is_symlink());
        assert_eq!(
            fs::read_to_string(dir.join("real/a.proto")).unwrap(),
            "a old"
        );
        assert_eq!(listing(&dir), ["a.proto", "real", "real/a.proto"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Restoring tries every file: one that cannot be written is named, the others are back.
    #[test]
    fn restoring_tries_every_file() {
        let dir = dir("restore");
        let a = write(&dir.join("a.proto"), "a new", "a new");
        fs::create_dir_all(dir.join("b.proto")).unwrap();
        let b = FileWrite {
            path: dir.join("b.proto"),
            text: String::new(),
            was: "b old".into(),
        };
        let c = write(&dir.join("c.proto"), "c new", "c new");
        let files = [
            FileWrite {
                was: "a old".into(),
                ..a
            },
            b,
            FileWrite {
                was: "c old".into(),
                ..c
            },
        ];
        let error = restore_all(&files).unwrap_err().to_string();
        assert!(error.contains("b.proto: not a regular file"), "{error}");
        assert!(
            !error.contains("a.proto") && !error.contains("c.proto"),
            "{error}"
        );
        assert_eq!(fs::read_to_string(dir.join("a.proto")).unwrap(), "a old");
        assert_eq!(fs::read_to_string(dir.join("c.proto")).unwrap(), "c old");
        assert_eq!(listing(&dir), ["a.proto", "b.proto", "c.proto"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
