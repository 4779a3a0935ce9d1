//! Every fix shown is proven, checked from outside the engine (docs/rules.md, "What to write
//! instead"). For each case of the compat, conservative, Editions and fixes fixtures, under
//! both profiles and BACKWARD, FORWARD and FULL:
//! - each fix the report shows with edits in the source is made alone, as text, in a copy of
//!   the new side, which is compiled and checked again: its finding must be gone, and no
//!   finding (failure or warning) may appear that was not there before;
//! - `check --fix` must remove every finding whose fix it makes and add nothing, and leave
//!   warnings' fixes as suggestions; `--fix --fix-warnings` must remove those too;
//! - for `tests/fixtures/fixes/`, `--fix` under FULL and `pip246` must write exactly the
//!   case's `fixed/` file, and `--fix --fix-warnings` its `fixed-warnings/` file, where it makes
//!   a fix (`PROTOCOMPAT_WRITE_FIXED=1` writes them).
//!
//! It prints, per rule, how many candidates were tried, proven, refused by the re-check (and
//! why, by kind), and how many findings were left with advice.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use protocompat_testkit::cases::case_dirs;
use serde_json::Value;
use support::{bundled_protoc, copy_dir, fixtures};

const STRATEGIES: [&str; 3] = ["BACKWARD", "FORWARD", "FULL"];

struct Case {
    dir: PathBuf,
    root_file: String,
    root_message: String,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for folder in ["compat", "conservative", "editions", "fixes"] {
        for case in case_dirs(folder) {
            // A new root is a new type: its remedy is advice (name the old root), no edit.
            if case.expect.get("new_root_message").is_some() || !case.dir.join("new").is_dir() {
                continue;
            }
            cases.push(Case {
                root_file: case.root_file().to_owned(),
                root_message: case.roots().0.to_owned(),
                dir: case.dir,
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
            "--no-examples",
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

/// Each finding as `RULE path (field) writer reader [direction]`, with whether it is a
/// failure, and its JSON.
fn findings(report: &Value) -> BTreeMap<String, (bool, Value)> {
    let mut all = BTreeMap::new();
    for (key, failure) in [("failures", true), ("warnings", false)] {
        for finding in report[key].as_array().unwrap() {
            all.insert(id(finding), (failure, finding.clone()));
        }
    }
    all
}

fn id(finding: &Value) -> String {
    format!(
        "{} {} ({}) {} / {} [{}]",
        finding["rule"].as_str().unwrap(),
        finding["path"].as_str().unwrap(),
        finding["field_number"],
        finding["writer"].as_str().unwrap(),
        finding["reader"].as_str().unwrap(),
        finding["direction"].as_str().unwrap_or("")
    )
}

/// The finding's fix (the shown remedy with edits), if it has one.
fn fix_of(finding: &Value) -> Option<&Value> {
    finding["fixes"]
        .as_array()?
        .iter()
        .find(|f| !f["edits"].as_array().unwrap().is_empty())
}

/// Byte offset of a 1-based line and column, columns counted as protoc counts them (a tab to
/// the next multiple of 8), as the report gives them.
fn offset(text: &str, line: u64, column: u64) -> usize {
    let start = if line == 1 {
        0
    } else {
        text.match_indices('\n').nth(line as usize - 2).unwrap().0 + 1
    };
    let mut col = 1;
    for (at, c) in text[start..].char_indices() {
        if col >= column {
            return start + at;
        }
        col = if c == '\t' {
            col + 8 - (col - 1) % 8
        } else {
            col + 1
        };
    }
    text.len()
}

/// `fix`'s edits made, as text, in the files they name; insertions at one place in the
/// order given.
fn make(fix: &Value) -> Result<(), String> {
    let mut by_file: BTreeMap<String, Vec<(usize, &Value)>> = BTreeMap::new();
    for (seq, edit) in fix["edits"].as_array().unwrap().iter().enumerate() {
        let file = edit["file"]
            .as_str()
            .ok_or_else(|| format!("an edit without a place: {edit}"))?;
        by_file
            .entry(file.to_owned())
            .or_default()
            .push((seq, edit));
    }
    for (file, edits) in by_file {
        let mut text = fs::read_to_string(&file).unwrap();
        let mut spans: Vec<(usize, usize, usize, &str)> = edits
            .iter()
            .map(|(seq, e)| {
                let n = |k: &str| e[k].as_u64().unwrap();
                (
                    offset(&text, n("line"), n("column")),
                    offset(&text, n("end_line"), n("end_column")),
                    *seq,
                    e["text"].as_str().unwrap(),
                )
            })
            .collect();
        // Last first, so that earlier offsets hold; at one place, the later edit first.
        spans.sort_by_key(|s| std::cmp::Reverse((s.0, s.2)));
        for (start, end, _, new) in spans {
            text.replace_range(start..end, new);
        }
        fs::write(&file, text).unwrap();
    }
    Ok(())
}

/// What one rule's findings came to.
#[derive(Default)]
struct Count {
    findings: usize,
    tried: usize,
    proven: usize,
    refused: BTreeMap<String, usize>,
    advice: usize,
    left: usize,
    made_alone: usize,
}

fn count(counts: &mut BTreeMap<String, Count>, finding: &Value) {
    let c = counts
        .entry(finding["rule"].as_str().unwrap().to_owned())
        .or_default();
    c.findings += 1;
    let status = &finding["fix_status"];
    let tried = status["tried"].as_array().unwrap();
    let proven = fix_of(finding).is_some();
    c.tried += tried.len() + usize::from(proven);
    c.proven += usize::from(proven);
    for t in tried {
        let kind = t["kind"].as_str().unwrap().to_owned();
        *c.refused.entry(kind).or_default() += 1;
    }
    match status["status"].as_str().unwrap() {
        "advice" | "unproven" => c.advice += 1,
        "left" => c.left += 1,
        _ => {}
    }
}

/// Problems with `after` against `before`: a finding of `gone` still there, or a finding that
/// was not there before.
fn compare(
    name: &str,
    before: &BTreeMap<String, (bool, Value)>,
    after: &BTreeMap<String, (bool, Value)>,
    gone: &BTreeSet<String>,
    shown: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    for id in gone {
        if after.contains_key(id) {
            problems.push(format!("{name}: {id}: still there\n{shown}"));
        }
    }
    for id in after.keys() {
        if !before.contains_key(id) {
            problems.push(format!("{name}: {id}: new\n{shown}"));
        }
    }
    problems
}

#[test]
fn every_fix_shown_holds_alone_and_with_the_others_under_pip246() {
    every_fix_shown_holds_alone_and_with_the_others("pip246");
}

#[test]
fn every_fix_shown_holds_alone_and_with_the_others_under_conservative() {
    every_fix_shown_holds_alone_and_with_the_others("conservative");
}

/// The two profiles run as two tests, in parallel.
fn every_fix_shown_holds_alone_and_with_the_others(profile: &str) {
    let scratch = std::env::temp_dir().join(format!(
        "protocompat-fixes-{profile}-{}",
        std::process::id()
    ));
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    let mut problems = Vec::new();
    let write_fixed = std::env::var_os("PROTOCOMPAT_WRITE_FIXED").is_some();
    for case in cases() {
        {
            for strategy in STRATEGIES {
                let new = scratch.join("new");
                let fresh = |new: &Path| {
                    let _ = fs::remove_dir_all(new);
                    copy_dir(&case.dir.join("new"), new);
                };
                fresh(&new);
                let name = format!(
                    "{} ({profile}, {strategy})",
                    case.dir.strip_prefix(fixtures()).unwrap().display()
                );
                let (report, _) = check(&case, &new, profile, strategy, &[]).unwrap();
                let before = findings(&report);
                if before.is_empty() {
                    continue;
                }
                // Each fix alone, once per set of edits.
                let mut made: BTreeSet<String> = BTreeSet::new();
                for (id, (_, finding)) in &before {
                    count(&mut counts, finding);
                    let Some(fix) = fix_of(finding) else { continue };
                    if !made.insert(fix["edits"].to_string()) {
                        continue;
                    }
                    fresh(&new);
                    if let Err(e) = make(fix) {
                        problems.push(format!("{name}: {id}: {e}"));
                        continue;
                    }
                    let shown = format!(
                        "fix: {}\n{}",
                        fix["summary"],
                        fs::read_to_string(new.join(&case.root_file)).unwrap()
                    );
                    match check(&case, &new, profile, strategy, &[]) {
                        Ok((after, _)) => {
                            let gone = BTreeSet::from([id.clone()]);
                            problems.extend(compare(
                                &name,
                                &before,
                                &findings(&after),
                                &gone,
                                &shown,
                            ));
                            counts
                                .get_mut(finding["rule"].as_str().unwrap())
                                .unwrap()
                                .made_alone += 1;
                        }
                        Err(e) => {
                            problems.push(format!("{name}: {id}: does not load: {e}\n{shown}"))
                        }
                    }
                }
                // --fix, then --fix --fix-warnings.
                for (flags, statuses) in [
                    (&["--fix"][..], &["fix"][..]),
                    (&["--fix", "--fix-warnings"][..], &["fix", "suggested"][..]),
                ] {
                    fresh(&new);
                    let (report, _) = check(&case, &new, profile, strategy, &flags[1..]).unwrap();
                    let gone: BTreeSet<String> = findings(&report)
                        .into_iter()
                        .filter(|(_, (_, f))| {
                            statuses.contains(&f["fix_status"]["status"].as_str().unwrap())
                        })
                        .map(|(id, _)| id)
                        .collect();
                    let untouched = gone.is_empty();
                    match check(&case, &new, profile, strategy, flags) {
                        Ok((after, stderr)) => {
                            let text = fs::read_to_string(new.join(&case.root_file)).unwrap();
                            let shown = format!("{stderr}\n{text}");
                            problems.extend(compare(
                                &format!("{name} {flags:?}"),
                                &before,
                                &findings(&after),
                                &gone,
                                &shown,
                            ));
                            let original =
                                fs::read_to_string(case.dir.join("new").join(&case.root_file))
                                    .unwrap();
                            if untouched && text != original {
                                problems.push(format!(
                                    "{name} {flags:?}: no fix to make, but the file changed\n{shown}"
                                ));
                            }
                            // What --fix writes (`fixed/`) and --fix --fix-warnings
                            // (`fixed-warnings/`) for the shapes that once went wrong.
                            let plain = case.dir.join("fixed").join(&case.root_file);
                            let same_as_plain = flags.len() > 1
                                && fs::read_to_string(&plain).is_ok_and(|p| p == text);
                            let folder = if flags.len() == 1 || same_as_plain {
                                "fixed"
                            } else {
                                "fixed-warnings"
                            };
                            let fixed = case.dir.join(folder).join(&case.root_file);
                            let golden = case.dir.parent().unwrap().ends_with("fixes")
                                && profile == "pip246"
                                && strategy == "FULL";
                            if golden && write_fixed && !untouched {
                                fs::create_dir_all(fixed.parent().unwrap()).unwrap();
                                fs::write(&fixed, &text).unwrap();
                            } else if golden && !fixed.exists() && !untouched {
                                problems.push(format!("{name}: {} is missing", fixed.display()));
                            } else if golden
                                && fixed.exists()
                                && fs::read_to_string(&fixed).unwrap() != text
                            {
                                problems.push(format!(
                                    "{name}: --fix wrote something else than {}\n{shown}",
                                    fixed.display()
                                ));
                            }
                        }
                        Err(e) => problems.push(format!("{name} {flags:?}: {e}")),
                    }
                }
            }
        }
    }
    let _ = fs::remove_dir_all(&scratch);
    println!("{profile}:");
    println!(
        "{:<30} {:>8} {:>6} {:>6} {:>7} {:>6} {:>6} {:>10}  refused by the re-check, why",
        "rule", "findings", "tried", "proven", "refused", "left", "advice", "made alone"
    );
    for (rule, c) in &counts {
        let refused: usize = c.refused.values().sum();
        let why: Vec<String> = c.refused.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "{rule:<30} {:>8} {:>6} {:>6} {:>7} {:>6} {:>6} {:>10}  {}",
            c.findings,
            c.tried,
            c.proven,
            refused,
            c.left,
            c.advice,
            c.made_alone,
            why.join(", ")
        );
    }
    // Every rule whose planner can give edits proves at least one fix over the fixtures.
    for (rule, c) in &counts {
        let advice_only = [
            "SYNTAX_CHANGED",
            "UNSUPPORTED_FEATURE",
            "ROOT_MESSAGE_CHANGED",
        ];
        if !advice_only.contains(&rule.as_str()) && c.proven == 0 {
            problems.push(format!("{rule}: {} findings, no fix proven", c.findings));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}
