//! `protocompat rules`: the rules each profile runs.

use std::process::ExitCode;

use protocompat::{ErrorRule, Profile, RuleId, Severity, PROFILES};

use crate::console::print_out;

pub fn run(profile: Option<&'static Profile>) -> ExitCode {
    let profiles = match profile {
        Some(profile) => vec![profile],
        None => PROFILES.to_vec(),
    };
    print_out(rules(&profiles).trim_end_matches('\n'));
    ExitCode::SUCCESS
}

/// Each profile's name and summary, then its rules, one a line, then the rules it reports as
/// warnings where its own find nothing at the path (docs/rules.md#no-silent-data-loss); last,
/// the IDs no profile lists, which a user meets all the same.
fn rules(profiles: &[&Profile]) -> String {
    let mut out = String::new();
    for (i, profile) in profiles.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{}: {}\n", profile.name, profile.summary));
        let width = profile
            .rules
            .iter()
            .chain(profile.guard)
            .map(|r| r.id.id().len())
            .max()
            .unwrap_or(0);
        let list = |out: &mut String, rules: &[protocompat::rules::Rule]| {
            for rule in rules {
                let severity = match rule.severity {
                    Severity::Failure => "fails",
                    Severity::Warning => "warns",
                };
                out.push_str(&format!(
                    "  {:width$}  {severity}  {}\n",
                    rule.id.id(),
                    rule.description
                ));
            }
        };
        list(&mut out, profile.rules);
        if !profile.guard.is_empty() {
            out.push_str(
                "  and, so that no data is lost silently, wherever the rules above find nothing:\n",
            );
            list(&mut out, profile.guard);
        }
    }
    // Taken from every profile, not only those shown: a strategy's rejection is no profile's.
    let in_a_profile = |id: RuleId| {
        PROFILES
            .iter()
            .flat_map(|p| p.rules.iter().chain(p.guard))
            .any(|r| r.id == id)
    };
    let rejections: Vec<&str> = RuleId::all()
        .filter(|&id| !in_a_profile(id))
        .map(RuleId::id)
        .collect();
    let errors: Vec<&str> = ErrorRule::all().map(ErrorRule::id).collect();
    out.push_str(&format!(
        "\nevery profile: {} fail a check by its strategy alone; {} refuse a schema it cannot compare\n\
         what each rule decides, with examples: docs/rules.md#rule-index\n",
        rejections.join(", "),
        errors.join(", ")
    ));
    out
}
