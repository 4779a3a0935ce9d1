//! A topic's schema history and effective strategy, read from a broker's admin REST API: the
//! existing side of the check the broker will run on the next upload.
//!
//! The admin endpoint is not trusted further than the user trusts it: the token goes to the
//! origin of `--admin-url` (and hosts the user allows) only, every request of a command draws
//! on one deadline, and each answer is read within a bound, parsed as it streams in.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use protocompat::text::{bound, printable};
use protocompat::Strategy;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use ureq::http::Uri;
use ureq::tls::{Certificate, RootCerts, TlsConfig};

use crate::input::Loaded;

#[derive(clap::Args)]
pub struct BrokerArgs {
    /// Compare with a topic's schema history on a broker: its admin URL, as pulsar-admin's
    /// --admin-url (http://broker:8080, https://broker:8443).
    #[arg(long, value_name = "URL", requires = "topic")]
    pub admin_url: Option<String>,
    /// The topic (persistent://tenant/ns/topic, tenant/ns/topic, or a name in public/default).
    #[arg(long, requires = "admin_url")]
    pub topic: Option<String>,
    #[command(flatten)]
    pub access: Access,
}

/// How the admin API is reached: the token, the CA to trust, where the token may go, and how
/// long and how much the command reads.
#[derive(clap::Args)]
pub struct Access {
    /// A token for the admin API, sent as `Authorization: Bearer` to --admin-url's host and
    /// port only (and to --allow-redirect-host). Also read from the environment variable
    /// PULSAR_AUTH_TOKEN.
    #[arg(
        long,
        env = "PULSAR_AUTH_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    pub auth_token: Option<String>,
    /// A file holding the token (as pulsar-admin's `file:///path` auth params).
    #[arg(long, value_name = "FILE", conflicts_with = "auth_token")]
    pub auth_token_file: Option<PathBuf>,
    /// A PEM file of CA certificates to trust for https instead of the system's roots
    /// (pulsar-admin's --tls-trust-cert-path).
    #[arg(long, value_name = "FILE", alias = "tls-trust-cert-path")]
    pub tls_ca_file: Option<PathBuf>,
    /// With a token, a redirect elsewhere than --admin-url's host and port is refused, so that
    /// the token goes nowhere else. This lets it follow redirects to HOST (any port) or
    /// HOST:PORT, such as the cluster's brokers that own topics; `*.DOMAIN` allows every host
    /// under DOMAIN. `brokers` sends the token with its scrape of such a broker's /metrics/
    /// too, and with no other. Repeatable.
    #[arg(long, value_name = "HOST[:PORT]", value_parser = AllowedHost::parse)]
    pub allow_redirect_host: Vec<AllowedHost>,
    /// Seconds the command may spend on the admin API in all: every request (each redirect,
    /// each topic of an audit, each broker's /metrics/) draws on this one deadline. Default:
    /// 60 for check and brokers, 600 for audit.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// The largest answer read from the admin API, in bytes or with a unit (KiB, MiB, GiB); a
    /// larger one is refused.
    #[arg(long, value_name = "BYTES", value_parser = parse_size, default_value = "256MiB")]
    pub max_response_bytes: u64,
}

/// `1048576`, `512KiB`, `256MiB`, `1GiB`.
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let scale: u64 = match unit.trim() {
        "" | "B" => 1,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        _ => return Err("expected a number of bytes, or one with KiB, MiB or GiB".to_owned()),
    };
    match digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
    {
        Some(0) | None => Err("expected a number of bytes above 0".to_owned()),
        Some(size) => Ok(size),
    }
}

/// A host the token may follow a redirect to: `broker-2.example.com`, `10.0.0.7:8443`,
/// `*.pulsar.svc.cluster.local`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedHost {
    /// Lower case, without IPv6 brackets; `*.domain` kept as written.
    host: String,
    port: Option<u16>,
}

impl AllowedHost {
    fn parse(text: &str) -> Result<AllowedHost, String> {
        let text = text.trim();
        let (host, port) = match text.rsplit_once(':') {
            // `::1` alone is an IPv6 address; `[::1]:8443` is one with a port.
            Some((host, port))
                if !host.contains(':') || (host.starts_with('[') && host.ends_with(']')) =>
            {
                let port = port
                    .parse::<u16>()
                    .map_err(|_| format!("`{port}` is not a port number"))?;
                (host, Some(port))
            }
            _ => (text, None),
        };
        let host = unbracket(host).to_ascii_lowercase();
        let name = host.strip_prefix("*.").unwrap_or(&host);
        if name.is_empty()
            || name.contains(['/', '@', '*', '[', ']'])
            || name.contains(char::is_whitespace)
        {
            return Err("expected HOST or HOST:PORT (*.DOMAIN for its subdomains)".to_owned());
        }
        Ok(AllowedHost { host, port })
    }

    fn allows(&self, origin: &Origin) -> bool {
        let host = match self.host.strip_prefix("*.") {
            Some(domain) => origin
                .host
                .strip_suffix(domain)
                .is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
            None => origin.host == self.host,
        };
        host && self.port.is_none_or(|port| port == origin.port)
    }
}

fn unbracket(host: &str) -> &str {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
}

/// What a token is bound to: the scheme, host and port of a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    fn of(url: &str) -> Result<Origin, String> {
        let uri: Uri = url.parse().map_err(|e| format!("not a URL: {e}"))?;
        let scheme = uri.scheme_str().unwrap_or_default().to_ascii_lowercase();
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            "" => {
                return Err(
                    "not an absolute URL (http://HOST:PORT or https://HOST:PORT)".to_owned(),
                )
            }
            other => return Err(format!("`{other}:` is neither http nor https")),
        };
        let host = uri
            .host()
            .map(|h| unbracket(h).to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .ok_or("no host in it")?;
        Ok(Origin {
            scheme,
            host,
            port: uri.port_u16().unwrap_or(default_port),
        })
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let host = printable(&self.host);
        if host.contains(':') {
            write!(f, "{}://[{host}]:{}", self.scheme, self.port)
        } else {
            write!(f, "{}://{host}:{}", self.scheme, self.port)
        }
    }
}

/// `location` (a redirect's target, absolute or relative) as an absolute URL, read from `base`.
fn resolve(base: &str, location: &str) -> Result<String, String> {
    let location = location.trim();
    let scheme_len = location
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .filter(|&end| end > 0 && location[end..].starts_with(':'));
    if scheme_len.is_some() && location.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Ok(location.to_owned());
    }
    let uri: Uri = base.parse().map_err(|e| format!("not a URL: {e}"))?;
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return Err("not an absolute URL".to_owned());
    };
    if let Some(rest) = location.strip_prefix("//") {
        return Ok(format!("{scheme}://{rest}"));
    }
    if location.starts_with('/') {
        return Ok(format!("{scheme}://{authority}{location}"));
    }
    let path = uri.path();
    let directory = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let directory = if directory.is_empty() { "/" } else { directory };
    Ok(format!("{scheme}://{authority}{directory}{location}"))
}

/// What the broker holds for a topic.
pub struct History {
    /// Every version not deleted, oldest first, as the broker keeps them.
    pub schemas: Vec<Loaded>,
    /// The strategy the broker applies to the topic, with where it was read.
    pub strategy: Result<Strategy, String>,
}

/// A topic as the admin API names it.
struct Topic {
    domain: &'static str,
    tenant: String,
    namespace: String,
    /// The local name, partition suffix removed: partitions share their topic's schema.
    local: String,
}

impl Topic {
    fn parse(text: &str) -> Result<Topic, String> {
        let (domain, rest) = match text.split_once("://") {
            Some(("persistent", rest)) => ("persistent", rest),
            Some(("non-persistent", rest)) => ("non-persistent", rest),
            Some((scheme, _)) => {
                return Err(format!(
                    "topic `{text}`: unknown domain `{scheme}://`; expected persistent:// or non-persistent://"
                ))
            }
            None => ("persistent", text),
        };
        let parts: Vec<&str> = rest.splitn(3, '/').collect();
        let (tenant, namespace, local) = match parts.as_slice() {
            [local] => ("public", "default", *local),
            [tenant, namespace, local] => (*tenant, *namespace, *local),
            _ => {
                return Err(format!(
                    "topic `{text}`: expected persistent://tenant/namespace/topic or tenant/namespace/topic"
                ))
            }
        };
        if tenant.is_empty() || namespace.is_empty() || local.is_empty() {
            return Err(format!("topic `{text}`: a part of its name is empty"));
        }
        let local = match local.rsplit_once("-partition-") {
            Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
            _ => local,
        };
        Ok(Topic {
            domain,
            tenant: tenant.to_owned(),
            namespace: namespace.to_owned(),
            local: local.to_owned(),
        })
    }

    fn path(&self) -> String {
        format!(
            "{}/{}/{}",
            encode(&self.tenant),
            encode(&self.namespace),
            encode(&self.local)
        )
    }

    fn full(&self) -> String {
        format!(
            "{}://{}/{}/{}",
            self.domain, self.tenant, self.namespace, self.local
        )
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters, as the admin client does.
pub fn encode(part: &str) -> String {
    part.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

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
    base: String,
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
    pub fn connect(args: &Access, url: &str, timeout: Duration) -> Result<Client, String> {
        let origin = Origin::of(url).map_err(|e| format!("--admin-url {}: {e}", printable(url)))?;
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
                    .map_err(|e| format!("--tls-ca-file {}: {e}", file.display()))?;
                let certs: Vec<Certificate<'static>> = ureq::tls::parse_pem(&pem)
                    .filter_map(|item| match item {
                        Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
                        _ => None,
                    })
                    .collect();
                if certs.is_empty() {
                    return Err(format!(
                        "--tls-ca-file {}: no PEM certificate in it",
                        file.display()
                    ));
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
    pub fn get(&self, path: &str) -> Result<Answer<'_>, String> {
        let url = format!("{}{path}", self.base);
        self.request(url, self.origin.clone(), "application/json")
    }

    /// GETs an absolute `url` that may be on another origin than --admin-url's, such as another
    /// broker's /metrics/: the token goes with it only if it may go there (--admin-url's
    /// origin, --allow-redirect-host), and the request goes without it otherwise.
    pub fn get_url(&self, url: &str, accept: &str) -> Result<Answer<'_>, String> {
        let origin = Origin::of(url).map_err(|e| format!("GET {}: {e}", bound(url, 300)))?;
        self.request(url.to_owned(), origin, accept)
    }

    fn request(
        &self,
        mut url: String,
        mut origin: Origin,
        accept: &str,
    ) -> Result<Answer<'_>, String> {
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
                        format!("GET {}: HTTP {status} without a Location", printable(&url))
                    })?;
                let next = resolve(&url, location).and_then(|next| {
                    let to = Origin::of(&next)?;
                    Ok((next, to))
                });
                let (next, to) = next.map_err(|e| {
                    format!(
                        "GET {}: HTTP {status} to `{}`, which is not followed: {e}",
                        printable(&url),
                        bound(location, 300)
                    )
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
        Err(format!(
            "GET {}: more than {MAX_REDIRECTS} redirects",
            printable(&url)
        ))
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
    ) -> Result<(), String> {
        let (url, next) = (printable(url), bound(next, 300));
        if from.scheme == "https" && to.scheme == "http" {
            return Err(format!(
                "GET {url}: the answer redirects from https to plain http ({next}), which is \
                 not followed: the request, and any token, would cross the network unencrypted"
            ));
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
        Err(format!(
            "GET {url}: the answer redirects to {to} ({next}), elsewhere than --admin-url's {}; \
             the token goes there only, so protocompat stopped. Brokers redirect a topic's \
             requests to the broker that owns the topic: if {to} is a broker of your cluster, \
             give --admin-url that broker's URL or a Pulsar proxy's, or allow it with \
             --allow-redirect-host {host}:{}",
            self.origin, to.port
        ))
    }

    fn timed_out(&self, url: &str) -> String {
        format!(
            "GET {}: no complete answer within --timeout {}, the seconds the command may spend \
             on the admin API in all (a slow or stalled server); raise --timeout if the server \
             is only slow",
            printable(url),
            self.timeout.as_secs()
        )
    }

    fn too_big(&self, url: &str, what: &str) -> String {
        format!(
            "{what}: GET {}: the answer is larger than --max-response-bytes ({} bytes), so it \
             was not read; raise --max-response-bytes if the answer is really that large",
            printable(url),
            self.max_response
        )
    }

    fn failed(&self, url: &str, error: &dyn std::fmt::Display) -> String {
        if Instant::now() >= self.deadline {
            return self.timed_out(url);
        }
        format!("GET {}: {}", printable(url), printable(&error.to_string()))
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
    ) -> Result<T, String> {
        let Answer {
            client, url, body, ..
        } = self;
        let limit = client.max_response;
        if body.content_length().is_some_and(|length| length > limit) {
            return Err(client.too_big(&url, what));
        }
        let mut reader = Bounded::new(body.into_reader(), limit);
        let read = read(&mut BufReader::with_capacity(64 << 10, &mut reader));
        read.map_err(|e| {
            if reader.exceeded {
                client.too_big(&url, what)
            } else if reader.timed_out {
                format!("{what}: {}", client.timed_out(&url))
            } else {
                format!("{what}: {}", client.failed(&url, &e))
            }
        })
    }

    /// The body parsed as `T` while it streams in, never held whole; `what` names the answer in
    /// messages, `shape` what it fails to be when it is not.
    pub fn json<T: DeserializeOwned>(self, what: &str, shape: &str) -> Result<T, String> {
        // A syntax error is the answer's fault, not the connection's: named by `shape`.
        let mut syntax = None;
        self.stream(what, |reader| {
            serde_json::from_reader(reader).map_err(|e| {
                if e.is_io() {
                    std::io::Error::from(e)
                } else {
                    syntax = Some(e);
                    std::io::Error::other("not the JSON expected")
                }
            })
        })
        .map_err(|message| match syntax {
            Some(e) => format!("{what}: {shape}: {e}"),
            None => message,
        })
    }

    /// A short text answer (a strategy's name), refused past [`SMALL_ANSWER_BYTES`].
    fn text(self, what: &str) -> Result<String, String> {
        let limit = self.client.max_response.min(SMALL_ANSWER_BYTES);
        let mut reader = Bounded::new(self.body.into_reader(), limit);
        let mut bytes = Vec::new();
        match reader.read_to_end(&mut bytes) {
            Ok(_) => String::from_utf8(bytes)
                .map_err(|_| format!("{what}: the answer is not UTF-8 text")),
            Err(_) if reader.exceeded => Err(format!(
                "{what}: the answer is longer than {limit} bytes, which no strategy name is"
            )),
            Err(_) if reader.timed_out => {
                Err(format!("{what}: {}", self.client.timed_out(&self.url)))
            }
            Err(e) => Err(format!("{what}: {}", self.client.failed(&self.url, &e))),
        }
    }

    /// The reason a broker gave for an error status, from its `{"reason": …}` body.
    pub fn refused(self, what: &str) -> String {
        let status = self.status;
        let reason = self.reason();
        let hint = match status {
            401 => " (give a token with --auth-token, --auth-token-file or PULSAR_AUTH_TOKEN)",
            403 => " (the token's role may not read this topic's schemas)",
            _ => "",
        };
        format!("{what}: HTTP {status}: {reason}{hint}")
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

/// `token:T` and `file:///path`, as in pulsar-admin's auth params, or the token itself.
fn token_value(given: &str) -> Result<String, String> {
    if let Some(token) = given.strip_prefix("token:") {
        return Ok(token.trim().to_owned());
    }
    if let Some(path) = given.strip_prefix("file://") {
        return read_token(&PathBuf::from(path));
    }
    Ok(given.trim().to_owned())
}

fn read_token(file: &PathBuf) -> Result<String, String> {
    let token = std::fs::read_to_string(file)
        .map_err(|e| format!("the token file {}: {e}", file.display()))?;
    Ok(token.trim().to_owned())
}

/// Every stored version of `--topic` and the strategy the broker applies to it.
pub fn fetch(args: &BrokerArgs) -> Result<(String, History), String> {
    let (Some(url), Some(topic)) = (&args.admin_url, &args.topic) else {
        unreachable!("clap requires both")
    };
    let client = Client::connect(&args.access, url, CHECK_TIMEOUT)?;
    history(&client, topic)
}

/// A `GET …/schemas` answer: each version as the broker keeps it. Other fields are skipped as
/// they stream past.
#[derive(Deserialize)]
struct SchemasAnswer {
    #[serde(rename = "getSchemaResponses")]
    responses: Option<Vec<StoredSchema>>,
}

#[derive(Deserialize)]
struct StoredSchema {
    version: Option<i64>,
    #[serde(rename = "type")]
    kind: Option<String>,
    /// The schema data: for PROTOBUF_NATIVE, JSON text, taken byte for byte.
    data: Option<String>,
}

/// Every stored version of `topic` (as the user named it) and its strategy; the topic's full
/// name first.
pub fn history(client: &Client, topic: &str) -> Result<(String, History), String> {
    let topic = Topic::parse(topic)?;
    let label = topic.full();
    let what = format!("the schemas of {label} at {}", client.base);
    let answer = client.get(&format!("/admin/v2/schemas/{}/schemas", topic.path()))?;
    let schemas = match answer.status() {
        200 => {
            versions(answer.json(&what, "not JSON")?, &label).map_err(|e| format!("{what}: {e}"))?
        }
        // No schema yet, in brokers that answer so rather than with an empty list.
        404 => Vec::new(),
        _ => return Err(answer.refused(&what)),
    };
    let strategy = strategy(client, &topic);
    Ok((label, History { schemas, strategy }))
}

/// A JSON list of names from the admin API (`GET /admin/v2/tenants`, a tenant's namespaces, a
/// namespace's topics).
pub fn names(client: &Client, path: &str, what: &str) -> Result<Vec<String>, String> {
    let answer = client.get(path)?;
    if answer.status() != 200 {
        return Err(answer.refused(what));
    }
    answer.json(what, "not a JSON list of names")
}

/// The name under which a topic's schema is stored: partitions, and the persistent and
/// non-persistent topics of one name, share one.
pub fn schema_name(topic: &str) -> Result<String, String> {
    Topic::parse(topic).map(|t| format!("{}/{}/{}", t.tenant, t.namespace, t.local))
}

/// The versions in a `GET …/schemas` answer, oldest first.
fn versions(answer: SchemasAnswer, topic: &str) -> Result<Vec<Loaded>, String> {
    let Some(items) = answer.responses else {
        return Err("no `getSchemaResponses` list in the answer".to_owned());
    };
    let mut schemas = Vec::new();
    for item in items {
        let kind = item.kind.as_deref().unwrap_or("");
        if kind != "PROTOBUF_NATIVE" {
            return Err(format!(
                "version {} is a schema of type {}; protocompat checks PROTOBUF_NATIVE schemas only (the broker refuses a change of type)",
                item.version.unwrap_or(-1),
                bound(kind, 100)
            ));
        }
        schemas.push(Loaded {
            data: item.data.unwrap_or_default().into_bytes(),
            label: topic.to_owned(),
            version: item.version,
            sources: None,
        });
    }
    schemas.sort_by_key(|s| s.version);
    Ok(schemas)
}

/// The strategy the broker resolves for the topic (topic policy, namespace policy, broker
/// default), asked with `applied=true`; without topic policies, the namespace's.
fn strategy(client: &Client, topic: &Topic) -> Result<Strategy, String> {
    let applied = format!(
        "/admin/v2/{}/{}/schemaCompatibilityStrategy?applied=true",
        topic.domain,
        topic.path()
    );
    if let Ok(answer) = client.get(&applied) {
        if answer.status() == 200 {
            if let Some(strategy) = answer.text("").ok().as_deref().and_then(strategy_named) {
                return Ok(strategy);
            }
        }
    }
    let namespace = format!(
        "/admin/v2/namespaces/{}/{}/schemaCompatibilityStrategy",
        encode(&topic.tenant),
        encode(&topic.namespace)
    );
    let what = format!(
        "the schema compatibility strategy of {}/{}",
        topic.tenant, topic.namespace
    );
    let answer = client.get(&namespace)?;
    if answer.status() != 200 {
        return Err(answer.refused(&what));
    }
    match strategy_named(&answer.text(&what)?) {
        Some(Strategy::Undefined) | None => Err(format!(
            "{what} is UNDEFINED, so the broker's own schemaCompatibilityStrategy applies, \
             which the admin API shows to superusers only; name it with --strategy"
        )),
        Some(strategy) => Ok(strategy),
    }
}

/// `"FULL"` (a JSON string) or `FULL`.
fn strategy_named(body: &str) -> Option<Strategy> {
    let name = serde_json::from_str::<String>(body).unwrap_or_else(|_| body.trim().to_owned());
    name.parse().ok()
}

/// What the broker compares an upload with, given the versions it holds (oldest first).
pub enum Upload<'a> {
    /// The bytes are stored already: the broker answers with that version and checks nothing.
    Stored(&'a Loaded),
    /// The versions the check compares: the latest only under a non-transitive strategy.
    Compared(&'a [Loaded]),
}

/// The broker's upload path for `new` against `held`: the stored-bytes lookup over every
/// version, then `checkCompatibilityWithLatest` or, for a transitive strategy, `…WithAll`.
pub fn on_upload<'a>(strategy: Strategy, held: &'a [Loaded], new: &[u8]) -> Upload<'a> {
    if let Some(stored) = held.iter().find(|v| v.data == new) {
        return Upload::Stored(stored);
    }
    // A strategy that compares nothing keeps what it was given, as the engine reports it.
    if is_transitive(strategy) || held.is_empty() || strategy.directions().is_empty() {
        Upload::Compared(held)
    } else {
        Upload::Compared(&held[held.len() - 1..])
    }
}

pub fn is_transitive(strategy: Strategy) -> bool {
    matches!(
        strategy,
        Strategy::BackwardTransitive | Strategy::ForwardTransitive | Strategy::FullTransitive
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_are_named_as_the_admin_api_names_them() {
        let t = Topic::parse("persistent://acme/orders/order-events-partition-3").unwrap();
        assert_eq!(
            (t.domain, t.path()),
            ("persistent", "acme/orders/order-events".to_owned())
        );
        let t = Topic::parse("orders").unwrap();
        assert_eq!(t.full(), "persistent://public/default/orders");
        let t = Topic::parse("non-persistent://a/b/c d").unwrap();
        assert_eq!(
            (t.domain, t.path()),
            ("non-persistent", "a/b/c%20d".to_owned())
        );
        assert!(Topic::parse("kafka://a/b/c").is_err());
        assert!(Topic::parse("a/b").is_err());
    }

    #[test]
    fn tokens_are_given_as_pulsar_admin_takes_them() {
        assert_eq!(token_value("token:abc").unwrap(), "abc");
        assert_eq!(token_value(" abc\n").unwrap(), "abc");
    }

    #[test]
    fn a_strategy_is_read_quoted_or_bare() {
        assert_eq!(
            strategy_named("\"BACKWARD_TRANSITIVE\""),
            Some(Strategy::BackwardTransitive)
        );
        assert_eq!(strategy_named("FULL\n"), Some(Strategy::Full));
        assert_eq!(strategy_named(""), None);
    }

    #[test]
    fn origins_are_scheme_host_and_port() {
        let origin = Origin::of("https://Broker-1.example.com/admin").unwrap();
        assert_eq!(
            (origin.scheme.as_str(), origin.host.as_str(), origin.port),
            ("https", "broker-1.example.com", 443)
        );
        assert_eq!(Origin::of("http://[::1]:8080").unwrap().host, "::1");
        assert_eq!(
            Origin::of("http://h:8080").unwrap(),
            Origin::of("HTTP://H:8080/x").unwrap()
        );
        assert_ne!(
            Origin::of("http://h:8080").unwrap(),
            Origin::of("http://h:8081").unwrap()
        );
        assert_ne!(
            Origin::of("http://h").unwrap(),
            Origin::of("https://h:80").unwrap()
        );
        assert!(Origin::of("ftp://h/").is_err());
        assert!(Origin::of("/admin/v2").is_err());
    }

    #[test]
    fn redirect_targets_are_read_against_the_request() {
        let base = "http://a:8080/admin/v2/schemas/t/n/x/schemas";
        assert_eq!(
            resolve(base, "https://b:8443/y").unwrap(),
            "https://b:8443/y"
        );
        assert_eq!(resolve(base, "//b:8081/y").unwrap(), "http://b:8081/y");
        assert_eq!(resolve(base, "/y?z=1").unwrap(), "http://a:8080/y?z=1");
        assert_eq!(
            resolve(base, "other").unwrap(),
            "http://a:8080/admin/v2/schemas/t/n/x/other"
        );
    }

    #[test]
    fn allowed_hosts_match_a_host_a_port_or_subdomains() {
        let origin = |url| Origin::of(url).unwrap();
        let host = AllowedHost::parse("Broker-2.example.com").unwrap();
        assert!(host.allows(&origin("http://broker-2.example.com:8080")));
        assert!(host.allows(&origin("https://broker-2.example.com")));
        assert!(!host.allows(&origin("http://broker-3.example.com:8080")));
        let port = AllowedHost::parse("10.0.0.7:8443").unwrap();
        assert!(port.allows(&origin("https://10.0.0.7:8443")));
        assert!(!port.allows(&origin("https://10.0.0.7:8444")));
        let domain = AllowedHost::parse("*.pulsar.svc").unwrap();
        assert!(domain.allows(&origin("http://broker-0.broker.pulsar.svc:8080")));
        assert!(!domain.allows(&origin("http://pulsar.svc:8080")));
        assert!(!domain.allows(&origin("http://evilpulsar.svc:8080")));
        let v6 = AllowedHost::parse("[::1]:8080").unwrap();
        assert!(v6.allows(&origin("http://[::1]:8080")));
        assert!(AllowedHost::parse("::1")
            .unwrap()
            .allows(&origin("http://[::1]:1")));
        for bad in ["", "h:x", "a/b", "*.", "user@h", "h:99999"] {
            assert!(AllowedHost::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_take_binary_units() {
        assert_eq!(parse_size("256MiB"), Ok(256 << 20));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert!(parse_size("0").is_err());
        assert!(parse_size("10MB").is_err());
        assert!(parse_size("99999999999999GiB").is_err());
    }

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

    #[test]
    fn answers_are_typed_and_data_kept_as_sent() {
        let body = r#"{"getSchemaResponses":[{"version":1,"type":"PROTOBUF_NATIVE","timestamp":5,
            "data":"{\"a\":\"\u00e9\\/\"}","properties":{"k":"v"}},
            {"version":0,"type":"PROTOBUF_NATIVE","data":"x"}],"extra":[1,2,3]}"#;
        let answer: SchemasAnswer = serde_json::from_reader(body.as_bytes()).unwrap();
        let schemas = versions(answer, "t").unwrap();
        assert_eq!(schemas[0].version, Some(0));
        assert_eq!(schemas[1].data, "{\"a\":\"é\\/\"}".as_bytes());
        let avro: SchemasAnswer =
            serde_json::from_str(r#"{"getSchemaResponses":[{"version":0,"type":"AVRO"}]}"#)
                .unwrap();
        assert!(versions(avro, "t").is_err_and(|e| e.contains("type AVRO")));
        let none: SchemasAnswer = serde_json::from_str("{}").unwrap();
        assert!(versions(none, "t").is_err());
    }
}
