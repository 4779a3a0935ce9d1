//! `protocompat brokers` against a fake cluster: an admin API listing brokers, each broker a
//! test server answering /metrics/ as a broker with the plugin, without it, or refusing.
//! `--all-clusters` has its own file, brokers_clusters.rs.

mod support;

use std::net::TcpListener;
use std::process::Command;
use std::sync::{Arc, Mutex};

use support::broker_fakes::*;
use support::http::*;
use support::*;

/// An admin API listing one cluster, `standalone`, of the brokers in `ids`; itself a broker
/// serving `own` on /metrics/ when given (its id added to the list when it is).
fn admin(ids: Vec<String>, own: Option<String>) -> Server {
    let listed = Arc::new(Mutex::new(ids));
    let list = listed.clone();
    let own_metrics = own.clone();
    let server = Server::http(move |seen, w| match seen.path.as_str() {
        "/admin/v2/clusters" => answer(w, "200 OK", "[\"standalone\"]"),
        "/admin/v2/brokers/standalone" => {
            let ids = serde_json::to_string(&*list.lock().unwrap()).unwrap();
            answer(w, "200 OK", &ids)
        }
        _ => match &own_metrics {
            Some(metrics) => metrics_answer(seen, w, metrics),
            None => answer(w, "404 Not Found", "{\"reason\":\"Not found\"}"),
        },
    });
    if own.is_some() {
        listed.lock().unwrap().push(id(&server));
    }
    server
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn brokers_on_different_checkers_are_each_named() {
    let (a, b, c) = (
        broker(with_plugin("pip246", "0.1.0", 1)),
        broker(with_plugin("conservative", "0.1.0", 1)),
        broker(BUILT_IN.to_owned()),
    );
    let admin = admin(vec![id(&a), id(&b), id(&c)], None);
    let out = brokers(&admin, &[]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let line = |server: &Server| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&id(server)))
            .unwrap_or_else(|| panic!("{} not listed: {stdout}", id(server)))
            .to_owned()
    };
    assert!(line(&a).ends_with("plugin pip246 0.1.0"), "{stdout}");
    assert!(line(&b).ends_with("plugin conservative 0.1.0"), "{stdout}");
    assert!(
        line(&c).ends_with("built-in checker (no protocompat_ metrics)"),
        "{stdout}"
    );
    let verdict = stdout.lines().last().unwrap();
    assert!(verdict.starts_with("DIFFER: "), "{stdout}");
    for server in [&a, &b, &c] {
        assert!(verdict.contains(&id(server)), "{stdout}");
    }

    let json = brokers(&admin, &["--format", "json"]);
    assert_eq!(json.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(report["reportVersion"], 1);
    assert_eq!(report["cluster"], "standalone");
    assert_eq!(report["consistent"], false);
    let states: Vec<_> = report["brokers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["id"].as_str().unwrap(), b["state"].as_str().unwrap()))
        .collect();
    for (server, state) in [(&a, "plugin"), (&b, "plugin"), (&c, "built_in")] {
        assert!(states.contains(&(id(server).as_str(), state)), "{states:?}");
    }
}

#[test]
fn brokers_on_one_profile_and_version_agree() {
    let (a, b) = (
        broker(with_plugin("pip246", "0.1.0", 1)),
        broker(with_plugin("pip246", "0.1.0", 1)),
    );
    let admin = admin(
        vec![id(&a), id(&b)],
        Some(with_plugin("pip246", "0.1.0", 1)),
    );
    let out = brokers(&admin, &[]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout
            .ends_with("SAME: all 3 brokers run protocompat pip246 0.1.0, native library loaded\n"),
        "{stdout}"
    );
    assert!(
        stdout.starts_with("cluster standalone: 3 brokers\n"),
        "{stdout}"
    );

    let same = brokers(&admin, &["--profile", "pip246", "--format", "json"]);
    assert_eq!(same.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&same.stdout).expect("JSON");
    assert_eq!(report["consistent"], true);
    assert_eq!(
        report["expected"],
        serde_json::json!({"profile": "pip246", "version": "0.1.0"})
    );
    let urls: Vec<&str> = report["brokers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["url"].as_str().unwrap())
        .collect();
    assert!(
        urls.contains(&format!("http://{}/metrics/", id(&a)).as_str()),
        "{urls:?}"
    );

    // Every broker agrees, but not on the profile asked for.
    let other = brokers(&admin, &["--profile", "conservative"]);
    let stdout = text(&other.stdout);
    assert_eq!(other.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("DIFFER: no broker runs protocompat conservative"),
        "{stdout}"
    );
}

#[test]
fn a_different_version_or_a_missing_library_is_a_difference() {
    let (a, b, c) = (
        broker(with_plugin("pip246", "0.1.0", 1)),
        broker(with_plugin("pip246", "0.1.0", 1)),
        broker(with_plugin("pip246", "0.2.0", 1)),
    );
    let out = brokers(&admin(vec![id(&a), id(&b), id(&c)], None), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "DIFFER: 1 of 3 do not run protocompat pip246 0.1.0 (what most brokers run): {} (plugin pip246 0.2.0)",
            id(&c)
        )),
        "{stdout}"
    );

    let (a, b) = (
        broker(with_plugin("pip246", "0.1.0", 1)),
        broker(with_plugin("pip246", "0.1.0", 0)),
    );
    let out = brokers(&admin(vec![id(&a), id(&b)], None), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("plugin pip246 0.1.0, NATIVE LIBRARY NOT LOADED (every PROTOBUF_NATIVE schema is rejected)"),
        "{stdout}"
    );
}

/// The token goes to --admin-url's origin and to the brokers allowed, never to the others,
/// whose /metrics/ are asked without it.
#[test]
fn the_token_goes_only_where_it_may() {
    let (allowed, other) = (
        broker(with_plugin("pip246", "0.1.0", 1)),
        broker(with_plugin("pip246", "0.1.0", 1)),
    );
    let admin = admin(
        vec![id(&allowed), id(&other)],
        Some(with_plugin("pip246", "0.1.0", 1)),
    );
    let out = brokers(
        &admin,
        &[
            "--auth-token",
            "s3cret",
            "--allow-redirect-host",
            &id(&allowed),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let bearer = Some("Bearer s3cret");
    assert!(admin.seen().len() >= 3, "{:?}", admin.seen());
    assert!(
        admin
            .seen()
            .iter()
            .all(|s| s.authorization.as_deref() == bearer),
        "{:?}",
        admin.seen()
    );
    assert_eq!(allowed.seen().len(), 1);
    assert_eq!(allowed.seen()[0].authorization.as_deref(), bearer);
    assert_eq!(other.seen().len(), 1);
    assert_eq!(
        other.seen()[0].authorization,
        None,
        "the token reached {}",
        id(&other)
    );
}

/// A broker whose /metrics/ asks for the token that did not go there: said for that broker,
/// with the option that lets it go.
#[test]
fn a_broker_refusing_the_scrape_is_reported_with_the_way_to_allow_it() {
    let ok = broker(with_plugin("pip246", "0.1.0", 1));
    let locked = Server::http(|seen, w| match seen.authorization.as_deref() {
        Some("Bearer s3cret") => metrics_answer(seen, w, &with_plugin("pip246", "0.1.0", 1)),
        _ => answer(
            w,
            "401 Unauthorized",
            "{\"reason\":\"Authentication required\"}",
        ),
    });
    let admin = admin(vec![id(&ok), id(&locked)], None);
    let out = brokers(&admin, &["--auth-token", "s3cret"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let hint = format!(
        "allow this broker with --allow-redirect-host {}",
        id(&locked)
    );
    assert!(
        stdout.contains("unreachable: GET http://")
            && stdout.contains("HTTP 401: Authentication required"),
        "{stdout}"
    );
    assert!(stdout.contains(&hint), "{stdout}");

    let allowed = brokers(
        &admin,
        &[
            "--auth-token",
            "s3cret",
            "--allow-redirect-host",
            &id(&locked),
        ],
    );
    assert_eq!(allowed.status.code(), Some(0), "{}", text(&allowed.stdout));
}

#[test]
fn an_unreachable_broker_is_a_finding() {
    let ok = broker(with_plugin("pip246", "0.1.0", 1));
    let gone = format!("127.0.0.1:{}", closed_port());
    let out = brokers(&admin(vec![id(&ok), gone.clone()], None), &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = stdout.lines().find(|l| l.contains(&gone)).unwrap();
    assert!(line.contains("unreachable: GET http://"), "{stdout}");
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .contains(&format!("{gone} (unreachable)")),
        "{stdout}"
    );
}

#[test]
fn a_list_that_cannot_be_read_is_bad_usage() {
    let down = || {
        Server::http(|_, w| {
            answer(
                w,
                "500 Internal Server Error",
                "{\"reason\":\"metadata store down\"}",
            )
        })
    };
    let failing = down();
    for format in ["text", "json"] {
        let out = brokers(&failing, &["--format", format]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
        assert!(
            text(&out.stderr).contains("the clusters: HTTP 500: metadata store down"),
            "{}",
            text(&out.stderr)
        );
        if format == "json" {
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
            assert!(report["error"]["message"].is_string());
        }
    }
    // The brokers of a cluster named on the command line: the cluster list is not asked.
    let failing = down();
    let out = brokers(&failing, &["--cluster", "west"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the brokers of cluster west: HTTP 500"),
        "{}",
        text(&out.stderr)
    );
    let asked: Vec<String> = failing.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(asked, ["/admin/v2/brokers/west"]);

    let two = Server::http(|seen, w| match seen.path.as_str() {
        "/admin/v2/clusters" => answer(w, "200 OK", "[\"east\",\"west\"]"),
        _ => answer(w, "200 OK", "[]"),
    });
    let out = brokers(&two, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("lists 2 clusters (east, west); name the one to check with --cluster"),
        "{}",
        text(&out.stderr)
    );
    let out = brokers(&two, &["--cluster", "east"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("lists no active broker"),
        "{}",
        text(&out.stderr)
    );

    // An answer that is not the JSON asked for is named as such, not as a failed connection.
    let garbled = Server::http(|_, w| answer(w, "200 OK", "{\"clusters\": [\"east\""));
    let out = brokers(&garbled, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the clusters: not a JSON list of names: invalid type: map"),
        "{}",
        text(&out.stderr)
    );
}

/// A cluster named with --cluster is asked of --admin-url, whose broker (Pulsar 4) sends a
/// request for another cluster's brokers to that cluster's web service: followed by the token
/// only where allowed, and the message says why a broker redirected there.
#[test]
fn another_cluster_named_is_asked_where_its_broker_redirects() {
    let west = broker(with_plugin("pip246", "0.1.0", 1));
    let list = serde_json::to_string(&[id(&west)]).unwrap();
    let west_web = Server::http(move |seen, w| match seen.path.as_str() {
        "/admin/v2/brokers/west" => answer(w, "200 OK", &list),
        _ => answer(w, "404 Not Found", "{\"reason\":\"Not found\"}"),
    });
    let to = format!("{}/admin/v2/brokers/west", west_web.url("http"));
    let east = Server::http(move |seen, w| match seen.path.as_str() {
        "/admin/v2/brokers/west" => redirect(w, &to),
        _ => answer(w, "404 Not Found", "{\"reason\":\"Not found\"}"),
    });
    let west_host = format!("127.0.0.1:{}", west_web.port);
    let token = ["--cluster", "west", "--auth-token", "s3cret"];
    let out = brokers(&east, &token);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("--allow-redirect-host {west_host}"))
            && stderr.contains(
                "A broker answers for its own cluster only, and sends a request for another \
                 cluster's brokers to that cluster's web service"
            ),
        "{stderr}"
    );
    assert!(west_web.seen().is_empty(), "{:?}", west_web.seen());

    let allowed = [&token[..], &["--allow-redirect-host", &west_host]].concat();
    let out = brokers(&east, &allowed);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        west_web.seen()[0].authorization.as_deref(),
        Some("Bearer s3cret")
    );
}

/// What a hostile broker puts in its labels, and a hostile admin API in a broker id, reaches
/// the output printable and cut.
#[test]
fn hostile_metrics_stay_inert_and_short() {
    // Long, yet within a line's bound: its value is cut, not its line dropped.
    let long = "v".repeat(1000);
    let hostile = broker(format!(
        "protocompat_info{{profile=\"\u{1b}]0;owned\u{7}\",version=\"{long}\"}} 1\n\
         protocompat_native_library_loaded 1\n"
    ));
    let admin = admin(
        vec![id(&hostile), "evil.example/\u{1b}[2J:80".to_owned()],
        None,
    );
    for format in ["text", "json"] {
        let out = brokers(&admin, &["--format", format]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert!(!stdout.contains(['\u{1b}', '\u{7}']), "{stdout:?}");
        assert!(!stdout.contains(&"v".repeat(100)), "{stdout}");
        if format == "text" {
            assert!(
                stdout.contains("plugin \\u{1b}]0;owned\\u{7} vvv"),
                "{stdout}"
            );
            assert!(stdout.contains("which is not HOST:PORT"), "{stdout}");
        }
    }
}

/// A broker's metrics as a large chunked answer, ours at the end: read as it streams, within
/// --max-response-bytes, which a smaller bound refuses for that broker only.
#[test]
fn large_metrics_are_streamed_within_the_bound() {
    let large = Server::http(|seen, w| {
        if seen.path != "/metrics/" {
            return answer(w, "404 Not Found", "{}");
        }
        let block = "pulsar_storage_size{cluster=\"standalone\",topic=\"persistent://t/n/x\"} 0\n"
            .repeat(16 << 10);
        let ours = with_plugin("pip246", "0.1.0", 1);
        let blocks = std::iter::repeat_n(block.as_bytes(), 16);
        chunked(w, "text/plain", blocks.chain([ours.as_bytes()]))
    });
    let small = broker(with_plugin("pip246", "0.1.0", 1));
    let admin = admin(vec![id(&large), id(&small)], None);
    let out = brokers(&admin, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );

    let bounded = brokers(&admin, &["--max-response-bytes", "1MiB"]);
    let stdout = text(&bounded.stdout);
    assert_eq!(bounded.status.code(), Some(1), "{stdout}");
    let line = stdout.lines().find(|l| l.contains(&id(&large))).unwrap();
    assert!(
        line.contains("unreachable: the metrics of broker")
            && line.contains("larger than --max-response-bytes (1048576 bytes)"),
        "{stdout}"
    );
    let line = stdout.lines().find(|l| l.contains(&id(&small))).unwrap();
    assert!(line.ends_with("plugin pip246 0.1.0"), "{stdout}");
}

/// What `brokers` may hold beyond its answers: the program, its threads, TLS's roots (20 MiB
/// measured with a list of two ids, before its memory was kept in small pages).
const BASE_KIB: u64 = 32 << 10;

/// A cluster whose admin API lists one broker with the plugin among 5 MB of ids that are not
/// brokers, one of them 100,000 escape characters: read as it streams, in memory bounded by
/// --max-response-bytes, whatever the list holds, in either format. Until the list was read so,
/// these 5.5 MB of ids took 715 MiB in text and 1410 MiB in JSON.
#[test]
fn a_huge_broker_list_is_read_in_bounded_memory() {
    const MAX_RESPONSE_KIB: u64 = 8 << 10;
    const NOT_BROKERS: usize = 500_000;
    let plugin = broker(with_plugin("pip246", "0.1.0", 1));
    let mut ids: Vec<String> = (0..NOT_BROKERS).map(|i| format!("x{i}")).collect();
    ids.push(format!("y{}", "\u{1b}".repeat(100_000)));
    ids.push(id(&plugin));
    let listed = ids.len();
    let admin = admin(ids, None);
    for format in ["text", "json"] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_protocompat"));
        command
            .args([
                "brokers",
                "--admin-url",
                &admin.url("http"),
                "--timeout",
                "300",
            ])
            .args(["--max-response-bytes", &format!("{MAX_RESPONSE_KIB}KiB")])
            .args(["--format", format])
            .env_remove("PULSAR_AUTH_TOKEN");
        let (out, peak_kib) = output_and_peak_kib(command);
        let stdout = text(&out.stdout);
        println!(
            "brokers --format {format}, a list of {listed} ids: peak RSS {} MiB, {} bytes printed",
            peak_kib >> 10,
            out.stdout.len()
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert!(
            !stdout.contains('\u{1b}'),
            "an escape character printed raw"
        );
        if format == "text" {
            let line = stdout.lines().find(|l| l.contains(&id(&plugin))).unwrap();
            assert!(line.ends_with("plugin pip246 0.1.0"), "{line}");
            let shown = stdout.lines().filter(|l| l.starts_with("  ")).count();
            assert_eq!(shown, 4096, "brokers shown");
            assert!(
                stdout.contains(&format!(
                    "the admin API lists {listed} broker ids; the first 4096 of them in sorted \
                     order are asked, the rest are not"
                )),
                "{}",
                &stdout[stdout.len().saturating_sub(2000)..]
            );
            // Each line cut: the verdict names a few brokers, not every one.
            let longest = stdout.lines().map(str::len).max().unwrap();
            assert!(longest < 2000, "a line of {longest} bytes");
        } else {
            let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
            assert_eq!(report["consistent"], false);
            assert_eq!(report["listed"], listed);
            let brokers = report["brokers"].as_array().unwrap();
            assert_eq!(brokers.len(), 4096);
            assert_eq!(brokers[0]["id"], id(&plugin));
            assert_eq!(brokers[0]["state"], "plugin");
        }
        assert!(
            peak_kib < BASE_KIB + 4 * MAX_RESPONSE_KIB,
            "peak RSS {peak_kib} KiB, above {BASE_KIB} KiB and 4 times --max-response-bytes"
        );
    }
}
