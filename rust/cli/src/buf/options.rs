//! The plugin's `options:` in buf.yaml, as buf sends them: which messages are roots, under
//! which strategy and profile, within which limits.

use protocompat::text::bound;
use protocompat::{Limits, Profile, Settings, Strategy, PROFILES};

use super::proto::{Kind, PluginOption, Value};
use super::Failure;

/// What a check runs: the options, or their defaults.
pub struct Options {
    pub profile: &'static Profile,
    pub strategy: Strategy,
    /// Full names of the root messages, one a topic, as `protocompat check --root` takes them.
    pub roots: Vec<String>,
    pub limits: Limits,
}

/// Roots one check may name: each is a check of its own, with the engine's work budget (about
/// 3 s of CPU at worst), so this bounds a request's work to minutes however it is made.
const MAX_ROOTS: usize = 100;

const KEYS: &str = "roots, strategy, profile, limits";

/// How a limit is raised, in the words of this plugin's user: an option of buf.yaml.
pub fn limit_option(name: &str) -> String {
    format!(
        "the plugin option `limits: [{}=N]`",
        name.strip_prefix("limit.").unwrap_or(name)
    )
}

pub fn parse(given: &[PluginOption]) -> Result<Options, Failure> {
    let mut options = Options {
        profile: PROFILES[0],
        strategy: Strategy::Full,
        roots: Vec::new(),
        limits: Limits::DEFAULT,
    };
    let mut settings = Settings::DEFAULT;
    for option in given {
        let key = option.key.as_str();
        let value = option.value.as_ref().and_then(|v| v.kind.as_ref());
        let wrong =
            |message: String| Failure::invalid(format!("option `{}`: {message}", bound(key, 100)));
        match key {
            "profile" => {
                options.profile = Profile::named(&string(value).map_err(wrong)?).map_err(wrong)?
            }
            "strategy" => {
                options.strategy = string(value)
                    .map_err(wrong)?
                    .parse::<Strategy>()
                    .map_err(wrong)?
            }
            "roots" => {
                options.roots = strings(value).map_err(wrong)?;
                if options.roots.len() > MAX_ROOTS {
                    return Err(wrong(format!("over {MAX_ROOTS} roots")));
                }
            }
            "limits" => {
                for limit in strings(value).map_err(wrong)? {
                    let Some((name, value)) = limit.split_once('=') else {
                        return Err(wrong(format!(
                            "`{}`: expected NAME=N, such as maxFields=1000000",
                            bound(&limit, 100)
                        )));
                    };
                    let name = name.trim();
                    let name = match name.strip_prefix("limit.") {
                        Some(_) => name.to_owned(),
                        None => format!("limit.{name}"),
                    };
                    settings.set(&name, value, limit_option).map_err(wrong)?;
                }
                options.limits = settings.limits;
            }
            "project" => {
                return Err(wrong(
                    "reading a protocompat.yaml is not in this version of the plugin; list the \
                     root messages with the `roots` option"
                        .to_owned(),
                ))
            }
            _ => return Err(wrong(format!("unknown option; the options are {KEYS}"))),
        }
    }
    if options.roots.is_empty() {
        return Err(Failure::invalid(
            "no root message to check: list each topic's root message in the plugin's options, \
             as `roots: [shop.Order]` (protocompat check's --root)"
                .to_owned(),
        ));
    }
    Ok(options)
}

fn string(value: Option<&Kind>) -> Result<String, String> {
    match value {
        Some(Kind::String(text)) => Ok(text.clone()),
        _ => Err(format!("expected a string, got {}", kind(value))),
    }
}

/// A list of strings, or one string as a list of one.
fn strings(value: Option<&Kind>) -> Result<Vec<String>, String> {
    match value {
        Some(Kind::String(text)) => Ok(vec![text.clone()]),
        Some(Kind::List(list)) => list
            .values
            .iter()
            .map(|Value { kind: item }| string(item.as_ref()))
            .collect(),
        _ => Err(format!("expected a list of strings, got {}", kind(value))),
    }
}

fn kind(value: Option<&Kind>) -> &'static str {
    match value {
        None => "no value",
        Some(Kind::Bool(_)) => "a boolean",
        Some(Kind::Int64(_)) => "an integer",
        Some(Kind::Double(_)) => "a number",
        Some(Kind::String(_)) => "a string",
        Some(Kind::Bytes(_)) => "bytes",
        Some(Kind::List(_)) => "a list",
    }
}

#[cfg(test)]
mod tests {
    use super::super::proto::ListValue;
    use super::*;

    fn option(key: &str, kind: Kind) -> PluginOption {
        PluginOption {
            key: key.to_owned(),
            value: Some(Value { kind: Some(kind) }),
        }
    }

    fn list(items: &[&str]) -> Kind {
        Kind::List(ListValue {
            values: items
                .iter()
                .map(|s| Value {
                    kind: Some(Kind::String((*s).to_owned())),
                })
                .collect(),
        })
    }

    #[test]
    fn options_set_roots_strategy_profile_and_limits() {
        let parsed = parse(&[
            option("roots", list(&["shop.Order", "shop.Invoice"])),
            option("strategy", Kind::String("backward_transitive".into())),
            option("profile", Kind::String("conservative".into())),
            option("limits", list(&["maxFields=7"])),
        ])
        .unwrap();
        assert_eq!(parsed.roots, ["shop.Order", "shop.Invoice"]);
        assert_eq!(parsed.strategy, Strategy::BackwardTransitive);
        assert_eq!(parsed.profile.name, "conservative");
        assert_eq!(parsed.limits.max_fields, 7);
        let one = parse(&[option("roots", Kind::String("shop.Order".into()))]).unwrap();
        assert_eq!((one.roots.len(), one.strategy), (1, Strategy::Full));
        assert_eq!(one.profile.name, "pip246");
    }

    #[test]
    fn bad_options_are_named() {
        let roots = option("roots", Kind::String("a.B".into()));
        let cases = [
            (vec![], "no root message"),
            (
                vec![roots.clone(), option("strategy", Kind::Int64(1))],
                "option `strategy`: expected a string, got an integer",
            ),
            (
                vec![roots.clone(), option("profile", Kind::String("x".into()))],
                "unknown profile `x`",
            ),
            (
                vec![roots.clone(), option("colour", Kind::Bool(true))],
                "option `colour`: unknown option",
            ),
            (
                vec![roots.clone(), option("limits", list(&["maxFields"]))],
                "expected NAME=N",
            ),
            (
                vec![roots.clone(), option("limits", list(&["maxFieldz=1"]))],
                "limits: [maxFields=N]",
            ),
            (
                vec![roots, option("project", Kind::String("p.yaml".into()))],
                "list the root messages",
            ),
        ];
        for (given, expected) in cases {
            let message = parse(&given).err().unwrap().message;
            assert!(message.contains(expected), "{message}");
        }
    }
}
