//! Requests to the admin API and to brokers: redirects followed where the token may go, one
//! deadline for a command, each answer's body read within --max-response-bytes.

use std::io::{BufRead, BufReader, Read};
use std::time::{Duration, Instant};

use protocompat::text::{bound, printable};
use serde::Deserialize;
use ureq::tls::{Certificate, RootCerts, TlsConfig};

use crate::console::Error;

use super::access::{read_token, resolve, token_value, Access, AllowedHost, Origin};

/// Brokers redirect a request to the topic's owner; more hops than this is a loop.
const MAX_REDIRECTS: usize = 5;
/// How much of an error answer is read for its reason, and of a strategy answer.
const SMALL_ANSWER_BYTES: u64 = 64 << 10;
/// The deadline of `check --admin-url` without --timeout.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(60);
/// The deadline of `brokers` without --timeout: a few lists, and each broker's metrics.
pub const BROKERS_TIMEOUT: Duration = Duration::from_secs(60);
/// The deadline of `audit` without --timeout: it reads every topic's history.
pub const AUDIT_TIMEOUT: Duration = Duration::from_secs(600);

/// The admin API of one broker or cluster.
pub struct Client {
    agent: ureq::Agent,
    pub(super) base: String,
    /// Where the token may go: --admin-url's origin, and the hosts the user allows.
    origin: Origin,
    allowed: Vec<AllowedHost>,
    token: Option<String>,
    /// When the command's time on the admin API is up, and how long it was given.
    deadline: Instant,
    timeout: Duration,
    max_response: u64,
}

impl Client {
    /// A client for `url`, whose requests all end by one deadline: --timeout, else `timeout`.
    pub fn connect(args: &Access, url: &str, timeout: Duration) -> Result<Client, Error> {
        let origin = Origin::of(url)
            .map_err(|e| Error::usage(format!("--admin-url {}: {e}", printable(url))))?;
        let given = args.auth_token.as_deref().filter(|t| !t.trim().is_empty());
        let token = match (given, &args.auth_token_file) {
            (Some(token), _) => Some(token_value(token)?),
            (None, Some(file)) => Some(read_token(file)?),
            (None, None) => None,
        };
        let roots = match &args.tls_ca_file {
            None => RootCerts::PlatformVerifier,
            Some(file) => {
                let pem = std::fs::read(file)
                    .map_err(|e| Error::input(format!("--tls-ca-file {}: {e}", file.display())))?;
                let certs: Vec<Certificate<'static>> = ureq::tls::parse_pem(&pem)
                    .filter_map(|item| match item {
                        Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
                        _ => None,
                    })
                    .collect();
                if certs.is_empty() {
                    return Err(Error::input(format!(
                        "--tls-ca-file {}: no PEM certificate in it",
                        file.display()
                    )));
                }
                RootCerts::new_with_certs(&certs)
            }
        };
        let agent = ureq::Agent::config_builder()
            .tls_config(TlsConfig::builder().root_certs(roots).build())
            // Redirects are followed here, where the token's destination is decided.
            .max_redirects(0)
            .http_status_as_error(false)
            .build()
            .into();
        let timeout = args.timeout.map_or(timeout, Duration::from_secs);
        Ok(Client {
            agent,
            base: url.trim_end_matches('/').to_owned(),
            origin,
            allowed: args.allow_redirect_host.clone(),
            token,
            deadline: Instant::now() + timeout,
            timeout,
            max_response: args.max_response_bytes,
        })
    }

    /// GETs `path` under the admin URL, following the broker's redirects where the token may
    /// go; the answer, its body not read yet.
    pub fn get(&self, path: &str) -> Result<Answer<'_>, Error> {
        self.request(self.url(path), self.origin.clone(), "application/json")
    }

    /// `path` under the admin URL.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GETs an absolute `url` that may be on another origin than --admin-url's, such as another
    /// broker's /metrics/: the token goes with it only if it may go there (--admin-url's
    /// origin, --allow-redirect-host), and the request goes without it otherwise.
    pub fn get_url(&self, url: &str, accept: &str) -> Result<Answer<'_>, Error> {
        let origin =
            Origin::of(url).map_err(|e| Error::server(format!("GET {}: {e}", bound(url, 300))))?;
        self.request(url.to_owned(), origin, accept)
    }

    fn request(
        &self,
        mut url: String,
        mut origin: Origin,
        accept: &str,
    ) -> Result<Answer<'_>, Error> {
        // Decided once for the chain: a redirect from where the token went to where it may
        // not go is refused below, rather than followed without it.
        let token = self.token.as_deref().filter(|_| self.token_may_go(&origin));
        for _ in 0..=MAX_REDIRECTS {
            let left = self
                .deadline
                .checked_duration_since(Instant::now())
                .filter(|left| !left.is_zero())
                .ok_or_else(|| self.timed_out(&url))?;
            let mut request = self.agent.get(&url).header("Accept", accept);
            if let Some(token) = token {
                // Never otherwise: a redirect elsewhere is refused below before it is followed.
                debug_assert!(self.token_may_go(&origin));
                request = request.header("Authorization", &format!("Bearer {token}"));
            }
            let response = request
                .config()
                .timeout_global(Some(left))
                .build()
                .call()
                .map_err(|e| match e {
                    ureq::Error::Timeout(_) => self.timed_out(&url),
                    e => self.failed(&url, &e),
                })?;
            let status = response.status().as_u16();
            if (300..400).contains(&status) {
                let location = response
                    .headers()
                    .get("Location")
                    .and_then(|l| l.to_str().ok())
                    .ok_or_else(|| {
                        Error::server(format!(
                            "GET {}: HTTP {status} without a Location",
                            printable(&url)
                        ))
                    })?;
                let next = resolve(&url, location).and_then(|next| {
                    let to = Origin::of(&next)?;
                    Ok((next, to))
                });
                let (next, to) = next.map_err(|e| {
                    Error::server(format!(
                        "GET {}: HTTP {status} to `{}`, which is not followed: {e}",
                        printable(&url),
                        bound(location, 300)
                    ))
                })?;
                self.may_follow(&url, &origin, &next, &to, token.is_some())?;
                (url, origin) = (next, to);
                continue;
            }
            return Ok(Answer {
                client: self,
                url,
                status,
                token_sent: token.is_some(),
                body: response.into_body(),
            });
        }
        Err(Error::server(format!(
            "GET {}: more than {MAX_REDIRECTS} redirects",
            printable(&url)
        )))
    }

    /// `http` or `https`, as --admin-url has it.
    pub fn scheme(&self) -> &str {
        &self.origin.scheme
    }

    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }

    fn token_may_go(&self, origin: &Origin) -> bool {
        *origin == self.origin || self.allowed.iter().any(|host| host.allows(origin))
    }

    /// Whether a redirect from `url` to `next` is followed: never from https to http, and with
    /// a token only where the token may go.
    fn may_follow(
        &self,
        url: &str,
        from: &Origin,
        next: &str,
        to: &Origin,
        with_token: bool,
    ) -> Result<(), Error> {
        let (url, next) = (printable(url), bound(next, 300));
        if from.scheme == "https" && to.scheme == "http" {
            return Err(Error::server(format!(
                "GET {url}: the answer redirects from https to plain http ({next}), which is \
                 not followed: the request, and any token, would cross the network unencrypted"
            )));
        }
        if !with_token || self.token_may_go(to) {
            return Ok(());
        }
        let host = printable(&to.host);
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host.into_owned()
        };
        Err(Error::token_held_back(format!(
            "GET {url}: the answer redirects to {to} ({next}), elsewhere than --admin-url's {}; \
             the token goes there only, so protocompat stopped. Brokers redirect a topic's \
             requests to the broker that owns the topic: if {to} is a broker of your cluster, \
             give --admin-url that broker's URL or a Pulsar proxy's, or allow it with \
             --allow-redirect-host {host}:{}",
            self.origin, to.port
        )))
    }

    fn timed_out(&self, url: &str) -> Error {
        let message = format!(
            "GET {}: no complete answer within --timeout {}, the seconds the command may spend \
             on the admin API in all (a slow or stalled server); raise --timeout if the server \
             is only slow",
            printable(url),
            self.timeout.as_secs()
        );
        Error::limit("--timeout", message)
    }

    fn too_big(&self, url: &str, what: &str) -> Error {
        let message = format!(
            "{what}: GET {}: the answer is larger than --max-response-bytes ({} bytes), so it \
             was not read; raise --max-response-bytes if the answer is really that large",
            printable(url),
            self.max_response
        );
        Error::limit("--max-response-bytes", message)
    }

    fn failed(&self, url: &str, error: &dyn std::fmt::Display) -> Error {
        if Instant::now() >= self.deadline {
            return self.timed_out(url);
        }
        Error::server(format!(
            "GET {}: {}",
            printable(url),
            printable(&error.to_string())
        ))
    }
}

/// An admin API answer whose body is still to be read, within the client's bound and deadline.
pub struct Answer<'a> {
    client: &'a Client,
    url: String,
    status: u16,
    /// Whether the request carried the token, for saying why a server refused it.
    token_sent: bool,
    body: ureq::Body,
}

impl Answer<'_> {
    pub fn status(&self) -> u16 {
        self.status
    }

    pub fn token_sent(&self) -> bool {
        self.token_sent
    }

    /// The body handed to `read` as it streams in, within the client's bound and deadline;
    /// `what` names the answer in messages.
    pub fn stream<T>(
        self,
        what: &str,
        read: impl FnOnce(&mut dyn BufRead) -> std::io::Result<T>,
    ) -> Result<T, Error> {
        let limit = self.client.max_response;
        self.stream_within(what, limit, read)
            .map(|read| read.expect("within the bound or refused"))
    }

    /// As [`Answer::stream`], but `None` once the body proves larger than `share` bytes (less
    /// than --max-response-bytes), when what was read of it is dropped.
    fn stream_within<T>(
        self,
        what: &str,
        share: u64,
        read: impl FnOnce(&mut dyn BufRead) -> std::io::Result<T>,
    ) -> Result<Option<T>, Error> {
        let Answer {
            client, url, body, ..
        } = self;
        let limit = client.max_response;
        let share = share.min(limit);
        let larger = |length: u64| {
            if length > limit {
                Err(client.too_big(&url, what))
            } else {
                Ok(None)
            }
        };
        if let Some(length) = body.content_length().filter(|&length| length > share) {
            return larger(length);
        }
        let mut reader = Bounded::new(body.into_reader(), share);
        let read = read(&mut BufReader::with_capacity(64 << 10, &mut reader));
        match read {
            Ok(read) => Ok(Some(read)),
            // Past the share, not yet known to be past the bound.
            Err(_) if reader.exceeded => larger(share.saturating_add(1)),
            Err(_) if reader.timed_out => Err(client.timed_out(&url).context(what)),
            Err(e) => Err(client.failed(&url, &e).context(what)),
        }
    }

    /// The body handed to `parse` as it streams in; `what` names the answer in messages,
    /// `shape` what it fails to be when `parse` finds it is not that.
    pub fn parse<T>(
        self,
        what: &str,
        shape: &str,
        parse: impl FnOnce(&mut dyn BufRead) -> serde_json::Result<T>,
    ) -> Result<T, Error> {
        let limit = self.client.max_response;
        self.parse_within(what, shape, limit, parse)
            .map(|parsed| parsed.expect("within the bound or refused"))
    }

    /// As [`Answer::parse`], but `None` once the body proves larger than `share` bytes.
    pub fn parse_within<T>(
        self,
        what: &str,
        shape: &str,
        share: u64,
        parse: impl FnOnce(&mut dyn BufRead) -> serde_json::Result<T>,
    ) -> Result<Option<T>, Error> {
        // A syntax error is the answer's fault, not the connection's: named by `shape`.
        let mut syntax = None;
        self.stream_within(what, share, |reader| {
            parse(reader).map_err(|e| {
                if e.is_io() {
                    std::io::Error::from(e)
                } else {
                    syntax = Some(e);
                    std::io::Error::other("not the JSON expected")
                }
            })
        })
        .map_err(|error| match syntax {
            Some(e) => Error::server(format!("{what}: {shape}: {e}")),
            None => error,
        })
    }

    /// A short text answer (a strategy's name), refused past [`SMALL_ANSWER_BYTES`].
    pub(super) fn text(self, what: &str) -> Result<String, Error> {
        let limit = self.client.max_response.min(SMALL_ANSWER_BYTES);
        let mut reader = Bounded::new(self.body.into_reader(), limit);
        let mut bytes = Vec::new();
        match reader.read_to_end(&mut bytes) {
            Ok(_) => String::from_utf8(bytes)
                .map_err(|_| Error::server(format!("{what}: the answer is not UTF-8 text"))),
            Err(_) if reader.exceeded => Err(Error::server(format!(
                "{what}: the answer is longer than {limit} bytes, which no strategy name is"
            ))),
            Err(_) if reader.timed_out => Err(self.client.timed_out(&self.url).context(what)),
            Err(e) => Err(self.client.failed(&self.url, &e).context(what)),
        }
    }

    /// The reason a broker gave for an error status, from its `{"reason": …}` body.
    pub fn refused(self, what: &str) -> Error {
        let status = self.status;
        // The token was held back from a host it may not go to (another cluster's web
        // service): the remedy is to allow that host, not to give a token.
        if matches!(status, 401 | 403) && self.client.has_token() && !self.token_sent {
            return Error::token_held_back(format!(
                "{what}: HTTP {status} at {}, where the token was not sent: it goes to \
                 --admin-url's origin and the hosts --allow-redirect-host names only; allow that \
                 host to send it",
                printable(&self.url)
            ));
        }
        let reason = self.reason();
        let hint = match status {
            401 => " (give a token with --auth-token, --auth-token-file or PULSAR_AUTH_TOKEN)",
            403 => " (the token's role may not read this topic's schemas)",
            _ => "",
        };
        Error::server(format!("{what}: HTTP {status}: {reason}{hint}"))
    }

    /// The reason of an error answer, from a `{"reason": …}` body or the body's first
    /// characters, printable.
    pub fn reason(self) -> String {
        #[derive(Deserialize)]
        struct Error {
            reason: Option<String>,
        }
        let mut body = Vec::new();
        // What arrives before the bound or the deadline is enough to say why.
        let _ = self
            .body
            .into_reader()
            .take(SMALL_ANSWER_BYTES)
            .read_to_end(&mut body);
        match serde_json::from_slice::<Error>(&body) {
            Ok(Error {
                reason: Some(reason),
            }) => bound(&reason, 4000),
            _ => printable(
                &String::from_utf8_lossy(&body)
                    .chars()
                    .take(300)
                    .collect::<String>(),
            )
            .into_owned(),
        }
    }
}

/// A body reader that fails past `left` bytes, and says whether it failed so or by timing out.
struct Bounded<R> {
    inner: R,
    left: u64,
    exceeded: bool,
    timed_out: bool,
}

impl<R: Read> Bounded<R> {
    fn new(inner: R, limit: u64) -> Bounded<R> {
        Bounded {
            inner,
            left: limit,
            exceeded: false,
            timed_out: false,
        }
    }

    fn read_inner(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf).inspect_err(|e| {
            let ureq_error = e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<ureq::Error>());
            self.timed_out = e.kind() == std::io::ErrorKind::TimedOut
                || matches!(ureq_error, Some(ureq::Error::Timeout(_)));
        })
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            // At the bound: the answer must end here.
            let mut probe = [0u8; 1];
            if self.read_inner(&mut probe)? == 0 {
                return Ok(0);
            }
            self.exceeded = true;
            return Err(std::io::Error::other("the answer is larger than the bound"));
        }
        let room = usize::try_from(self.left)
            .unwrap_or(usize::MAX)
            .min(buf.len());
        let read = self.read_inner(&mut buf[..room])?;
        self.left -= read as u64;
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_reader_refuses_one_byte_past_the_bound() {
        let mut exact = Bounded::new(&b"abcd"[..], 4);
        let mut out = Vec::new();
        exact.read_to_end(&mut out).unwrap();
        assert_eq!((out.as_slice(), exact.exceeded), (&b"abcd"[..], false));
        let mut over = Bounded::new(&b"abcde"[..], 4);
        assert!(over.read_to_end(&mut Vec::new()).is_err());
        assert!(over.exceeded && !over.timed_out);
    }
}
