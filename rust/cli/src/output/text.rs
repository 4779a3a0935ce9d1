//! For people: the summary, one line per finding (`file:line:col: ` first where the source is
//! known, as compilers print) with its example indented under it, then which schema is which
//! and what the strategy asked.

use protocompat::text::printable;

use super::Run;

pub fn render(run: &Run) -> String {
    let mut lines = vec![run.report.summary()];
    for (finding, warning) in run.findings() {
        let mut line = String::new();
        if let Some(at) = run.position(finding) {
            let file = printable(&at.file);
            line.push_str(&format!("{file}:{}:{}: ", at.line, at.column));
        }
        if warning {
            line.push_str("warning: ");
        }
        line.push_str(&run.render(finding));
        lines.push(line);
        lines.extend(
            super::example_lines(finding)
                .into_iter()
                .chain(run.fix_lines(finding))
                .map(|l| format!("    {l}")),
        );
    }
    let unlisted = run.unlisted();
    if unlisted > 0 {
        lines.push(format!("… and {unlisted} more findings not shown"));
    }
    lines.push(format!("new: {}", printable(&run.new.label)));
    for (index, existing) in run.existing.iter().enumerate() {
        lines.push(format!(
            "{}: {}",
            run.name(index),
            printable(&existing.label)
        ));
    }
    lines.extend(run.obligation());
    lines.extend(
        run.notes
            .iter()
            .map(|note| format!("note: {}", printable(note))),
    );
    if run.fail_on_warning && run.report.compatible && run.report.total_warnings > 0 {
        lines.push("failed: --fail-on-warning, and the check found warnings".to_owned());
    }
    lines.join("\n")
}
