//! Who the admin API is reached as, and where: the token and where it may go, the CA to
//! trust, and the bounds of time and size every request of a command draws on.

use std::path::PathBuf;

use protocompat::text::printable;

use crate::console::Error;
use ureq::http::Uri;

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

/// `1048576`, `512KiB`, `256MiB`, `1GiB`. (clap's value parsers, this and
/// [`AllowedHost::parse`], give clap a `String` to say as its own usage error.)
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

    pub(super) fn allows(&self, origin: &Origin) -> bool {
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
pub(super) struct Origin {
    pub(super) scheme: String,
    pub(super) host: String,
    pub(super) port: u16,
}

impl Origin {
    /// Why `url` is no origin is a reason its caller says in a message of its own.
    pub(super) fn of(url: &str) -> Result<Origin, String> {
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
/// Why it cannot be is a reason its caller says in a message of its own.
pub(super) fn resolve(base: &str, location: &str) -> Result<String, String> {
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

/// `token:T` and `file:///path`, as in pulsar-admin's auth params, or the token itself.
pub(super) fn token_value(given: &str) -> Result<String, Error> {
    if let Some(token) = given.strip_prefix("token:") {
        return Ok(token.trim().to_owned());
    }
    if let Some(path) = given.strip_prefix("file://") {
        return read_token(&PathBuf::from(path));
    }
    Ok(given.trim().to_owned())
}

pub(super) fn read_token(file: &PathBuf) -> Result<String, Error> {
    let token = std::fs::read_to_string(file)
        .map_err(|e| Error::input(format!("the token file {}: {e}", file.display())))?;
    Ok(token.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_given_as_pulsar_admin_takes_them() {
        assert_eq!(token_value("token:abc").unwrap(), "abc");
        assert_eq!(token_value(" abc\n").unwrap(), "abc");
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
}
