//! An editor's side of `protocompat lsp`, for the tests and the latency benchmark: spawns the
//! server, frames JSON-RPC over its stdio, and waits for what it publishes.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub const WAIT: Duration = Duration::from_secs(60);

pub struct Client {
    child: Child,
    pub stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    /// Notifications read while waiting for something else.
    pub seen: VecDeque<Value>,
    next_id: i64,
}

impl Client {
    pub fn start(bin: &Path, dir: &Path) -> Client {
        let mut child = Command::new(bin)
            .args(["lsp", "--stdio"])
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (to_test, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                if to_test
                    .send(serde_json::from_slice(&body).unwrap())
                    .is_err()
                {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut client = Client {
            child,
            stdin,
            incoming,
            seen: VecDeque::new(),
            next_id: 1,
        };
        let root = uri(dir);
        let init = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root,
                "workspaceFolders": [{"uri": root, "name": "service"}],
                "capabilities": {},
            }),
        );
        assert_eq!(
            init["result"]["serverInfo"]["name"], "protocompat",
            "{init}"
        );
        assert_eq!(
            init["result"]["capabilities"]["textDocumentSync"]["change"],
            2
        );
        client.notify("initialized", json!({}));
        client
    }

    pub fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id)
    }

    /// The next message `wanted` takes, notifications before it kept for later waits.
    pub fn wait(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.seen.iter().position(&wanted) {
            return self.seen.remove(at).unwrap();
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.seen.push_back(message),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("nothing wanted came; seen: {:?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server ended; seen: {:?}", self.seen)
                }
            }
        }
    }

    /// The next diagnostics published for `file` that `done` accepts.
    pub fn diagnostics(&mut self, file: &Path, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let uri = uri(file);
        loop {
            let message = self.wait(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
            });
            let list = message["params"]["diagnostics"].as_array().unwrap().clone();
            if done(&list) {
                return list;
            }
        }
    }

    pub fn open(&mut self, file: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(file), "languageId": "proto", "version": 1, "text": text}}),
        );
    }

    pub fn change(&mut self, file: &Path, version: i64, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(file), "version": version}, "contentChanges": changes}),
        );
    }

    pub fn shutdown_and_exit(mut self) -> Option<i32> {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        self.exit_code()
    }

    pub fn exit_code(&mut self) -> Option<i32> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn uri(path: &Path) -> String {
    format!(
        "file://{}",
        path.canonicalize().unwrap_or(path.to_path_buf()).display()
    )
}
