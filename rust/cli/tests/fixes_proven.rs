//! Every remedy proven by applying it (docs/rules.md, "What to write instead"): for each case
//! of the compat, conservative and Editions fixtures, under both profiles and for BACKWARD,
//! FORWARD and FULL, `check --fix` edits a copy of the new side, compiles it again and checks
//! it again. Each finding whose first remedy was placed in the source must be gone, no failure
//! may appear that was not there before, and the edited files must compile. Prints how many
//! findings of each rule had a remedy, had one placed, and were proven.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::{bundled_protoc, copy_dir, fixtures};

const PROFILES: [&str; 2] = ["pip246", "conservative"];
const STRATEGIES: [&str; 3] = ["BACKWARD", "FORWARD", "FULL"];

struct Case {
    dir: PathBuf,
    root_file: String,
    root_message: String,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for folder in ["compat", "conservative", "editions"] {
        for entry in fs::read_dir(fixtures().join(folder)).unwrap() {
            let dir = entry.unwrap().path();
            let Ok(expect) = fs::read(dir.join("expect.json")) else {
                continue;
            };
            let expect: Value = serde_json::from_slice(&expect).unwrap();
            // A new root is a new type: its remedy is advice (name the old root), no edit.
            if expect.get("new_root_message").is_some() || !dir.join("new").is_dir() {
                continue;
            }
            cases.push(Case {
                root_file: expect["root_file"].as_str().unwrap().to_owned(),
                root_message: expect["root_message"].as_str().unwrap().to_owned(),
                dir,
            });
        }
    }
    cases.sort_by(|a, b| a.dir.cmp(&b.dir));
    cases
}

/// `check --format json` of the case's old side against `new` (a directory), with `extra`.
fn check(
    case: &Case,
    new: &Path,
    profile: &str,
    strategy: &str,
    extra: &[&str],
) -> Result<(Value, String), String> {
    let old = case.dir.join("old");
    let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .arg("check")
        .args(extra)
        .args([
            "--format",
            "json",
            "--profile",
            profile,
            "--strategy",
            strategy,
        ])
        .args(["--root", &case.root_message, "--protoc", &bundled_protoc()])
        .arg("--against")
        .arg(old.join(&case.root_file))
        .arg("--against-include")
        .arg(&old)
        .arg("-I")
        .arg(new)
        .arg(new.join(&case.root_file))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {stderr}", case.dir.display()));
    if json.get("error").is_some() {
        return Err(format!("{json}\n{stderr}"));
    }
    Ok((json, stderr))
}

/// Each finding as `RULE path [direction]`, with its JSON.
fn findings(report: &Value) -> BTreeMap<String, (bool, Value)> {
    let mut all = BTreeMap::new();
    for (key, failure) in [("failures", true), ("warnings", false)] {
        for finding in report[key].as_array().unwrap() {
            let id = format!(
                "{} {} [{}]",
                finding["rule"].as_str().unwrap(),
                finding["path"].as_str().unwrap(),
                finding["direction"].as_str().unwrap_or("")
            );
            all.insert(id, (failure, finding.clone()));
        }
    }
    all
}

/// Whether the finding's first remedy with edits has them placed in the source.
fn placed(finding: &Value) -> Option<bool> {
    let fixes = finding["fixes"].as_array()?;
    let fix = fixes
        .iter()
        .find(|f| !f["edits"].as_array().unwrap().is_empty())?;
    Some(
        fix["edits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e.get("file").is_some()),
    )
}

#[derive(Default)]
struct Count {
    findings: usize,
    with_edits: usize,
    placed: usize,
    proven: usize,
}

#[test]
fn every_placed_remedy_removes_its_finding_and_adds_no_failure() {
    let scratch = std::env::temp_dir().join(format!("protocompat-fixes-{}", std::process::id()));
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    let mut problems = Vec::new();
    for case in cases() {
        for profile in PROFILES {
            for strategy in STRATEGIES {
                let new = scratch.join("new");
                let _ = fs::remove_dir_all(&new);
                copy_dir(&case.dir.join("new"), &new);
                let (before, _) = check(&case, &new, profile, strategy, &[]).unwrap();
                let before = findings(&before);
                if before.is_empty() {
                    continue;
                }
                let name = format!(
                    "{} ({profile}, {strategy})",
                    case.dir.strip_prefix(fixtures()).unwrap().display()
                );
                let (after, stderr) = match check(&case, &new, profile, strategy, &["--fix"]) {
                    Ok(checked) => checked,
                    Err(error) => {
                        problems.push(format!("{name}: after --fix: {error}"));
                        continue;
                    }
                };
                let after = findings(&after);
                for (id, (failure, finding)) in &before {
                    let count = counts
                        .entry(finding["rule"].as_str().unwrap().to_owned())
                        .or_default();
                    count.findings += 1;
                    let Some(in_source) = placed(finding) else {
                        continue;
                    };
                    count.with_edits += 1;
                    if !in_source {
                        problems.push(format!(
                            "{name}: {id}: its remedy has no place in the source"
                        ));
                        continue;
                    }
                    count.placed += 1;
                    if !after.contains_key(id) {
                        count.proven += 1;
                    } else if !stderr.contains("overlap") {
                        let _ = failure;
                        problems.push(format!("{name}: {id}: still there after --fix\n{stderr}"));
                    }
                }
                let was: BTreeSet<&String> = before
                    .iter()
                    .filter(|(_, (f, _))| *f)
                    .map(|(id, _)| id)
                    .collect();
                for (id, (failure, _)) in &after {
                    if *failure && !was.contains(id) {
                        problems.push(format!(
                            "{name}: {id}: a new failure after --fix:\n{}",
                            fs::read_to_string(new.join(&case.root_file)).unwrap()
                        ));
                    }
                }
            }
        }
    }
    let _ = fs::remove_dir_all(&scratch);
    println!(
        "{:<30} {:>8} {:>10} {:>7} {:>7}",
        "rule", "findings", "with edits", "placed", "proven"
    );
    for (rule, c) in &counts {
        println!(
            "{rule:<30} {:>8} {:>10} {:>7} {:>7}",
            c.findings, c.with_edits, c.placed, c.proven
        );
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}
