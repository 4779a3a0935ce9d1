//! `docs/rules.md` is the rules' documentation for users, and the project cites its sections by
//! anchor: it must name exactly the rule IDs the engine has, say what each profile does with
//! each, and every citation of one of its sections must land on a heading it has.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use protocompat::{ErrorRule, RuleId, Severity, PROFILES};
use protocompat_testkit::repo;

fn document() -> String {
    std::fs::read_to_string(repo().join("docs/rules.md")).expect("docs/rules.md")
}

/// The shape of a rule ID: `FIELD_NUMBER_CHANGED`.
fn looks_like_an_id(word: &str) -> bool {
    word.len() >= 4
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Every ID a report or an error can carry.
fn engine_ids() -> BTreeSet<&'static str> {
    RuleId::all()
        .map(RuleId::id)
        .chain(ErrorRule::all().map(ErrorRule::id))
        .collect()
}

/// The document's lines outside fenced code blocks, where a `#` starts a heading.
fn prose(doc: &str) -> Vec<&str> {
    let mut fenced = false;
    doc.lines()
        .filter(|line| {
            if line.starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// Each heading's level and text.
fn headings(doc: &str) -> Vec<(usize, &str)> {
    prose(doc)
        .into_iter()
        .filter_map(|line| {
            let level = line.chars().take_while(|&c| c == '#').count();
            (level > 0 && line[level..].starts_with(' ')).then(|| (level, line[level..].trim()))
        })
        .collect()
}

/// The anchor GitHub gives a heading.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The cells of the Rule index table's rows, header and separator left out.
fn index_rows(doc: &str) -> Vec<Vec<String>> {
    let lines = prose(doc);
    let start = lines
        .iter()
        .position(|l| *l == "## Rule index")
        .expect("a `## Rule index` section");
    lines[start + 1..]
        .iter()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect()
}

/// A rule's entry is a heading that is its ID and nothing else. A heading with an ID in it and
/// more besides would be an entry the check below could not see, so it is refused.
#[test]
fn each_rule_id_of_the_engine_has_one_heading_and_no_other_id_has_one() {
    let doc = document();
    let mut entries = Vec::new();
    for (_, text) in headings(&doc) {
        let ids: Vec<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| looks_like_an_id(w))
            .collect();
        match ids[..] {
            [] => {}
            [id] if id == text => entries.push(id),
            _ => panic!("heading `{text}`: a rule's heading is its ID alone"),
        }
    }
    let found: BTreeSet<&str> = entries.iter().copied().collect();
    assert_eq!(
        found.len(),
        entries.len(),
        "an ID has two headings: {entries:?}"
    );
    let engine = engine_ids();
    let missing: Vec<_> = engine.difference(&found).collect();
    let unknown: Vec<_> = found.difference(&engine).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "docs/rules.md lacks a heading for {missing:?}; it has headings for {unknown:?}, which \
         the engine does not have"
    );
}

/// Every rule's entry says what to write instead: an edit of the new schema that makes the
/// finding go away (the stored versions are history and cannot change), or why no edit helps
/// and what does. Error IDs refuse the input and have their own entries.
#[test]
fn every_rule_says_what_to_write_instead() {
    let doc = document();
    let lines = prose(&doc);
    for id in RuleId::all().map(RuleId::id) {
        let heading = format!("### {id}");
        let start = lines
            .iter()
            .position(|l| *l == heading)
            .unwrap_or_else(|| panic!("no `{heading}`"));
        let section = lines[start + 1..]
            .iter()
            .take_while(|l| !l.starts_with("#"));
        let remedies: Vec<&&str> = section
            .filter(|l| l.starts_with("**What to write instead:** "))
            .collect();
        assert_eq!(
            remedies.len(),
            1,
            "{id}: its entry needs one `**What to write instead:**` paragraph"
        );
    }
}

/// The Remedies table (docs/rules.md#remedies) names every rule ID in its first column, once:
/// what `check --fix` edits for it, or when no edit helps.
#[test]
fn the_remedies_table_covers_every_rule_once() {
    let doc = document();
    let start = doc
        .find("\n## Remedies\n")
        .expect("a `## Remedies` section");
    let section = &doc[start..];
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |i| i + 1)];
    let mut named: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Rule") && !l.starts_with("|---"))
        .flat_map(|l| l.split('|').nth(1).unwrap_or("").split(','))
        .map(str::trim)
        .collect();
    named.sort_unstable();
    let mut ids: Vec<&str> = RuleId::all().map(RuleId::id).collect();
    ids.sort_unstable();
    assert_eq!(named, ids);
}

/// The Rule index lists each ID once, linked to its heading, with what each profile does with
/// it: the severity it has among the profile's rules or its guard, `error` for an ID the input
/// is refused under, `fails` for a strategy's own rejection, `—` for a rule it does not run.
#[test]
fn the_rule_index_lists_every_id_with_each_profiles_severity() {
    let doc = document();
    let rows = index_rows(&doc);
    let errors: Vec<&str> = ErrorRule::all().map(ErrorRule::id).collect();
    let in_a_profile: Vec<RuleId> = PROFILES
        .iter()
        .flat_map(|p| p.rules.iter().chain(p.guard))
        .map(|r| r.id)
        .collect();
    let mut listed = Vec::new();
    for row in &rows {
        let id = row[0]
            .split('`')
            .nth(1)
            .filter(|id| looks_like_an_id(id))
            .unwrap_or_else(|| panic!("first cell `{}` names no rule ID in backticks", row[0]));
        assert!(
            row[0].ends_with(&format!("(#{})", anchor(id))),
            "`{}` must link to its heading",
            row[0]
        );
        listed.push(id);
        for (column, profile) in PROFILES.iter().enumerate() {
            let mut expected = Vec::new();
            let rule = RuleId::all().find(|r| r.id() == id);
            let in_this = rule.and_then(|r| {
                profile
                    .rules
                    .iter()
                    .chain(profile.guard)
                    .find(|rule| rule.id == r)
            });
            match (rule, in_this) {
                (_, Some(rule)) => expected.push(match rule.severity {
                    Severity::Failure => "fails",
                    Severity::Warning => "warns",
                }),
                (Some(r), None) if !in_a_profile.contains(&r) => expected.push("fails"),
                _ => {}
            }
            if errors.contains(&id) {
                expected.push("error");
            }
            let expected = if expected.is_empty() {
                "—".to_owned()
            } else {
                expected.join("; ")
            };
            let header = format!("`{}`", profile.name);
            assert_eq!(
                row.get(column + 1).map(String::as_str),
                Some(expected.as_str()),
                "{id} under {header}"
            );
        }
    }
    let found: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(
        found.len(),
        listed.len(),
        "an ID is listed twice: {listed:?}"
    );
    assert_eq!(
        found,
        engine_ids(),
        "the Rule index and the engine disagree"
    );
}

/// Links inside the document, and the project's citations of its sections, land on a heading.
#[test]
fn every_citation_of_a_section_lands_on_a_heading() {
    let doc = document();
    let anchors: BTreeSet<String> = headings(&doc).iter().map(|(_, t)| anchor(t)).collect();
    let mut broken = Vec::new();
    for link in doc.split("](#").skip(1) {
        let target = link.split(')').next().unwrap();
        if !anchors.contains(target) {
            broken.push(format!("docs/rules.md: #{target}"));
        }
    }
    let mut files = Vec::new();
    collect(&repo(), &mut files);
    assert!(
        files.len() > 50,
        "the walk found too few files: {}",
        files.len()
    );
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for cited in text.split("docs/rules.md#").skip(1) {
            let target: String = cited
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
                .collect();
            // A mention of the pattern, like the one above, cites nothing.
            if !target.is_empty() && !anchors.contains(&target) {
                let shown = file.strip_prefix(repo()).unwrap_or(&file).display();
                broken.push(format!("{shown}: #{target}"));
            }
        }
    }
    assert!(broken.is_empty(), "no such section: {broken:?}");
}

/// The project's text files, build output and version control left out.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if !matches!(name.as_ref(), "target" | ".git" | "node_modules") {
                collect(&path, files);
            }
        } else if [
            ".rs", ".java", ".md", ".toml", ".yml", ".yaml", ".xml", ".sh",
        ]
        .iter()
        .any(|ext| name.ends_with(ext))
        {
            files.push(path);
        }
    }
}
