//! Runs every Protobuf Editions case of `tests/fixtures/editions` (edition 2023 and 2024 schema
//! data compiled by protoc and committed, see tests/fixtures/README.md) through the engine, in both
//! directions and under FULL; checks that every rule of `pip246` (docs/rules.md#pip246) fires in
//! each direction somewhere; that each committed `.schema` holds its side's `.proto` files; and
//! that the bad Editions inputs of `editions/bad` are refused with their rule.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use base64::Engine;
use prost::Message;
use protocompat::{check, CheckError, SchemaRef, Strategy, PIP246};
use protocompat_testkit::cases::{
    case_names, editions_cases, problems, read_expect, root_messages, rules_fired, Case, DIRECTIONS,
};
use protocompat_testkit::{fixtures, schema_from_text};
use serde_json::Value;

/// The rule IDs of `pip246` (docs/rules.md#pip246): its failures and its warning.
const PIP246_RULES: [&str; 11] = [
    "ROOT_MESSAGE_CHANGED",
    "SYNTAX_CHANGED",
    "FIELD_NUMBER_CHANGED",
    "REQUIRED_FIELD_ADDED",
    "REQUIRED_FIELD_REMOVED",
    "REQUIRED_LABEL_CHANGED",
    "FIELD_KIND_CHANGED",
    "DEFAULT_VALUE_CHANGED",
    "REPEATED_TO_SINGULAR",
    "PACKED_TO_EXPANDED",
    "SCALAR_TYPE_CHANGED",
];

const REGENERATE: &str =
    "run tests/fixtures/editions/generate.py (tests/fixtures/README.md says how)";

fn root() -> PathBuf {
    fixtures().join("editions")
}

fn cases() -> Vec<Case> {
    editions_cases()
}

#[test]
fn every_case_gives_its_expected_findings_in_both_directions() {
    let cases = cases();
    assert!(cases.len() >= 30, "editions cases went missing");
    let problems = problems(&cases, Case::compare_both_directions);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn full_is_the_union_of_both_directions() {
    let problems = problems(&cases(), Case::compare_full);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn full_in_one_traversal_reports_what_separate_walks_report() {
    let problems = problems(&cases(), Case::compare_full_with_separate_walks);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_rule_of_pip246_fires_in_each_direction_somewhere() {
    let cases = cases();
    for (direction, _) in DIRECTIONS {
        let fired = rules_fired(&cases, &PIP246, direction);
        let missing: Vec<&str> = PIP246_RULES
            .iter()
            .copied()
            .filter(|rule| !fired.contains(*rule))
            .collect();
        assert!(
            missing.is_empty(),
            "no editions case shows {missing:?} in direction {direction}"
        );
        // Besides its own, pip246 reports the conservative profile's findings as warnings.
        let unknown: Vec<&String> = fired
            .iter()
            .filter(|rule| !PIP246_RULES.contains(&rule.as_str()))
            .filter(|rule| !PIP246.guard.iter().any(|g| g.id.id() == rule.as_str()))
            .collect();
        assert!(unknown.is_empty(), "expect.json names {unknown:?}");
    }
}

#[test]
fn a_schema_is_compatible_with_itself_in_every_case() {
    let problems = problems(&cases(), Case::compare_with_itself);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The `.proto` files under `dir`, as paths relative to it with `/` separators.
fn proto_files(dir: &Path) -> BTreeSet<String> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else if path.extension().is_some_and(|e| e == "proto") {
                let relative = path.strip_prefix(base).unwrap();
                let parts: Vec<_> = relative.iter().map(|p| p.to_str().unwrap()).collect();
                out.insert(parts.join("/"));
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// Schema data's root message, root file and the names of its descriptor set's files, read
/// without the engine.
fn schema_contents(data: &[u8]) -> Result<(String, String, Vec<String>), String> {
    let json: Value = serde_json::from_slice(data).map_err(|e| format!("not JSON: {e}"))?;
    let field = |name: &str| {
        json[name]
            .as_str()
            .map(str::to_owned)
            .ok_or(format!("no `{name}`"))
    };
    let set = base64::engine::general_purpose::STANDARD
        .decode(field("fileDescriptorSet")?)
        .map_err(|e| format!("bad base64: {e}"))?;
    let set = prost_types::FileDescriptorSet::decode(set.as_slice())
        .map_err(|e| format!("not a FileDescriptorSet: {e}"))?;
    Ok((
        field("rootMessageTypeName")?,
        field("rootFileDescriptorName")?,
        set.file.into_iter().map(|f| f.name().to_owned()).collect(),
    ))
}

/// A `.schema` file that is missing, or was not regenerated after its case's files were added,
/// removed or renamed, or after the case's root changed, is caught here: each side's descriptor
/// set holds that side's `.proto` files by name, once each, and nothing else but protobuf's
/// own `google/protobuf/` imports.
#[test]
fn each_schema_holds_its_sides_proto_files() {
    let mut problems = Vec::new();
    let root = root();
    let names = case_names(&root, &["bad"]);
    assert!(names.len() >= 30, "editions cases went missing");
    for name in names {
        let dir = root.join(&name);
        let expect = read_expect(&dir);
        let root_file = expect["root_file"].as_str().unwrap();
        let (old_root, new_root) = root_messages(&expect);
        for (side, root_message) in [("old", old_root), ("new", new_root)] {
            let path = dir.join(format!("{side}.schema"));
            let Ok(data) = fs::read(&path) else {
                problems.push(format!("{name}/{side}.schema is missing"));
                continue;
            };
            let (message, file, files) = match schema_contents(&data) {
                Ok(contents) => contents,
                Err(e) => {
                    problems.push(format!("{name}/{side}.schema: {e}"));
                    continue;
                }
            };
            if message != root_message || file != root_file {
                problems.push(format!(
                    "{name}/{side}.schema has root {message} in {file}, expect.json says \
                     {root_message} in {root_file}"
                ));
            }
            let in_set: BTreeSet<String> = files.iter().cloned().collect();
            if in_set.len() != files.len() {
                problems.push(format!("{name}/{side}.schema repeats a file: {files:?}"));
            }
            let sources = proto_files(&dir.join(side));
            if !sources.contains(root_file) {
                problems.push(format!("{name}/{side}/{root_file} is missing"));
            }
            let missing: Vec<_> = sources.difference(&in_set).collect();
            let extra: Vec<_> = in_set
                .difference(&sources)
                .filter(|f| !f.starts_with("google/protobuf/"))
                .collect();
            if !missing.is_empty() || !extra.is_empty() {
                problems.push(format!(
                    "{name}/{side}.schema lacks {missing:?} and has {extra:?}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}\n{REGENERATE}", problems.join("\n"));
}

/// The bad Editions inputs, each as the new schema and as an existing one: refused with its
/// rule, a message holding every fragment of `message_contains` (ignoring ASCII case), and
/// the right schema named.
#[test]
fn every_bad_editions_input_is_refused_with_its_rule_and_message() {
    let dir = root().join("bad");
    let expect: BTreeMap<String, Value> =
        serde_json::from_str(&fs::read_to_string(dir.join("expect.json")).unwrap()).unwrap();
    assert!(expect.len() >= 9, "the editions bad inputs shrank");
    let on_disk: BTreeSet<String> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".schema").map(str::to_owned)
        })
        .collect();
    let listed: BTreeSet<String> = expect.keys().cloned().collect();
    assert_eq!(
        on_disk, listed,
        "editions/bad: the .schema files and expect.json disagree"
    );

    // A proto3 schema, so that only the bad input can be refused.
    let good = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; }\n",
        "shop.Order",
    );
    let mut problems = Vec::new();
    for (name, want) in &expect {
        let data = fs::read(dir.join(format!("{name}.schema"))).unwrap();
        let rule = want["rule"].as_str().unwrap();
        let fragments: Vec<&str> = want["message_contains"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: message_contains is a list"))
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();

        let as_new = check(&[good.as_slice()], &data, Strategy::Full);
        let as_existing = check(
            &[good.as_slice(), data.as_slice()],
            &good,
            Strategy::FullTransitive,
        );
        for (role, result, want_existing) in
            [("new", as_new, None), ("existing", as_existing, Some(1))]
        {
            let Err(CheckError::Schema(error)) = result else {
                problems.push(format!(
                    "{name} as {role} schema: expected {rule}, got {result:?}"
                ));
                continue;
            };
            let message = error.message.to_ascii_lowercase();
            let lacking: Vec<&&str> = fragments
                .iter()
                .filter(|f| !message.contains(&f.to_ascii_lowercase()))
                .collect();
            if error.rule.id() != rule || !lacking.is_empty() {
                problems.push(format!(
                    "{name} as {role}: expected {rule} with {fragments:?}, got: {error}"
                ));
            }
            let named_right = match (error.schema.which, want_existing) {
                (SchemaRef::New, None) => true,
                (SchemaRef::Existing(index), Some(i)) => index == i,
                _ => false,
            };
            if !named_right {
                problems.push(format!(
                    "{name} as {role}: the error names {}",
                    error.schema
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The findings of `case` under `profile` in each direction, as `RULE path` lines, with the
/// editions the 2026 twins rename taken out of the writer and reader.
fn verdicts(case: &Case, profile: &'static protocompat::Profile) -> Vec<String> {
    DIRECTIONS
        .iter()
        .map(|(direction, strategy)| match case.run(profile, *strategy) {
            Ok(report) => {
                let lines: Vec<String> = report
                    .failures
                    .iter()
                    .chain(&report.warnings)
                    .map(|f| {
                        format!(
                            "{:?} {} {:?} {:?}",
                            f.severity, f.rule, f.path, f.field_number
                        )
                    })
                    .collect();
                format!("{direction}: compatible={} {lines:?}", report.compatible)
            }
            Err(e) => format!("{direction}: {e}"),
        })
        .collect()
}

/// Every Editions case again in edition 2026 (`e2026_*`, `twin_of` in its expect.json): the
/// same `.proto` files with each edition written 2026 (or, where the case moves from 2023 to
/// 2024, 2024 to 2026), plus only the edits the fixture names (`export`, which 2026's STRICT
/// visibility asks of a type another file uses). Each twin gets its original's verdicts, rule
/// by rule, under both profiles: 2026 is read as 2024 is.
#[test]
fn every_2026_twin_gets_its_originals_verdicts_under_both_profiles() {
    let cases: BTreeMap<String, Case> = cases().into_iter().map(|c| (c.name.clone(), c)).collect();
    let twins: Vec<(&Case, &Case)> = cases
        .values()
        .filter_map(|twin| {
            let of = twin.expect["twin_of"].as_str()?;
            Some((
                twin,
                cases
                    .get(of)
                    .unwrap_or_else(|| panic!("{}: no case {of}", twin.name)),
            ))
        })
        .collect();
    let originals = cases
        .values()
        .filter(|c| !c.name.starts_with("e2026_"))
        .count();
    assert_eq!(
        twins.len(),
        originals,
        "a case has no 2026 twin, or a twin no original"
    );
    let mut problems = Vec::new();
    for (twin, original) in twins {
        let sources = |case: &Case| -> BTreeMap<String, String> {
            let dir = root().join(&case.name);
            proto_files(&dir.join("old"))
                .into_iter()
                .map(|f| ("old/".to_owned() + &f, dir.join("old").join(&f)))
                .chain(
                    proto_files(&dir.join("new"))
                        .into_iter()
                        .map(|f| ("new/".to_owned() + &f, dir.join("new").join(&f))),
                )
                .map(|(name, path)| (name, fs::read_to_string(path).unwrap()))
                .collect()
        };
        let (mine, theirs) = (sources(twin), sources(original));
        if mine.keys().ne(theirs.keys()) {
            problems.push(format!("{}: not the files of {}", twin.name, original.name));
        }
        for (file, text) in &mine {
            // What a twin may change: the edition line, `export`, and a comment saying so.
            let plain = |t: &str| -> Vec<String> {
                t.lines()
                    .filter(|l| !l.starts_with("edition = ") && !l.starts_with("//"))
                    .map(|l| l.trim_start_matches("export ").to_owned())
                    .collect()
            };
            if theirs.get(file).map(|t| plain(t)) != Some(plain(text)) {
                problems.push(format!(
                    "{}/{file}: differs from {}'s beyond editions and `export`",
                    twin.name, original.name
                ));
            }
            if text.contains("edition = \"2023\"") {
                problems.push(format!("{}/{file}: still edition 2023", twin.name));
            }
        }
        if !mine.values().any(|t| t.contains("edition = \"2026\"")) {
            problems.push(format!("{}: no file in edition 2026", twin.name));
        }
        for profile in [&PIP246, &protocompat::CONSERVATIVE] {
            let (mine, theirs) = (verdicts(twin, profile), verdicts(original, profile));
            if mine != theirs {
                problems.push(format!(
                    "{} under {}: {mine:?}\n  but {} gives {theirs:?}",
                    twin.name, profile.name, original.name
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
