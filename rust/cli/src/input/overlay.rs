//! An editor's unsaved buffers over the files on disk (`protocompat lsp`): while a check runs
//! under [`with`], a file of a directory root that has a buffer is read from the buffer, by
//! protox and by the copies protoc is given alike, and only after the root's confinement check
//! has passed on the path. Git trees and schema files are never overlaid: a baseline is what
//! it is.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Buffers by file path, absolute and with symbolic links resolved where the file exists.
pub type Buffers = HashMap<PathBuf, Arc<str>>;

thread_local! {
    static BUFFERS: RefCell<Option<Arc<Buffers>>> = const { RefCell::new(None) };
}

/// Runs `f` with `buffers` over the disk on this thread.
pub fn with<T>(buffers: Arc<Buffers>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<Buffers>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            BUFFERS.with(|b| *b.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(BUFFERS.with(|b| b.borrow_mut().replace(buffers)));
    f()
}

/// The key a path has in [`Buffers`].
pub fn key(path: &Path) -> PathBuf {
    path.canonicalize()
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The buffer over `path`, if one is open under [`with`].
pub(super) fn buffer(path: &Path) -> Option<Arc<str>> {
    BUFFERS.with(|b| {
        let buffers = b.borrow();
        let buffers = buffers.as_ref()?;
        if buffers.is_empty() {
            return None;
        }
        buffers.get(&key(path)).cloned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_seen_inside_with_only() {
        let dir = std::env::temp_dir().join(format!("protocompat-overlay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.proto");
        std::fs::write(&file, "on disk").unwrap();
        let buffers: Buffers = [(key(&file), Arc::from("in the editor"))].into();
        assert_eq!(buffer(&file), None);
        let seen = with(Arc::new(buffers), || buffer(&dir.join("./a.proto")));
        assert_eq!(seen.as_deref(), Some("in the editor"));
        assert_eq!(buffer(&file), None, "restored after");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
