//! The CLI against a hostile admin endpoint and hostile schema files: the token goes to the
//! origin the user named only, one deadline bounds a command, an answer is read within a
//! bound, and no text from an input or a server reaches a terminal or a CI runner raw.
//!
//! Each server is a thread on 127.0.0.1 speaking just enough HTTP/1.1 (support/http.rs), over
//! TLS with a CA made here where https is the point.

mod support;

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use support::http::*;
use support::*;

/// How long a run may take before the test calls it a hang: far above what each needs.
const HANG: Duration = Duration::from_secs(120);

/// A `GET …/schemas` answer holding shop v1 as version 0.
fn history() -> String {
    serde_json::json!({"getSchemaResponses": [{
        "version": 0,
        "type": "PROTOBUF_NATIVE",
        "timestamp": 1700000000000u64,
        "data": shop_data("v1"),
        "properties": {},
    }]})
    .to_string()
}

/// An honest broker holding `history` for every topic, under FULL.
fn broker(history: String) -> impl Fn(&Seen, &mut dyn Write) -> io::Result<()> + Send + Sync {
    move |seen, w| {
        let path = seen.path.as_str();
        if path.starts_with("/admin/v2/schemas/") && path.ends_with("/schemas") {
            answer(w, "200 OK", &history)
        } else if path.contains("/schemaCompatibilityStrategy") {
            answer(w, "200 OK", "\"FULL\"")
        } else {
            answer(w, "404 Not Found", "{\"reason\":\"Not found\"}")
        }
    }
}

/// `check` of shop `new` against the topic's history at `url`.
fn check_topic(url: &str, new: &str, extra: &[&str]) -> Vec<String> {
    let dir = format!("examples/shop/{new}");
    let mut args: Vec<String> = [
        "check",
        "--root",
        "shop.Order",
        "-I",
        &dir,
        "--admin-url",
        url,
        "--topic",
        "persistent://public/default/orders",
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(format!("{dir}/order.proto"));
    args
}

/// What a run printed and how it ended.
struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
    /// The highest resident set size seen (VmHWM), in KiB, where /proc shows it.
    peak_kib: Option<u64>,
}

/// Runs the command from the repository's root, without a token from the environment, and
/// fails the test if it is still running after `hang`.
fn run(args: &[String], hang: Duration) -> Run {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(args)
        .current_dir(repo())
        .env_remove("PULSAR_AUTH_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("protocompat runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak_kib = None;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if let Some(kib) = high_water_mark(&status_file) {
            peak_kib = Some(kib.max(peak_kib.unwrap_or(0)));
        }
        if start.elapsed() > hang {
            let _ = child.kill();
            let _ = child.wait();
            panic!("protocompat {} still ran after {hang:?}", args.join(" "));
        }
        thread::sleep(Duration::from_millis(20));
    };
    Run {
        status: status.code(),
        stdout: text(&stdout.join().unwrap()),
        stderr: text(&stderr.join().unwrap()),
        took: start.elapsed(),
        peak_kib,
    }
}

fn high_water_mark(status: &Path) -> Option<u64> {
    let status = std::fs::read_to_string(status).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// A broker behind a front that redirects every request to it, on another port (another
/// origin): the token is not sent there unless the user allows that host, and without a token
/// the redirect is followed as before.
#[test]
fn a_token_does_not_follow_a_redirect_to_another_origin() {
    let owner = Server::http(broker(history()));
    let target = owner.url("http");
    let front = Server::http(move |seen, w| redirect(w, &format!("{target}{}", seen.path)));
    let url = front.url("http");

    let refused = run(&check_topic(&url, "v2", &["--auth-token", "s3cret"]), HANG);
    assert!(
        owner.seen().iter().all(|s| s.authorization.is_none()),
        "the token reached the other origin: {:?}",
        owner.seen()
    );
    assert!(owner.seen().is_empty(), "{:?}", owner.seen());
    assert_eq!(refused.status, Some(2), "{}", refused.stderr);
    let allow = format!("--allow-redirect-host 127.0.0.1:{}", owner.port);
    assert!(
        refused.stderr.contains(&allow) && refused.stderr.contains("token"),
        "{}",
        refused.stderr
    );
    assert!(front
        .seen()
        .iter()
        .all(|s| s.authorization.as_deref() == Some("Bearer s3cret")));

    // Without a token there is nothing to leak: the redirect is followed.
    let open = run(&check_topic(&url, "v2", &[]), HANG);
    assert_eq!(open.status, Some(0), "{}{}", open.stdout, open.stderr);
    assert!(!owner.seen().is_empty());
    assert!(owner.seen().iter().all(|s| s.authorization.is_none()));

    // A host the user allows gets the token, as a broker owning the topic needs it.
    let allowed = run(
        &check_topic(
            &url,
            "v2",
            &[
                "--auth-token",
                "s3cret",
                "--allow-redirect-host",
                &format!("127.0.0.1:{}", owner.port),
            ],
        ),
        HANG,
    );
    assert_eq!(
        allowed.status,
        Some(0),
        "{}{}",
        allowed.stdout,
        allowed.stderr
    );
    assert!(owner
        .seen()
        .iter()
        .any(|s| s.authorization.as_deref() == Some("Bearer s3cret")));
}

/// A CA and a server certificate for 127.0.0.1 signed by it: the server's TLS config, and the
/// CA written as PEM under `dir` for --tls-ca-file.
fn tls(dir: &Path) -> (Arc<rustls::ServerConfig>, PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "protocompat test CA");
    let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    let ca_file = dir.join("ca.pem");
    std::fs::write(&ca_file, ca.pem()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![cert.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .unwrap();
    (Arc::new(config), ca_file)
}

/// An https endpoint that redirects to plain http: never followed, with a token or without,
/// and nothing reaches the http server.
#[test]
fn https_to_http_is_never_followed() {
    let dir = tempdir("https-to-http");
    let (config, ca_file) = tls(&dir);
    let ca = path(&ca_file);

    // The TLS setup works: an honest https broker is read.
    let honest = Server::https(&config, broker(history()));
    let ok = run(
        &check_topic(
            &honest.url("https"),
            "v2",
            &["--tls-ca-file", ca, "--auth-token", "s3cret"],
        ),
        HANG,
    );
    assert_eq!(ok.status, Some(0), "{}{}", ok.stdout, ok.stderr);

    let plain = Server::http(broker(history()));
    let target = plain.url("http");
    let front = Server::https(&config, move |seen, w| {
        redirect(w, &format!("{target}{}", seen.path))
    });
    for token in [&["--auth-token", "s3cret"][..], &[]] {
        let mut extra = vec!["--tls-ca-file", ca];
        extra.extend(token);
        let refused = run(&check_topic(&front.url("https"), "v2", &extra), HANG);
        assert!(plain.seen().is_empty(), "{:?}", plain.seen());
        assert_eq!(refused.status, Some(2), "{}", refused.stderr);
        assert!(
            refused.stderr.contains("from https to plain http"),
            "{}",
            refused.stderr
        );
    }
    assert!(!front.seen().is_empty());
}

/// A server that sends its answer a byte a second is cut at the command's one deadline.
#[test]
fn a_dripping_server_is_cut_at_the_deadline() {
    let drip = Server::http(|_, w| {
        w.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 600\r\n\r\n",
        )?;
        for _ in 0..600 {
            w.write_all(b" ")?;
            w.flush()?;
            thread::sleep(Duration::from_secs(1));
        }
        Ok(())
    });
    let out = run(
        &check_topic(&drip.url("http"), "v2", &["--timeout", "2"]),
        Duration::from_secs(30),
    );
    println!("cut after {:?}", out.took);
    assert_eq!(out.status, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("no complete answer within --timeout 2"),
        "{}",
        out.stderr
    );
}

/// The deadline is the command's, not each request's: redirect hops that each take well
/// under it still end at it, rather than at the limit of redirects.
#[test]
fn redirect_hops_share_one_deadline() {
    let hops = Server::http(|seen, w| {
        let next = seen.path.len();
        let head = format!(
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: /hop/{next}\r\nContent-Length: 0\r\n\
             Connection: close\r\n\r\n"
        );
        // About two seconds a hop.
        for byte in head.bytes() {
            w.write_all(&[byte])?;
            w.flush()?;
            thread::sleep(Duration::from_millis(2000 / head.len() as u64));
        }
        Ok(())
    });
    let out = run(
        &check_topic(&hops.url("http"), "v2", &["--timeout", "3"]),
        Duration::from_secs(60),
    );
    println!("cut after {:?}, {} requests", out.took, hops.seen().len());
    assert_eq!(out.status, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("no complete answer within --timeout 3"),
        "{}",
        out.stderr
    );
    assert!(hops.seen().len() < 6, "{:?}", hops.seen());
}

/// A 1 GB answer, made as it is sent: refused at --max-response-bytes (its default), read as
/// it streams, never held whole.
#[test]
fn a_huge_answer_is_refused_at_the_bound() {
    let huge = Server::http(|seen, w| {
        if !seen.path.ends_with("/schemas") {
            return answer(w, "200 OK", "\"FULL\"");
        }
        let block = vec![b'A'; 1 << 20];
        let head: &[u8] =
            br#"{"getSchemaResponses":[{"version":0,"type":"PROTOBUF_NATIVE","data":""#;
        let blocks = std::iter::repeat_n(block.as_slice(), 1000);
        chunked(
            w,
            "application/json",
            [head].into_iter().chain(blocks).chain([&br#""}]}"#[..]]),
        )
    });
    let out = run(
        &check_topic(&huge.url("http"), "v2", &["--timeout", "600"]),
        Duration::from_secs(600),
    );
    println!(
        "refused after {:?}; peak RSS {} MiB",
        out.took,
        out.peak_kib
            .map_or("unknown".to_owned(), |k| (k / 1024).to_string())
    );
    assert_eq!(out.status, Some(2), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("larger than --max-response-bytes (268435456 bytes)"),
        "{}",
        out.stderr
    );
}

/// A file name with a newline and a workflow command after it, an escape sequence and a C1
/// control: a proto tree whose root imports it, where a field changes number.
fn hostile_tree(name: &str) -> (PathBuf, Vec<String>) {
    let dir = tempdir(name);
    let hostile = "x\u{1b}]0;owned\u{7}\u{85}\n::error file=README.md,line=1::pwned.proto";
    let escaped = "x\\x1b]0;owned\\x07\\302\\205\\n::error file=README.md,line=1::pwned.proto";
    let money = |number: u32| {
        format!(
            "syntax = \"proto3\";\npackage shop;\nmessage Money {{\n  int64 units = 1;\n  \
             string currency = {number};\n}}\n"
        )
    };
    let order = |import: &str| {
        format!(
            "syntax = \"proto3\";\npackage shop;\nimport \"{import}\";\nmessage Order {{\n  \
             int64 id = 1;\n  Money total = 2;\n}}\n"
        )
    };
    std::fs::create_dir_all(dir.join("old")).unwrap();
    std::fs::create_dir_all(dir.join("new")).unwrap();
    std::fs::write(dir.join("old/money.proto"), money(2)).unwrap();
    std::fs::write(dir.join("old/order.proto"), order("money.proto")).unwrap();
    std::fs::write(dir.join("new").join(hostile), money(3)).unwrap();
    std::fs::write(dir.join("new/order.proto"), order(escaped)).unwrap();
    let (old, new, root) = (
        dir.join("old"),
        dir.join("new"),
        dir.join("new/order.proto"),
    );
    let args = [
        "check",
        "--root",
        "shop.Order",
        "--against",
        path(&old),
        "-I",
        path(&new),
        path(&root),
    ];
    (dir.clone(), strings(&args))
}

/// The workflow commands GitHub's runner would act on in `output`: lines (split at CR or LF)
/// starting with `::` or `##[`, outside a `::stop-commands::TOKEN` … `::TOKEN::` pause.
fn workflow_commands(output: &str) -> Vec<String> {
    let mut paused: Option<String> = None;
    let mut commands = Vec::new();
    for line in output.split(['\n', '\r']).map(str::trim) {
        if let Some(token) = &paused {
            if line == format!("::{token}::") {
                paused = None;
            }
            continue;
        }
        if let Some(token) = line.strip_prefix("::stop-commands::") {
            paused = Some(token.to_owned());
        }
        if line.starts_with("::") || line.starts_with("##[") {
            commands.push(line.to_owned());
        }
    }
    commands
}

/// Text from a hostile file name reaches no runner, terminal or parser raw: GitHub reads our
/// annotations only, and no format carries an ESC or C1 byte; JUnit still parses.
#[test]
fn hostile_file_names_stay_inert_in_every_format() {
    let (_, args) = hostile_tree("hostile-names");
    let with = |format: &str| {
        let mut all = args.clone();
        all.extend(strings(&["--format", format]));
        run(&all, HANG)
    };

    let github = with("github");
    assert_eq!(github.status, Some(1), "{}{}", github.stdout, github.stderr);
    let commands = workflow_commands(&github.stdout);
    assert!(!commands.is_empty(), "{}", github.stdout);
    for command in &commands {
        let (name, properties) = command[2..]
            .split_once("::")
            .map(|(head, _)| head.split_once(' ').unwrap_or((head, "")))
            .unwrap_or_default();
        assert!(
            matches!(name, "error" | "warning" | "stop-commands"),
            "a command of the input's: {command}\n{}",
            github.stdout
        );
        assert!(
            !properties.split(',').any(|p| p == "file=README.md"),
            "an annotation the input wrote: {command}\n{}",
            github.stdout
        );
    }

    for out in [&github, &with("text"), &with("json"), &with("junit")] {
        for (stream, name) in [(&out.stdout, "stdout"), (&out.stderr, "stderr")] {
            assert!(
                !stream.contains(['\u{1b}', '\u{7}', '\u{85}']),
                "a control character on {name}: {stream:?}"
            );
        }
    }
    let text = with("text");
    assert!(
        !text.stdout.lines().any(|l| l.starts_with("::error")),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("x\\u{1b}]0;owned\\u{7}\\u{85}\\n::error"),
        "{}",
        text.stdout
    );

    let junit = with("junit");
    let doc = roxmltree::Document::parse(&junit.stdout).expect("well-formed XML");
    assert!(doc.descendants().any(|n| n.has_tag_name("failure")));
    let json = with("json");
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    // JSON keeps the input's own text, escaped as JSON.
    let file = report["failures"][0]["location"]["file"].as_str().unwrap();
    assert!(
        file.contains("\u{1b}]0;owned\u{7}\u{85}\n::error"),
        "{file:?}"
    );
}

/// What a hostile broker puts in names and reasons: a window title, a cleared screen, a fake
/// verdict, a C1 CSI, and a workflow command on a line of its own.
const HOSTILE: &str = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}[Hall topics ok\u{9b}31m\n::error file=README.md,line=1::pwned";

fn has_control(text: &str) -> bool {
    text.contains(['\u{1b}', '\u{7}', '\u{9b}'])
}

/// A broker listing topics with escape sequences in their names, and refusing one list with
/// such a reason.
fn hostile_broker() -> impl Fn(&Seen, &mut dyn Write) -> io::Result<()> + Send + Sync {
    let history = history();
    let topics = serde_json::json!([
        "persistent://t/ns/\u{1b}]0;owned\u{7}",
        format!("persistent://t/ns/{HOSTILE}"),
    ])
    .to_string();
    let refusal = serde_json::json!({ "reason": HOSTILE }).to_string();
    move |seen, w| match seen.path.as_str() {
        "/admin/v2/tenants" => answer(w, "200 OK", "[\"t\"]"),
        "/admin/v2/namespaces/t" => answer(w, "200 OK", "[\"t/ns\"]"),
        "/admin/v2/persistent/t/ns" => answer(w, "200 OK", &topics),
        "/admin/v2/non-persistent/t/ns" => answer(w, "500 Internal Server Error", &refusal),
        path if path.starts_with("/admin/v2/schemas/") => answer(w, "200 OK", &history),
        path if path.contains("/schemaCompatibilityStrategy") => answer(w, "200 OK", "\"FULL\""),
        _ => answer(w, "404 Not Found", &refusal),
    }
}

/// `audit` prints topic names and reasons from the broker: made printable, in text and JSON,
/// on stdout and stderr.
#[test]
fn audit_prints_no_escape_sequence_from_the_broker() {
    let broker = Server::http(hostile_broker());
    let url = broker.url("http");
    for format in ["text", "json"] {
        let out = run(
            &strings(&["audit", "--admin-url", &url, "--format", format]),
            HANG,
        );
        assert_eq!(out.status, Some(0), "{}{}", out.stdout, out.stderr);
        assert!(!has_control(&out.stdout), "{:?}", out.stdout);
        assert!(!has_control(&out.stderr), "{:?}", out.stderr);
        assert!(workflow_commands(&out.stdout).is_empty(), "{}", out.stdout);
        if format == "text" {
            // Both topics and the refused list are there, inert.
            assert!(out
                .stdout
                .contains("ok        persistent://t/ns/\\u{1b}]0;owned\\u{7}"));
            assert!(out.stdout.contains(
                "skipped   the non-persistent topics of t/ns: HTTP 500: \\u{1b}]0;owned"
            ));
            assert_eq!(out.stdout.lines().count(), 4, "{}", out.stdout);
        } else {
            let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
            assert_eq!(report["topics"].as_array().unwrap().len(), 2);
        }
    }

    // A refusal that stops the audit: said on stderr (and in JSON), inert.
    let refusing = Server::http(|_, w| {
        let refusal = serde_json::json!({ "reason": HOSTILE }).to_string();
        answer(w, "403 Forbidden", &refusal)
    });
    for format in ["text", "json"] {
        let out = run(
            &strings(&[
                "audit",
                "--admin-url",
                &refusing.url("http"),
                "--format",
                format,
            ]),
            HANG,
        );
        assert_eq!(out.status, Some(2), "{}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("HTTP 403: \\u{1b}]0;owned"),
            "{}",
            out.stderr
        );
        for stream in [&out.stdout, &out.stderr] {
            assert!(!has_control(stream), "{stream:?}");
            assert!(workflow_commands(stream).is_empty(), "{stream}");
        }
    }
}

/// `check --admin-url` refused with a hostile reason, in every format: no control character
/// on either stream, and GitHub reads our one annotation only, on stdout and on stderr.
#[test]
fn check_prints_no_escape_sequence_from_a_refusal() {
    let refusing = Server::http(|_, w| {
        let refusal = serde_json::json!({ "reason": HOSTILE }).to_string();
        answer(w, "403 Forbidden", &refusal)
    });
    for format in ["text", "json", "github", "junit"] {
        let out = run(
            &check_topic(&refusing.url("http"), "v2", &["--format", format]),
            HANG,
        );
        assert_eq!(out.status, Some(2), "{}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("HTTP 403: \\u{1b}]0;owned"),
            "{}",
            out.stderr
        );
        for stream in [&out.stdout, &out.stderr] {
            assert!(!has_control(stream), "{stream:?}");
        }
        assert!(workflow_commands(&out.stderr).is_empty(), "{}", out.stderr);
        let commands = workflow_commands(&out.stdout);
        if format == "github" {
            assert_eq!(commands.len(), 1, "{}", out.stdout);
            assert!(
                commands[0].starts_with("::error file=http%3A//127.0.0.1"),
                "{}",
                out.stdout
            );
        } else {
            assert!(commands.is_empty(), "{}", out.stdout);
        }
    }
}

/// For an honest server nothing changes: the history's schema data is taken byte for byte
/// (JSON escapes such as `\u0022` read as the characters they stand for), as from a saved
/// history.
#[test]
fn an_honest_history_is_read_as_a_saved_one_is() {
    // The data is JSON in a JSON string: its quotes are escaped, here as `\u0022`.
    let saved = history().replace("\\\"", "\\u0022");
    assert!(saved.contains("\\u0022"), "{saved}");
    let dir = tempdir("honest-history");
    let file = dir.join("history.json");
    std::fs::write(&file, &saved).unwrap();
    let honest = Server::http(broker(saved));
    let online = run(
        &check_topic(&honest.url("http"), "v3", &["--format", "json"]),
        HANG,
    );
    let offline = run(
        &strings(&[
            "check",
            "--root",
            "shop.Order",
            "-I",
            "examples/shop/v3",
            "--strategy",
            "FULL",
            "--format",
            "json",
            "--against",
            path(&file),
            "examples/shop/v3/order.proto",
        ]),
        HANG,
    );
    assert_eq!(online.status, Some(1), "{}{}", online.stdout, online.stderr);
    assert_eq!(
        offline.status,
        Some(1),
        "{}{}",
        offline.stdout,
        offline.stderr
    );
    let (online, offline): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&online.stdout).unwrap(),
        serde_json::from_str(&offline.stdout).unwrap(),
    );
    assert_eq!(online["failures"], offline["failures"]);
    assert_eq!(online["warnings"], offline["warnings"]);
    assert_eq!(online["inputs"]["existing"][0]["version"], 0);
}
