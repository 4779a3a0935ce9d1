//! The checks, off the main loop: one thread takes the editor's changes, waits until they stop
//! for [`DEBOUNCE`], checks each topic a changed file belongs to (the open buffers over the
//! disk), and hands back every file's diagnostics. A change that arrives while topics are
//! being checked makes the rest of that run stale: it is dropped, and the next run checks what
//! both changes touched.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_types::{Diagnostic, DiagnosticSeverity, Range};
use serde_json::Value;

use super::documents::Text;
use super::findings::{compile_error_at, entries, Entry, Files};
use crate::args::CheckArgs;
use crate::commands::check::{check, project::given};
use crate::input::overlay::{self, Buffers};
use crate::project::plan::TopicCheck;

/// How long the editor must be quiet before a check starts.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// What the main loop asks: check again for these changed files (all topics when `all`).
pub struct Job {
    pub buffers: Arc<Buffers>,
    pub changed: BTreeSet<PathBuf>,
    pub all: bool,
    /// When the newest change of the job was made, for the time to diagnostics.
    pub since: Instant,
}

/// Every file's entries after a run, and the files that had some before and have none now.
pub struct Published {
    pub files: BTreeMap<PathBuf, Vec<Entry>>,
    /// Files shown with nothing: they had diagnostics and have none now, or were changed and
    /// have none (a file no topic uses among them).
    pub cleared: Vec<PathBuf>,
    /// From the newest change to these diagnostics.
    pub took: Duration,
}

pub struct Project {
    pub root: PathBuf,
    pub topics: Vec<TopicCheck>,
    pub profile: &'static protocompat::Profile,
    pub rules_url: String,
}

/// Starts the worker; it ends when `jobs` is dropped.
pub fn start(project: Project, jobs: Receiver<Job>, out: Sender<Published>) {
    thread::Builder::new()
        .name("protocompat-check".into())
        .spawn(move || Worker::new(project).run(&jobs, &out))
        .expect("a thread starts");
}

struct Worker {
    project: Project,
    request: CheckArgs,
    /// Each topic's files at its last check (absolute paths): its root file and imports.
    files: Vec<BTreeSet<PathBuf>>,
    /// Each topic's entries at its last check.
    shown: Vec<BTreeMap<PathBuf, Vec<Entry>>>,
    published: BTreeSet<PathBuf>,
}

#[derive(Parser)]
struct Checking {
    #[command(flatten)]
    args: CheckArgs,
}

impl Worker {
    fn new(project: Project) -> Worker {
        let request = Checking::try_parse_from(["check", "--format", "json", "--color", "never"])
            .expect("fixed arguments parse")
            .args;
        let count = project.topics.len();
        let files = project
            .topics
            .iter()
            .map(|t| {
                t.file
                    .iter()
                    .map(|f| project.root.join(f))
                    .map(|p| overlay::key(&p))
                    .collect()
            })
            .collect();
        Worker {
            project,
            request,
            files,
            shown: vec![BTreeMap::new(); count],
            published: BTreeSet::new(),
        }
    }

    fn run(mut self, jobs: &Receiver<Job>, out: &Sender<Published>) {
        let mut pending: Option<Job> = None;
        loop {
            let mut job = match pending.take() {
                Some(job) => job,
                None => match jobs.recv() {
                    Ok(job) => job,
                    Err(_) => return,
                },
            };
            // Debounce: take every change until the editor is quiet.
            loop {
                match jobs.recv_timeout(DEBOUNCE) {
                    Ok(newer) => job = merge(job, newer),
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            let topics: Vec<usize> = (0..self.project.topics.len())
                .filter(|&t| job.all || self.files[t].iter().any(|f| job.changed.contains(f)))
                .collect();
            let mut stale = false;
            for t in topics {
                if !jobs.is_empty() {
                    stale = true;
                    break;
                }
                self.check(t, &job.buffers);
            }
            if stale {
                pending = jobs.try_recv().ok().map(|newer| merge(job, newer));
                continue;
            }
            let files = self.merged();
            let now: BTreeSet<PathBuf> = files.keys().cloned().collect();
            // A changed file with nothing to show is shown so, whether a topic uses it or not.
            let cleared = self
                .published
                .iter()
                .chain(&job.changed)
                .filter(|f| !now.contains(*f))
                .cloned()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            self.published = now;
            let took = job.since.elapsed();
            if out
                .send(Published {
                    files,
                    cleared,
                    took,
                })
                .is_err()
            {
                return;
            }
        }
    }

    /// Checks topic `t` with the buffers over the disk; whatever goes wrong is its diagnostic.
    fn check(&mut self, t: usize, buffers: &Arc<Buffers>) {
        let topic = &self.project.topics[t];
        let given = given(topic, self.project.profile);
        let request = &self.request;
        let result = overlay::with(buffers.clone(), || {
            catch_unwind(AssertUnwindSafe(|| check(request, &given)))
        });
        let files = Buffered {
            buffers,
            root: &self.project.root,
            read: RefCell::default(),
        };
        let root_file = topic
            .file
            .as_ref()
            .map(|f| overlay::key(&self.project.root.join(f)));
        match result {
            Ok(Ok(done)) => {
                let report: Value = serde_json::from_str(&done.output).unwrap_or(Value::Null);
                self.shown[t] = entries(&report, &topic.topic, &self.project.rules_url, &files);
                let mut used: BTreeSet<PathBuf> = done
                    .new_files
                    .iter()
                    .map(|f| overlay::key(&self.project.root.join(f)))
                    .collect();
                used.extend(root_file);
                self.files[t] = used;
            }
            Ok(Err(error)) => {
                // The topic's files stay those of its last check: a syntax error in an
                // import must be shown again once it is fixed.
                // A broker's error body or protoc's output may carry control characters: the
                // editor gets them escaped, as the terminal does from `check`.
                let mut message =
                    protocompat::text::printable(&format!("topic {}: {error}", topic.topic))
                        .into_owned();
                let (path, at) = self.place(topic, &mut message, &files, root_file.as_deref());
                self.shown[t] = match path {
                    Some(path) => BTreeMap::from([(path, vec![error_entry(at, message)])]),
                    None => BTreeMap::new(),
                };
            }
            Err(panic) => {
                let message = format!(
                    "protocompat could not check topic {}: {}",
                    topic.topic,
                    protocompat::panic_message(&*panic)
                );
                eprintln!("protocompat lsp: {message}");
                self.shown[t] = match root_file {
                    Some(path) => {
                        BTreeMap::from([(path, vec![error_entry(Range::default(), message)])])
                    }
                    None => BTreeMap::new(),
                };
            }
        }
    }

    /// Where an error is shown: at the place a compile error names (its message then from
    /// that place on, the same for every topic that compiles the file), else at the start of
    /// the topic's root file.
    fn place(
        &self,
        topic: &TopicCheck,
        message: &mut String,
        files: &Buffered,
        root_file: Option<&Path>,
    ) -> (Option<PathBuf>, Range) {
        if let Some(at) = compile_error_at(message) {
            let candidates = std::iter::once(self.project.root.join(&at.file)).chain(
                topic
                    .includes
                    .iter()
                    .map(|i| self.project.root.join(i).join(&at.file)),
            );
            for candidate in candidates {
                let path = overlay::key(&candidate);
                if let Some(text) = files.text(&path) {
                    *message = message[at.from..].to_owned();
                    return (Some(path), text.range(at.line, at.column, None));
                }
            }
        }
        (root_file.map(Path::to_path_buf), Range::default())
    }

    /// Every topic's entries by file, the same finding shown once where topics share a file.
    fn merged(&self) -> BTreeMap<PathBuf, Vec<Entry>> {
        let mut files: BTreeMap<PathBuf, Vec<Entry>> = BTreeMap::new();
        for shown in &self.shown {
            for (path, entries) in shown {
                let list = files.entry(path.clone()).or_default();
                for entry in entries {
                    let same = |e: &Entry| {
                        e.diagnostic.range == entry.diagnostic.range
                            && e.diagnostic.message == entry.diagnostic.message
                    };
                    if !list.iter().any(same) {
                        list.push(entry.clone());
                    }
                }
            }
        }
        files
    }
}

fn merge(older: Job, newer: Job) -> Job {
    let mut changed = older.changed;
    changed.extend(newer.changed);
    Job {
        buffers: newer.buffers,
        changed,
        all: older.all || newer.all,
        since: newer.since,
    }
}

fn error_entry(at: Range, message: String) -> Entry {
    Entry {
        diagnostic: Diagnostic {
            range: at,
            severity: Some(DiagnosticSeverity::ERROR),
            code: None,
            code_description: None,
            source: Some("protocompat".into()),
            message,
            related_information: None,
            tags: None,
            data: None,
        },
        fixes: Vec::new(),
        preferred: false,
        hover: String::new(),
    }
}

/// Files as the check saw them: an open buffer, else the disk; each read and indexed once for
/// a topic's report, however many of its findings, fixes and old declarations are in it.
struct Buffered<'a> {
    buffers: &'a Buffers,
    root: &'a Path,
    read: RefCell<HashMap<PathBuf, Option<Arc<Text>>>>,
}

impl Files for Buffered<'_> {
    fn text(&self, path: &Path) -> Option<Arc<Text>> {
        let key = overlay::key(path);
        if let Some(text) = self.read.borrow().get(&key) {
            return text.clone();
        }
        let text = match self.buffers.get(&key) {
            Some(text) => Some(text.clone()),
            None => std::fs::metadata(&key)
                .ok()
                .filter(|meta| meta.len() <= super::documents::MAX_DOCUMENT_BYTES as u64)
                .and_then(|_| std::fs::read_to_string(&key).ok())
                .map(Arc::from),
        };
        let text = text.map(|text| Arc::new(Text::new(text)));
        self.read.borrow_mut().insert(key, text.clone());
        text
    }

    fn absolute(&self, shown: &str) -> PathBuf {
        overlay::key(&self.root.join(shown))
    }
}
