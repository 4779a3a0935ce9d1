//! For GitHub Actions: one workflow command per change (`::error file=…,line=…::…`, its
//! examples and fix on the same line), which GitHub shows on the line of the pull request's diff, then
//! the text report for the log, between `::stop-commands::TOKEN` and `::TOKEN::`, GitHub's way
//! to echo text that must not be read as a command.

use protocompat::text::printable;

use super::Run;

pub fn render(run: &Run) -> String {
    let mut lines = Vec::new();
    for change in run.changes() {
        let level = if run.is_warning(change) && !run.fail_on_warning {
            "warning"
        } else {
            "error"
        };
        let finding = run.findings_of(change)[0];
        let mut properties = Vec::new();
        if let Some(at) = run.position(finding) {
            properties.push(format!("file={}", property(&printable(&at.file))));
            properties.push(format!("line={}", at.line));
            properties.push(format!("col={}", at.column));
        }
        properties.push(format!("title={}", property(finding.rule.id())));
        lines.push(format!(
            "::{level} {}::{}",
            properties.join(","),
            data(&run.render_change_inline(change))
        ));
    }
    // A token the input cannot know: nothing in the report can end the pause early.
    let token = crate::safe::stop_token();
    lines.push(format!("::stop-commands::{token}"));
    lines.push(super::text::render(run));
    lines.push(format!("::{token}::"));
    lines.join("\n")
}

/// Bad input: one error annotation on the file, if known.
pub fn error(file: Option<&str>, rule: Option<&str>, message: &str) -> String {
    let mut properties = Vec::new();
    if let Some(file) = file {
        properties.push(format!("file={}", property(&printable(file))));
    }
    properties.push(format!("title={}", property(rule.unwrap_or("protocompat"))));
    format!(
        "::error {}::{}",
        properties.join(","),
        data(&printable(message))
    )
}

/// A command's message, escaped as GitHub's toolkit escapes it.
pub fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value, which also may not hold `:` or `,`.
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_escape_what_github_would_split_on() {
        assert_eq!(data("50% a\nb"), "50%25 a%0Ab");
        assert_eq!(property("a:b,c"), "a%3Ab%2Cc");
    }
}
