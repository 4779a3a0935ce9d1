//! `protocompat lsp`: a language server over stdio (LSP 3.17) that checks a project's topics as
//! their `.proto` files are edited, with the unsaved buffers over the disk, and offers each
//! finding's proven fix as a quick fix.
//!
//! Built on `lsp-server` and `lsp-types`, rust-analyzer's own crates: a synchronous message
//! loop and typed messages, nothing more. The work is blocking CPU (compiling, checking, proving
//! fixes), done on one worker thread ([`worker`]); an async runtime (`tower-lsp-server`,
//! `async-lsp`) would add a scheduler and buy nothing here. The stdio framing is our own
//! ([`transport`]), so that no input ends the server.

mod actions;
mod documents;
mod findings;
mod transport;
mod worker;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::{select, unbounded, Receiver, Sender};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability, Diagnostic,
    DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, HoverParams, HoverProviderCapability,
    InitializeParams, InitializeResult, MessageType, PublishDiagnosticsParams, Range, SaveOptions,
    ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use serde_json::Value;

use documents::{path_of, uri_of, Documents, MAX_DOCUMENT_BYTES};
use findings::{Entry, RULES_URL};
use transport::Outgoing;
use worker::{Job, Published};

/// Serves one editor on stdin and stdout until it says `exit` or closes stdin.
pub fn serve() -> ExitCode {
    let (sender, receiver, threads) = transport::stdio();
    let code = match Server::initialize(&sender, &receiver) {
        Some(mut server) => server.run(&receiver),
        None => ExitCode::SUCCESS,
    };
    drop(sender);
    // The reader ends with stdin, which the editor closes after `exit`.
    drop(receiver);
    threads.join();
    code
}

struct Server {
    out: Sender<Outgoing>,
    root: PathBuf,
    rules_url: String,
    documents: Documents,
    /// The worker's queue, while a project is loaded.
    jobs: Option<Sender<Job>>,
    published: Receiver<Published>,
    published_to: Sender<Published>,
    /// What is shown, by file.
    entries: BTreeMap<PathBuf, Vec<Entry>>,
    shutting_down: bool,
}

impl Server {
    /// The `initialize` handshake; `None` when the editor left before it.
    fn initialize(out: &Sender<Outgoing>, incoming: &Receiver<Message>) -> Option<Server> {
        let request = loop {
            match incoming.recv().ok()? {
                Message::Request(request) if request.method == "initialize" => break request,
                Message::Request(request) => send(
                    out,
                    Response::new_err(
                        request.id,
                        ErrorCode::ServerNotInitialized as i32,
                        "the server is not initialized".into(),
                    ),
                ),
                Message::Notification(n) if n.method == "exit" => return None,
                _ => {}
            }
        };
        let params: InitializeParams =
            serde_json::from_value(request.params.clone()).unwrap_or_default();
        let root = root_of(&params);
        let rules_url = params
            .initialization_options
            .as_ref()
            .and_then(|o| o.get("rulesUrl"))
            .and_then(Value::as_str)
            .unwrap_or(RULES_URL)
            .to_owned();
        let capabilities = ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..Default::default()
                },
            )),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    CodeActionKind::SOURCE_FIX_ALL,
                ]),
                ..Default::default()
            })),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            ..Default::default()
        };
        let result = InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "protocompat".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        };
        send(out, Response::new_ok(request.id, result));
        let (published_to, published) = unbounded();
        Some(Server {
            out: out.clone(),
            root,
            rules_url,
            documents: Documents::default(),
            jobs: None,
            published,
            published_to,
            entries: BTreeMap::new(),
            shutting_down: false,
        })
    }

    fn run(&mut self, incoming: &Receiver<Message>) -> ExitCode {
        loop {
            select! {
                recv(incoming) -> message => match message {
                    Ok(Message::Notification(n)) if n.method == "exit" => {
                        return if self.shutting_down { ExitCode::SUCCESS } else { ExitCode::FAILURE };
                    }
                    Ok(Message::Request(request)) => self.request(request),
                    Ok(Message::Notification(n)) => self.notification(n),
                    Ok(Message::Response(_)) => {}
                    Err(_) => return ExitCode::FAILURE,
                },
                recv(self.published) -> published => {
                    if let Ok(published) = published {
                        self.publish(published);
                    }
                }
            }
        }
    }

    fn request(&mut self, request: Request) {
        if self.shutting_down {
            return self.reply(Response::new_err(
                request.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".into(),
            ));
        }
        let id = request.id.clone();
        let answer = match request.method.as_str() {
            "shutdown" => {
                self.shutting_down = true;
                // The worker ends when its queue does.
                self.jobs = None;
                Ok(Value::Null)
            }
            "textDocument/codeAction" => parse::<CodeActionParams>(request).map(|p| {
                let entries = self.shown(&p.text_document.uri);
                serde_json::to_value(actions::code_actions(entries, &p)).unwrap_or(Value::Null)
            }),
            "textDocument/hover" => parse::<HoverParams>(request).map(|p| {
                let entries = self.shown(&p.text_document_position_params.text_document.uri);
                serde_json::to_value(actions::hover(entries, &p)).unwrap_or(Value::Null)
            }),
            "initialize" => Err((ErrorCode::InvalidRequest, "initialized already".into())),
            method => Err((
                ErrorCode::MethodNotFound,
                format!(
                    "protocompat lsp does not answer {}",
                    crate::safe::shown(method, 80)
                ),
            )),
        };
        self.reply(match answer {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        });
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "initialized" => self.load_project(),
            "textDocument/didOpen" => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    if let Some(path) = path_of(&p.text_document.uri) {
                        self.documents.open(&path, p.text_document.text);
                        self.changed(&path);
                    }
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    if let Some(path) = path_of(&p.text_document.uri) {
                        self.documents.change(&path, p.content_changes);
                        self.changed(&path);
                    }
                }
            }
            "textDocument/didSave" => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) {
                    if let Some(path) = path_of(&p.text_document.uri) {
                        if path.file_name() == Some(crate::project::FILE_NAME.as_ref()) {
                            self.load_project();
                        } else {
                            self.changed(&path);
                        }
                    }
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    if let Some(path) = path_of(&p.text_document.uri) {
                        self.documents.close(&path);
                        self.changed(&path);
                    }
                }
            }
            _ => {}
        }
    }

    /// Reads the project file at the workspace root and starts checking every topic; without
    /// one, says so once and checks nothing.
    fn load_project(&mut self) {
        self.jobs = None;
        let file = self.root.join(crate::project::FILE_NAME);
        if !file.is_file() {
            return self.show(
                MessageType::WARNING,
                format!(
                    "protocompat: no {} at the workspace root ({}): nothing is checked. `protocompat init` writes one",
                    crate::project::FILE_NAME,
                    self.root.display()
                ),
            );
        }
        // Every path of the project, and of the reports, is relative to the root.
        if let Err(e) = std::env::set_current_dir(&self.root) {
            return self.show(
                MessageType::ERROR,
                format!("protocompat: cannot work in {}: {e}", self.root.display()),
            );
        }
        let loaded = match crate::project::load(Path::new(crate::project::FILE_NAME)) {
            Ok(loaded) => loaded,
            Err(e) => return self.show(MessageType::ERROR, format!("protocompat: {e}")),
        };
        let topics = match crate::project::plan::plan(&loaded, &Default::default()) {
            Ok(topics) => topics,
            Err(e) => {
                return self.show(
                    MessageType::ERROR,
                    format!("protocompat: {}", e.at(&loaded.file)),
                )
            }
        };
        let profile = loaded
            .project
            .profile
            .unwrap_or(crate::args::DEFAULT_PROFILE);
        let (jobs, queue) = unbounded();
        worker::start(
            worker::Project {
                root: self.root.clone(),
                topics,
                profile,
                rules_url: self.rules_url.clone(),
            },
            queue,
            self.published_to.clone(),
        );
        self.jobs = Some(jobs);
        self.schedule(BTreeSet::new(), true);
    }

    fn changed(&mut self, path: &Path) {
        if path.extension().and_then(|e| e.to_str()) != Some("proto") {
            return;
        }
        self.schedule(BTreeSet::from([crate::input::overlay::key(path)]), false);
    }

    fn schedule(&mut self, changed: BTreeSet<PathBuf>, all: bool) {
        if let Some(jobs) = &self.jobs {
            let job = Job {
                buffers: Arc::new(self.documents.buffers()),
                changed,
                all,
                since: Instant::now(),
            };
            let _ = jobs.send(job);
        }
    }

    fn publish(&mut self, published: Published) {
        if self.shutting_down {
            return;
        }
        // Editors keep a server's stderr as its log.
        eprintln!(
            "protocompat lsp: diagnostics for {} file(s), {} ms after the change",
            published.files.len(),
            published.took.as_millis()
        );
        let cleared = published.cleared.iter().map(|path| (path, &[][..]));
        let shown = published.files.iter().map(|(path, e)| (path, e.as_slice()));
        for (path, entries) in cleared.chain(shown) {
            if let Some(uri) = uri_of(path) {
                let diagnostics = self.diagnostics(path, entries);
                self.notify::<lsp_types::notification::PublishDiagnostics>(
                    PublishDiagnosticsParams::new(uri, diagnostics, None),
                );
            }
        }
        self.entries = published.files;
    }

    /// A file's diagnostics: first, if its open document is over the bound, that it is not
    /// what was checked (its file on disk was); then the findings.
    fn diagnostics(&self, path: &Path, entries: &[Entry]) -> Vec<Diagnostic> {
        let note = self.documents.oversized(path).map(|size| Diagnostic {
            range: Range::default(),
            severity: Some(DiagnosticSeverity::WARNING),
            source: Some("protocompat".into()),
            message: format!(
                "this document is {size} bytes, over the {MAX_DOCUMENT_BYTES} the checker reads: the file on disk is checked"
            ),
            ..Default::default()
        });
        note.into_iter()
            .chain(entries.iter().map(|e| e.diagnostic.clone()))
            .collect()
    }

    /// What is shown in the document at `uri`.
    fn shown(&self, uri: &Uri) -> &[Entry] {
        path_of(uri)
            .and_then(|path| self.entries.get(&crate::input::overlay::key(&path)))
            .map_or(&[], Vec::as_slice)
    }

    fn show(&self, typ: MessageType, message: String) {
        eprintln!("{message}");
        self.notify::<lsp_types::notification::ShowMessage>(ShowMessageParams { typ, message });
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let _ = self
            .out
            .send(Outgoing::Message(Message::Notification(Notification::new(
                N::METHOD.into(),
                params,
            ))));
    }

    fn reply(&self, response: Response) {
        send(&self.out, response);
    }
}

fn send(out: &Sender<Outgoing>, response: Response) {
    let _ = out.send(Outgoing::Message(Message::Response(response)));
}

fn parse<P: serde::de::DeserializeOwned>(request: Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(request.params)
        .map_err(|e| (ErrorCode::InvalidParams, format!("{}: {e}", request.method)))
}

/// The workspace's folder: the first workspace folder, else the root URI, else where the
/// server was started.
#[allow(deprecated)]
fn root_of(params: &InitializeParams) -> PathBuf {
    params
        .workspace_folders
        .as_ref()
        .and_then(|folders| folders.first())
        .and_then(|folder| path_of(&folder.uri))
        .or_else(|| params.root_uri.as_ref().and_then(path_of))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."))
}
