//! What a check prints, in the format a reader asked for: text for people, versioned JSON for
//! tools, GitHub workflow annotations, JUnit XML for CI dashboards.

mod github;
mod json;
mod junit;
mod text;

use clap::ValueEnum;
use protocompat::text::printable;
use protocompat::{Finding, Limits, Report, Strategy};

use crate::fix::{Fix, Fixes};
use crate::input::Loaded;
use crate::locate::{Index, Position};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Github,
    Junit,
}

/// A finished check and what the user gave it.
pub struct Run<'a> {
    pub report: &'a Report,
    pub strategy: Strategy,
    pub new: &'a Loaded,
    /// The existing schemas compared, in the order the engine got them.
    pub existing: &'a [Loaded],
    /// Said after the findings: why fewer schemas were compared than given, and the like.
    pub notes: &'a [String],
    pub fail_on_warning: bool,
    new_index: Option<Index<'a>>,
    existing_index: Vec<Option<Index<'a>>>,
    /// The root message of the new schema and of the existing ones: where finding paths start.
    new_root: Option<String>,
    existing_root: Option<String>,
    /// Each finding's remedies, where they are shown ([`Run::with_fixes`]).
    fixes: Option<Fixes<'a>>,
}

impl<'a> Run<'a> {
    pub fn new(
        report: &'a Report,
        strategy: Strategy,
        new: &'a Loaded,
        existing: &'a [Loaded],
        notes: &'a [String],
        fail_on_warning: bool,
    ) -> Run<'a> {
        Run {
            report,
            strategy,
            new,
            existing,
            notes,
            fail_on_warning,
            new_index: new.sources.as_ref().map(Index::new),
            existing_index: existing
                .iter()
                .map(|e| e.sources.as_ref().map(Index::new))
                .collect(),
            new_root: crate::input::root_of(&new.data).map(|r| r.0),
            existing_root: existing
                .iter()
                .find_map(|e| crate::input::root_of(&e.data))
                .map(|r| r.0),
            fixes: None,
        }
    }

    /// This run, showing each finding's remedies (planned within the check's `limits`).
    pub fn with_fixes(mut self, limits: &Limits) -> Run<'a> {
        self.fixes = Some(Fixes::new(self.new, self.existing, limits));
        self
    }

    /// The remedies of `finding`; none when they are not shown.
    pub fn fixes(&self, finding: &Finding) -> Vec<Fix> {
        self.fixes.as_ref().map_or_else(Vec::new, |f| f.of(finding))
    }

    pub fn fix_source(&self) -> Option<&Fixes<'a>> {
        self.fixes.as_ref()
    }

    /// Whether the run fails the build: incompatible, or any warning with --fail-on-warning.
    pub fn failed(&self) -> bool {
        !self.report.compatible || (self.fail_on_warning && self.report.total_warnings > 0)
    }

    /// How an existing schema is called: its Pulsar version where known, else its index.
    pub fn name(&self, index: usize) -> String {
        match self.existing.get(index).and_then(|e| e.version) {
            Some(version) => format!("version {version}"),
            None => format!("existing[{index}]"),
        }
    }

    /// A finding on one line: names and values from the schemas made printable.
    pub fn render(&self, finding: &Finding) -> String {
        printable(&finding.render_naming(&|index| self.name(index))).into_owned()
    }

    /// [`Run::render`], then the finding's example and first remedy on the same line
    /// ([`example_inline`], [`fix_inline`]).
    pub fn render_with_example(&self, finding: &Finding) -> String {
        let mut line = self.render(finding);
        line.push_str(&example_inline(finding));
        line.push_str(&fix_inline(&self.fixes(finding)));
        line
    }

    /// Where a finding is written: in the new schema's source if its path is there, else in
    /// the existing schema's, else at the deepest part of the path the new schema has.
    pub fn position(&self, finding: &Finding) -> Option<Position> {
        // A strategy's own rejection is about no declaration.
        finding.existing.as_ref()?;
        let root = self.new_root.as_deref()?;
        let in_new = self
            .new_index
            .as_ref()
            .and_then(|index| index.locate(root, &finding.path));
        if let Some((position, true)) = &in_new {
            return Some(position.clone());
        }
        let existing = finding
            .existing
            .as_ref()
            .and_then(|schema| match schema.which {
                protocompat::SchemaRef::Existing(i) => self.existing_index.get(i)?.as_ref(),
                protocompat::SchemaRef::New => None,
            });
        if let Some(index) = existing {
            let root = self.existing_root.as_deref().unwrap_or(root);
            if let Some((position, true)) = index.locate(root, &finding.path) {
                return Some(position);
            }
        }
        in_new.map(|(position, _)| position)
    }

    /// Every kept finding with whether it is a warning, failures first.
    pub fn findings(&self) -> impl Iterator<Item = (&'a Finding, bool)> {
        let report = self.report;
        report
            .failures
            .iter()
            .map(|f| (f, false))
            .chain(report.warnings.iter().map(|w| (w, true)))
    }

    /// How many findings were counted but not kept.
    pub fn unlisted(&self) -> usize {
        let report = self.report;
        report.total_failures + report.total_warnings
            - report.failures.len()
            - report.warnings.len()
    }

    /// What the strategy asks of the compared schemas, in words.
    pub fn obligation(&self) -> Option<String> {
        use protocompat::Direction::*;
        let schemas = match self.existing.len() {
            0 => return None,
            1 => self.name(0),
            n => format!("each of the {n} existing schemas"),
        };
        let directions = self.strategy.directions();
        let reads = directions.contains(&ExistingWritesNewReads);
        let is_read = directions.contains(&NewWritesExistingReads);
        Some(match (reads, is_read) {
            (true, true) => format!(
                "{}: the new schema must read data written with {schemas}, and be read by it",
                self.strategy.name()
            ),
            (true, false) => format!(
                "{}: the new schema must read data written with {schemas}",
                self.strategy.name()
            ),
            (false, true) => format!(
                "{}: data the new schema writes must be read by {schemas}",
                self.strategy.name()
            ),
            (false, false) => return None,
        })
    }
}

/// A finding's example as lines of their own, to go under the finding's line (indented by
/// the caller): `writer: …`, `bytes:  …` (hex, a space between bytes), `reader: …`; or the one
/// line `no example: …` saying why a finding about data has none; or nothing, for a finding
/// not about data or a check run with `--no-examples`. The writer's text holds names and
/// values from the schemas: every string is made printable, so each stays one inert line.
pub fn example_lines(finding: &Finding) -> Vec<String> {
    if let Some(example) = &finding.example {
        vec![
            format!("writer: {}", printable(&braced(&example.writer))),
            format!("bytes:  {}", spaced_hex(&example.bytes)),
            format!("reader: {}", printable(&example.reader)),
        ]
    } else if let Some(why) = &finding.no_example {
        vec![format!("no example: {}", printable(why))]
    } else {
        Vec::new()
    }
}

/// A finding's example in one line, to append to the finding's own line where a format has
/// one line per finding (a GitHub annotation, a JUnit failure's line):
/// ` — e.g. writer … (bytes …): …`, or ` — no example: …`, or nothing; printable as
/// [`example_lines`] is.
pub fn example_inline(finding: &Finding) -> String {
    if let Some(example) = &finding.example {
        format!(
            " — e.g. writer {} (bytes {}): {}",
            printable(&braced(&example.writer)),
            spaced_hex(&example.bytes),
            printable(&example.reader)
        )
    } else if let Some(why) = &finding.no_example {
        format!(" — no example: {}", printable(why))
    } else {
        String::new()
    }
}

/// A finding's remedies as lines of their own, to go under its example: `fix: summary`, then
/// each edit indented (`file:line:col: write … in place of …`, or the declaration to write).
pub fn fix_lines(fixes: &[Fix]) -> Vec<String> {
    let mut lines = Vec::new();
    for fix in fixes {
        lines.push(format!("fix: {}", printable(&fix.summary)));
        lines.extend(
            fix.edits
                .iter()
                .map(|edit| format!("  {}", printable(&edit.describe()))),
        );
    }
    lines
}

/// A finding's first remedy on one line, for formats with one line per finding:
/// ` — fix: summary (edit; edit)`, or nothing.
pub fn fix_inline(fixes: &[Fix]) -> String {
    let Some(fix) = fixes.first() else {
        return String::new();
    };
    let mut line = format!(" — fix: {}", printable(&fix.summary));
    if !fix.edits.is_empty() {
        let edits: Vec<String> = fix.edits.iter().map(|e| e.describe()).collect();
        line.push_str(&format!(" ({})", printable(&edits.join("; "))));
    }
    line
}

/// The writer's message in braces, as text format writes a message inside another: an empty
/// one is `{ }`, not nothing.
fn braced(text: &str) -> String {
    if text.is_empty() {
        "{ }".to_owned()
    } else {
        format!("{{ {text} }}")
    }
}

/// `0880` as `08 80`, one byte a group, the way hex dumps print; anything but an even run of
/// hex digits (which the engine does not give) is shown as it is, made printable.
fn spaced_hex(hex: &str) -> String {
    if hex.is_empty() {
        return "(none: an empty message is no bytes)".to_owned();
    }
    if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return printable(hex).into_owned();
    }
    let pairs: Vec<&str> = (0..hex.len())
        .step_by(2)
        .map(|start| &hex[start..start + 2])
        .collect();
    pairs.join(" ")
}

/// The report of a run in `format`.
pub fn render(format: Format, run: &Run) -> String {
    match format {
        Format::Text => text::render(run),
        Format::Json => json::render(run),
        Format::Github => github::render(run),
        Format::Junit => junit::render(run),
    }
}

/// Bad input in `format`, for stdout; `None` where stderr alone says it (text).
pub fn render_error(
    format: Format,
    file: Option<&str>,
    rule: Option<&str>,
    message: &str,
) -> Option<String> {
    match format {
        Format::Text => None,
        Format::Json => Some(json::error(file, rule, message)),
        Format::Github => Some(github::error(file, rule, message)),
        Format::Junit => Some(junit::error(file, rule, message)),
    }
}

/// Each format given findings with examples made by hand (the engine's own examples are
/// pinned by the golden files): where the example goes, and that the text the schemas put in
/// it, escapes and all, comes out inert.
#[cfg(test)]
mod tests {
    use super::*;
    use protocompat::text::is_unsafe_char;
    use protocompat::{Direction, Example, NamedSchema, Outcome, RuleId, SchemaRef, Severity};

    /// A string value from a schema that sets a window title, hides behind a right-to-left
    /// override, and starts a workflow command on a line of its own.
    const WRITER: &str = "note: \"\u{1b}]0;owned\u{7}\u{202e}gnp.exe\n::error::pwned\"";
    const WRITER_SHOWN: &str =
        "{ note: \"\\u{1b}]0;owned\\u{7}\\u{202e}gnp.exe\\n::error::pwned\" }";
    const READER: &str = "reads shop.Order.note as \"100%\u{9b}31m\"";
    const READER_SHOWN: &str = "reads shop.Order.note as \"100%\\u{9b}31m\"";
    const NO_EXAMPLE: &str = "its smallest message takes 300 bytes\u{2028}";
    const NO_EXAMPLE_SHOWN: &str = "its smallest message takes 300 bytes\\u{2028}";

    fn finding(rule: RuleId, severity: Severity, path: &str) -> Finding {
        Finding {
            rule,
            severity,
            strategy: "FULL".to_owned(),
            direction: Some(Direction::ExistingWritesNewReads),
            existing: Some(NamedSchema::new(SchemaRef::Existing(0), "bab686181224")),
            path: path.to_owned(),
            field_number: Some(4),
            writer: "number 4".to_owned(),
            reader: "number 5".to_owned(),
            example: None,
            no_example: None,
        }
    }

    /// A failure with an example, a failure about no data (no example, nothing said), and a
    /// warning whose example could not be made.
    fn report() -> Report {
        let mut with = finding(
            RuleId::FieldNumberChanged,
            Severity::Failure,
            "shop.Order.note",
        );
        with.example = Some(Example {
            writer: WRITER.to_owned(),
            bytes: "088080808010".to_owned(),
            reader: READER.to_owned(),
            outcome: Outcome::Value {
                path: "shop.Order.note".to_owned(),
                written: "\"\u{1b}\"".to_owned(),
                read: "\"\"".to_owned(),
            },
        });
        let mut root = finding(RuleId::RootMessageChanged, Severity::Failure, "shop.Order");
        root.field_number = None;
        let mut without = finding(
            RuleId::ScalarTypeChanged,
            Severity::Warning,
            "shop.Order.id",
        );
        without.no_example = Some(NO_EXAMPLE.to_owned());
        Report {
            compatible: false,
            strategy: "FULL".to_owned(),
            profile: "pip246",
            existing_schemas: 1,
            new_schema_sha256: "d5675e93d237".into(),
            total_failures: 2,
            total_warnings: 1,
            failures: vec![with, root],
            warnings: vec![without],
        }
    }

    fn loaded(label: &str) -> Loaded {
        Loaded {
            data: Vec::new(),
            label: label.to_owned(),
            version: None,
            sources: None,
        }
    }

    /// `format`'s output for [`report`].
    fn rendered(format: Format) -> String {
        let report = report();
        let (new, existing) = (loaded("new.proto"), [loaded("old.proto")]);
        let run = Run::new(&report, Strategy::Full, &new, &existing, &[], false);
        let out = render(format, &run);
        // Nothing but our newlines, before the last net (`safe::lines`) is even cast.
        assert!(
            !out.chars().any(|c| c != '\n' && is_unsafe_char(c)),
            "{out:?}"
        );
        out
    }

    /// The lines of `text` from the one starting `start`, `n` of them.
    fn lines_from<'t>(text: &'t str, start: &str, n: usize) -> Vec<&'t str> {
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line starts with {start:?}: {text}"));
        lines[at..(at + n).min(lines.len())].to_vec()
    }

    #[test]
    fn text_shows_each_example_indented_under_its_finding() {
        let out = rendered(Format::Text);
        assert_eq!(
            lines_from(&out, "FIELD_NUMBER_CHANGED", 5)[1..],
            [
                format!("    writer: {WRITER_SHOWN}"),
                "    bytes:  08 80 80 80 80 10".to_owned(),
                format!("    reader: {READER_SHOWN}"),
                "ROOT_MESSAGE_CHANGED shop.Order: writer=number 4 reader=number 5 \
                 [FULL, existing[0] bab686181224: existing writes, new reads]"
                    .to_owned(),
            ],
            "{out}"
        );
        // The finding about no data is followed by the next finding, the warning by why it
        // has no example.
        assert_eq!(
            lines_from(&out, "warning: SCALAR_TYPE_CHANGED", 3)[1..],
            [
                format!("    no example: {NO_EXAMPLE_SHOWN}"),
                "new: new.proto".to_owned()
            ],
            "{out}"
        );
        assert!(!out.lines().any(|l| l.starts_with("::")), "{out}");
    }

    #[test]
    fn json_carries_each_example_exact_and_escaped() {
        let out = rendered(Format::Json);
        assert!(out.contains("\\u202e") && out.contains("\\u001b"), "{out}");
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(json["reportVersion"], 1);
        let example = &json["failures"][0]["example"];
        assert_eq!(
            example,
            &serde_json::json!({
                "writer": WRITER,
                "bytes": "088080808010",
                "reader": READER,
                "outcome": {
                    "kind": "value",
                    "path": "shop.Order.note",
                    "written": "\"\u{1b}\"",
                    "read": "\"\"",
                },
            }),
            "{out}"
        );
        assert!(json["failures"][0].get("no_example").is_none(), "{out}");
        // A finding about no data has neither field.
        for key in ["example", "no_example"] {
            assert!(json["failures"][1].get(key).is_none(), "{out}");
        }
        assert_eq!(json["warnings"][0]["no_example"], NO_EXAMPLE, "{out}");
        assert!(json["warnings"][0].get("example").is_none(), "{out}");
        // What the CLI adds to a finding is still there.
        assert!(json["failures"][0].get("location").is_some(), "{out}");
    }

    #[test]
    fn github_annotations_carry_the_example_on_their_one_line() {
        let out = rendered(Format::Github);
        let commands: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
        // Three annotations, then the pause around the text report: nothing of the example
        // starts a command of its own.
        assert_eq!(commands.len(), 5, "{out}");
        assert_eq!(
            commands[0],
            format!(
                "::error title=FIELD_NUMBER_CHANGED::FIELD_NUMBER_CHANGED shop.Order.note \
                 (field 4): writer=number 4 reader=number 5 [FULL, existing[0] bab686181224: \
                 existing writes, new reads] — e.g. writer {WRITER_SHOWN} \
                 (bytes 08 80 80 80 80 10): {}",
                READER_SHOWN.replace('%', "%25")
            ),
            "{out}"
        );
        assert!(!commands[1].contains(" — "), "{out}");
        assert!(
            commands[2].starts_with("::warning title=SCALAR_TYPE_CHANGED::")
                && commands[2].ends_with(&format!("] — no example: {NO_EXAMPLE_SHOWN}")),
            "{out}"
        );
        // The text report for the log has the examples in its own layout.
        assert!(
            out.contains(&format!("\n    writer: {WRITER_SHOWN}\n")),
            "{out}"
        );
    }

    #[test]
    fn junit_failures_carry_the_example_on_each_finding_line() {
        let out = rendered(Format::Junit);
        let doc = roxmltree::Document::parse(&out).expect("well-formed XML");
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .expect("a failure");
        let body: Vec<&str> = failure.text().unwrap().lines().collect();
        assert_eq!(body.len(), 2, "{out}");
        assert!(
            body[0].ends_with(&format!(
                "] — e.g. writer {WRITER_SHOWN} (bytes 08 80 80 80 80 10): {READER_SHOWN}"
            )),
            "{out}"
        );
        assert!(body[1].ends_with("existing writes, new reads]"), "{out}");
        // The message is the headline: the first finding alone.
        let message = failure.attribute("message").unwrap();
        assert!(
            message.starts_with("FIELD_NUMBER_CHANGED") && message.ends_with("new reads]"),
            "{message}"
        );
        let warnings = doc
            .descendants()
            .filter(|n| n.has_tag_name("system-out"))
            .find_map(|n| n.text().filter(|t| t.starts_with("warning: ")))
            .expect("the warning");
        assert!(
            warnings.ends_with(&format!("] — no example: {NO_EXAMPLE_SHOWN}")),
            "{out}"
        );
    }

    #[test]
    fn bytes_are_spaced_only_when_they_are_hex() {
        assert_eq!(spaced_hex(""), "(none: an empty message is no bytes)");
        assert_eq!(spaced_hex("08"), "08");
        assert_eq!(spaced_hex("0a1B"), "0a 1B");
        assert_eq!(spaced_hex("0a1"), "0a1");
        assert_eq!(spaced_hex("0\u{1b}"), "0\\u{1b}");
    }
}
