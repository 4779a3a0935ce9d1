//! Each broker's `/metrics/`, read by a few workers at once, and what it says of the checker.

use std::sync::atomic::{AtomicUsize, Ordering};

use protocompat::text::{bound, cut};

use super::MAX_NAME;
use crate::broker::Client;
use crate::metrics::{self, Checker};

/// Brokers asked at once: one that never answers holds a worker, not the others.
const WORKERS: usize = 8;
/// What a broker's answer may put in a message, of all it sent: why it refused.
const MAX_REASON: usize = 300;
/// Why a broker could not be asked, as kept for each of thousands of brokers.
const MAX_ERROR: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    Plugin,
    LibraryNotLoaded,
    BuiltIn,
    Unreachable,
}

impl State {
    pub(super) fn name(self) -> &'static str {
        match self {
            State::Plugin => "plugin",
            State::LibraryNotLoaded => "library_not_loaded",
            State::BuiltIn => "built_in",
            State::Unreachable => "unreachable",
        }
    }
}

/// One broker as its metrics describe it; every text in it printable and bounded.
#[derive(Debug)]
pub(super) struct Broker {
    pub(super) id: String,
    pub(super) url: String,
    pub(super) state: State,
    pub(super) profile: Option<String>,
    pub(super) version: Option<String>,
    /// What is missing from its metrics, or why it could not be asked.
    pub(super) error: Option<String>,
}

impl Broker {
    /// Runs the plugin as it should, so that its profile and version can be compared.
    pub(super) fn sound(&self) -> Option<(&str, &str)> {
        match (self.state, &self.profile, &self.version, &self.error) {
            (State::Plugin, Some(profile), Some(version), None) => Some((profile, version)),
            _ => None,
        }
    }

    /// The line the text report shows for it.
    pub(super) fn describe(&self) -> String {
        let named = || match (&self.profile, &self.version) {
            // The note says which series is missing.
            (None, None) => String::new(),
            (profile, version) => format!(
                " {} {}",
                profile.as_deref().unwrap_or("(profile not reported)"),
                version.as_deref().unwrap_or("(version not reported)")
            ),
        };
        let note = self
            .error
            .as_ref()
            .map_or(String::new(), |e| format!(" ({e})"));
        match self.state {
            State::Plugin => format!("plugin{}{note}", named()),
            State::LibraryNotLoaded => format!(
                "plugin{}, NATIVE LIBRARY NOT LOADED (every PROTOBUF_NATIVE schema is rejected)",
                named()
            ),
            State::BuiltIn => "built-in checker (no protocompat_ metrics)".to_owned(),
            State::Unreachable => format!(
                "unreachable: {}",
                self.error.as_deref().unwrap_or("no answer")
            ),
        }
    }

    /// The short form the verdict names it with.
    pub(super) fn short(&self) -> String {
        match self.state {
            State::Plugin => match self.sound() {
                Some((profile, version)) => format!("plugin {profile} {version}"),
                None => "plugin, profile or version not known".to_owned(),
            },
            State::LibraryNotLoaded => "native library not loaded".to_owned(),
            State::BuiltIn => "built-in checker".to_owned(),
            State::Unreachable => "unreachable".to_owned(),
        }
    }
}

/// Every broker's metrics, read by a few workers at once, each drawing on the one deadline;
/// in the order of `ids`.
pub(super) fn scrape_all(client: &Client, ids: &[String]) -> Vec<Broker> {
    let next = AtomicUsize::new(0);
    let mut found: Vec<(usize, Broker)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..ids.len().min(WORKERS))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(id) = ids.get(index) else {
                            return done;
                        };
                        done.push((index, scrape(client, id)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a scrape does not panic"))
            .collect()
    });
    found.sort_by_key(|(index, _)| *index);
    found.into_iter().map(|(_, broker)| broker).collect()
}

/// What one broker's `/metrics/` says.
fn scrape(client: &Client, id: &str) -> Broker {
    let mut broker = Broker {
        id: bound(id, MAX_NAME),
        url: String::new(),
        state: State::Unreachable,
        profile: None,
        version: None,
        error: None,
    };
    if !is_host_port(id) {
        broker.error = Some(format!(
            "the admin API names this broker `{}`, which is not HOST:PORT, so its web service is not known",
            broker.id
        ));
        return broker;
    }
    broker.url = format!("{}://{id}/metrics/", client.scheme());
    let what = format!("the metrics of broker {}", broker.id);
    let answer = match client.get_url(&broker.url, "text/plain") {
        Ok(answer) => answer,
        Err(error) => {
            broker.error = Some(cut(error.message(), MAX_ERROR));
            return broker;
        }
    };
    let status = answer.status();
    if status != 200 {
        let token_sent = answer.token_sent();
        let reason = cut(&answer.reason(), MAX_REASON);
        let hint = match status {
            401 | 403 if token_sent => " (the token was sent and refused)".to_owned(),
            401 | 403 if client.has_token() => format!(
                " (its /metrics/ asks for the token, which goes to --admin-url's host and \
                 port only: allow this broker with --allow-redirect-host {id})"
            ),
            401 | 403 => format!(
                " (its /metrics/ asks for a token: give one with --auth-token, \
                 --auth-token-file or PULSAR_AUTH_TOKEN, and allow this broker with \
                 --allow-redirect-host {id})"
            ),
            _ => String::new(),
        };
        broker.error = Some(format!("GET {}: HTTP {status}: {reason}{hint}", broker.url));
        return broker;
    }
    match answer.stream(&what, |body| metrics::scan(body)) {
        Ok(checker) => classify(&mut broker, checker),
        Err(error) => broker.error = Some(cut(error.message(), MAX_ERROR)),
    }
    broker
}

/// A broker id as Pulsar 4 lists them: `host:port` of the web service, `[v6]:port` for IPv6.
/// Anything else would put a path, user or second host in the URL made of it.
fn is_host_port(id: &str) -> bool {
    let Some((host, port)) = id.rsplit_once(':') else {
        return false;
    };
    let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => !v6.is_empty() && v6.chars().all(|c| c.is_ascii_hexdigit() || c == ':'),
        None => {
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        }
    };
    host_ok && port.parse::<u16>().is_ok_and(|p| p > 0)
}

fn classify(broker: &mut Broker, checker: Checker) {
    if !checker.plugin {
        broker.state = State::BuiltIn;
        return;
    }
    if let Some(info) = checker.info {
        (broker.profile, broker.version) = (info.profile, info.version);
    }
    broker.state = if checker.library_loaded == Some(false) {
        State::LibraryNotLoaded
    } else {
        State::Plugin
    };
    let mut missing = Vec::new();
    if broker.profile.is_none() || broker.version.is_none() {
        missing.push("no protocompat_info{profile,version} series: a plugin from before it?");
    }
    if checker.library_loaded.is_none() {
        missing.push("no protocompat_native_library_loaded series");
    }
    if checker.conflicting {
        missing.push("several protocompat_ series that disagree: two plugins in one broker?");
    }
    if !missing.is_empty() {
        broker.error = Some(missing.join("; "));
    }
}

#[cfg(test)]
pub(super) mod fixtures {
    use super::*;

    pub fn plugin(id: &str, profile: &str, version: &str) -> Broker {
        Broker {
            id: id.to_owned(),
            url: format!("http://{id}/metrics/"),
            state: State::Plugin,
            profile: Some(profile.to_owned()),
            version: Some(version.to_owned()),
            error: None,
        }
    }

    pub fn other(id: &str, state: State) -> Broker {
        Broker {
            state,
            profile: None,
            version: None,
            ..plugin(id, "", "")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;

    #[test]
    fn broker_ids_must_be_host_and_port() {
        for good in [
            "127.0.0.1:8080",
            "broker-0.broker.pulsar.svc:8443",
            "[::1]:8080",
        ] {
            assert!(is_host_port(good), "{good}");
        }
        for bad in [
            "h",
            "h:0",
            "h:x",
            ":8080",
            "evil.com/x:80",
            "user@h:80",
            "http://h:80",
            "h:80/metrics?",
            "[]:80",
            "a b:80",
        ] {
            assert!(!is_host_port(bad), "{bad}");
        }
    }

    #[test]
    fn classify_reads_the_states() {
        let mut broker = other("a:1", State::Unreachable);
        classify(&mut broker, Checker::default());
        assert_eq!(broker.state, State::BuiltIn);
        let mut broker = other("a:1", State::Unreachable);
        classify(
            &mut broker,
            Checker {
                plugin: true,
                info: Some(metrics::Info {
                    profile: Some("pip246".to_owned()),
                    version: Some("0.1.0".to_owned()),
                }),
                library_loaded: Some(false),
                conflicting: false,
            },
        );
        assert_eq!(broker.state, State::LibraryNotLoaded);
        assert!(broker.describe().contains("NATIVE LIBRARY NOT LOADED"));
    }
}
