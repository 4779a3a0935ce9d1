//! A project as checks: for each topic, the inputs of a `protocompat check` of its own, with
//! the command line's flags over the file's values.

use std::path::{Component, Path, PathBuf};
use std::process::Command;

use protocompat::Strategy;

use super::{Baseline, Loaded, TopicStrategy};
use crate::console::Error;

/// What the command line says over the project file.
#[derive(Default)]
pub struct Overrides<'a> {
    pub strategy: Option<Strategy>,
    /// `--against`: every topic's existing side.
    pub against: &'a [String],
    pub against_include: &'a [PathBuf],
    /// `--admin-url`: every topic's history on that broker.
    pub admin_url: Option<&'a str>,
}

/// One topic's check, as `protocompat check` would be given it.
#[derive(Debug, Clone, PartialEq)]
pub struct TopicCheck {
    pub topic: String,
    pub root: String,
    /// The `.proto` file the project names for it, as a path from the current directory.
    pub file: Option<String>,
    /// NEW: the file, or the first import root searched for the root.
    pub new_input: String,
    pub includes: Vec<PathBuf>,
    pub against: Vec<String>,
    pub against_include: Vec<PathBuf>,
    pub admin_url: Option<String>,
    /// `None`: the broker's for the topic with an admin URL, else FULL.
    pub strategy: Option<Strategy>,
    /// The baseline, in words, for the report.
    pub baseline: String,
}

/// The checks of every topic of `loaded`, in the file's order.
pub fn plan(loaded: &Loaded, overrides: &Overrides) -> Result<Vec<TopicCheck>, Error> {
    let dir = &loaded.dir;
    let mut git_prefix: Option<String> = None;
    let mut checks = Vec::new();
    for topic in &loaded.project.topics {
        let includes: Vec<PathBuf> = topic.imports.iter().map(|i| under(dir, i)).collect();
        let new_input = match &topic.file {
            Some(file) => shown(&under(dir, file)),
            None => shown(&includes[0]),
        };
        let mut check = TopicCheck {
            topic: topic.name.clone(),
            root: topic.root.clone(),
            file: topic.file.as_ref().map(|f| shown(&under(dir, f))),
            new_input,
            includes: includes.clone(),
            against: Vec::new(),
            against_include: Vec::new(),
            admin_url: None,
            strategy: overrides.strategy.or(match topic.strategy {
                Some(TopicStrategy::Named(strategy)) => Some(strategy),
                Some(TopicStrategy::Broker) | None => None,
            }),
            baseline: String::new(),
        };
        if !overrides.against.is_empty() {
            check.against = overrides.against.to_vec();
            check.against_include = overrides.against_include.to_vec();
            check.baseline = format!("--against {}", overrides.against.join(" "));
        } else if let Some(url) = overrides.admin_url {
            check.admin_url = Some(url.to_owned());
            check.baseline = format!("the broker at {url}");
        } else {
            let baseline = topic
                .baseline
                .as_ref()
                .or(loaded.project.baseline.as_ref())
                .ok_or_else(|| {
                    // The refusal names the file: the message is what is wrong in it.
                    Error::usage(format!(
                        "no baseline for topic {} (line {}): give `baseline:` in the file \
                         (git: main, dir: DIR, history: FILE, admin-url: URL), or --against or \
                         --admin-url",
                        topic.name, topic.line
                    ))
                })?;
            // The baseline's own tree is the first root; the others (shared, vendored
            // imports) are the work tree's.
            check.against_include = includes[1..].to_vec();
            match baseline {
                Baseline::Git(rev) => {
                    if git_prefix.is_none() {
                        git_prefix = Some(prefix_in_repository(dir)?);
                    }
                    let prefix = git_prefix.as_deref().unwrap_or_default();
                    let inner = plain(&topic.imports[0]);
                    let subdir = if inner == "." {
                        prefix.to_owned()
                    } else {
                        format!("{prefix}{inner}")
                    };
                    let subdir = subdir.trim_end_matches('/');
                    check.against = vec![format!(
                        "{}#ref={rev}{}",
                        shown(dir),
                        if subdir.is_empty() {
                            String::new()
                        } else {
                            format!(",subdir={subdir}")
                        }
                    )];
                    check.baseline = format!("git {rev}");
                }
                Baseline::Dir(path) => {
                    check.against = vec![shown(&under(dir, path))];
                    check.baseline = format!("directory {}", shown(&under(dir, path)));
                }
                Baseline::History(path) => {
                    check.against = vec![shown(&under(dir, path))];
                    check.baseline = format!("history {}", shown(&under(dir, path)));
                }
                Baseline::AdminUrl(url) => {
                    check.admin_url = Some(url.clone());
                    check.against_include = Vec::new();
                    check.baseline = format!("the broker at {url}");
                }
            }
        }
        checks.push(check);
    }
    Ok(checks)
}

/// `path` under the project's directory, as a path from the current directory.
fn under(dir: &Path, path: &Path) -> PathBuf {
    let path = PathBuf::from(plain(path));
    if dir == Path::new(".") {
        path
    } else if path == Path::new(".") {
        dir.to_path_buf()
    } else {
        dir.join(path)
    }
}

/// A relative path without its `.` parts, `/`-separated: `.` for none.
pub(crate) fn plain(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Where `dir` is in its git repository (`services/orders/`), for a tree at a ref: git names
/// a tree's paths from the repository's root.
fn prefix_in_repository(dir: &Path) -> Result<String, Error> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "--show-prefix"])
        .output()
        .map_err(|e| {
            Error::input(format!(
                "the baseline is a git ref, but git cannot run: {e}"
            ))
        })?;
    if !output.status.success() {
        return Err(Error::input(format!(
            "the baseline is a git ref, but {} is in no git repository: {}",
            shown(dir),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::model::{Project, Topic};

    fn loaded(baseline: Baseline, topics: Vec<Topic>) -> Loaded {
        Loaded {
            file: "protocompat.yaml".into(),
            dir: PathBuf::from("."),
            project: Project {
                baseline: Some(baseline),
                profile: None,
                topics,
            },
        }
    }

    fn topic(file: Option<&str>, imports: &[&str], strategy: Option<TopicStrategy>) -> Topic {
        Topic {
            name: "persistent://shop/orders/orders".into(),
            root: "shop.Order".into(),
            file: file.map(PathBuf::from),
            imports: imports.iter().map(PathBuf::from).collect(),
            strategy,
            baseline: None,
            line: 3,
        }
    }

    #[test]
    fn a_directory_baseline_is_the_against_side_and_flags_win() {
        let project = loaded(
            Baseline::Dir("old".into()),
            vec![topic(
                Some("proto/shop/order.proto"),
                &["proto", "./vendor"],
                Some(TopicStrategy::Named(Strategy::Backward)),
            )],
        );
        let checks = plan(&project, &Overrides::default()).unwrap();
        assert_eq!(checks[0].new_input, "proto/shop/order.proto");
        assert_eq!(checks[0].against, ["old"]);
        assert_eq!(checks[0].against_include, [PathBuf::from("vendor")]);
        assert_eq!(checks[0].strategy, Some(Strategy::Backward));
        let over = Overrides {
            strategy: Some(Strategy::Full),
            admin_url: Some("http://broker:8080"),
            ..Overrides::default()
        };
        let checks = plan(&project, &over).unwrap();
        assert_eq!(checks[0].strategy, Some(Strategy::Full));
        assert_eq!(checks[0].admin_url.as_deref(), Some("http://broker:8080"));
        assert!(checks[0].against.is_empty());
    }

    #[test]
    fn without_a_file_the_first_import_root_is_searched_and_broker_means_none() {
        let project = loaded(
            Baseline::AdminUrl("https://pulsar:8443".into()),
            vec![topic(None, &["proto"], Some(TopicStrategy::Broker))],
        );
        let checks = plan(&project, &Overrides::default()).unwrap();
        assert_eq!(checks[0].new_input, "proto");
        assert_eq!(checks[0].strategy, None);
        assert_eq!(checks[0].admin_url.as_deref(), Some("https://pulsar:8443"));
    }
}
