//! What the tests of `protocompat brokers` share: fake brokers answering /metrics/, and the
//! command run against a fake admin API.

use std::io::{self, Write};
use std::process::{Command, Output};

use super::http::{answer, Seen, Server};

/// A broker's /metrics/ with the plugin: our series among Pulsar's, Pulsar's labels first.
pub fn with_plugin(profile: &str, version: &str, loaded: u8) -> String {
    format!(
        "# HELP pulsar_topics_count Number of topics\n# TYPE pulsar_topics_count gauge\n\
         pulsar_topics_count{{cluster=\"standalone\"}} 3 1700000000000\n\
         # TYPE protocompat_info gauge\n\
         protocompat_info{{cluster=\"standalone\",profile=\"{profile}\",version=\"{version}\"}} 1.0\n\
         protocompat_native_library_loaded{{cluster=\"standalone\"}} {loaded}\n\
         pulsar_subscriptions_count{{cluster=\"standalone\"}} 0\n"
    )
}

/// A broker's /metrics/ without the plugin.
pub const BUILT_IN: &str = "# TYPE pulsar_topics_count gauge\npulsar_topics_count 3\n";

/// A broker serving `metrics` on /metrics/ (and 404 elsewhere).
pub fn broker(metrics: String) -> Server {
    Server::http(move |seen, w| metrics_answer(seen, w, &metrics))
}

/// `metrics` on /metrics/, 404 elsewhere.
pub fn metrics_answer(seen: &Seen, w: &mut dyn Write, metrics: &str) -> io::Result<()> {
    if seen.path == "/metrics/" {
        write!(
            w,
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{metrics}",
            metrics.len()
        )
    } else {
        answer(w, "404 Not Found", "{\"reason\":\"Not found\"}")
    }
}

/// `n` brokers with the plugin, on `profile` 0.1.0.
pub fn plugins(n: usize, profile: &str) -> Vec<Server> {
    (0..n)
        .map(|_| broker(with_plugin(profile, "0.1.0", 1)))
        .collect()
}

/// A test server's broker id: HOST:PORT of its web service.
pub fn id(server: &Server) -> String {
    format!("127.0.0.1:{}", server.port)
}

/// Runs `brokers` against `admin`, without a token from the environment; a stalled server
/// ends at the command's --timeout.
pub fn brokers(admin: &Server, extra: &[&str]) -> Output {
    let url = admin.url("http");
    Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(["brokers", "--admin-url", &url, "--timeout", "60"])
        .args(extra)
        .env_remove("PULSAR_AUTH_TOKEN")
        .output()
        .expect("protocompat runs")
}
