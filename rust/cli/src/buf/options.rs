//! The plugin's `options:` in buf.yaml, as buf sends them: which messages are roots (listed,
//! or a project file's topics), under which strategy and profile, within which limits.

use std::path::Path;

use protocompat::text::bound;
use protocompat::{Limits, Profile, Settings, Strategy, PROFILES};

use super::project::{self, Overrides, Target};
use super::proto::{Kind, PluginOption, Value};
use super::Failure;

/// What a check runs: the options, or their defaults.
pub struct Options {
    /// One a topic, as `protocompat check --root` takes them, in the order given.
    pub targets: Vec<Target>,
    pub limits: Limits,
}

/// Roots one check may name: each is a check of its own, with the engine's work budget (about
/// 3 s of CPU at worst), so this bounds a request's work to minutes however it is made.
pub const MAX_ROOTS: usize = 100;

const KEYS: &str = "roots, project, strategy, profile, limits";

/// How a limit is raised, in the words of this plugin's user: an option of buf.yaml.
pub fn limit_option(name: &str) -> String {
    format!(
        "the plugin option `limits: [{}=N]`",
        name.strip_prefix("limit.").unwrap_or(name)
    )
}

/// Reads the options; a project file (the `project` option's, or `protocompat.yaml` in `cwd`
/// when no roots are listed) is read relative to `cwd`, where buf runs the plugin.
pub fn parse(given: &[PluginOption], cwd: &Path) -> Result<Options, Failure> {
    let mut profile = None;
    let mut strategy = None;
    let mut roots = Vec::new();
    let mut project_file = None;
    let mut settings = Settings::DEFAULT;
    for option in given {
        let key = option.key.as_str();
        let value = option.value.as_ref().and_then(|v| v.kind.as_ref());
        let wrong =
            |message: String| Failure::invalid(format!("option `{}`: {message}", bound(key, 100)));
        match key {
            "profile" => {
                profile = Some(Profile::named(&string(value).map_err(wrong)?).map_err(wrong)?)
            }
            "strategy" => {
                strategy = Some(
                    string(value)
                        .map_err(wrong)?
                        .parse::<Strategy>()
                        .map_err(wrong)?,
                )
            }
            "roots" => {
                roots = strings(value).map_err(wrong)?;
                if roots.len() > MAX_ROOTS {
                    return Err(wrong(format!("over {MAX_ROOTS} roots")));
                }
            }
            "project" => project_file = Some(project::named(cwd, &string(value).map_err(wrong)?)?),
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
            }
            _ => return Err(wrong(format!("unknown option; the options are {KEYS}"))),
        }
    }
    let targets = match (project_file, roots.is_empty()) {
        (Some(_), false) => {
            return Err(Failure::invalid(
                "options `roots` and `project` both name the roots: give one (`project` reads \
                 each topic's root and strategy from the file)"
                    .to_owned(),
            ))
        }
        (None, false) => roots
            .into_iter()
            .map(|root| Target {
                root,
                strategy: strategy.unwrap_or(Strategy::Full),
                profile: profile.unwrap_or(PROFILES[0]),
                topic: None,
            })
            .collect(),
        (Some(file), true) => project::targets(&file, &Overrides { strategy, profile })?,
        (None, true) => match project::found(cwd) {
            Some(file) => project::targets(&file, &Overrides { strategy, profile })?,
            None => {
                return Err(Failure::invalid(format!(
                    "no root message to check: list each topic's root message in the plugin's \
                     options, as `roots: [shop.Order]` (protocompat check's --root), or name a \
                     project file, as `project: {0}` (there is no {0} where buf runs)",
                    crate::project::FILE_NAME
                )))
            }
        },
    };
    // A root listed twice under the same rules would be checked, and annotated, twice.
    let mut unique: Vec<Target> = Vec::with_capacity(targets.len());
    for target in targets {
        let same = |t: &Target| {
            t.root == target.root
                && t.strategy == target.strategy
                && std::ptr::eq(t.profile, target.profile)
        };
        if !unique.iter().any(same) {
            unique.push(target);
        }
    }
    Ok(Options {
        targets: unique,
        limits: settings.limits,
    })
}

// What is wrong with a value, in words `parse` puts after the option's key in a PluginRPC
// Failure, as it does the engine's own `String` errors (Profile::named, Strategy's FromStr).
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

    /// A directory of its own for a test, holding `files` (name, text).
    fn dir(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "protocompat-buf-options-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        dir
    }

    const PROJECT: &str = "\
version: 1
baseline:
  admin-url: http://pulsar:8080
profile: conservative
topics:
  - name: persistent://shop/orders/orders
    root: shop.Order
    file: ./proto/shop/order.proto
    strategy: BACKWARD
  - name: persistent://shop/billing/payments
    root: shop.Payment
    strategy: broker
";

    fn roots(parsed: &Options) -> Vec<(&str, Strategy, &str)> {
        parsed
            .targets
            .iter()
            .map(|t| (t.root.as_str(), t.strategy, t.profile.name))
            .collect()
    }

    #[test]
    fn options_set_roots_strategy_profile_and_limits() {
        let cwd = dir("roots", &[("protocompat.yaml", PROJECT)]);
        let parsed = parse(
            &[
                option("roots", list(&["shop.Order", "shop.Invoice", "shop.Order"])),
                option("strategy", Kind::String("backward_transitive".into())),
                option("profile", Kind::String("conservative".into())),
                option("limits", list(&["maxFields=7"])),
            ],
            &cwd,
        )
        .unwrap();
        // Listed roots win over a project file in the directory; one listed twice is one.
        assert_eq!(
            roots(&parsed),
            [
                ("shop.Order", Strategy::BackwardTransitive, "conservative"),
                ("shop.Invoice", Strategy::BackwardTransitive, "conservative")
            ]
        );
        assert!(parsed.targets.iter().all(|t| t.topic.is_none()));
        assert_eq!(parsed.limits.max_fields, 7);
        let one = parse(&[option("roots", Kind::String("shop.Order".into()))], &cwd).unwrap();
        assert_eq!(roots(&one), [("shop.Order", Strategy::Full, "pip246")]);
    }

    #[test]
    fn a_project_file_gives_each_topic_its_root_and_strategy() {
        let cwd = dir("project", &[("service.yaml", PROJECT)]);
        let parsed = parse(
            &[option("project", Kind::String("service.yaml".into()))],
            &cwd,
        )
        .unwrap();
        // The file's profile; `broker` is FULL inside buf, and said to be.
        assert_eq!(
            roots(&parsed),
            [
                ("shop.Order", Strategy::Backward, "conservative"),
                ("shop.Payment", Strategy::Full, "conservative")
            ]
        );
        let topics: Vec<_> = parsed
            .targets
            .iter()
            .map(|t| t.topic.clone().unwrap())
            .collect();
        assert_eq!(topics[0].name, "persistent://shop/orders/orders");
        assert_eq!(topics[0].file.as_deref(), Some("proto/shop/order.proto"));
        assert_eq!(
            (topics[0].broker_strategy, topics[1].broker_strategy),
            (false, true)
        );
        assert_eq!(topics[1].file, None);

        // The options win over the file, as protocompat check's flags do.
        let over = parse(
            &[
                option("project", Kind::String("service.yaml".into())),
                option("strategy", Kind::String("FORWARD".into())),
                option("profile", Kind::String("pip246".into())),
            ],
            &cwd,
        )
        .unwrap();
        assert_eq!(
            roots(&over),
            [
                ("shop.Order", Strategy::Forward, "pip246"),
                ("shop.Payment", Strategy::Forward, "pip246")
            ]
        );
        assert!(!over.targets[1].topic.as_ref().unwrap().broker_strategy);
    }

    #[test]
    fn without_roots_the_project_file_where_buf_runs_is_read() {
        let cwd = dir("found", &[("protocompat.yaml", PROJECT)]);
        let parsed = parse(&[], &cwd).unwrap();
        assert_eq!(parsed.targets.len(), 2);
        let empty = dir("none", &[]);
        let message = parse(&[], &empty).err().unwrap().message;
        assert!(message.contains("no root message to check"), "{message}");
        assert!(
            message.contains("there is no protocompat.yaml"),
            "{message}"
        );
    }

    #[test]
    fn bad_options_are_named() {
        let cwd = dir(
            "bad",
            &[(
                "bad.yaml",
                &PROJECT.replace("strategy: BACKWARD", "strategy: BACKWARDS"),
            )],
        );
        std::os::unix::fs::symlink("/etc", cwd.join("out")).unwrap();
        // A FIFO would hold the plugin until something writes to it.
        let fifo = std::process::Command::new("mkfifo")
            .arg(cwd.join("fifo.yaml"))
            .status()
            .unwrap();
        assert!(fifo.success());
        let roots = option("roots", Kind::String("a.B".into()));
        let project = |path: &str| option("project", Kind::String(path.into()));
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
                vec![roots, project("bad.yaml")],
                "options `roots` and `project` both name the roots",
            ),
            (
                vec![project("bad.yaml")],
                "bad.yaml:9:15: topics[0].strategy: unknown strategy `BACKWARDS`",
            ),
            (
                vec![project("../bad.yaml")],
                "option `project`: `../bad.yaml` leaves the directory buf runs in",
            ),
            (
                vec![project("/etc/protocompat.yaml")],
                "`/etc/protocompat.yaml` is an absolute path",
            ),
            (
                vec![project("out/protocompat.yaml")],
                "leaves the directory buf runs in through a symbolic link",
            ),
            (
                vec![project("missing.yaml")],
                "cannot read the project file",
            ),
            (
                vec![project("fifo.yaml")],
                "fifo.yaml:1:1: the project file is not a regular file",
            ),
            (
                vec![option("project", list(&["a.yaml"]))],
                "option `project`: expected a string, got a list",
            ),
        ];
        for (given, expected) in cases {
            let message = parse(&given, &cwd).err().unwrap().message;
            assert!(message.contains(expected), "{expected}: {message}");
        }
    }
}
