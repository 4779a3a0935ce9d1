//! Cases in the compat format (`old/`, `new/`, `expect.json`: tests/fixtures/README.md), and
//! how a case is checked against the engine under each profile. Shared by the compat and
//! conservative fixtures (compiled here) and the Editions fixtures (compiled schema data
//! committed next to them).

mod compare;

use std::fs;
use std::path::{Path, PathBuf};

use protocompat::Strategy;
use serde_json::Value;

use crate::{fixtures, schema_data};

pub use compare::{checker, problems, rules_fired};

/// The two directions of `expect.json`: BACKWARD is canRead(existing = old, new), FORWARD is
/// canRead(new, existing = old).
pub const DIRECTIONS: [(&str, Strategy); 2] = [
    ("old_writes_new_reads", Strategy::Backward),
    ("new_writes_old_reads", Strategy::Forward),
];

pub struct Case {
    pub name: String,
    pub old: Vec<u8>,
    pub new: Vec<u8>,
    pub expect: Value,
}

/// The case folders under `root`, sorted; `skip` names folders that are not cases.
pub fn case_names(root: &Path, skip: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().into_string().unwrap())
        .filter(|name| !skip.contains(&name.as_str()))
        .collect();
    names.sort();
    names
}

/// A case folder's `expect.json`.
pub fn read_expect(dir: &Path) -> Value {
    let path = dir.join("expect.json");
    serde_json::from_str(&fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The roots of the old and the new schema (`new_root_message` where the new one differs).
pub fn root_messages(expect: &Value) -> (&str, &str) {
    let old = expect["root_message"].as_str().unwrap();
    (old, expect["new_root_message"].as_str().unwrap_or(old))
}

/// A case folder of `tests/fixtures/<folder>` with its `expect.json`, not compiled: what the
/// CLI's tests hand to the command as `.proto` files.
pub struct CaseDir {
    pub name: String,
    pub dir: PathBuf,
    pub expect: Value,
}

impl CaseDir {
    /// `expect.json`'s `root_file`.
    pub fn root_file(&self) -> &str {
        self.expect["root_file"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: expect.json has no root_file", self.dir.display()))
    }

    /// The roots of the old and the new schema.
    pub fn roots(&self) -> (&str, &str) {
        root_messages(&self.expect)
    }
}

/// Every case folder of `tests/fixtures/<folder>`, sorted by name (for `editions`, `bad` too).
pub fn case_dirs(folder: &str) -> Vec<CaseDir> {
    let root = fixtures().join(folder);
    case_names(&root, &[])
        .into_iter()
        .map(|name| {
            let dir = root.join(&name);
            CaseDir {
                expect: read_expect(&dir),
                name,
                dir,
            }
        })
        .collect()
}

/// The cases of `tests/fixtures/<folder>` (`compat`, `conservative`), each side compiled from
/// its `.proto` files.
pub fn compiled_cases(folder: &str) -> Vec<Case> {
    case_dirs(folder)
        .into_iter()
        .map(|case| {
            let (old_root, new_root) = case.roots();
            Case {
                old: schema_data(&case.dir.join("old"), case.root_file(), old_root),
                new: schema_data(&case.dir.join("new"), case.root_file(), new_root),
                name: case.name,
                expect: case.expect,
            }
        })
        .collect()
}

/// The cases of `tests/fixtures/editions`: each side is its committed `.schema` (protox
/// cannot compile Editions).
pub fn editions_cases() -> Vec<Case> {
    let root = fixtures().join("editions");
    case_names(&root, &["bad"])
        .into_iter()
        .map(|name| {
            let dir = root.join(&name);
            let read = |side: &str| {
                let path = dir.join(format!("{side}.schema"));
                std::fs::read(&path).unwrap_or_else(|e| {
                    panic!(
                        "{}: {e}; run tests/fixtures/editions/generate.py \
                         (tests/fixtures/README.md says how)",
                        path.display()
                    )
                })
            };
            Case {
                old: read("old"),
                new: read("new"),
                expect: read_expect(&dir),
                name,
            }
        })
        .collect()
}
