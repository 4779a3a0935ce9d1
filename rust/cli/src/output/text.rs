//! For people: the header, one entry per change (`file:line:col: ` first where the source is
//! known, as compilers print) with its examples and fix indented under it, then which schema is
//! which (the new schema's digest last) and what the strategy asked.

use protocompat::text::printable;

use super::paint::{Painted, Role};
use super::Run;

pub fn render(run: &Run) -> String {
    painted(run).plain()
}

/// The report as spans with roles, for [`super::paint`] to colour or not.
pub fn painted(run: &Run) -> Painted {
    let mut out = Painted::default();
    out.push(run.header());
    for change in run.changes() {
        let first = run.findings_of(change)[0];
        out.line();
        if let Some(at) = run.position(first) {
            let file = printable(&at.file);
            out.push_as(
                Role::Location,
                format!("{file}:{}:{}: ", at.line, at.column),
            );
        }
        let line = run.render_change(change);
        let rule = first.rule.id();
        let rest = line.strip_prefix(rule).unwrap_or(&line);
        if run.is_warning(change) {
            out.push_as(Role::Warning, "warning: ");
            out.push_as(Role::Warning, rule);
        } else {
            out.push_as(Role::Failure, rule);
        }
        out.push(rest);
        for under in run.change_lines(change) {
            out.line();
            out.push("    ");
            if is_fix(&under) {
                out.push_as(Role::Fix, under);
            } else {
                out.push(under);
            }
        }
    }
    let mut lines = Vec::new();
    let unlisted = run.unlisted();
    if unlisted > 0 {
        lines.push(format!("… and {unlisted} more findings not shown"));
    }
    lines.push(format!(
        "new: {} (schema data sha256 {})",
        printable(&run.new.label),
        run.report.new_schema_sha256
    ));
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
    for line in lines {
        out.line();
        out.push(line);
    }
    out
}

/// Whether a line under a change says its fix (`fix: …`, `suggested fix …`), under a
/// direction's name or not; the edits under it and advice stay plain.
fn is_fix(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("fix") || line.starts_with("suggested fix")
}
