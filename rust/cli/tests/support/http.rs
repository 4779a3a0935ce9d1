//! A test server on 127.0.0.1 speaking just enough HTTP/1.1 (over TLS where https is the
//! point), which records what it was asked and by whom, for faking the admin API and brokers.

use std::io::{self, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::thread;

/// A request as a test server received it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub authorization: Option<String>,
}

pub type Handler = dyn Fn(&Seen, &mut dyn Write) -> io::Result<()> + Send + Sync;

/// A server on 127.0.0.1 answering every request with its handler, one connection each.
pub struct Server {
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    pub fn http(
        handler: impl Fn(&Seen, &mut dyn Write) -> io::Result<()> + Send + Sync + 'static,
    ) -> Server {
        Server::start(Arc::new(handler), None)
    }

    pub fn https(
        tls: &Arc<rustls::ServerConfig>,
        handler: impl Fn(&Seen, &mut dyn Write) -> io::Result<()> + Send + Sync + 'static,
    ) -> Server {
        Server::start(Arc::new(handler), Some(tls.clone()))
    }

    fn start(handler: Arc<Handler>, tls: Option<Arc<rustls::ServerConfig>>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (record, handler, tls) = (record.clone(), handler.clone(), tls.clone());
                thread::spawn(move || {
                    let _ = match tls {
                        None => exchange(stream, &record, &*handler),
                        Some(config) => {
                            let connection = rustls::ServerConnection::new(config).unwrap();
                            let mut stream = rustls::StreamOwned::new(connection, stream);
                            let done = exchange(&mut stream, &record, &*handler);
                            stream.conn.send_close_notify();
                            let _ = stream.flush();
                            done
                        }
                    };
                });
            }
        });
        Server { port, seen }
    }

    pub fn url(&self, scheme: &str) -> String {
        format!("{scheme}://127.0.0.1:{}", self.port)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// Reads one request's head, records it, and lets the handler answer.
fn exchange(
    mut stream: impl Read + Write,
    seen: &Mutex<Vec<Seen>>,
    handler: &Handler,
) -> io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte)? == 0 || head.len() > 64 << 10 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.lines();
    let path = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .unwrap_or_default()
        .to_owned();
    let authorization = lines.find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("authorization")
            .then(|| value.trim().to_owned())
    });
    let request = Seen {
        path,
        authorization,
    };
    seen.lock().unwrap().push(request.clone());
    handler(&request, &mut stream)?;
    stream.flush()
}

pub fn answer(w: &mut dyn Write, status: &str, body: &str) -> io::Result<()> {
    write!(
        w,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A 200 answer sent in chunks as they are made, so a test can send more than it holds; a
/// client that stops reading ends it with a write error.
pub fn chunked<'a>(
    w: &mut dyn Write,
    content_type: &str,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> io::Result<()> {
    write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )?;
    for data in chunks {
        write!(w, "{:x}\r\n", data.len())?;
        w.write_all(data)?;
        w.write_all(b"\r\n")?;
    }
    w.write_all(b"0\r\n\r\n")
}

pub fn redirect(w: &mut dyn Write, location: &str) -> io::Result<()> {
    write!(
        w,
        "HTTP/1.1 307 Temporary Redirect\r\nLocation: {location}\r\nContent-Length: 0\r\n\
         Connection: close\r\n\r\n"
    )
}
