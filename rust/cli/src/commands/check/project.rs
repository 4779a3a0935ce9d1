//! `protocompat check` without files: every topic of the project file, each checked as a
//! `check` of its own would check it, in one report whose exit status is the worst one.

use std::path::Path;
use std::process::ExitCode;

use crate::args::CheckArgs;
use crate::broker;
use crate::console::{print_out, Error, Kind};
use crate::input::{self, SideOptions, Spec};

use super::{check, refuse, Given};
use crate::project::plan::{plan, Overrides, TopicCheck};
use crate::project::report::{render, Status, TopicResult};

pub fn run(request: &CheckArgs) -> ExitCode {
    let format = request.format;
    let path = match &request.project {
        Some(path) => path.clone(),
        None => {
            let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
            match crate::project::discover(&cwd) {
                Some(found) => relative(&found, &cwd),
                None => {
                    return refuse(
                        format,
                        &Error::usage(format!(
                            "no file to check and no {} here or above, up to the repository's \
                             root: name the new schema (protocompat check --against INPUT \
                             NEW.proto), or write a project file (protocompat init)",
                            crate::project::FILE_NAME
                        )),
                    )
                }
            }
        }
    };
    let loaded = match crate::project::load(&path) {
        Ok(loaded) => loaded,
        Err(error) => return refuse(format, &Error::input(error.to_string())),
    };
    let overrides = Overrides {
        strategy: request.strategy,
        against: &request.against,
        against_include: &request.against_include,
        admin_url: request.broker.admin_url.as_deref(),
    };
    let checks = match plan(&loaded, &overrides) {
        Ok(checks) => checks,
        Err(error) => return refuse(format, &error.at(&loaded.file)),
    };
    // A flag given wins over the file; the file over the default.
    let profile = request
        .profile
        .or(loaded.project.profile)
        .unwrap_or(crate::args::DEFAULT_PROFILE);
    let results: Vec<TopicResult> = checks
        .into_iter()
        .map(|topic| check_topic(request, profile, topic))
        .collect();
    let worst = results.iter().map(|r| r.status.exit()).max().unwrap_or(0);
    print_out(&render(format, &loaded.file, &results));
    ExitCode::from(worst)
}

/// One topic's check, and what it came to.
fn check_topic(
    request: &CheckArgs,
    profile: &'static protocompat::Profile,
    topic: TopicCheck,
) -> TopicResult {
    if let Some(file) = topic.file.as_deref().filter(|f| !Path::new(f).exists()) {
        let message = gone(request, &topic, file);
        return TopicResult {
            check: topic,
            status: Status::Gone,
            output: None,
            message: Some(message),
        };
    }
    let given = given(&topic, profile);
    let (status, output, message) = match check(request, &given) {
        Ok(done) if done.new => (Status::New, Some(done.output), None),
        Ok(done) if done.failed => (Status::Incompatible, Some(done.output), None),
        Ok(done) => (Status::Compatible, Some(done.output), None),
        Err(error) if *error.kind() == Kind::Absent => {
            let message = gone(request, &topic, &topic.new_input);
            (Status::Gone, None, Some(message))
        }
        Err(error) => (Status::Error, None, Some(error.to_string())),
    };
    TopicResult {
        check: topic,
        status,
        output,
        message,
    }
}

/// What a topic's check is given, as `check` would be given it on the command line.
pub fn given<'t>(topic: &'t TopicCheck, profile: &'static protocompat::Profile) -> Given<'t> {
    Given {
        new_input: &topic.new_input,
        positional: &[],
        against: &topic.against,
        against_include: &topic.against_include,
        broker: topic
            .admin_url
            .as_deref()
            .map(|url| (url, topic.topic.as_str())),
        root: Some(&topic.root),
        includes: &topic.includes,
        strategy: topic.strategy,
        profile,
    }
}

/// A topic whose schema is gone from the work tree: what the baseline still holds for it. The
/// topic is still in the project file, so a producer may still write to it: the file and the
/// tree disagree, which is bad input (exit status 2), not a verdict on a schema.
fn gone(request: &CheckArgs, topic: &TopicCheck, missing: &str) -> String {
    let holds = if let Some(url) = &topic.admin_url {
        match broker::fetch_topic(&request.broker.access, url, &topic.topic) {
            Ok((_, history)) if history.schemas.is_empty() => {
                "the broker holds no schema for it either".to_owned()
            }
            Ok((_, history)) => {
                let latest = history.schemas.last().and_then(|s| s.version);
                format!(
                    "the broker still holds {} version{} of its schema{}",
                    history.schemas.len(),
                    if history.schemas.len() == 1 { "" } else { "s" },
                    latest
                        .map(|v| format!(", the latest version {v}"))
                        .unwrap_or_default()
                )
            }
            Err(message) => format!("and the broker could not be asked what it holds: {message}"),
        }
    } else {
        let name = topic
            .file
            .as_deref()
            .and_then(|file| name_under(file, &topic.includes));
        let options = SideOptions {
            root_message: Some(&topic.root),
            includes: &topic.against_include,
            counterpart: name.as_deref(),
            protoc: request.input.protoc(),
        };
        let mut held = Vec::new();
        for spec in &topic.against {
            match Spec::parse(spec).and_then(|parsed| input::find(&parsed, &options)) {
                Ok(input::Found::Schemas(schemas)) => {
                    held.extend(schemas.into_iter().map(|s| s.describe()))
                }
                Ok(input::Found::Absent(_)) => {}
                Err(message) => {
                    return format!(
                    "{missing} is not in the work tree, and the baseline cannot be read: {message}"
                )
                }
            }
        }
        if held.is_empty() {
            format!("the baseline ({}) lacks it too", topic.baseline)
        } else {
            format!(
                "the baseline ({}) still holds `{}` in {}",
                topic.baseline,
                topic.root,
                held.join(", ")
            )
        }
    };
    format!(
        "{missing} declares `{}` no more, yet the project file lists topic {}; {holds}. Bring \
         the schema back, or take the topic out of the project file once no producer writes \
         to it",
        topic.root, topic.topic
    )
}

/// The name protoc gives `file`: its path under the first import root holding it.
fn name_under(file: &str, includes: &[std::path::PathBuf]) -> Option<String> {
    includes.iter().find_map(|root| {
        let rest = if root == Path::new(".") {
            Path::new(file)
        } else {
            Path::new(file).strip_prefix(root).ok()?
        };
        Some(rest.to_string_lossy().replace('\\', "/"))
    })
}

/// `path` from `cwd`: `protocompat.yaml`, `../protocompat.yaml`.
fn relative(path: &Path, cwd: &Path) -> std::path::PathBuf {
    let Some(dir) = path.parent() else {
        return path.to_path_buf();
    };
    let Ok(below) = cwd.strip_prefix(dir) else {
        return path.to_path_buf();
    };
    let mut up = std::path::PathBuf::new();
    for _ in below.components() {
        up.push("..");
    }
    up.join(path.file_name().unwrap_or_default())
}
