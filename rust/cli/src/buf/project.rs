//! The plugin's `project` option: each topic of a `protocompat.yaml` as one check, its root,
//! strategy and profile from the file (read and checked by the project module, as
//! `protocompat check` reads it). The file's baseline is not used: buf gives the against side.

use std::path::Path;

use protocompat::{Profile, Strategy};

use super::Failure;
use crate::project::{self, Baseline, TopicStrategy};

/// One root to check, under its strategy and profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub root: String,
    pub strategy: Strategy,
    pub profile: &'static Profile,
    /// Set when the target is a topic of a project file.
    pub topic: Option<Topic>,
}

/// What the project file says of a target's topic, beyond its root.
#[derive(Debug, Clone, PartialEq)]
pub struct Topic {
    pub name: String,
    /// The `.proto` file the project names for it, relative to the project's directory, in
    /// plain `/`-separated parts: buf's names for the same file are a tail of it.
    pub file: Option<String>,
    /// The project keeps the topic's strategy on a broker, which buf cannot ask: FULL is used.
    pub broker_strategy: bool,
}

/// What the options say over the project file, as `protocompat check`'s flags do.
pub struct Overrides {
    pub strategy: Option<Strategy>,
    pub profile: Option<&'static Profile>,
}

/// Where buf runs the plugin (its own working directory) is where `project` is read from, and
/// the directory it may not leave.
const WHERE: &str = "the directory buf runs in";

/// The project file the `project` option names, relative to `cwd`, refused if it leaves it.
pub fn named(cwd: &Path, given: &str) -> Result<std::path::PathBuf, Failure> {
    project::model::confined(cwd, given, WHERE)
        .map(|path| cwd.join(path))
        .map_err(|e| Failure::invalid(format!("option `project`: {e}")))
}

/// `protocompat.yaml` in `cwd`, if there is one: the project when no option names roots.
pub fn found(cwd: &Path) -> Option<std::path::PathBuf> {
    let path = cwd.join(project::FILE_NAME);
    path.is_file().then_some(path)
}

/// Reads the project file at `path` and makes a target of each topic.
pub fn targets(path: &Path, overrides: &Overrides) -> Result<Vec<Target>, Failure> {
    let loaded =
        project::load(path).map_err(|e| Failure::invalid(format!("option `project`: {e}")))?;
    let profile = overrides
        .profile
        .or(loaded.project.profile)
        .unwrap_or(crate::args::DEFAULT_PROFILE);
    let mut targets: Vec<Target> = Vec::new();
    for topic in &loaded.project.topics {
        let baseline = topic.baseline.as_ref().or(loaded.project.baseline.as_ref());
        // With a broker as the baseline and no strategy named, `protocompat check` takes the
        // broker's, as it does for `strategy: broker`.
        let from_broker = match topic.strategy {
            Some(TopicStrategy::Broker) => true,
            Some(TopicStrategy::Named(_)) => false,
            None => matches!(baseline, Some(Baseline::AdminUrl(_))),
        };
        let strategy = match (overrides.strategy, topic.strategy) {
            (Some(strategy), _) => strategy,
            (None, Some(TopicStrategy::Named(strategy))) => strategy,
            (None, _) => Strategy::Full,
        };
        targets.push(Target {
            root: topic.root.clone(),
            strategy,
            profile,
            topic: Some(Topic {
                name: topic.name.clone(),
                file: topic.file.as_deref().map(project::plan::plain),
                broker_strategy: from_broker && overrides.strategy.is_none(),
            }),
        });
    }
    Ok(targets)
}

/// Whether buf sent `topic`'s file on a side whose files are `names`: a name buf gives a file
/// (under its module's root) is a tail of the path the project gives it (under the project's
/// directory), whatever directories lead to either. A topic naming no file is matched by its
/// root instead, by the caller.
pub fn sent<'a>(file: &str, mut names: impl Iterator<Item = &'a str>) -> bool {
    names.any(|name| {
        file == name
            || file
                .strip_suffix(name)
                .is_some_and(|lead| lead.ends_with('/'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_sent_when_buf_names_a_tail_of_its_path() {
        let names = ["shop/order.proto", "google/protobuf/any.proto"];
        assert!(sent("proto/shop/order.proto", names.into_iter()));
        assert!(sent("shop/order.proto", names.into_iter()));
        assert!(!sent("proto/myshop/order.proto", names.into_iter()));
        assert!(!sent("proto/shop/payment.proto", names.into_iter()));
        assert!(!sent("order.proto", names.into_iter()));
    }
}
