//! Findings in the form the tests' expectations (`expect.json`) name them.

use protocompat::Finding;

/// `"RULE_ID path"`, the form expectations use.
pub fn key(finding: &Finding) -> String {
    format!("{} {}", finding.rule, finding.path)
}

pub fn sorted_keys(findings: &[Finding]) -> Vec<String> {
    let mut keys: Vec<String> = findings.iter().map(key).collect();
    keys.sort();
    keys
}
