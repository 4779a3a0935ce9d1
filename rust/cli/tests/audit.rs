//! `audit --concurrency`: topics audited at once, never more than asked, with the report and
//! the error of a serial audit; and no progress line where stderr is not a terminal, as in
//! every test here, where it is a pipe.

mod support;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use support::http::*;
use support::*;

/// Topics the fake broker lists.
const TOPICS: usize = 24;

/// A `GET …/schemas` answer holding `versions` as versions 0, 1, …
fn history(versions: &[&str]) -> String {
    let responses: Vec<serde_json::Value> = versions
        .iter()
        .enumerate()
        .map(|(index, version)| {
            serde_json::json!({
                "version": index,
                "type": "PROTOBUF_NATIVE",
                "timestamp": 1700000000000u64 + index as u64,
                "data": shop_data(version),
                "properties": {},
            })
        })
        .collect();
    serde_json::json!({ "getSchemaResponses": responses }).to_string()
}

/// How many requests a fake broker is answering at once, and the most it ever was.
#[derive(Default)]
struct InFlight {
    now: AtomicUsize,
    most: AtomicUsize,
}

/// A broker listing `TOPICS` topics in namespace t/ns, each with a history of its own (every
/// third one refused by the profile) under FULL, whose first topics answer slowest, so that
/// topics finish in another order than the list's. With `hold`, the first history request
/// waits (a while at most) for a second request to arrive, so that a concurrent audit is seen to be one.
/// `refuse` names topics whose history request is refused, with the delay before it.
fn broker(
    in_flight: Arc<InFlight>,
    hold: bool,
    refuse: &'static [(usize, u64)],
) -> impl Fn(&Seen, &mut dyn Write) -> io::Result<()> + Send + Sync {
    let clean = history(&["v1", "v2"]);
    let refused = history(&["v1", "v2", "v3"]);
    let topics: Vec<String> = (0..TOPICS)
        .map(|i| format!("persistent://t/ns/topic-{i:02}"))
        .collect();
    let topics = serde_json::to_string(&topics).unwrap();
    let held = AtomicBool::new(!hold);
    move |seen, w| {
        let now = in_flight.now.fetch_add(1, Ordering::SeqCst) + 1;
        in_flight.most.fetch_max(now, Ordering::SeqCst);
        let path = seen.path.as_str();
        // Topics are listed one request after another; their histories are read at once.
        if path.starts_with("/admin/v2/schemas/") && !held.swap(true, Ordering::SeqCst) {
            let start = Instant::now();
            while in_flight.most.load(Ordering::SeqCst) < 2
                && start.elapsed() < Duration::from_secs(10)
            {
                thread::sleep(Duration::from_millis(5));
            }
        }
        let topic = path
            .split("/topic-")
            .nth(1)
            .and_then(|rest| rest.get(..2))
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(index) = topic {
            thread::sleep(Duration::from_millis(
                (TOPICS.saturating_sub(index * 4)) as u64 * 10,
            ));
        }
        let (status, body) = match path {
            "/admin/v2/tenants" => ("200 OK", "[\"t\"]".to_owned()),
            "/admin/v2/namespaces/t" => ("200 OK", "[\"t/ns\"]".to_owned()),
            "/admin/v2/persistent/t/ns" => ("200 OK", topics.clone()),
            "/admin/v2/non-persistent/t/ns" => ("200 OK", "[]".to_owned()),
            path if path.starts_with("/admin/v2/schemas/") => {
                let index = topic.unwrap();
                if let Some((_, delay)) = refuse.iter().find(|(i, _)| *i == index) {
                    thread::sleep(Duration::from_millis(*delay));
                    let reason = format!("{{\"reason\":\"topic {index} is not yours\"}}");
                    ("403 Forbidden", reason)
                } else if index % 3 == 0 {
                    ("200 OK", refused.clone())
                } else {
                    ("200 OK", clean.clone())
                }
            }
            path if path.contains("/schemaCompatibilityStrategy") => {
                ("200 OK", "\"FULL\"".to_owned())
            }
            _ => ("404 Not Found", "{\"reason\":\"Not found\"}".to_owned()),
        };
        // Out of flight before the answer goes: once it has, the client may ask again before
        // this thread runs on.
        in_flight.now.fetch_sub(1, Ordering::SeqCst);
        answer(w, status, &body)
    }
}

/// `audit` of the fake broker with `extra` arguments: exit code, stdout (its admin URL, on a
/// port of its own, written `URL`), stderr, and the most requests the broker answered at once.
fn audit(
    hold: bool,
    refuse: &'static [(usize, u64)],
    extra: &[&str],
) -> (Option<i32>, String, String, usize) {
    let in_flight = Arc::new(InFlight::default());
    let server = Server::http(broker(in_flight.clone(), hold, refuse));
    let url = server.url("http");
    let mut args = vec!["audit", "--admin-url", &url, "--timeout", "120"];
    args.extend(extra);
    let out = protocompat(&args);
    (
        out.status.code(),
        text(&out.stdout).replace(&url, "URL"),
        text(&out.stderr),
        in_flight.most.load(Ordering::SeqCst),
    )
}

#[test]
fn topics_are_audited_at_once_up_to_the_concurrency_with_the_serial_report() {
    for format in ["text", "json"] {
        let (code, serial, serial_err, one) =
            audit(false, &[], &["--concurrency", "1", "--format", format]);
        assert_eq!(one, 1, "--concurrency 1 asks one thing at a time");
        assert_eq!(code, Some(1), "{serial}{serial_err}");
        let (code, concurrent, err, most) =
            audit(true, &[], &["--concurrency", "4", "--format", format]);
        assert_eq!(code, Some(1), "{concurrent}{err}");
        assert!(
            (2..=4).contains(&most),
            "--concurrency 4 had {most} requests in flight"
        );
        assert_eq!(concurrent, serial);
        // Every topic, in the list's order, though the first ones finished last.
        if format == "text" {
            let lines: Vec<&str> = serial
                .lines()
                .filter(|l| l.starts_with("ok ") || l.starts_with("CONFLICTS "))
                .collect();
            assert_eq!(lines.len(), TOPICS, "{serial}");
            for (index, line) in lines.iter().enumerate() {
                assert!(line.contains(&format!("topic-{index:02} ")), "{serial}");
                assert_eq!(line.starts_with("CONFLICTS"), index % 3 == 0, "{serial}");
            }
            assert_eq!(
                serial.lines().last().unwrap(),
                format!(
                    "{TOPICS} topics with PROTOBUF_NATIVE schemas at URL, 8 with a history the \
                     profile pip246 refuses"
                )
            );
        }
        // No progress line into a pipe, and stdout is the report only.
        for stream in [&serial_err, &err] {
            assert!(!stream.contains('\r'), "{stream:?}");
            assert!(!stream.contains("audited"), "{stream:?}");
            assert_eq!(stream, "", "a successful audit says nothing on stderr");
        }
        if format == "json" {
            let report: serde_json::Value = serde_json::from_str(&concurrent).expect("JSON");
            assert_eq!(report["topics"].as_array().unwrap().len(), TOPICS);
        }
    }
}

/// Two topics refused: the concurrent audit hears of the later one first, yet names the
/// earlier one, as the serial audit does.
#[test]
fn a_concurrent_audit_stops_at_the_error_a_serial_one_stops_at() {
    const REFUSED: &[(usize, u64)] = &[(2, 1500), (5, 0)];
    for concurrency in ["1", "4"] {
        let (code, out, err, _) = audit(false, REFUSED, &["--concurrency", concurrency]);
        assert_eq!(code, Some(2), "{out}{err}");
        assert_eq!(out, "");
        assert!(err.contains("HTTP 403: topic 2 is not yours"), "{err}");
        assert!(!err.contains("audited") && !err.contains('\r'), "{err:?}");
    }
}

/// A cluster of `topics` topics in t/ns, each holding `history` under FULL: sent with its
/// length to even topics, in chunks to odd ones, so that a history is found larger than a
/// share before it is read and while it is.
fn large_broker(
    topics: usize,
    history: Arc<String>,
) -> impl Fn(&Seen, &mut dyn Write) -> io::Result<()> + Send + Sync {
    let names: Vec<String> = (0..topics)
        .map(|i| format!("persistent://t/ns/topic-{i:02}"))
        .collect();
    let names = serde_json::to_string(&names).unwrap();
    move |seen, w| match seen.path.as_str() {
        "/admin/v2/tenants" => answer(w, "200 OK", "[\"t\"]"),
        "/admin/v2/namespaces/t" => answer(w, "200 OK", "[\"t/ns\"]"),
        "/admin/v2/persistent/t/ns" => answer(w, "200 OK", &names),
        "/admin/v2/non-persistent/t/ns" => answer(w, "200 OK", "[]"),
        path if path.ends_with("/schemas") => {
            let odd = path
                .split("/topic-")
                .nth(1)
                .and_then(|rest| rest.get(..2))
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| n % 2 == 1);
            if odd {
                chunked(w, "application/json", history.as_bytes().chunks(64 << 10))
            } else {
                answer(w, "200 OK", &history)
            }
        }
        path if path.contains("/schemaCompatibilityStrategy") => answer(w, "200 OK", "\"FULL\""),
        _ => answer(w, "404 Not Found", "{\"reason\":\"Not found\"}"),
    }
}

/// What `audit` may hold beyond its answers: the program, its threads, TLS's roots (17 MiB
/// measured with small histories).
const BASE_KIB: u64 = 32 << 10;

/// Sixteen topics, each with a 4 MiB history (its second version's descriptor set 3 MiB of
/// zeros, which the check reads and refuses), audited 16 at once: the answers held at once stay
/// within a small multiple of --max-response-bytes, not 16 of them. Until they were bounded
/// together, each worker held its own, and 16 such histories took 354 MiB (220 MiB in small
/// pages; 94 MiB with the large ones read on one thread, in huge pages).
#[test]
fn large_histories_at_high_concurrency_are_held_in_bounded_memory() {
    const MAX_RESPONSE_KIB: u64 = 8 << 10;
    const TOPICS: usize = 16;
    let zeros = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        vec![0u8; 3 << 20],
    );
    let data = serde_json::json!({
        "fileDescriptorSet": zeros,
        "rootMessageTypeName": "shop.Order",
        "rootFileDescriptorName": "order.proto",
    })
    .to_string();
    let history = serde_json::json!({"getSchemaResponses": [
        {"version": 0, "type": "PROTOBUF_NATIVE", "data": shop_data("v1")},
        {"version": 1, "type": "PROTOBUF_NATIVE", "data": data},
    ]})
    .to_string();
    let history_bytes = history.len();
    let server = Server::http(large_broker(TOPICS, Arc::new(history)));
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"));
    command
        .args([
            "audit",
            "--admin-url",
            &server.url("http"),
            "--timeout",
            "600",
        ])
        .args(["--max-response-bytes", &format!("{MAX_RESPONSE_KIB}KiB")])
        .args(["--concurrency", &TOPICS.to_string()])
        .env_remove("PULSAR_AUTH_TOKEN");
    let (out, peak_kib) = output_and_peak_kib(command);
    let stdout = text(&out.stdout);
    println!(
        "audit --concurrency {TOPICS}, {TOPICS} histories of {history_bytes} bytes: peak RSS {} MiB",
        peak_kib >> 10
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let refused = stdout
        .lines()
        .filter(|l| l.starts_with("  cannot check version 1: SCHEMA_RECONSTRUCTION_FAILED"))
        .count();
    assert_eq!(refused, TOPICS, "{stdout}");
    // Answers of 1.5 times the bound at once, each taking up to 4 times its size while it is
    // parsed and checked.
    assert!(
        peak_kib < BASE_KIB + 6 * MAX_RESPONSE_KIB,
        "peak RSS {peak_kib} KiB, above {BASE_KIB} KiB and 6 times --max-response-bytes"
    );
}

/// A topic whose schema is of another type is not ours to replay: the audit names it as
/// skipped and goes on to the next topic, rather than stopping as at an unreadable answer.
#[test]
fn a_topic_of_another_schema_type_is_skipped_and_the_audit_goes_on() {
    let clean = history(&["v1", "v2"]);
    let avro = serde_json::json!({"getSchemaResponses": [
        {"version": 0, "type": "AVRO", "data": "{\"type\":\"record\"}"},
    ]})
    .to_string();
    let server = Server::http(
        move |seen: &Seen, w: &mut dyn Write| match seen.path.as_str() {
            "/admin/v2/persistent/t/ns" => answer(
                w,
                "200 OK",
                r#"["persistent://t/ns/avro","persistent://t/ns/orders"]"#,
            ),
            "/admin/v2/non-persistent/t/ns" => answer(w, "200 OK", "[]"),
            "/admin/v2/schemas/t/ns/avro/schemas" => answer(w, "200 OK", &avro),
            "/admin/v2/schemas/t/ns/orders/schemas" => answer(w, "200 OK", &clean),
            path if path.contains("/schemaCompatibilityStrategy") => {
                answer(w, "200 OK", "\"FULL\"")
            }
            _ => answer(w, "404 Not Found", "{\"reason\":\"Not found\"}"),
        },
    );
    let url = server.url("http");
    let out = protocompat(&["audit", "--admin-url", &url, "--namespace", "t/ns"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let skipped: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("skipped"))
        .collect();
    assert_eq!(skipped.len(), 1, "{stdout}");
    assert!(
        skipped[0].contains("t/ns/avro") && skipped[0].contains("type AVRO"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("ok ") && l.contains("orders")),
        "{stdout}"
    );
}
