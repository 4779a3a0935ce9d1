//! For CI dashboards (GitLab, Jenkins, GitHub test reporters): JUnit XML, one test case per
//! existing schema compared, failing with that schema's changes, a line each with its
//! examples and fix; the failure's `message` is the first change alone, a headline.

use std::fmt::Write as _;

use protocompat::text::{is_unsafe_char, printable};
use protocompat::{Change, Finding, SchemaRef};

use super::Run;

pub fn render(run: &Run) -> String {
    let suite = format!(
        "protocompat {} {} (profile {})",
        run.strategy.name(),
        printable(&run.new.label),
        run.report.profile
    );
    let mut cases = Vec::new();
    // Findings of the strategy itself (ALWAYS_INCOMPATIBLE, UNKNOWN_STRATEGY) name no schema.
    let of_strategy: Vec<&Change> = run
        .changes()
        .iter()
        .filter(|c| run.findings_of(c)[0].existing.is_none())
        .collect();
    if !of_strategy.is_empty() || run.existing.is_empty() {
        cases.push(case(
            run,
            &format!("strategy {}", run.strategy.name()),
            &of_strategy,
            &[],
        ));
    }
    for (index, existing) in run.existing.iter().enumerate() {
        let of = |warning: bool| -> Vec<&Change> {
            run.changes()
                .iter()
                .filter(|c| run.is_warning(c) == warning && is_about(run.findings_of(c)[0], index))
                .collect()
        };
        let name = format!(
            "{} against {} ({})",
            printable(&run.new.label),
            run.name(index),
            printable(&existing.label)
        );
        cases.push(case(run, &name, &of(false), &of(true)));
    }
    let failures = cases.iter().filter(|c| c.contains("<failure")).count();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"protocompat\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
        cases.len()
    );
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
        escape(&suite),
        cases.len()
    );
    for case in cases {
        xml.push_str(&case);
    }
    let mut out = run.header();
    let unlisted = run.unlisted();
    if unlisted > 0 {
        out.push_str(&format!("\n… and {unlisted} more findings not shown"));
    }
    let _ = writeln!(xml, "    <system-out>{}</system-out>", escape(&out));
    xml.push_str("  </testsuite>\n</testsuites>");
    xml
}

fn is_about(finding: &Finding, index: usize) -> bool {
    matches!(finding.existing.as_ref().map(|e| e.which), Some(SchemaRef::Existing(i)) if i == index)
}

fn case(run: &Run, name: &str, failures: &[&Change], warnings: &[&Change]) -> String {
    let line = |change: &Change| match run.position(run.findings_of(change)[0]) {
        Some(at) => format!(
            "{}:{}:{}: {}",
            printable(&at.file),
            at.line,
            at.column,
            run.render_change_inline(change)
        ),
        None => run.render_change_inline(change),
    };
    let mut xml = format!(
        "    <testcase classname=\"protocompat\" name=\"{}\">\n",
        escape(name)
    );
    let failing: Vec<&Change> = if run.fail_on_warning {
        failures.iter().chain(warnings).copied().collect()
    } else {
        failures.to_vec()
    };
    if let Some(first) = failing.first() {
        let rules: Vec<&str> = failing
            .iter()
            .map(|c| run.findings_of(c)[0].rule.id())
            .collect();
        let body: Vec<String> = failing.iter().map(|f| line(f)).collect();
        let _ = writeln!(
            xml,
            "      <failure type=\"{}\" message=\"{}\">{}</failure>",
            escape(&dedup(rules).join(" ")),
            escape(&run.render_change(first)),
            escape(&body.join("\n"))
        );
    }
    if !warnings.is_empty() && !run.fail_on_warning {
        let body: Vec<String> = warnings
            .iter()
            .map(|w| format!("warning: {}", line(w)))
            .collect();
        let _ = writeln!(
            xml,
            "      <system-out>{}</system-out>",
            escape(&body.join("\n"))
        );
    }
    xml.push_str("    </testcase>\n");
    xml
}

fn dedup(mut items: Vec<&str>) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    items.retain(|item| seen.insert(*item));
    items
}

/// Bad input: a suite whose one test case is in error, with the message.
pub fn error(file: Option<&str>, rule: Option<&str>, message: &str) -> String {
    let name = printable(file.unwrap_or("input"));
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"protocompat\" tests=\"1\" failures=\"0\" errors=\"1\">\n  \
         <testsuite name=\"protocompat\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n    \
         <testcase classname=\"protocompat\" name=\"{}\">\n      \
         <error type=\"{}\" message=\"{}\"/>\n    </testcase>\n  </testsuite>\n</testsuites>",
        escape(&name),
        escape(rule.unwrap_or("BAD_INPUT")),
        escape(&printable(message))
    )
}

/// Text as XML character data or an attribute value. Text from inputs is made printable
/// before it gets here; any other control character (XML 1.0 cannot hold most of them at all)
/// is written as `printable` writes it, and U+FFFE and U+FFFF become U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Kept in attribute values, where a raw newline or tab would read as a space.
            '\n' | '\t' | '\r' => out.push_str(&format!("&#{};", c as u32)),
            c if is_unsafe_char(c) => out.push_str(&printable(c.encode_utf8(&mut [0; 4]))),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_shows_control_characters_inert() {
        assert_eq!(
            escape("a<b & \"c\"\n\u{1}\u{1b}\u{85}\u{FFFF}"),
            "a&lt;b &amp; &quot;c&quot;&#10;\\u{1}\\u{1b}\\u{85}\u{FFFD}"
        );
    }
}
