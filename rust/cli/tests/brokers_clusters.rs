//! `protocompat brokers --all-clusters` against fake geo-replicated clusters: an admin API
//! listing the clusters and serving each one's entry, each cluster a web service of its own
//! listing its brokers, each broker a test server answering /metrics/.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, OnceLock};

use support::broker_fakes::*;
use support::http::*;
use support::*;

/// What a cluster of [`Replicated`] records in its entry and answers for its brokers.
#[derive(Clone)]
enum Brokers {
    /// Its web service lists these.
    Ids(Vec<String>),
    /// Its web service lists these to a request with the token `s3cret` only, and refuses
    /// one without it (HTTP 401).
    Locked(Vec<String>),
    /// Its web service sends the list to this URL (HTTP 307).
    Redirect(String),
    /// Its web service refuses the list so.
    Status(&'static str, &'static str),
    /// Its entry records no serviceUrl: a cluster made with `--url-secure` and
    /// `--broker-url` only.
    NoServiceUrl,
    /// Its entry cannot be read (HTTP 404), as a cluster deleted since it was listed.
    NoEntry,
}

/// Geo-replicated clusters sharing one configuration store, the first of them --admin-url's.
struct Replicated {
    /// --admin-url: a broker of the first cluster, whose web service it is. It lists every
    /// cluster (after the `global` pseudo-cluster, which has no brokers) and serves each one's
    /// entry, whose serviceUrl is that cluster's web service. Asked for any cluster's brokers,
    /// it answers with its own cluster's, as a Pulsar 5.0.1 broker does.
    admin: Server,
    /// The web service of each other cluster, on a port of its own: a broker of that cluster,
    /// answering with its brokers whichever cluster is asked for.
    web: Vec<(&'static str, Server)>,
}

/// Where a cluster's entry says its web service is.
enum Recorded {
    /// At --admin-url.
    Home,
    At(String),
    NoServiceUrl,
    NoEntry,
}

impl Replicated {
    fn new(clusters: Vec<(&'static str, Brokers)>) -> Replicated {
        let home = clusters[0].0;
        let mut web: Vec<(&'static str, Server)> = Vec::new();
        let mut entries = Vec::new();
        for (name, brokers) in &clusters {
            let recorded = match brokers {
                Brokers::NoServiceUrl => Recorded::NoServiceUrl,
                Brokers::NoEntry => Recorded::NoEntry,
                _ if *name == home => Recorded::Home,
                _ => match web.iter().find(|(known, _)| known == name) {
                    Some((_, server)) => Recorded::At(server.url("http")),
                    None => {
                        let server = web_service(brokers.clone());
                        let url = server.url("http");
                        web.push((name, server));
                        Recorded::At(url)
                    }
                },
            };
            entries.push((*name, recorded));
        }
        let names: Vec<&'static str> = clusters.iter().map(|(name, _)| *name).collect();
        let own = clusters[0].1.clone();
        let admin_url = Arc::new(OnceLock::<String>::new());
        let url = admin_url.clone();
        let admin = Server::http(move |seen, w| {
            if seen.path == "/admin/v2/clusters" {
                let listed = [&["global"][..], &names].concat();
                return answer(w, "200 OK", &serde_json::to_string(&listed).unwrap());
            }
            let Some(asked) = seen.path.strip_prefix("/admin/v2/clusters/") else {
                return list(&own, seen, w);
            };
            let service_url = match entries.iter().find(|(name, _)| *name == asked) {
                Some((_, Recorded::Home)) => url.get().cloned(),
                Some((_, Recorded::At(url))) => Some(url.clone()),
                Some((_, Recorded::NoServiceUrl)) => None,
                Some((_, Recorded::NoEntry)) | None => {
                    let reason = "{\"reason\":\"Cluster does not exist\"}";
                    return answer(w, "404 Not Found", reason);
                }
            };
            answer(w, "200 OK", &entry(service_url.as_deref()))
        });
        admin_url.set(admin.url("http")).unwrap();
        Replicated { admin, web }
    }

    /// The web service of the cluster `name`, not the first.
    fn web(&self, name: &str) -> &Server {
        let found = self.web.iter().find(|(known, _)| *known == name);
        &found
            .unwrap_or_else(|| panic!("no web service of {name}"))
            .1
    }
}

/// A cluster's entry as Pulsar serves it (`pulsar-admin clusters get NAME`), its web service
/// at `service_url`.
fn entry(service_url: Option<&str>) -> String {
    let mut entry = serde_json::json!({
        "serviceUrlTls": "https://127.0.0.1:8443",
        "brokerServiceUrl": "pulsar://127.0.0.1:6650",
        "brokerServiceUrlTls": "pulsar+ssl://127.0.0.1:6651",
        "proxyProtocol": null,
        "brokerClientTlsEnabled": false,
    });
    if let Some(url) = service_url {
        entry["serviceUrl"] = url.into();
    }
    entry.to_string()
}

/// A cluster's web service: its broker list on /admin/v2/brokers/ANY, 404 elsewhere.
fn web_service(brokers: Brokers) -> Server {
    Server::http(move |seen, w| {
        if seen.path.starts_with("/admin/v2/brokers/") {
            list(&brokers, seen, w)
        } else {
            answer(w, "404 Not Found", "{\"reason\":\"Not found\"}")
        }
    })
}

/// A cluster's broker list, whichever cluster is asked for.
fn list(brokers: &Brokers, seen: &Seen, w: &mut dyn Write) -> std::io::Result<()> {
    let ids = |ids: &Vec<String>| serde_json::to_string(ids).unwrap();
    match brokers {
        Brokers::Ids(listed) => answer(w, "200 OK", &ids(listed)),
        Brokers::Locked(listed) if seen.authorization.as_deref() == Some("Bearer s3cret") => {
            answer(w, "200 OK", &ids(listed))
        }
        Brokers::Locked(_) => answer(
            w,
            "401 Unauthorized",
            "{\"reason\":\"Authentication required\"}",
        ),
        Brokers::Redirect(url) => redirect(w, url),
        Brokers::Status(status, reason) => {
            answer(w, status, &format!("{{\"reason\":\"{reason}\"}}"))
        }
        Brokers::NoServiceUrl | Brokers::NoEntry => answer(w, "200 OK", "[]"),
    }
}

fn ids(servers: &[Server]) -> Brokers {
    Brokers::Ids(servers.iter().map(id).collect())
}

/// The paths `server` was asked for, in order.
fn asked(server: &Server) -> Vec<String> {
    server.seen().into_iter().map(|seen| seen.path).collect()
}

/// The body of a plain GET of `url` (http://127.0.0.1:PORT/PATH), as any client gets it.
fn get(url: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut stream = TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split_once("\r\n\r\n").unwrap().1.to_owned()
}

/// The line of `stdout` listing `server`, with the block's header it is under.
fn listed_under(stdout: &str, server: &Server) -> (String, String) {
    let mut header = "";
    for line in stdout.lines() {
        if line.starts_with("cluster ") {
            header = line;
        } else if line.trim_start().starts_with(&id(server)) {
            return (header.to_owned(), line.to_owned());
        }
    }
    panic!("{} not listed: {stdout}", id(server))
}

/// The lines of the block of `cluster`, its header first.
fn block<'a>(stdout: &'a str, cluster: &str) -> Vec<&'a str> {
    let header = format!("cluster {cluster}:");
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with(&header));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no block of {cluster}: {stdout}"));
    [first]
        .into_iter()
        .chain(lines.take_while(|l| l.starts_with("  ")))
        .collect()
}

fn brokers_json(admin: &Server, extra: &[&str]) -> serde_json::Value {
    let out = brokers(admin, &[extra, &["--format", "json"]].concat());
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn every_cluster_on_one_checker_is_the_same() {
    let (a, b) = (plugins(2, "pip246"), plugins(2, "pip246"));
    // A cluster listed twice is asked once, and is no cluster left out.
    let fake = Replicated::new(vec![
        ("cluster-a", ids(&a)),
        ("cluster-b", ids(&b)),
        ("cluster-b", ids(&b)),
    ]);
    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("cluster cluster-a: 2 brokers\n"),
        "{stdout}"
    );
    for (cluster, servers) in [("cluster-a", &a), ("cluster-b", &b)] {
        for server in servers {
            let (header, line) = listed_under(&stdout, server);
            assert_eq!(header, format!("cluster {cluster}: 2 brokers"), "{stdout}");
            assert!(line.ends_with("plugin pip246 0.1.0"), "{stdout}");
        }
    }
    assert!(
        stdout.ends_with(
            "\nSAME: all 4 brokers of 2 clusters run protocompat pip246 0.1.0, native library \
             loaded\n"
        ),
        "{stdout}"
    );
    // Each cluster's entry, then its brokers at the web service the entry records: cluster-a's
    // at --admin-url, cluster-b's at its own. `global` is not asked for.
    assert_eq!(
        asked(&fake.admin),
        [
            "/admin/v2/clusters",
            "/admin/v2/clusters/cluster-a",
            "/admin/v2/brokers/cluster-a",
            "/admin/v2/clusters/cluster-b",
        ]
    );
    assert_eq!(
        asked(fake.web("cluster-b")),
        ["/admin/v2/brokers/cluster-b"]
    );

    // Without the flag, two clusters are one too many, and the message says what to pass.
    let out = brokers(&fake.admin, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("or check them all with --all-clusters"),
        "{}",
        text(&out.stderr)
    );
}

/// A Pulsar 5.0.1 broker asked for another cluster's brokers answers with its own cluster's
/// instead of redirecting: asked so, --admin-url would lay cluster-a's brokers under
/// cluster-b. cluster-b's brokers are asked for at the web service its entry records.
#[test]
fn a_broker_answering_for_another_cluster_with_its_own_brokers_is_not_believed() {
    let a = plugins(2, "pip246");
    let b = [broker(with_plugin("conservative", "0.1.0", 1))];
    let fake = Replicated::new(vec![("cluster-a", ids(&a)), ("cluster-b", ids(&b))]);
    // The fake answers as Pulsar 5.0.1 does: cluster-a's brokers, for cluster-b.
    let own: Vec<String> = a.iter().map(id).collect();
    let wrong = get(&format!(
        "{}/admin/v2/brokers/cluster-b",
        fake.admin.url("http")
    ));
    assert_eq!(wrong, serde_json::to_string(&own).unwrap());
    let before = fake.admin.seen().len();

    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert_eq!(
        block(&stdout, "cluster-b"),
        [
            "cluster cluster-b: 1 broker".to_owned(),
            format!("  {}  plugin conservative 0.1.0", id(&b[0])),
        ],
        "{stdout}"
    );
    for server in &a {
        assert_eq!(
            listed_under(&stdout, server).0,
            "cluster cluster-a: 2 brokers"
        );
    }
    assert!(
        stdout.ends_with(&format!(
            "\nDIFFER: 1 of 3 brokers do not run protocompat pip246 0.1.0 (what most brokers \
             run): cluster-b {} (plugin conservative 0.1.0)\n",
            id(&b[0])
        )),
        "{stdout}"
    );
    let asked_admin: Vec<String> = asked(&fake.admin).split_off(before);
    assert!(
        !asked_admin.contains(&"/admin/v2/brokers/cluster-b".to_owned()),
        "cluster-b's brokers asked of --admin-url: {asked_admin:?}"
    );
    assert_eq!(
        asked(fake.web("cluster-b")),
        ["/admin/v2/brokers/cluster-b"]
    );

    // The JSON report says the same.
    let report = brokers_json(&fake.admin, &["--all-clusters"]);
    let of_b: Vec<&str> = report["brokers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["cluster"] == "cluster-b")
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert_eq!(of_b, [id(&b[0])]);
}

/// The entry is where a cluster's web service is known from: one that records none, or cannot
/// be read, leaves that cluster's brokers unknown, said in its block, and the verdict DIFFER.
#[test]
fn a_cluster_whose_entry_records_no_service_url_differs_with_the_reason() {
    let a = plugins(2, "pip246");
    let fake = Replicated::new(vec![
        ("cluster-a", ids(&a)),
        ("cluster-b", Brokers::NoServiceUrl),
        ("cluster-c", Brokers::NoEntry),
    ]);
    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert_eq!(
        block(&stdout, "cluster-b"),
        [
            "cluster cluster-b: brokers not known",
            "  the entry of cluster cluster-b: it records no serviceUrl, the web service its \
             brokers are asked at (pulsar-admin clusters update cluster-b --url …)",
        ],
        "{stdout}"
    );
    assert_eq!(
        block(&stdout, "cluster-c"),
        [
            "cluster cluster-c: brokers not known",
            "  the entry of cluster cluster-c: HTTP 404: Cluster does not exist",
        ],
        "{stdout}"
    );
    assert!(
        stdout.ends_with(
            "\nDIFFER: the 2 brokers asked run protocompat pip246 0.1.0, native library \
             loaded; the brokers of 2 of 3 clusters are not known: cluster-b (broker list not \
             read), cluster-c (broker list not read)\n"
        ),
        "{stdout}"
    );
    // Not asked of --admin-url instead, which would answer with cluster-a's.
    assert_eq!(
        asked(&fake.admin),
        [
            "/admin/v2/clusters",
            "/admin/v2/clusters/cluster-a",
            "/admin/v2/brokers/cluster-a",
            "/admin/v2/clusters/cluster-b",
            "/admin/v2/clusters/cluster-c",
        ]
    );

    let report = brokers_json(&fake.admin, &["--all-clusters"]);
    assert_eq!(report["consistent"], false);
    assert!(
        report["clusters"][1]["error"]
            .as_str()
            .unwrap()
            .contains("it records no serviceUrl"),
        "{report}"
    );
}

/// The token goes to --admin-url's origin: cluster-a's web service, there, has it; cluster-b's,
/// on another port, only when --allow-redirect-host allows it, and otherwise is asked without
/// it.
#[test]
fn the_token_goes_to_a_clusters_web_service_only_where_allowed() {
    let (a, b) = (plugins(1, "pip246"), plugins(1, "pip246"));
    let fake = Replicated::new(vec![("cluster-a", ids(&a)), ("cluster-b", ids(&b))]);
    let web_b = fake.web("cluster-b");
    let bearer = Some("Bearer s3cret");

    let out = brokers(&fake.admin, &["--all-clusters", "--auth-token", "s3cret"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let admin = fake.admin.seen();
    assert!(
        admin.len() == 4 && admin.iter().all(|s| s.authorization.as_deref() == bearer),
        "{admin:?}"
    );
    let seen = web_b.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].authorization, None, "the token reached cluster-b");

    let allow = format!("127.0.0.1:{}", web_b.port);
    let args = [
        "--all-clusters",
        "--auth-token",
        "s3cret",
        "--allow-redirect-host",
        &allow,
    ];
    let out = brokers(&fake.admin, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let seen = web_b.seen();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[1].authorization.as_deref(), bearer);

    // A web service that asks for the token, which did not go there: cluster-b's brokers are
    // not known until it may.
    let locked = Replicated::new(vec![
        ("cluster-a", ids(&a)),
        ("cluster-b", Brokers::Locked(vec![id(&b[0])])),
    ]);
    let web_b = locked.web("cluster-b");
    let out = brokers(&locked.admin, &["--all-clusters", "--auth-token", "s3cret"]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let said = block(&stdout, "cluster-b");
    assert!(
        said.len() == 2
            && said[1]
                .starts_with("  the brokers of cluster cluster-b: HTTP 401 at http://127.0.0.1:")
            && said[1].contains("where the token was not sent")
            && said[1].contains("--allow-redirect-host"),
        "{stdout}"
    );
    assert_eq!(web_b.seen()[0].authorization, None);
    let allow = format!("127.0.0.1:{}", web_b.port);
    let args = [
        "--all-clusters",
        "--auth-token",
        "s3cret",
        "--allow-redirect-host",
        &allow,
    ];
    let out = brokers(&locked.admin, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn a_broker_of_another_cluster_on_another_profile_differs() {
    let a = plugins(2, "pip246");
    let b = [
        broker(with_plugin("pip246", "0.1.0", 1)),
        broker(with_plugin("conservative", "0.1.0", 1)),
    ];
    let fake = Replicated::new(vec![("cluster-a", ids(&a)), ("cluster-b", ids(&b))]);
    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let (header, line) = listed_under(&stdout, &b[1]);
    assert_eq!(header, "cluster cluster-b: 2 brokers", "{stdout}");
    assert!(line.ends_with("plugin conservative 0.1.0"), "{stdout}");
    assert_eq!(
        stdout.lines().last().unwrap(),
        format!(
            "DIFFER: 1 of 4 brokers do not run protocompat pip246 0.1.0 (what most brokers \
             run): cluster-b {} (plugin conservative 0.1.0)",
            id(&b[1])
        ),
        "{stdout}"
    );

    // --profile decides, whichever cluster the majority is in.
    let out = brokers(
        &fake.admin,
        &["--all-clusters", "--profile", "conservative"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let verdict = stdout.lines().last().unwrap();
    assert!(verdict.starts_with("DIFFER: 3 of 4 brokers"), "{stdout}");
    assert!(
        verdict.contains(&format!("cluster-a {}", id(&a[0]))),
        "{stdout}"
    );
}

/// A cluster's web service may send the request for its brokers on (HTTP 307), to a broker of
/// that cluster: followed, by the token only where it may go.
#[test]
fn a_redirect_from_a_clusters_web_service_is_followed_where_allowed() {
    let (a, b) = (plugins(1, "pip246"), plugins(1, "pip246"));
    let b_list = serde_json::to_string(&[id(&b[0])]).unwrap();
    let b_broker = Server::http(move |seen, w| match seen.path.as_str() {
        "/admin/v2/brokers/cluster-b" => answer(w, "200 OK", &b_list),
        _ => answer(w, "404 Not Found", "{\"reason\":\"Not found\"}"),
    });
    let b_url = format!("{}/admin/v2/brokers/cluster-b", b_broker.url("http"));
    let fake = Replicated::new(vec![
        ("cluster-a", ids(&a)),
        ("cluster-b", Brokers::Redirect(b_url)),
    ]);
    let web_b = fake.web("cluster-b");
    let token = ["--auth-token", "s3cret"];
    let allowed = [
        &token[..],
        &["--all-clusters", "--allow-redirect-host", "127.0.0.1"],
    ]
    .concat();
    let out = brokers(&fake.admin, &allowed);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert_eq!(
        listed_under(&stdout, &b[0]).0,
        "cluster cluster-b: 1 broker"
    );
    assert!(stdout.ends_with("SAME: both brokers of 2 clusters run protocompat pip246 0.1.0, native library loaded\n"), "{stdout}");
    let seen = b_broker.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].authorization.as_deref(), Some("Bearer s3cret"));

    // With no token to keep, the redirect is followed wherever it goes.
    let out = brokers(&fake.admin, &["--all-clusters"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(b_broker.seen()[1].authorization, None);

    // The token allowed to cluster-b's web service but not where it redirects: it stays there,
    // and cluster-b's block says what to pass.
    let web_only = format!("127.0.0.1:{}", web_b.port);
    let refused = [
        &token[..],
        &["--all-clusters", "--allow-redirect-host", &web_only],
    ]
    .concat();
    let out = brokers(&fake.admin, &refused);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert_eq!(
        web_b.seen().last().unwrap().authorization.as_deref(),
        Some("Bearer s3cret")
    );
    assert_eq!(
        b_broker.seen().len(),
        2,
        "the token went to cluster-b's broker unasked"
    );
    let said = block(&stdout, "cluster-b");
    assert!(
        said.len() == 2
            && said[0] == "cluster cluster-b: brokers not known"
            && said[1].starts_with(&format!(
                "  the brokers of cluster cluster-b: GET {}/admin/v2/brokers/cluster-b: the answer redirects",
                web_b.url("http")
            ))
            && said[1].contains(&format!("--allow-redirect-host 127.0.0.1:{}", b_broker.port))
            // The request went to cluster-b's own web service: not a broker of another
            // cluster sending it there, as a redirect from --admin-url is.
            && !said[1].contains("another cluster's brokers"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("DIFFER: the 1 broker asked runs protocompat")
            && stdout.ends_with(
                "the brokers of 1 of 2 clusters are not known: cluster-b (broker list not read)\n"
            ),
        "{stdout}"
    );
}

/// A cluster that names no broker, or whose list cannot be read, is checked by brokers nobody
/// asked: never SAME, and not fatal for the others.
#[test]
fn a_cluster_without_known_brokers_differs_with_the_reason() {
    let a = plugins(2, "pip246");
    let fake = Replicated::new(vec![
        ("cluster-a", ids(&a)),
        ("cluster-b", Brokers::Ids(Vec::new())),
        (
            "cluster-c",
            Brokers::Status("500 Internal Server Error", "metadata store down"),
        ),
    ]);
    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    println!("{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(
            "\ncluster cluster-b: brokers not known\n  the admin API lists no active broker\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "\ncluster cluster-c: brokers not known\n  the brokers of cluster cluster-c: HTTP \
             500: metadata store down\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(
            "\nDIFFER: the 2 brokers asked run protocompat pip246 0.1.0, native library \
             loaded; the brokers of 2 of 3 clusters are not known: cluster-b (no active broker \
             listed), cluster-c (broker list not read)\n"
        ),
        "{stdout}"
    );
}

/// A name longer than any cluster's is kept cut, so that cluster's brokers cannot be asked
/// for: said, never guessed with the cut name.
#[test]
fn a_cluster_named_longer_than_any_is_not_asked_for() {
    let a = plugins(1, "pip246");
    let long: &'static str = "d".repeat(400).leak();
    let fake = Replicated::new(vec![("cluster-a", ids(&a)), (long, ids(&a))]);
    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let shown = format!("{}…", "d".repeat(297));
    assert!(
        stdout.contains(&format!(
            "\ncluster {shown}: brokers not known\n  the admin API names this cluster with \
             more than 300 bytes"
        )),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!("not known: {shown} (name too long)\n")),
        "{stdout}"
    );
    assert_eq!(
        asked(&fake.admin),
        [
            "/admin/v2/clusters",
            "/admin/v2/clusters/cluster-a",
            "/admin/v2/brokers/cluster-a"
        ]
    );
    assert!(fake.web(long).seen().is_empty());
}

#[test]
fn all_clusters_and_one_cluster_are_not_both_asked() {
    let fake = Replicated::new(vec![("cluster-a", Brokers::Ids(Vec::new()))]);
    let out = brokers(&fake.admin, &["--all-clusters", "--cluster", "cluster-a"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--all-clusters") && stderr.contains("cannot be used with"),
        "{stderr}"
    );
    assert!(fake.admin.seen().is_empty(), "{:?}", fake.admin.seen());
}

#[test]
fn the_json_report_names_each_cluster_and_each_brokers_cluster() {
    let (a, b) = (plugins(1, "pip246"), plugins(2, "pip246"));
    let fake = Replicated::new(vec![
        ("cluster-a", ids(&a)),
        ("cluster-b", ids(&b)),
        ("cluster-c", Brokers::Ids(Vec::new())),
    ]);
    let out = brokers(&fake.admin, &["--all-clusters", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["reportVersion"], 1);
    assert_eq!(report["cluster"], serde_json::Value::Null);
    assert_eq!(report["consistent"], false);
    assert_eq!(
        (
            &report["listed"],
            &report["truncated"],
            &report["clustersListed"]
        ),
        (&3.into(), &false.into(), &3.into())
    );
    assert_eq!(
        report["clusters"],
        serde_json::json!([
            {"cluster": "cluster-a", "listed": 1, "truncated": false, "error": null},
            {"cluster": "cluster-b", "listed": 2, "truncated": false, "error": null},
            {"cluster": "cluster-c", "listed": 0, "truncated": false,
             "error": "the admin API lists no active broker"},
        ])
    );
    let brokers: Vec<(&str, &str)> = report["brokers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["cluster"].as_str().unwrap(), b["id"].as_str().unwrap()))
        .collect();
    let mut expected: Vec<(&str, String)> = vec![("cluster-a", id(&a[0]))];
    expected.extend(b.iter().map(|s| ("cluster-b", id(s))));
    expected.sort();
    let expected: Vec<(&str, &str)> = expected.iter().map(|(c, i)| (*c, i.as_str())).collect();
    assert_eq!(brokers, expected);

    // One cluster's report keeps its form: no `clusters`, no broker's `cluster`. (Asked of
    // --admin-url, the cluster it is a broker of.)
    let one = brokers_json(&fake.admin, &["--cluster", "cluster-a"]);
    assert_eq!(one["cluster"], "cluster-a");
    assert!(one.get("clusters").is_none() && one.get("clustersListed").is_none());
    assert_eq!(one["brokers"][0]["id"], id(&a[0]));
    assert!(one["brokers"][0].get("cluster").is_none(), "{one}");
}

/// More clusters than are asked: the first 64 in sorted order are, the rest said, never SAME.
/// Each lists one broker, the same for all.
#[test]
fn the_clusters_asked_are_bounded() {
    let plugin = plugins(1, "pip246");
    let names: Vec<&'static str> = (0..100).map(|i| &*format!("c{i:03}").leak()).collect();
    let fake = Replicated::new(names.iter().map(|n| (*n, ids(&plugin))).collect());
    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let headers: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("cluster "))
        .collect();
    assert_eq!(headers.len(), 64, "{stdout}");
    assert_eq!(
        (headers[0], headers[63]),
        ("cluster c000: 1 broker", "cluster c063: 1 broker")
    );
    assert!(
        stdout.ends_with(
            "\nthe admin API lists 100 clusters; the first 64 of them in sorted order are \
             asked, the rest are not\nDIFFER: the 64 brokers asked run protocompat pip246 \
             0.1.0, native library loaded; clusters listed past the first 64 were not asked\n"
        ),
        "{stdout}"
    );
    assert_eq!(
        fake.admin.seen().len(),
        66,
        "the cluster list, 64 entries and c000's brokers"
    );
    for name in &names[1..] {
        let expected = usize::from(*name < "c064");
        assert_eq!(fake.web(name).seen().len(), expected, "{name}");
    }

    let report = brokers_json(&fake.admin, &["--all-clusters"]);
    assert_eq!(report["clusters"].as_array().unwrap().len(), 64);
    assert_eq!(
        (&report["clustersListed"], &report["truncated"]),
        (&100.into(), &true.into())
    );
}

/// At most 4096 brokers in all: the clusters in sorted order take their share until none is
/// left. The ids are not HOST:PORT, so none is asked over the network.
#[test]
fn the_brokers_asked_are_bounded_across_clusters() {
    let names = |prefix: &str| (0..3000).map(|i| format!("{prefix}{i:04}")).collect();
    let fake = Replicated::new(vec![
        ("cluster-a", Brokers::Ids(names("a"))),
        ("cluster-b", Brokers::Ids(names("b"))),
        ("cluster-c", Brokers::Ids(names("c"))),
    ]);
    let out = brokers(&fake.admin, &["--all-clusters"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = |line: &str| {
        assert!(
            stdout.contains(line),
            "{line}: {}",
            &stdout[stdout.len() - 3000..]
        )
    };
    assert!(stdout.starts_with("cluster cluster-a: 3000 brokers\n"));
    said("\ncluster cluster-b: 1096 brokers\n");
    said(
        "\nthe admin API lists 3000 broker ids; the first 1096 of them in sorted order are \
         asked, the rest are not (4096 brokers are asked at most, of all clusters together)\n",
    );
    said("\ncluster cluster-c: 0 brokers\n");
    said("\nthe admin API lists 3000 broker ids; the first 0 of them in sorted order are asked");
    let shown = stdout.lines().filter(|l| l.starts_with("  ")).count();
    assert_eq!(shown, 4096, "brokers shown");
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .ends_with("; brokers listed past the first 4096 were not asked"),
        "{}",
        stdout.lines().last().unwrap()
    );
}
