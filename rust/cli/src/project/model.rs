//! What `protocompat.yaml` says, typed, and how the YAML tree becomes it: each key known, each
//! value of its type, each path inside the project, each topic once. Every refusal names the
//! file, the line and column, and the key.

use std::fmt;
use std::path::PathBuf;

use protocompat::{Profile, Strategy};

use super::yaml::{At, Key, Node, Value};

/// The most topics one project file may list: well above any one service's, low enough that
/// a file cannot make a run of thousands of checks.
pub const MAX_TOPICS: usize = 1000;
/// The longest string value: names and paths, never text.
const MAX_STRING: usize = 4096;

/// A project: the baseline its topics are checked against, the rules, and the topics.
#[derive(Debug, Clone, PartialEq)]
pub struct Project {
    pub baseline: Option<Baseline>,
    pub profile: Option<&'static Profile>,
    pub topics: Vec<Topic>,
}

/// What a topic's schema is compared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Baseline {
    /// A git ref of the repository holding the project (`main`, `origin/main`, a tag).
    Git(String),
    /// A directory of the project holding the existing `.proto` files, at the same paths
    /// under it as under the topic's first import root.
    Dir(PathBuf),
    /// One topic's history, saved with `pulsar-admin schemas get --all-version TOPIC`.
    History(PathBuf),
    /// A broker's admin API: each topic's stored versions and, with `strategy: broker`, its
    /// strategy.
    AdminUrl(String),
}

/// One topic the service produces to.
#[derive(Debug, Clone, PartialEq)]
pub struct Topic {
    /// `persistent://tenant/namespace/topic`.
    pub name: String,
    /// The root message's full name.
    pub root: String,
    /// The `.proto` file declaring the root, under the project; without it the first import
    /// root is searched for the root message.
    pub file: Option<PathBuf>,
    /// Import roots, as protoc's `-I`: the topic's own, else the project's, else `.`.
    pub imports: Vec<PathBuf>,
    pub strategy: Option<TopicStrategy>,
    /// This topic's own baseline, in place of the project's.
    pub baseline: Option<Baseline>,
    /// Where the topic's entry starts, for messages about it.
    pub line: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TopicStrategy {
    Named(Strategy),
    /// As the broker has it for the topic: only with an `admin-url` baseline.
    Broker,
}

/// A refusal of the project file: where, which key, and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub file: String,
    pub at: At,
    /// The key's path: `topics[2].strategy`, or empty for the file as a whole.
    pub key: String,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.at.line, self.at.column)?;
        if !self.key.is_empty() {
            write!(f, "{}: ", self.key)?;
        }
        f.write_str(&self.message)
    }
}

/// The keys each mapping takes: the JSON Schema lists the same (tests/project_schema.rs).
pub const TOP_KEYS: &[&str] = &["version", "baseline", "profile", "imports", "topics"];
pub const TOPIC_KEYS: &[&str] = &["name", "root", "file", "imports", "strategy", "baseline"];
pub const BASELINE_KEYS: &[&str] = &["git", "dir", "history", "admin-url"];

/// The strategy names a topic takes: Pulsar's, as the broker spells them, and `broker`.
pub fn strategy_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Strategy::all()
        .filter(|s| *s != Strategy::Undefined)
        .map(Strategy::name)
        .collect();
    names.push("broker");
    names
}

/// Turns a YAML tree into a project, checking each value, and each path against the project's
/// directory on the disk.
pub struct Reader<'a> {
    pub file: &'a str,
    /// The project file's directory, which every path stays in.
    pub dir: &'a std::path::Path,
}

impl Reader<'_> {
    fn error(&self, at: At, key: &str, message: impl Into<String>) -> Error {
        Error {
            file: self.file.to_owned(),
            at,
            key: key.to_owned(),
            message: message.into(),
        }
    }

    fn wrong_type(&self, node: &Node, key: &str, expected: &str) -> Error {
        self.error(
            node.at,
            key,
            format!("expected {expected}, found {}", shown(&node.value)),
        )
    }

    /// The entries of a mapping, each key checked against `known`.
    fn mapping<'n>(
        &self,
        node: &'n Node,
        key: &str,
        what: &str,
        known: &[&str],
    ) -> Result<&'n [(Key, Node)], Error> {
        let Value::Map(entries) = &node.value else {
            return Err(self.wrong_type(node, key, what));
        };
        for (k, _) in entries {
            if !known.contains(&k.name.as_str()) {
                return Err(self.error(
                    k.at,
                    &join(key, &k.name),
                    format!(
                        "unknown key `{}`{}; {} takes {}",
                        bounded(&k.name),
                        suggestion(&k.name, known),
                        if key.is_empty() { "the file" } else { key },
                        known.join(", ")
                    ),
                ));
            }
        }
        Ok(entries)
    }

    fn string(&self, node: &Node, key: &str, what: &str) -> Result<String, Error> {
        match &node.value {
            Value::String(s) if s.trim().is_empty() => Err(self.error(
                node.at,
                key,
                format!("expected {what}, found an empty string"),
            )),
            Value::String(s) if s.len() > MAX_STRING => {
                Err(self.error(node.at, key, format!("longer than {MAX_STRING} bytes")))
            }
            Value::String(s) if s.chars().any(char::is_control) => Err(self.error(
                node.at,
                key,
                "holds a control character (a tab, a newline, an escape)",
            )),
            Value::String(s) => Ok(s.clone()),
            _ => Err(self.wrong_type(node, key, what)),
        }
    }

    fn strings(&self, node: &Node, key: &str, what: &str) -> Result<Vec<(At, String)>, Error> {
        let Value::List(items) = &node.value else {
            return Err(self.wrong_type(node, key, &format!("a list of {what}")));
        };
        if items.is_empty() {
            return Err(self.error(
                node.at,
                key,
                format!("an empty list: give one {what} or more, or leave the key out"),
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, item)| Ok((item.at, self.string(item, &format!("{key}[{i}]"), what)?)))
            .collect()
    }

    pub fn project(&self, root: &Node) -> Result<Project, Error> {
        let entries = self.mapping(
            root,
            "",
            "a mapping of baseline, profile, imports and topics",
            TOP_KEYS,
        )?;
        let mut project = Project {
            baseline: None,
            profile: None,
            topics: Vec::new(),
        };
        let mut imports = None;
        let mut topics = None;
        for (key, value) in entries {
            let name = key.name.as_str();
            match name {
                "version" => match &value.value {
                    Value::Number(n) if n == "1" => {}
                    _ => {
                        return Err(self.error(
                            value.at,
                            name,
                            format!(
                                "expected 1 (the only version), found {}",
                                shown(&value.value)
                            ),
                        ))
                    }
                },
                "baseline" => project.baseline = Some(self.baseline(value, name)?),
                "profile" => {
                    let text = self.string(value, name, "a profile name")?;
                    project.profile =
                        Some(Profile::named(&text).map_err(|e| self.error(value.at, name, e))?);
                }
                "imports" => imports = Some(self.paths(value, name, "a directory")?),
                "topics" => topics = Some(value),
                _ => unreachable!("mapping() checked the keys"),
            }
        }
        let Some(topics) = topics else {
            return Err(self.error(
                root.at,
                "topics",
                "missing: list each topic the service produces to",
            ));
        };
        let Value::List(items) = &topics.value else {
            return Err(self.wrong_type(topics, "topics", "a list of topics"));
        };
        if items.is_empty() {
            return Err(self.error(
                topics.at,
                "topics",
                "an empty list: list each topic the service produces to",
            ));
        }
        if items.len() > MAX_TOPICS {
            return Err(self.error(
                topics.at,
                "topics",
                format!(
                    "{} topics; a project file lists at most {MAX_TOPICS}",
                    items.len()
                ),
            ));
        }
        let default_imports = imports.unwrap_or_else(|| vec![PathBuf::from(".")]);
        let mut seen: Vec<(String, usize)> = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let key = format!("topics[{index}]");
            let topic = self.topic(item, &key, &default_imports)?;
            let schema = crate::broker::schema_name(&topic.name)
                .map_err(|e| self.error(item.at, &format!("{key}.name"), e.message()))?;
            if let Some((_, line)) = seen.iter().find(|(name, _)| *name == schema) {
                return Err(self.error(
                    item.at,
                    &format!("{key}.name"),
                    format!(
                        "topic `{}` listed twice (first at line {line}); partitions and the \
                         persistent and non-persistent topics of one name share one schema",
                        topic.name
                    ),
                ));
            }
            seen.push((schema, item.at.line));
            project.topics.push(topic);
        }
        let admin = |b: &Option<Baseline>| matches!(b, Some(Baseline::AdminUrl(_)));
        for (index, topic) in project.topics.iter().enumerate() {
            let baseline = topic.baseline.as_ref().or(project.baseline.as_ref());
            if topic.strategy == Some(TopicStrategy::Broker)
                && !admin(&topic.baseline)
                && (topic.baseline.is_some() || !admin(&project.baseline))
            {
                return Err(self.error(
                    items[index].at,
                    &format!("topics[{index}].strategy"),
                    "`broker` takes the topic's strategy from the broker, so it needs an \
                     admin-url baseline; name a strategy (FULL, BACKWARD, ...) for this one",
                ));
            }
            if matches!(baseline, Some(Baseline::History(_)))
                && topic.baseline.is_none()
                && project.topics.len() > 1
            {
                return Err(self.error(
                    items[index].at,
                    "baseline.history",
                    "a saved history is one topic's: give it as that topic's own baseline",
                ));
            }
        }
        Ok(project)
    }

    fn topic(&self, node: &Node, key: &str, default_imports: &[PathBuf]) -> Result<Topic, Error> {
        let entries = self.mapping(
            node,
            key,
            "a topic: a mapping of name, root, file, imports, strategy",
            TOPIC_KEYS,
        )?;
        let (mut name, mut root, mut file, mut imports, mut strategy, mut baseline) =
            (None, None, None, None, None, None);
        for (k, value) in entries {
            let at_key = join(key, &k.name);
            match k.name.as_str() {
                "name" => {
                    let text = self.string(value, &at_key, "a topic name")?;
                    name = Some(self.topic_name(value.at, &at_key, text)?);
                }
                "root" => {
                    let text = self.string(value, &at_key, "a message's full name")?;
                    if !is_full_name(&text) {
                        return Err(self.error(
                            value.at,
                            &at_key,
                            format!(
                                "`{}` is no message name: expected a full name such as shop.Order",
                                bounded(&text)
                            ),
                        ));
                    }
                    root = Some(text);
                }
                "file" => {
                    let text = self.string(value, &at_key, "a .proto file's path")?;
                    file = Some(self.path(value.at, &at_key, &text)?);
                }
                "imports" => imports = Some(self.paths(value, &at_key, "a directory")?),
                "strategy" => {
                    let text = self.string(value, &at_key, "a strategy name")?;
                    strategy = Some(if text == "broker" {
                        TopicStrategy::Broker
                    } else {
                        match Strategy::all()
                            .find(|s| s.name() == text && *s != Strategy::Undefined)
                        {
                            Some(s) => TopicStrategy::Named(s),
                            None => {
                                return Err(self.error(
                                    value.at,
                                    &at_key,
                                    format!(
                                        "unknown strategy `{}`{}; expected one of {}",
                                        bounded(&text),
                                        suggestion(&text, &strategy_names()),
                                        strategy_names().join(", ")
                                    ),
                                ))
                            }
                        }
                    });
                }
                "baseline" => baseline = Some(self.baseline(value, &at_key)?),
                _ => unreachable!("mapping() checked the keys"),
            }
        }
        let missing = |what: &str, why: &str| {
            self.error(node.at, &join(key, what), format!("missing: {why}"))
        };
        Ok(Topic {
            name: name.ok_or_else(|| {
                missing(
                    "name",
                    "the topic's name, persistent://tenant/namespace/topic",
                )
            })?,
            root: root.ok_or_else(|| {
                missing("root", "the root message's full name, such as shop.Order")
            })?,
            file,
            imports: imports.unwrap_or_else(|| default_imports.to_vec()),
            strategy,
            baseline,
            line: node.at.line,
        })
    }

    fn topic_name(&self, at: At, key: &str, text: String) -> Result<String, Error> {
        let rest = text
            .strip_prefix("persistent://")
            .or_else(|| text.strip_prefix("non-persistent://"));
        let parts: Vec<&str> = rest.map(|r| r.split('/').collect()).unwrap_or_default();
        if parts.len() != 3
            || parts
                .iter()
                .any(|p| p.is_empty() || p.contains(char::is_whitespace))
        {
            return Err(self.error(
                at,
                key,
                format!(
                    "`{}` is no full topic name: expected persistent://tenant/namespace/topic",
                    bounded(&text)
                ),
            ));
        }
        Ok(text)
    }

    fn baseline(&self, node: &Node, key: &str) -> Result<Baseline, Error> {
        let entries = self.mapping(
            node,
            key,
            "a mapping with one of git, dir, history, admin-url",
            BASELINE_KEYS,
        )?;
        let [(k, value)] = entries else {
            return Err(self.error(
                node.at,
                key,
                format!(
                    "give one of git, dir, history, admin-url, found {}",
                    if entries.is_empty() {
                        "none".to_owned()
                    } else {
                        entries
                            .iter()
                            .map(|(k, _)| k.name.as_str())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    }
                ),
            ));
        };
        let at_key = join(key, &k.name);
        Ok(match k.name.as_str() {
            "git" => {
                let rev = self.string(value, &at_key, "a git ref such as main")?;
                // A ref reaches git as an argument: one that starts with `-` would be an option.
                if rev.starts_with('-') || rev.contains(char::is_whitespace) || rev.contains(':') {
                    return Err(self.error(
                        value.at,
                        &at_key,
                        format!("`{}` is no git ref", bounded(&rev)),
                    ));
                }
                Baseline::Git(rev)
            }
            "dir" => {
                let text = self.string(value, &at_key, "a directory's path")?;
                Baseline::Dir(self.path(value.at, &at_key, &text)?)
            }
            "history" => {
                let text = self.string(value, &at_key, "a saved history's path")?;
                Baseline::History(self.path(value.at, &at_key, &text)?)
            }
            "admin-url" => {
                let url = self.string(value, &at_key, "a broker's admin URL")?;
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(self.error(
                        value.at,
                        &at_key,
                        format!(
                            "`{}` is no admin URL: expected http://HOST:PORT or https://HOST:PORT",
                            bounded(&url)
                        ),
                    ));
                }
                Baseline::AdminUrl(url)
            }
            _ => unreachable!("mapping() checked the keys"),
        })
    }

    fn paths(&self, node: &Node, key: &str, what: &str) -> Result<Vec<PathBuf>, Error> {
        self.strings(node, key, what)?
            .into_iter()
            .enumerate()
            .map(|(i, (at, text))| self.path(at, &format!("{key}[{i}]"), &text))
            .collect()
    }

    fn path(&self, at: At, key: &str, text: &str) -> Result<PathBuf, Error> {
        confined(self.dir, text, "the project's directory").map_err(|e| self.error(at, key, e))
    }
}

/// A path as written: relative, with no `..`, so that it names a place under `dir` (the
/// project's directory, or wherever else a path is read from, called `dir_name` in messages);
/// and on the disk, no symbolic link on its way leads out of `dir`.
pub fn confined(dir: &std::path::Path, text: &str, dir_name: &str) -> Result<PathBuf, String> {
    let path = std::path::Path::new(text);
    if path.is_absolute() || text.starts_with('/') || text.starts_with('\\') {
        return Err(format!(
            "`{}` is an absolute path: paths are relative to {dir_name}",
            bounded(text)
        ));
    }
    if text.contains('#') {
        return Err(format!("`{}`: a path with `#` cannot be checked (protocompat reads `#` as the start of an input's options)", bounded(text)));
    }
    if !crate::input::written_inside(text) {
        return Err(format!(
            "`{}` leaves {dir_name} (`..`): every path stays inside the repository",
            bounded(text)
        ));
    }
    if leaves_by_link(dir, text) {
        return Err(format!("`{}` leaves {dir_name} through a symbolic link: every path stays inside the repository", bounded(text)));
    }
    Ok(PathBuf::from(text))
}

/// Whether symbolic links take `name` (as far as it exists) out of `dir`.
fn leaves_by_link(dir: &std::path::Path, name: &str) -> bool {
    let Ok(real_dir) = dir.canonicalize() else {
        return false;
    };
    let joined = dir.join(name);
    // The longest part of the path that exists: a link may be on the way to a missing file.
    joined
        .ancestors()
        .find_map(|part| part.canonicalize().ok())
        .is_some_and(|real| !real.starts_with(&real_dir))
}

fn join(key: &str, name: &str) -> String {
    if key.is_empty() {
        name.to_owned()
    } else {
        format!("{key}.{name}")
    }
}

/// A value as an error message shows it: its kind, and a short one's text.
fn shown(value: &Value) -> String {
    match value {
        Value::Number(n) => format!("the number {}", bounded(n)),
        Value::Bool(b) => format!("the boolean {b} (quote it to make it a string)"),
        other => other.kind().to_owned(),
    }
}

/// A value from the file inside a message: at most 100 characters of it.
fn bounded(text: &str) -> String {
    protocompat::text::bound(text, 100)
}

/// ` (did you mean `x`?)` for a near miss of a known name.
fn suggestion(given: &str, known: &[&str]) -> String {
    let given = given.to_ascii_lowercase();
    known
        .iter()
        .find(|k| {
            let k = k.to_ascii_lowercase();
            k == given
                || (given.len() > 2
                    && (k.starts_with(&given)
                        || given.starts_with(&k)
                        || distance(&k, &given) <= 2))
        })
        .map(|k| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default()
}

/// Levenshtein distance of two short names.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(current + 1);
            previous = current;
        }
    }
    row[b.len()]
}

/// `shop.Order`: identifiers joined by dots.
fn is_full_name(text: &str) -> bool {
    text.split('.').all(|part| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}
