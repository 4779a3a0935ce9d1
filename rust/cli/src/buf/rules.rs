//! Our rules as Buf sees them: every rule ID the engine reports, each in the categories of the
//! profiles that run it. A profile's failures are the category named after it (`PIP246`,
//! `CONSERVATIVE`); what it only warns about is `PIP246_WARNINGS`, since buf has no warnings:
//! every annotation fails `buf breaking`. So `breaking: use: [PIP246]` refuses what the broker
//! refuses, and adding `PIP246_WARNINGS` is `protocompat check --fail-on-warning`.

use protocompat::{ErrorRule, Profile, RuleId, Severity, PROFILES};

use super::proto::{Category, ListCategoriesResponse, ListRulesResponse, Rule, RULE_TYPE_BREAKING};
use super::Failure;

/// One rule as listed: its ID, what it finds, the categories it is in.
pub struct Listed {
    pub id: &'static str,
    pub description: &'static str,
    pub categories: Vec<String>,
}

/// The category of what `profile` refuses, and of what it warns about.
pub fn failures_category(profile: &Profile) -> String {
    profile.name.to_ascii_uppercase()
}

pub fn warnings_category(profile: &Profile) -> String {
    format!("{}_WARNINGS", failures_category(profile))
}

/// What an error rule finds: the engine's refusals of a schema it cannot compare.
fn error_description(rule: ErrorRule) -> &'static str {
    match rule {
        ErrorRule::SchemaReconstructionFailed => {
            "a schema's descriptors do not build a schema protobuf itself would build"
        }
        ErrorRule::UnsupportedFeature => {
            "a schema uses something this checker cannot compare, and is refused"
        }
        ErrorRule::ResourceLimitExceeded => "a schema or its check is past a resource limit",
    }
}

/// Every rule, in the engine's order, then the error rules no [`RuleId`] names.
pub fn all() -> Vec<Listed> {
    let mut listed: Vec<Listed> = RuleId::all()
        .map(|id| {
            let mut categories = Vec::new();
            for profile in PROFILES {
                let entries = profile.rules.iter().chain(profile.guard);
                let severity = entries
                    .filter(|r| r.id == id)
                    .map(|r| r.severity)
                    .min_by_key(
                        // A failure outranks a warning of the same rule.
                        |s| matches!(s, Severity::Warning),
                    );
                // A strategy's rejection (ALWAYS_INCOMPATIBLE) is every profile's failure.
                let strategy_rule =
                    matches!(id, RuleId::AlwaysIncompatible | RuleId::UnknownStrategy);
                // The engine refuses a schema it cannot compare under this ID too.
                let refusal = id.id() == ErrorRule::UnsupportedFeature.id();
                if severity == Some(Severity::Failure) || strategy_rule || refusal {
                    categories.push(failures_category(profile));
                }
                if severity == Some(Severity::Warning) {
                    categories.push(warnings_category(profile));
                }
            }
            Listed {
                id: id.id(),
                description: id.description(),
                categories,
            }
        })
        .collect();
    for rule in ErrorRule::all() {
        if listed.iter().any(|l| l.id == rule.id()) {
            continue;
        }
        listed.push(Listed {
            id: rule.id(),
            description: error_description(rule),
            categories: PROFILES.iter().map(|p| failures_category(p)).collect(),
        });
    }
    listed
}

/// Every category with at least one rule, as buf requires, in profile order.
pub fn categories() -> Vec<Category> {
    let rules = all();
    let mut out = Vec::new();
    for profile in PROFILES {
        let named = [
            (failures_category(profile), "refuses"),
            (
                warnings_category(profile),
                "warns about, which the broker accepts",
            ),
        ];
        for (id, what) in named {
            if rules.iter().any(|r| r.categories.contains(&id)) {
                out.push(Category {
                    purpose: purpose(&format!(
                        "what the {} profile {what} ({})",
                        profile.name, profile.summary
                    )),
                    id,
                    deprecated: false,
                    replacement_ids: Vec::new(),
                });
            }
        }
    }
    out
}

/// Buf's form for a purpose: a sentence, capitalised, ending in a period, at most 256 bytes.
fn purpose(text: &str) -> String {
    let mut sentence: String = text.trim_end_matches('.').to_owned();
    if let Some(first) = sentence.get(..1) {
        sentence.replace_range(..1, &first.to_ascii_uppercase());
    }
    let mut end = sentence.len().min(255);
    while !sentence.is_char_boundary(end) {
        end -= 1;
    }
    sentence.truncate(end);
    sentence.push('.');
    sentence
}

/// The rules as buf lists them; the default profile's failures run when buf.yaml names none.
pub fn list_rules(page_size: u32, page_token: &str) -> Result<ListRulesResponse, Failure> {
    let default = failures_category(PROFILES[0]);
    let rules: Vec<Rule> = all()
        .into_iter()
        .map(|rule| Rule {
            id: rule.id.to_owned(),
            default: rule.categories.contains(&default),
            category_ids: rule.categories,
            purpose: purpose(rule.description),
            r#type: RULE_TYPE_BREAKING,
            deprecated: false,
            replacement_ids: Vec::new(),
        })
        .collect();
    let (page, next_page_token) = page(rules, page_size, page_token)?;
    Ok(ListRulesResponse {
        next_page_token,
        rules: page,
    })
}

pub fn list_categories(
    page_size: u32,
    page_token: &str,
) -> Result<ListCategoriesResponse, Failure> {
    let (page, next_page_token) = page(categories(), page_size, page_token)?;
    Ok(ListCategoriesResponse {
        next_page_token,
        categories: page,
    })
}

/// One page of `items`: the token is the index of the page's first item, as this plugin gave
/// it; a page size of 0 is the API's default, 250.
fn page<T>(items: Vec<T>, size: u32, token: &str) -> Result<(Vec<T>, String), Failure> {
    let size = if size == 0 { 250 } else { size as usize };
    let start = if token.is_empty() {
        0
    } else {
        token
            .parse::<usize>()
            .ok()
            .filter(|&start| start <= items.len())
            .ok_or_else(|| {
                Failure::invalid(format!(
                    "page_token `{}` is not one this plugin gave",
                    protocompat::text::bound(token, 100)
                ))
            })?
    };
    let end = start.saturating_add(size).min(items.len());
    let next = if end < items.len() {
        end.to_string()
    } else {
        String::new()
    };
    Ok((
        items.into_iter().skip(start).take(end - start).collect(),
        next,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buf's pattern for rule and category IDs (`^[A-Z0-9][A-Z0-9_]*[A-Z0-9]$`, 3 to 64).
    fn buf_id(id: &str) -> bool {
        let bytes = id.as_bytes();
        (3..=64).contains(&bytes.len())
            && bytes
                .iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
            && bytes[0] != b'_'
            && bytes[bytes.len() - 1] != b'_'
    }

    #[test]
    fn ids_categories_and_purposes_are_in_bufs_forms() {
        let rules = list_rules(0, "").unwrap().rules;
        let categories = categories();
        let category_ids: Vec<&str> = categories.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(category_ids, ["PIP246", "PIP246_WARNINGS", "CONSERVATIVE"]);
        for rule in &rules {
            assert!(buf_id(&rule.id), "{}", rule.id);
            assert!(
                !category_ids.contains(&rule.id.as_str()),
                "{} is also a category",
                rule.id
            );
            for category in &rule.category_ids {
                assert!(category_ids.contains(&category.as_str()), "{category}");
            }
            assert!(rule.purpose.starts_with(|c: char| c.is_ascii_uppercase()));
            assert!(rule.purpose.ends_with('.') && rule.purpose.len() <= 256);
        }
        for category in &categories {
            assert!(buf_id(&category.id));
            assert!(category.purpose.ends_with('.') && category.purpose.len() <= 256);
        }
    }

    #[test]
    fn each_profile_category_holds_what_the_profile_does() {
        let rules = all();
        let of = |id: &str| &rules.iter().find(|r| r.id == id).unwrap().categories;
        assert_eq!(of("FIELD_NUMBER_CHANGED"), &["PIP246", "CONSERVATIVE"]);
        assert_eq!(of("SCALAR_TYPE_CHANGED"), &["PIP246_WARNINGS"]);
        assert_eq!(of("TYPE_CHANGED"), &["PIP246_WARNINGS", "CONSERVATIVE"]);
        assert_eq!(of("RESOURCE_LIMIT_EXCEEDED"), &["PIP246", "CONSERVATIVE"]);
        // Every ID the engine can report is listed once.
        let ids: Vec<&str> = rules.iter().map(|r| r.id).collect();
        for id in RuleId::all()
            .map(RuleId::id)
            .chain(ErrorRule::all().map(ErrorRule::id))
        {
            assert_eq!(ids.iter().filter(|&&i| i == id).count(), 1, "{id}");
        }
    }

    #[test]
    fn pages_follow_their_tokens() {
        let whole = list_rules(0, "").unwrap();
        assert!(whole.next_page_token.is_empty());
        let mut paged = Vec::new();
        let mut token = String::new();
        loop {
            let page = list_rules(4, &token).unwrap();
            paged.extend(page.rules);
            token = page.next_page_token;
            if token.is_empty() {
                break;
            }
        }
        assert_eq!(paged, whole.rules);
        assert!(list_rules(4, "x").is_err());
        assert!(list_rules(4, "99999").is_err());
    }
}
