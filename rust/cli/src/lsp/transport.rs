//! The LSP base protocol over stdio: `Content-Length` frames of JSON-RPC. Read here rather than
//! by lsp-server's own stdio transport, which ends the connection on the first body that is not
//! JSON and allocates whatever length a header claims. Here a header line is bounded, a body
//! over [`MAX_MESSAGE_BYTES`] is skipped in small reads and answered with an error, a body that
//! is no JSON-RPC message is answered with a parse error (JSON-RPC 2.0: id null), and reading
//! goes on with the next frame.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::thread;

use crossbeam_channel::{bounded, unbounded, Receiver, Sender};
use lsp_server::Message;
use serde_json::json;

/// The largest message read: a document of the CLI's largest schema (`maxSchemaBytes`, 16 MiB)
/// JSON-escaped, with room to spare.
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;
/// The longest header line read; LSP headers are a few dozen bytes.
const MAX_HEADER_LINE: u64 = 8 << 10;

/// What the writer thread writes.
pub enum Outgoing {
    Message(Message),
    /// A response the reader makes itself to what it could not read.
    Raw(serde_json::Value),
}

/// The two threads, joined when the connection ends.
pub struct Threads {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<()>,
}

impl Threads {
    pub fn join(self) {
        let _ = self.reader.join();
        let _ = self.writer.join();
    }
}

/// A connection over this process's stdin and stdout.
pub fn stdio() -> (Sender<Outgoing>, Receiver<Message>, Threads) {
    let (to_writer, from_server) = unbounded::<Outgoing>();
    let (to_server, from_reader) = bounded::<Message>(16);
    let answers = to_writer.clone();
    let reader = thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || read_all(BufReader::new(io::stdin().lock()), &to_server, &answers))
        .expect("a thread starts");
    let writer = thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            let mut out = io::stdout().lock();
            for outgoing in from_server {
                let written = match outgoing {
                    Outgoing::Message(message) => message.write(&mut out),
                    Outgoing::Raw(value) => write_raw(&mut out, &value),
                };
                if written.and_then(|()| out.flush()).is_err() {
                    return;
                }
            }
        })
        .expect("a thread starts");
    (to_writer, from_reader, Threads { reader, writer })
}

fn write_raw(out: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    let text = value.to_string();
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())
}

/// Reads frames until stdin ends or the client says `exit`, passing each message on and
/// answering what cannot be read.
pub fn read_all(mut input: impl BufRead, to_server: &Sender<Message>, answers: &Sender<Outgoing>) {
    loop {
        let refused = match read_frame(&mut input) {
            Ok(Frame::End) => return,
            Ok(Frame::Body(body)) => match serde_json::from_slice::<Message>(&body) {
                Ok(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if to_server.send(message).is_err() || exit {
                        return;
                    }
                    continue;
                }
                Err(e) => (-32700, format!("not a JSON-RPC message: {e}")),
            },
            Ok(Frame::TooLarge(length)) => (
                -32600,
                format!("a message of {length} bytes, over the limit of {MAX_MESSAGE_BYTES}"),
            ),
            Ok(Frame::BadHeader(why)) => (-32700, why),
            Err(_) => return,
        };
        let (code, message) = refused;
        let answer = json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": code, "message": message },
        });
        if answers.send(Outgoing::Raw(answer)).is_err() {
            return;
        }
    }
}

enum Frame {
    End,
    Body(Vec<u8>),
    TooLarge(usize),
    BadHeader(String),
}

fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length: Option<usize> = None;
    let mut bad = None;
    let mut any = false;
    loop {
        let mut line = Vec::new();
        let read = input
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(if any {
                Frame::BadHeader("the input ended inside a header".into())
            } else {
                Frame::End
            });
        }
        any = true;
        if line.last() != Some(&b'\n') {
            // Past the bound: skip the rest of the line.
            let mut rest = Vec::new();
            while input
                .by_ref()
                .take(MAX_HEADER_LINE)
                .read_until(b'\n', &mut rest)?
                > 0
            {
                if rest.last() == Some(&b'\n') {
                    break;
                }
                rest.clear();
            }
            bad = Some(format!("a header line over {MAX_HEADER_LINE} bytes"));
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => bad = Some(format!("Content-Length {:?} is no length", value.trim())),
                }
            }
            Some(_) => {}
            None => bad = Some(format!("{:?} is no header", crate::safe::shown(text, 80))),
        }
    }
    if let Some(why) = bad {
        return Ok(Frame::BadHeader(why));
    }
    let Some(length) = length else {
        return Ok(Frame::BadHeader("a message without Content-Length".into()));
    };
    if length > MAX_MESSAGE_BYTES {
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(Frame::TooLarge(length));
    }
    let mut body = Vec::with_capacity(length);
    input.by_ref().take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Ok(Frame::End);
    }
    Ok(Frame::Body(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    fn run(input: &str) -> (Vec<Message>, Vec<serde_json::Value>) {
        let (to_server, messages) = unbounded();
        let (answers, raw) = unbounded();
        read_all(input.as_bytes(), &to_server, &answers);
        drop((to_server, answers));
        let raw = raw
            .iter()
            .filter_map(|o| match o {
                Outgoing::Raw(v) => Some(v),
                Outgoing::Message(_) => None,
            })
            .collect();
        (messages.iter().collect(), raw)
    }

    #[test]
    fn what_cannot_be_read_is_answered_and_reading_goes_on() {
        let input = [
            frame("{not json"),
            "Content-Length: 99999999999\r\n\r\n".into(),
            "X-Nonsense\r\n\r\n".into(),
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#),
        ]
        .concat();
        let (messages, answers) = run(&input);
        // The too-long message swallowed what followed it: the input had no such bytes.
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert_eq!(answers[0]["error"]["code"], -32700);
        assert_eq!(answers[0]["id"], serde_json::Value::Null);
        assert_eq!(answers[1]["error"]["code"], -32600);
        assert!(messages.is_empty());

        let input = [
            frame("[1, 2"),
            "Bad header line\r\n\r\n".into(),
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#),
        ]
        .concat();
        let (messages, answers) = run(&input);
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert_eq!(messages.len(), 1);
    }

    #[test]
    fn a_long_header_line_is_skipped_in_bounded_reads() {
        let input = [
            "X: ".to_owned() + &"a".repeat(100_000) + "\r\n\r\n",
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
            frame(r#"{"jsonrpc":"2.0","method":"never read"}"#),
        ]
        .concat();
        let (messages, answers) = run(&input);
        assert_eq!(answers.len(), 1);
        assert_eq!(messages.len(), 1, "reading stops at exit");
    }
}
