//! `check --fix` over random evolutions, a property: for each input of the committed `evolve`
//! corpus, the schema and its evolution that `evolve` makes of it (`protocompat_testkit::evolve`)
//! are written as `.proto` files, and `protocompat check --fix` (the command, as users run it) is run on the
//! new one under FULL, with each profile. Each `--fix` must remove every finding whose fix it
//! made (status `fix`), add no finding, failure or warning, that was not there before, and
//! leave files that compile; after up to three rounds the check passes, or every failure left
//! has no fix `--fix` makes (advice, a fix the re-check refused, or one left out:
//! docs/rules.md#remedies). Any other outcome fails, with both schemas printed. It prints, per
//! rule, the candidates tried, proven and refused by the re-check. Not a libFuzzer target:
//! `rust/fuzz/ci.sh` runs it over the corpus.
//!
//! Usage: `fix_property PROTOCOMPAT CORPUS_DIR [LIMIT]`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use arbitrary::Unstructured;
use prost::Message;
use prost_reflect::DescriptorPool;
use prost_types::FileDescriptorSet;
use protocompat_testkit::evolve::{Schema, FILE, ROOT};
use protocompat_testkit::tail::tail;
use serde_json::Value;

const ROUNDS: usize = 3;

fn buildable(schema: &Schema) -> bool {
    let set = FileDescriptorSet {
        file: vec![schema.fdp()],
    }
    .encode_to_vec();
    DescriptorPool::decode(set.as_slice()).is_ok()
}

/// One `check` of the new side (`--fix` or not) as JSON, or why it gave none.
fn check(cli: &Path, dir: &Path, profile: &str, fix: bool) -> Result<Value, String> {
    let mut command = Command::new(cli);
    command.arg("check");
    if fix {
        command.arg("--fix");
    }
    let out = command
        .args(["--format", "json", "--no-examples", "--strategy", "FULL"])
        .args(["--profile", profile, "--root", ROOT])
        .args([
            "--against",
            &format!("old/{FILE}"),
            "--against-include",
            "old",
        ])
        .args(["-I", "new", &format!("new/{FILE}")])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("{}: {e}", cli.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("not JSON ({e}): {stderr}"))?;
    match json.get("error") {
        Some(error) => Err(format!("{error}\n{stderr}")),
        None => Ok(json),
    }
}

/// Each finding of a report as `RULE path (field) writer / reader [direction]`, with its
/// fix status.
fn findings(report: &Value) -> BTreeMap<String, String> {
    let mut all = BTreeMap::new();
    for key in ["failures", "warnings"] {
        for f in report[key].as_array().into_iter().flatten() {
            let id = format!(
                "{} {} ({}) {} / {} [{}]",
                f["rule"].as_str().unwrap_or(""),
                f["path"].as_str().unwrap_or(""),
                f["field_number"],
                f["writer"].as_str().unwrap_or(""),
                f["reader"].as_str().unwrap_or(""),
                f["direction"].as_str().unwrap_or("")
            );
            let status = f["fix_status"]["status"].as_str().unwrap_or("").to_owned();
            all.insert(id, status);
        }
    }
    all
}

/// The failures left that `--fix` would make a fix for.
fn to_make(report: &Value) -> Vec<String> {
    report["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["fix_status"]["status"] == "fix")
        .map(|f| {
            format!(
                "{} {}",
                f["rule"].as_str().unwrap_or(""),
                f["path"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// Per rule: candidates tried, proven, refused by the re-check (by why).
#[derive(Default)]
struct Tally {
    tried: usize,
    proven: usize,
    refused: usize,
    why: BTreeMap<String, usize>,
}

fn tally(tallies: &mut BTreeMap<String, Tally>, report: &Value) {
    for key in ["failures", "warnings"] {
        for f in report[key].as_array().into_iter().flatten() {
            let t = tallies
                .entry(f["rule"].as_str().unwrap_or("").to_owned())
                .or_default();
            let tried = f["fix_status"]["tried"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let refused = tried.len();
            for candidate in &tried {
                let why = candidate["kind"].as_str().unwrap_or("").to_owned();
                *t.why.entry(why).or_default() += 1;
            }
            let proven = f["fixes"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|fix| fix["edits"].as_array().is_some_and(|e| !e.is_empty()));
            t.tried += refused + usize::from(proven);
            t.proven += usize::from(proven);
            t.refused += refused;
        }
    }
}

/// What one `--fix` did wrong: a finding whose fix it made still there, or a finding that was
/// not there before.
fn broken(before: &Value, after: &Value) -> Vec<String> {
    let (before, after) = (findings(before), findings(after));
    let mut wrong = Vec::new();
    for (id, status) in &before {
        if status == "fix" && after.contains_key(id) {
            wrong.push(format!("its fix was made, yet it is still there: {id}"));
        }
    }
    for id in after.keys() {
        if !before.contains_key(id) {
            wrong.push(format!("new after --fix: {id}"));
        }
    }
    wrong
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(cli), Some(corpus)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: fix_property PROTOCOMPAT CORPUS_DIR [LIMIT]");
        return ExitCode::from(2);
    };
    let limit: usize = args
        .get(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    let cli = fs::canonicalize(cli).expect("the protocompat command");
    let mut inputs: Vec<PathBuf> = fs::read_dir(corpus)
        .expect("the corpus")
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    let scratch =
        std::env::temp_dir().join(format!("protocompat-fix-property-{}", std::process::id()));
    let (mut cases, mut passed, mut advice_only, mut failed) = (0, 0, 0, Vec::new());
    // The rules of the findings left without a fix to make, and how often.
    let mut left: BTreeMap<String, usize> = Default::default();
    let mut tallies: BTreeMap<String, Tally> = Default::default();
    for input in inputs.iter().take(limit) {
        let mut data = fs::read(input).unwrap();
        data.extend_from_slice(tail());
        let mut u = Unstructured::new(&data);
        let Ok(old) = Schema::generate(&mut u) else {
            continue;
        };
        let Ok((new, _)) = old.evolve(&mut u) else {
            continue;
        };
        if !buildable(&old) || !buildable(&new) {
            continue;
        }
        for profile in ["pip246", "conservative"] {
            let _ = fs::remove_dir_all(&scratch);
            for (side, schema) in [("old", &old), ("new", &new)] {
                fs::create_dir_all(scratch.join(side)).unwrap();
                fs::write(scratch.join(side).join(FILE), schema.proto_text()).unwrap();
            }
            let name = format!("{} ({profile})", input.display());
            let before = match check(&cli, &scratch, profile, false) {
                Ok(report) => report,
                // What the command refuses to read is not this property's business.
                Err(_) => continue,
            };
            if before["compatible"] == true {
                continue;
            }
            cases += 1;
            tally(&mut tallies, &before);
            let mut last = Ok(before);
            let mut wrong = Vec::new();
            for _ in 0..ROUNDS {
                let Ok(was) = last else { break };
                last = check(&cli, &scratch, profile, true);
                match &last {
                    Ok(report) => {
                        wrong.extend(broken(&was, report));
                        if report["compatible"] == true || to_make(report).is_empty() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
            let fixed = fs::read_to_string(scratch.join("new").join(FILE)).unwrap_or_default();
            let shown = format!(
                "--- old ---\n{}--- new ---\n{}--- fixed ---\n{fixed}",
                old.proto_text(),
                new.proto_text()
            );
            match last {
                Ok(_) if !wrong.is_empty() => {
                    failed.push(format!("{name}: {}\n{shown}", wrong.join("\n")))
                }
                Ok(report) if report["compatible"] == true => passed += 1,
                Ok(report) if to_make(&report).is_empty() => {
                    advice_only += 1;
                    for finding in report["failures"].as_array().into_iter().flatten() {
                        let rule = finding["rule"].as_str().unwrap_or("").to_owned();
                        *left.entry(rule).or_default() += 1;
                    }
                }
                Ok(report) => failed.push(format!(
                    "{name}: findings with a fix to make left after {ROUNDS} rounds of --fix: {:?}\n{shown}",
                    to_make(&report)
                )),
                Err(error) => failed.push(format!("{name}: --fix broke the schema: {error}\n{shown}")),
            }
        }
    }
    let _ = fs::remove_dir_all(&scratch);
    println!(
        "fix_property: {cases} incompatible evolutions; after --fix {passed} pass, {} keep only findings without an edit, {} fail",
        advice_only,
        failed.len()
    );
    for (rule, n) in &left {
        println!("fix_property:   left without a fix to make: {rule} {n}");
    }
    for (rule, t) in &tallies {
        let why: Vec<String> = t.why.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "fix_property:   {rule}: {} candidates tried, {} proven, {} refused by the re-check ({})",
            t.tried,
            t.proven,
            t.refused,
            why.join(", ")
        );
    }
    for failure in failed.iter().take(5) {
        eprintln!("{failure}\n");
    }
    for failure in &failed {
        eprintln!(
            "fix_property: failed: {}",
            failure.lines().next().unwrap_or("")
        );
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
