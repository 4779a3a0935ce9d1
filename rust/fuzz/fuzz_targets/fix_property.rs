//! `check --fix` over random evolutions, a property: for each input of the committed `evolve`
//! corpus, the schema and its evolution that `evolve` makes of it (`evolve/ir.rs`) are written
//! as `.proto` files, and `protocompat check --fix` (the command, as users run it) is run on the
//! new one under FULL, with each profile, up to three times. Afterwards the check passes, or
//! every finding left has no edit to offer (its fix is advice: docs/rules.md#remedies). Any
//! other outcome (a finding with an edit that stays, an edit that does not compile) fails, with
//! both schemas printed. Not a libFuzzer target: `rust/fuzz/ci.sh` runs it over the corpus.
//!
//! Usage: `fix_property PROTOCOMPAT CORPUS_DIR [LIMIT]`.

#[path = "evolve/ir.rs"]
#[allow(dead_code)]
mod ir;
#[path = "common/scalar.rs"]
#[allow(dead_code)]
mod scalar;
#[path = "common/tail.rs"]
mod tail;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use arbitrary::Unstructured;
use prost::Message;
use prost_reflect::DescriptorPool;
use prost_types::FileDescriptorSet;
use serde_json::Value;

use ir::{Schema, FILE, ROOT};
use tail::tail;

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
        .args(["--against", &format!("old/{FILE}"), "--against-include", "old"])
        .args(["-I", "new", &format!("new/{FILE}")])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("{}: {e}", cli.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("not JSON ({e}): {stderr}"))?;
    match json.get("error") {
        Some(error) => Err(format!("{error}\n{stderr}")),
        None => Ok(json),
    }
}

/// The findings left that offer an edit (whose first fix with edits has some).
fn with_edits(report: &Value) -> Vec<String> {
    let mut left = Vec::new();
    for key in ["failures", "warnings"] {
        for finding in report[key].as_array().into_iter().flatten() {
            let offers = finding["fixes"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|fix| fix["edits"].as_array().is_some_and(|e| !e.is_empty()));
            if offers && key == "failures" {
                left.push(format!(
                    "{} {}",
                    finding["rule"].as_str().unwrap_or(""),
                    finding["path"].as_str().unwrap_or("")
                ));
            }
        }
    }
    left
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(cli), Some(corpus)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: fix_property PROTOCOMPAT CORPUS_DIR [LIMIT]");
        return ExitCode::from(2);
    };
    let limit: usize = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(usize::MAX);
    let cli = fs::canonicalize(cli).expect("the protocompat command");
    let mut inputs: Vec<PathBuf> = fs::read_dir(corpus)
        .expect("the corpus")
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    let scratch = std::env::temp_dir().join(format!("protocompat-fix-property-{}", std::process::id()));
    let (mut cases, mut passed, mut advice_only, mut failed) = (0, 0, 0, Vec::new());
    // The rules of the findings left without an edit, and how often.
    let mut left: std::collections::BTreeMap<String, usize> = Default::default();
    for input in inputs.iter().take(limit) {
        let mut data = fs::read(input).unwrap();
        data.extend_from_slice(tail());
        let mut u = Unstructured::new(&data);
        let Ok(old) = Schema::generate(&mut u) else { continue };
        let Ok((new, _)) = old.evolve(&mut u) else { continue };
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
            let mut last = Ok(before);
            for _ in 0..ROUNDS {
                last = check(&cli, &scratch, profile, true);
                match &last {
                    Ok(report) if report["compatible"] == true || with_edits(report).is_empty() => {
                        break
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            let fixed = fs::read_to_string(scratch.join("new").join(FILE)).unwrap_or_default();
            match last {
                Ok(report) if report["compatible"] == true => passed += 1,
                Ok(report) if with_edits(&report).is_empty() => {
                    advice_only += 1;
                    for finding in report["failures"].as_array().into_iter().flatten() {
                        let rule = finding["rule"].as_str().unwrap_or("").to_owned();
                        *left.entry(rule).or_default() += 1;
                    }
                }
                Ok(report) => failed.push(format!(
                    "{name}: findings with an edit left after {ROUNDS} rounds of --fix: {:?}\n--- old ---\n{}--- new ---\n{}--- fixed ---\n{fixed}",
                    with_edits(&report),
                    old.proto_text(),
                    new.proto_text()
                )),
                Err(error) => failed.push(format!(
                    "{name}: --fix broke the schema: {error}\n--- old ---\n{}--- new ---\n{}--- fixed ---\n{fixed}",
                    old.proto_text(),
                    new.proto_text()
                )),
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
        println!("fix_property:   left without an edit: {rule} {n}");
    }
    for failure in failed.iter().take(5) {
        eprintln!("{failure}\n");
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
