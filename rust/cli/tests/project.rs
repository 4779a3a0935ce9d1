//! `protocompat check` with no file: every topic of `protocompat.yaml`, on a copy of
//! `examples/service` made a git repository whose branch `main` is the baseline.

mod support;

use std::path::Path;

use support::*;

fn check(dir: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["check"];
    args.extend(extra);
    let out = protocompat_in(dir, &args);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn the_service_checks_clean_against_its_own_main() {
    let dir = service_repo("clean", &[]);
    let (code, stdout, stderr) = check(&dir, &[]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    for topic in [
        "persistent://shop/orders/orders",
        "persistent://shop/fulfilment/shipments",
        "persistent://shop/billing/payments",
    ] {
        assert!(
            stdout.contains(&format!("topic {topic}, against git main\n")),
            "{stdout}"
        );
    }
    assert!(
        stdout.ends_with("protocompat.yaml: 3 topics: 3 compatible\n"),
        "{stdout}"
    );
}

#[test]
fn a_renumbered_field_fails_the_project_and_is_named() {
    let dir = service_repo("v3", &[]);
    std::fs::copy(
        repo().join("examples/shop/v3/order.proto"),
        dir.join("proto/shop/order.proto"),
    )
    .unwrap();
    let (code, stdout, stderr) = check(&dir, &["--no-examples", "--no-fixes"]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    // FULL finds the renumbering in both directions: one change, named once.
    let named = stdout
        .matches("FIELD_NUMBER_CHANGED shop.Order.note")
        .count();
    assert_eq!(named, 1, "{stdout}");
    assert!(
        stdout.contains("proto/shop/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note"),
        "located at the work tree's file: {stdout}"
    );

    // One JSON document, a topic each, the worst status.
    let (code, stdout, _) = check(&dir, &["--format", "json", "--no-examples"]);
    assert_eq!(code, Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["exitStatus"], 1);
    assert_eq!(
        report["topics"][0]["topic"],
        "persistent://shop/orders/orders"
    );
    assert_eq!(report["topics"][0]["status"], "incompatible");
    assert_eq!(report["topics"][0]["report"]["strategy"], "FULL");

    // A flag wins over the file: under ALWAYS_COMPATIBLE nothing fails.
    let (code, stdout, _) = check(&dir, &["--strategy", "ALWAYS_COMPATIBLE"]);
    assert_eq!(code, Some(0), "{stdout}");
}

/// Files at the repository's root, `imports: [.]`: the baseline is the root's tree at `main`,
/// not an empty tree that would make every topic new and let any change through (`subdir=.`,
/// which git's `REV:PATH` takes for the current directory, found no file). The same for a
/// single check with `--against '.git#ref=main,subdir=.'`.
#[test]
fn files_at_the_repository_root_are_compared_with_main() {
    let dir = tempdir("project-root-imports");
    let _ = std::fs::remove_dir_all(&dir);
    write_tree(
        &dir,
        &[
            (
                "protocompat.yaml",
                "version: 1\nbaseline:\n  git: main\nimports: [.]\ntopics:\n  - name: persistent://public/default/orders\n    root: shop.Order\n    file: order.proto\n",
            ),
            (
                "order.proto",
                "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; string note = 2; }\n",
            ),
        ],
    );
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "baseline"]);
    let (code, stdout, stderr) = check(&dir, &["--no-examples"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.ends_with("1 topic: 1 compatible\n"), "{stdout}");
    std::fs::write(
        dir.join("order.proto"),
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; string note = 3; }\n",
    )
    .unwrap();
    let (code, stdout, stderr) = check(&dir, &["--no-examples"]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("FIELD_NUMBER_CHANGED shop.Order.note (field 2 → 3)"),
        "{stdout}"
    );
    let single = protocompat_in(
        &dir,
        &[
            "check",
            "--no-examples",
            "--against",
            ".git#ref=main,subdir=.",
            "order.proto",
        ],
    );
    assert_eq!(single.status.code(), Some(1), "{}", text(&single.stdout));
}

#[test]
fn topics_the_baseline_lacks_are_new_and_pass() {
    let dir = service_repo(
        "new",
        &["proto/shop/shipment.proto", "proto/shop/payment.proto"],
    );
    let (code, stdout, stderr) = check(&dir, &[]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(
        stdout
            .matches("NEW: the baseline lacks this schema")
            .count(),
        2,
        "{stdout}"
    );
    assert!(
        stdout.ends_with("3 topics: 2 new, 1 compatible\n"),
        "{stdout}"
    );
    let (_, stdout, _) = check(&dir, &["--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["topics"][1]["status"], "new");
    assert_eq!(report["topics"][0]["status"], "compatible");
}

/// The single-file check the issue names: a root nowhere on main is new, as the pre-commit
/// hook has it.
#[test]
fn a_root_nowhere_on_main_is_new_for_a_single_check_too() {
    let dir = service_repo("single-new", &["proto/shop/shipment.proto"]);
    let (code, stdout, stderr) = check(
        &dir,
        &[
            "--against",
            ".git#ref=main,subdir=proto",
            "--root",
            "shop.Shipment",
            "-I",
            "proto",
            "proto/shop/shipment.proto",
        ],
    );
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("note: new: no .proto file of"), "{stdout}");
    // A directory without it, likewise.
    std::fs::create_dir_all(dir.join("old")).unwrap();
    let (code, stdout, _) = check(
        &dir,
        &[
            "--against",
            "old",
            "--root",
            "shop.Shipment",
            "-I",
            "proto",
            "proto/shop/shipment.proto",
        ],
    );
    assert_eq!(code, Some(0), "{stdout}");
}

#[test]
fn a_schema_gone_from_the_tree_is_reported_with_what_the_baseline_holds() {
    let dir = service_repo("gone", &[]);
    std::fs::remove_file(dir.join("proto/shop/payment.proto")).unwrap();
    let (code, stdout, stderr) = check(&dir, &[]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("GONE: proto/shop/payment.proto declares `shop.Payment` no more"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the baseline (git main) still holds `shop.Payment`"),
        "{stdout}"
    );
}

#[test]
fn a_missing_ref_says_how_to_fetch_it() {
    let dir = service_repo("no-ref", &[]);
    let yaml = std::fs::read_to_string(dir.join("protocompat.yaml")).unwrap();
    std::fs::write(
        dir.join("protocompat.yaml"),
        yaml.replace("git: main", "git: origin/main"),
    )
    .unwrap();
    let (code, stdout, _) = check(&dir, &[]);
    assert_eq!(code, Some(2), "{stdout}");
    assert!(stdout.contains("`git fetch origin main`"), "{stdout}");
    assert!(stdout.contains("fetch-depth: 0"), "{stdout}");
}

#[test]
fn the_project_file_is_found_from_a_directory_below_it() {
    let dir = service_repo("below", &[]);
    let (code, stdout, stderr) = check(&dir.join("proto/shop"), &[]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "topic persistent://shop/orders/orders, against git main\n\
             shop.Order in ../../proto/shop/order.proto: Compatible under FULL"
        ),
        "{stdout}"
    );
}

/// Each malformed file: exit 2, and the error names the file, the line and the key.
#[test]
fn a_malformed_project_file_is_refused_with_file_line_and_key() {
    let dir = service_repo("malformed", &[]);
    let original = std::fs::read_to_string(dir.join("protocompat.yaml")).unwrap();
    let cases: [(&str, &str, &str); 6] = [
        ("profile: pip246", "profle: pip246", "protocompat.yaml:7:1: profle: unknown key `profle` (did you mean `profile`?)"),
        ("    strategy: FULL\n", "    strategy: [FULL]\n", "protocompat.yaml:13:15: topics[0].strategy: expected a strategy name, found a list"),
        (
            "persistent://shop/billing/payments",
            "persistent://shop/orders/orders",
            "protocompat.yaml:18:5: topics[2].name: topic `persistent://shop/orders/orders` listed twice (first at line 10)",
        ),
        ("file: proto/shop/order.proto", "file: ../service/proto/shop/order.proto", "protocompat.yaml:12:11: topics[0].file: `../service/proto/shop/order.proto` leaves the project's directory"),
        ("file: proto/shop/order.proto", "file: /etc/passwd", "protocompat.yaml:12:11: topics[0].file: `/etc/passwd` is an absolute path"),
        ("imports: [proto]", "imports: [linked]", "protocompat.yaml:8:11: imports[0]: `linked` leaves the project's directory through a symbolic link"),
    ];
    std::os::unix::fs::symlink("/etc", dir.join("linked")).unwrap();
    for (from, to, said) in cases {
        assert!(original.contains(from), "{from}");
        std::fs::write(dir.join("protocompat.yaml"), original.replacen(from, to, 1)).unwrap();
        let (code, stdout, stderr) = check(&dir, &[]);
        assert_eq!(code, Some(2), "{to}: {stdout}{stderr}");
        assert!(stderr.contains(said), "{to}:\n{stderr}");
        let (_, json, _) = check(&dir, &["--format", "json"]);
        let error: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(
            error["error"]["message"].as_str().unwrap().contains(said),
            "{json}"
        );
    }
    // Bounds: a file too large is refused before it is read.
    let huge = format!("{original}#{}\n", "x".repeat(2 << 20));
    std::fs::write(dir.join("protocompat.yaml"), huge).unwrap();
    let (code, _, stderr) = check(&dir, &[]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("over 1024 KiB"), "{stderr}");
}

/// `init` from the tree writes a file `check` takes, and never replaces one without --force.
#[test]
fn init_writes_a_project_file_check_takes() {
    let dir = service_repo("init", &[]);
    let (code, _, stderr) = {
        let out = protocompat_in(&dir, &["init"]);
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    assert_eq!(code, Some(2), "the example's own file is there: {stderr}");
    assert!(stderr.contains("--force replaces it"), "{stderr}");
    let out = protocompat_in(&dir, &["init", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(dir.join("protocompat.yaml")).unwrap();
    assert!(written.contains("root: \"shop.Shipment\""), "{written}");
    let (code, stdout, stderr) = check(&dir, &[]);
    assert_eq!(code, Some(0), "{written}\n{stdout}{stderr}");
    assert!(stdout.contains("3 topics: 3 compatible"), "{stdout}");
}

/// The README's project session, word for word: a copy of `examples/service` made a git
/// repository on `main`, checked clean, then with `examples/shop/v3`'s order.proto in place.
#[test]
fn the_readme_project_session_is_what_a_user_sees() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let start = readme
        .find("$ cp -r examples/service my-service")
        .expect("README's project session");
    let block = &readme[start..start + readme[start..].find("```").unwrap()];
    // The README's commands run from a checkout's root: here, a scratch one with the examples.
    let root = tempdir("readme-session");
    let _ = std::fs::remove_dir_all(&root);
    copy_dir(&repo().join("examples"), &root.join("examples"));
    let bin = Path::new(env!("CARGO_BIN_EXE_protocompat"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cwd = root.clone();
    let mut lines = block.lines().peekable();
    let mut ran = 0;
    while let Some(line) = lines.next() {
        let command = line.strip_prefix("$ ").expect("a command line");
        let mut expected = Vec::new();
        while let Some(next) = lines.next_if(|l| !l.starts_with("$ ")) {
            expected.push(next);
        }
        if let Some(dir) = command.strip_prefix("cd ") {
            cwd = cwd.join(dir);
            continue;
        }
        let out = std::process::Command::new("bash")
            .args(["-c", command])
            .current_dir(&cwd)
            .env("PATH", &path)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@e")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@e")
            .output()
            .unwrap();
        let shown = format!("{}{}", text(&out.stderr), text(&out.stdout));
        assert_eq!(
            shown.trim_end(),
            expected.join("\n").trim_end(),
            "README: $ {command}"
        );
        ran += 1;
    }
    assert!(ran >= 3, "the session lost its commands");
}

/// A file without a baseline is refused once, naming the file once, in text and JSON alike.
#[test]
fn a_project_without_a_baseline_is_refused_naming_the_file_once() {
    let dir = service_repo("no-baseline", &[]);
    let original = std::fs::read_to_string(dir.join("protocompat.yaml")).unwrap();
    let without = original.replacen("baseline:\n  git: main\n", "", 1);
    assert_ne!(without, original);
    std::fs::write(dir.join("protocompat.yaml"), without).unwrap();
    let (code, stdout, stderr) = check(&dir, &[]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert_eq!(
        stderr,
        "protocompat: protocompat.yaml: no baseline for topic persistent://shop/orders/orders \
         (line 8): give `baseline:` in the file (git: main, dir: DIR, history: FILE, admin-url: \
         URL), or --against or --admin-url\n"
    );
    let (_, json, _) = check(&dir, &["--format", "json"]);
    let error: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(error["error"]["file"], "protocompat.yaml");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("no baseline for topic"),
        "{json}"
    );
}

/// `init --admin-url` on a broker whose topic names are hostile: the topic of ours is written
/// with `strategy: broker`, a name that would add a line or a key to the file is skipped or
/// stays one quoted value, and the file written is one `check` reads and runs against the
/// same broker.
#[test]
fn init_from_a_broker_writes_only_what_the_reader_reads_back() {
    use support::http::{answer, Seen, Server};
    let history = |version: &str| {
        serde_json::json!({"getSchemaResponses": [{
            "version": 0, "type": "PROTOBUF_NATIVE", "timestamp": 1700000000000u64,
            "data": shop_data(version), "properties": {},
        }]})
        .to_string()
    };
    let (v1, v2) = (history("v1"), history("v2"));
    let topics = serde_json::json!([
        "persistent://t/ns/orders",
        "persistent://t/ns/x\"\nstrategy: ALWAYS_COMPATIBLE\n#",
        "persistent://t/ns/odd: name # here",
    ])
    .to_string();
    let server = Server::http(move |seen: &Seen, w: &mut dyn std::io::Write| {
        let path = seen.path.as_str();
        match path {
            "/admin/v2/persistent/t/ns" => answer(w, "200 OK", &topics),
            "/admin/v2/non-persistent/t/ns" => answer(w, "200 OK", "[]"),
            p if p.contains("/schemaCompatibilityStrategy") => answer(w, "200 OK", "\"FULL\""),
            p if p.starts_with("/admin/v2/schemas/t/ns/orders/") => answer(w, "200 OK", &v1),
            p if p.starts_with("/admin/v2/schemas/") => answer(w, "200 OK", &v2),
            _ => answer(w, "404 Not Found", "{\"reason\":\"Not found\"}"),
        }
    });
    let url = server.url("http");
    let dir = tempdir("init-broker");
    let _ = std::fs::remove_dir_all(&dir);
    // The broker's schema names its file `order.proto` (compiled with examples/shop/v2 as its
    // import root): the local file of that name is the topic's.
    std::fs::create_dir_all(dir.join("proto")).unwrap();
    std::fs::copy(
        repo().join("examples/shop/v2/order.proto"),
        dir.join("proto/order.proto"),
    )
    .unwrap();
    let out = protocompat_in(&dir, &["init", "--admin-url", &url, "--namespace", "t/ns"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(dir.join("protocompat.yaml")).unwrap();
    assert!(
        written.contains("  - name: \"persistent://t/ns/orders\"\n    root: \"shop.Order\"\n    file: \"proto/order.proto\"\n    strategy: broker\n"),
        "{written}"
    );
    // No value of the broker's became a key or a line of its own.
    assert!(
        !written.contains("\nstrategy: ALWAYS_COMPATIBLE"),
        "{written}"
    );
    assert!(
        written
            .lines()
            .filter(|l| l.trim_start().starts_with("strategy:"))
            .all(|l| l.trim() == "strategy: broker"),
        "{written}"
    );
    // What was written is read back: every topic against the same broker, v2 after v1 under
    // the broker's FULL, compatible.
    let out = protocompat_in(&dir, &["check", "--no-examples"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("topic persistent://t/ns/orders, against"),
        "{stdout}{}",
        text(&out.stderr)
    );
    assert!(
        stdout.contains("shop.Order in proto/order.proto: Compatible under FULL"),
        "{stdout}"
    );
}
