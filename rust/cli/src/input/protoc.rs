//! Compiles `.proto` files that use Protobuf Editions with protoc, which protox cannot parse.
//!
//! Which compiler: protox for an input set of proto2 and proto3 files only, protoc as soon as
//! one file of the set (the named file or any import, however deep) declares `edition = …`,
//! and then for the whole set, since one compiler has to resolve every import. protox stays
//! the default because it runs in the process (no subprocess per file, which a directory
//! search makes by the dozen), needs nothing installed, and is what every existing proto2 and
//! proto3 check was made with: their schema data stays the same bytes. protoc is needed only
//! where protox has no answer at all.
//!
//! Which protoc, as build tools look for it: `--protoc PATH`, else the `PROTOC` environment
//! variable, else `protoc` on `PATH`, else the binary the `protoc-bin-vendored` crate carries
//! (protoc 36.2 in its 3.3 release, which reads editions 2023 and 2024), so that a user with
//! nothing installed can check Editions files too. That crate's binary stays in cargo's
//! registry, where the build found it: a `protocompat` copied to another machine has to be
//! given a protoc.
//!
//! The descriptor set protoc writes is kept as its bytes (see [`super::wire`]): only the
//! source info is cut out and the files put in the Java client's order, so the schema data is
//! what a protoc-built descriptor set of the same files gives, Editions features included.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use prost::Message;
use prost_types::{FileDescriptorProto, FileDescriptorSet};
use protocompat::text::bound;

use super::roots::{Root, Roots};
use super::{java_order, wire};
use super::{Loaded, Sources};

/// `FileDescriptorSet.file` and `FileDescriptorProto.source_code_info`.
const SET_FILE: u32 = 1;
const SOURCE_CODE_INFO: u32 = 9;

/// How much of protoc's complaint is shown.
const MAX_MESSAGE_BYTES: usize = 2000;

/// A protoc to run, and how it was found, to name it when it fails.
pub struct Protoc {
    pub path: PathBuf,
    pub found: &'static str,
}

impl Protoc {
    /// `flag` (--protoc), else `PROTOC`, else `protoc` on `PATH`, else the vendored binary.
    pub fn find(flag: Option<&Path>) -> Result<Protoc, String> {
        if let Some(path) = flag {
            return Protoc::given(path.to_path_buf(), "--protoc");
        }
        if let Some(path) = std::env::var_os("PROTOC").filter(|p| !p.is_empty()) {
            return Protoc::given(PathBuf::from(path), "PROTOC");
        }
        if let Some(path) = on_path() {
            return Ok(Protoc {
                path,
                found: "PATH",
            });
        }
        vendored()
    }

    /// A path as given is taken from the current directory (protoc runs in another one); a
    /// bare name is looked up on PATH when it runs.
    fn given(path: PathBuf, found: &'static str) -> Result<Protoc, String> {
        let bare = path.parent().is_none_or(|p| p.as_os_str().is_empty());
        let path = if bare {
            path
        } else {
            std::path::absolute(&path)
                .map_err(|e| format!("cannot resolve {found} {}: {e}", path.display()))?
        };
        Ok(Protoc { path, found })
    }

    /// `protoc (PATH /usr/bin/protoc, libprotoc 3.21.12)`: which one failed, and its version,
    /// since an old protoc refuses Editions files with a parse error that does not say so.
    fn describe(&self) -> String {
        let version = Command::new(&self.path)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| bound(String::from_utf8_lossy(&o.stdout).trim(), 100))
            .filter(|v| !v.is_empty())
            .map(|v| format!(", {v}"))
            .unwrap_or_default();
        format!("protoc ({} {}{version})", self.found, self.path.display())
    }
}

fn on_path() -> Option<PathBuf> {
    let name = if cfg!(windows) {
        "protoc.exe"
    } else {
        "protoc"
    };
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The crate asserts that its binary exists: on a machine the CLI was copied to, it panics.
/// That is caught here, quietly, and said as a missing protoc.
fn vendored() -> Result<Protoc, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // protoc finds the `.proto` files protobuf ships (descriptor.proto, java_features.proto)
    // beside its binary, where the crate keeps them: no -I is needed for them.
    let found = std::panic::catch_unwind(protoc_bin_vendored::protoc_bin_path);
    std::panic::set_hook(hook);
    match found {
        Ok(Ok(path)) => Ok(Protoc {
            path,
            found: "bundled",
        }),
        Ok(Err(e)) => Err(not_found(&e.to_string())),
        Err(_) => Err(not_found(
            "the protoc bundled at build time is no longer where the build left it",
        )),
    }
}

fn not_found(why: &str) -> String {
    format!(
        "found no protoc to run ({why}): give one with --protoc PATH or the PROTOC environment \
         variable, or put it on PATH (protoc 27 or newer reads edition 2023, 32 or newer \
         edition 2024)"
    )
}

/// Compiles `name` (found in `roots`) and its imports with protoc into the schema data the
/// Java client would upload, keeping the source info aside for positions.
pub fn compile(
    protoc: &Protoc,
    roots: &Roots,
    name: &str,
    shown: &str,
    root_message: Option<&str>,
) -> Result<Loaded, String> {
    let work = WorkDir::new()?;
    // Where protoc reads each root, and how the user knows it, to show protoc's complaints
    // with the user's paths.
    let mut shown_roots: Vec<(String, String)> = Vec::new();
    let mut args = vec![
        "--include_imports".to_owned(),
        "--include_source_info".to_owned(),
    ];
    let out = work.path.join("set.pb");
    args.push(format!("--descriptor_set_out={}", out.display()));
    for (index, root) in roots.0.iter().enumerate() {
        let dir = match root {
            Root::Dir(dir) => {
                let dir = std::path::absolute(dir)
                    .map_err(|e| format!("cannot resolve {}: {e}", dir.display()))?;
                plain_for_protoc(dir, &work.path.join(format!("root{index}")))?
            }
            Root::Tree(tree) => {
                let dir = work.path.join(format!("tree{index}"));
                write_tree(&dir, &tree.files)?;
                dir
            }
        };
        shown_roots.push((format!("{}/", dir.display()), root.display("")));
        args.push(format!("--proto_path={}", dir.display()));
    }
    args.push(name.to_owned());
    // protoc reads a name that is a path from its working directory as that file: an empty
    // directory leaves it only the import roots to find `name` in, as protox does.
    let cwd = work.path.join("cwd");
    fs::create_dir(&cwd).map_err(|e| format!("cannot make a temporary directory: {e}"))?;
    let output = Command::new(&protoc.path)
        .args(&args)
        .current_dir(&cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", protoc.describe()))?;
    if !output.status.success() {
        let mut said = String::from_utf8_lossy(&output.stderr).into_owned();
        for (dir, shown) in &shown_roots {
            said = said.replace(dir, shown);
        }
        let said: Vec<&str> = said
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let said = if said.is_empty() {
            format!("it exited with {} and said nothing", output.status)
        } else {
            said.join("; ")
        };
        let file = if shown == name {
            format!("`{name}`")
        } else {
            format!("`{name}` ({shown})")
        };
        return Err(bound(
            &format!("{} could not compile {file}: {said}", protoc.describe()),
            MAX_MESSAGE_BYTES,
        ));
    }
    let bytes = fs::read(&out).map_err(|e| {
        format!(
            "{} wrote no descriptor set: {e}; is it protoc?",
            protoc.describe()
        )
    })?;
    let with_sources = FileDescriptorSet::decode(bytes.as_slice()).map_err(|e| {
        format!(
            "{} wrote no FileDescriptorSet ({e}); is it protoc?",
            protoc.describe()
        )
    })?;
    let files = with_sources
        .file
        .iter()
        .filter_map(|f| Some((f.name().to_owned(), roots.find(f.name())?.display(f.name()))))
        .collect();
    let sources = Sources {
        set: with_sources,
        files,
    };
    Loaded::compiled(
        schema_set(&bytes, name)?,
        name,
        root_message,
        shown,
        sources,
    )
}

/// `dir`, or a link to it at `link` where its path has a character protoc's --proto_path
/// splits on: `:` (`;` on Windows) between roots, `=` between a virtual and a disk path.
fn plain_for_protoc(dir: PathBuf, link: &Path) -> Result<PathBuf, String> {
    let special: &[char] = if cfg!(windows) {
        &[';', '=']
    } else {
        &[':', '=']
    };
    if !dir.to_string_lossy().contains(special) {
        return Ok(dir);
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&dir, link)
            .map_err(|e| format!("cannot link {} for protoc: {e}", dir.display()))?;
        Ok(link.to_path_buf())
    }
    #[cfg(not(unix))]
    {
        let _ = link;
        Err(format!(
            "protoc cannot take the import root {}: its path has `;` or `=`",
            dir.display()
        ))
    }
}

/// protoc's descriptor set as the schema data holds it: no source info (the Java client's
/// descriptors have none), the files in the client's order, each otherwise as protoc wrote it.
fn schema_set(protoc_set: &[u8], root: &str) -> Result<Vec<u8>, String> {
    let malformed = |e: String| format!("protoc's descriptor set: {e}");
    let mut files = Vec::new();
    for record in wire::records(protoc_set).map_err(malformed)? {
        let (SET_FILE, Some(file)) = (record.field, record.payload) else {
            continue;
        };
        let file = wire::without_field(file, SOURCE_CODE_INFO).map_err(malformed)?;
        let decoded =
            FileDescriptorProto::decode(file.as_slice()).map_err(|e| malformed(e.to_string()))?;
        files.push((decoded.name().to_owned(), decoded.dependency, file));
    }
    let mut set = Vec::new();
    for (_, _, file) in java_order::order_by(files, root, |(name, imports, _)| (name, imports)) {
        wire::push_bytes(&mut set, SET_FILE, &file);
    }
    Ok(set)
}

/// Writes a git tree's files where protoc can read them. A name that is not a plain relative
/// path (git never writes one, a crafted tree could) is left out, never written outside.
fn write_tree(
    dir: &Path,
    files: &std::collections::BTreeMap<String, Vec<u8>>,
) -> Result<(), String> {
    for (name, bytes) in files {
        let plain = name
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\\'));
        if !plain {
            continue;
        }
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| format!("cannot write {name} for protoc: {e}"))?;
        }
        fs::write(&path, bytes).map_err(|e| format!("cannot write {name} for protoc: {e}"))?;
    }
    Ok(())
}

/// A directory of our own under the system's temporary one, removed when dropped.
struct WorkDir {
    path: PathBuf,
}

impl WorkDir {
    fn new() -> Result<WorkDir, String> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        loop {
            let path = std::env::temp_dir().join(format!(
                "protocompat-protoc-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            match fs::create_dir(&path) {
                Ok(()) => return Ok(WorkDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("cannot make a temporary directory: {e}")),
            }
        }
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file as protoc writes one: name (1), imports (3), source info (9), edition (14), the
    /// last a field prost-types 0.14 does not know.
    fn file(name: &str, imports: &[&str]) -> Vec<u8> {
        let mut file = Vec::new();
        wire::push_bytes(&mut file, 1, name.as_bytes());
        for import in imports {
            wire::push_bytes(&mut file, 3, import.as_bytes());
        }
        wire::push_bytes(&mut file, SOURCE_CODE_INFO, b"\x0A\x02\x01\x02");
        file.extend([0x70, 0xE8, 0x07]);
        file
    }

    #[test]
    fn the_schema_set_is_protocs_files_in_java_order_without_source_info() {
        // protoc lists imports first; the Java client's HashMap puts "BB" and "Aa" (one
        // bucket, in insertion order) before "a".
        let mut protoc_set = Vec::new();
        for file in [file("a", &[]), file("BB", &[]), file("Aa", &["a", "BB"])] {
            wire::push_bytes(&mut protoc_set, SET_FILE, &file);
        }
        let set = schema_set(&protoc_set, "Aa").unwrap();
        let files: Vec<&[u8]> = wire::records(&set)
            .unwrap()
            .iter()
            .map(|r| r.payload.unwrap())
            .collect();
        let mut want = Vec::new();
        for (name, imports) in [("BB", &[][..]), ("Aa", &["a", "BB"]), ("a", &[])] {
            want.push(wire::without_field(&file(name, imports), SOURCE_CODE_INFO).unwrap());
        }
        assert_eq!(files, want);
        assert!(want[1].ends_with(&[0x70, 0xE8, 0x07]), "edition kept");
    }
}
