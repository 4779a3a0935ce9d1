//! Where the tests find the repository's files, and where they write their own.

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    repo().join("tests/fixtures")
}

/// The benchmark schemas, `bench/schemas` (`small`, `medium` and `large.proto`).
pub fn bench_schemas() -> PathBuf {
    repo().join("bench/schemas")
}

/// A fresh, uniquely named directory under the system temp dir.
pub fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "protocompat-test-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
