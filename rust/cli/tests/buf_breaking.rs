//! `buf breaking` itself running `protocompat buf-plugin` on `examples/service` (its buf.yaml
//! lists the plugin, which reads its protocompat.yaml), in a copy made a git repository whose
//! `main` is the baseline: the baseline passes; `examples/shop/v3`'s order.proto in place
//! fails with FIELD_NUMBER_CHANGED at the changed field's line, and with the same rules at the
//! same lines as `protocompat check` finds in the same copy; topics whose files `main` lacks
//! are new. It runs where buf is installed (`buf`, or the one PROTOCOMPAT_BUF names); `.ci/run`
//! installs buf 1.75.0 and sets PROTOCOMPAT_REQUIRE_BUF so that it cannot be skipped there.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::*;

/// buf, or `None` with the test skipped; where PROTOCOMPAT_REQUIRE_BUF is set, buf must be here.
fn buf() -> Option<PathBuf> {
    let buf = std::env::var_os("PROTOCOMPAT_BUF")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("buf"));
    let version = Command::new(&buf).arg("--version").output();
    match version {
        Ok(out) if out.status.success() => {
            eprintln!("buf {}", text(&out.stdout).trim());
            Some(buf)
        }
        _ => {
            assert!(
                std::env::var_os("PROTOCOMPAT_REQUIRE_BUF").is_none(),
                "buf is not installed (pip install buf-bin==1.75.0), and PROTOCOMPAT_REQUIRE_BUF is set"
            );
            eprintln!("skipped: buf is not installed (pip install buf-bin==1.75.0, or PROTOCOMPAT_BUF=PATH)");
            None
        }
    }
}

/// `buf breaking --against '.git#branch=main'` in `dir`, with this build's protocompat first on
/// the PATH, as a user's installed one would be.
fn breaking(buf: &Path, dir: &Path) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_protocompat"))
        .parent()
        .unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    Command::new(buf)
        .args(["breaking", "--against", ".git#branch=main"])
        .current_dir(dir)
        .env("PATH", path)
        // Outside the copy: buf must not see its cache as part of the work tree.
        .env("BUF_CACHE_DIR", dir.with_extension("buf-cache"))
        .output()
        .expect("buf runs")
}

/// `examples/shop/v3`'s order.proto in place of the service's.
fn renumber(dir: &Path) {
    std::fs::copy(
        repo().join("examples/shop/v3/order.proto"),
        dir.join("proto/shop/order.proto"),
    )
    .unwrap();
}

/// A (rule ID, file, line) of a finding: what both reports must agree on.
type Place = (String, String, u64);

/// Each annotation of buf's text output (`path:line:column:RULE message (protocompat)`).
fn buf_places(stdout: &str) -> BTreeSet<Place> {
    stdout
        .lines()
        .map(|line| {
            let mut parts = line.splitn(4, ':');
            let (file, number) = (parts.next().unwrap(), parts.next().unwrap());
            let rule = parts.nth(1).unwrap().split(' ').next().unwrap();
            assert!(line.ends_with("(protocompat)"), "not the plugin's: {line}");
            (rule.to_owned(), file.to_owned(), number.parse().unwrap())
        })
        .collect()
}

/// Each failure of `protocompat check --format json`'s topics: the findings the PIP246
/// category shows (a warning is in PIP246_WARNINGS).
fn cli_places(json: &str) -> BTreeSet<Place> {
    let report: serde_json::Value = serde_json::from_str(json).unwrap();
    let mut places = BTreeSet::new();
    for topic in report["topics"].as_array().unwrap() {
        for finding in topic["report"]["failures"].as_array().unwrap() {
            let at = &finding["location"];
            places.insert((
                finding["rule"].as_str().unwrap().to_owned(),
                at["file"].as_str().unwrap().to_owned(),
                at["line"].as_u64().unwrap(),
            ));
        }
    }
    places
}

#[test]
fn buf_breaking_on_the_example_service_does_what_protocompat_check_does() {
    let Some(buf) = buf() else {
        return;
    };
    let dir = service_repo("buf-service", &[]);
    let out = breaking(&buf, &dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );

    // v3 changes note's number (line 8), a type, packing, and Money's currency, which the
    // other two topics' roots hold too.
    renumber(&dir);
    let out = breaking(&buf, &dir);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(100),
        "{stdout}{}",
        text(&out.stderr)
    );
    let number: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(":FIELD_NUMBER_CHANGED shop.Order.note"))
        .collect();
    // FULL finds it both ways: one change, one annotation naming both directions.
    assert_eq!(number.len(), 1, "{stdout}");
    assert!(
        number[0].starts_with("proto/shop/order.proto:8:3:"),
        "{}",
        number[0]
    );
    for part in ["both directions]", "fix: give field note its old number 4"] {
        assert!(number[0].contains(part), "{}", number[0]);
    }
    // Each topic under its own strategy, as protocompat.yaml says.
    for (root, strategy) in [
        ("shop.Order.total", "FULL"),
        ("shop.Shipment.shipping_cost", "BACKWARD"),
        ("shop.Payment.amount", "FULL_TRANSITIVE"),
    ] {
        let lines: Vec<&str> = stdout
            .lines()
            .filter(|l| l.contains(&format!(":FIELD_KIND_CHANGED {root}.currency (field 2)")))
            .collect();
        assert!(
            !lines.is_empty() && lines.iter().all(|l| l.contains(&format!("[{strategy}, "))),
            "{root} under {strategy}: {stdout}"
        );
    }
    // PIP246 is what the broker refuses: SCALAR_TYPE_CHANGED, a warning, is not in it.
    assert!(!stdout.contains("SCALAR_TYPE_CHANGED"), "{stdout}");

    // The same rules at the same lines as protocompat check's, in the same copy.
    let cli = protocompat_in(&dir, &["check", "--format", "json", "--no-examples"]);
    assert_eq!(cli.status.code(), Some(1), "{}", text(&cli.stderr));
    let (from_buf, from_cli) = (buf_places(&stdout), cli_places(&text(&cli.stdout)));
    assert!(
        from_cli.contains(&(
            "FIELD_NUMBER_CHANGED".to_owned(),
            "proto/shop/order.proto".to_owned(),
            8
        )),
        "{from_cli:?}"
    );
    assert_eq!(from_buf, from_cli);

    // docs/buf.md shows this run: its transcript is what buf prints today.
    assert_eq!(
        stdout.trim_end(),
        documented_run(),
        "docs/buf.md is out of date"
    );
}

#[test]
fn topics_main_lacks_are_new_for_buf_as_for_protocompat_check() {
    let Some(buf) = buf() else {
        return;
    };
    let dir = service_repo(
        "buf-new",
        &["proto/shop/shipment.proto", "proto/shop/payment.proto"],
    );
    let out = breaking(&buf, &dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}{stderr}", text(&out.stdout));
    for root in ["shop.Shipment", "shop.Payment"] {
        assert!(stderr.contains(&format!("{root}: new: ")), "{stderr}");
    }
    let cli = protocompat_in(&dir, &["check"]);
    assert_eq!(cli.status.code(), Some(0), "{}", text(&cli.stdout));

    // A topic whose file is in no module buf checks is left to protocompat check.
    let yaml = std::fs::read_to_string(dir.join("protocompat.yaml")).unwrap();
    let elsewhere = "  - name: persistent://shop/orders/legacy\n    root: legacy.Order\n    \
                     file: legacy/order.proto\n    strategy: FULL\n";
    std::fs::write(dir.join("protocompat.yaml"), format!("{yaml}{elsewhere}")).unwrap();
    let out = breaking(&buf, &dir);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}{stderr}", text(&out.stdout));
    assert!(
        stderr.contains(
            "1 of the project's topics not checked: buf sent no file of theirs (they are \
             outside the modules it checks): persistent://shop/orders/legacy"
        ),
        "{stderr}"
    );
}

/// The lines docs/buf.md shows under `$ buf breaking --against '.git#branch=main'`, up to the
/// next command.
fn documented_run() -> String {
    let doc = std::fs::read_to_string(repo().join("docs/buf.md")).unwrap();
    let lines: Vec<&str> = doc
        .lines()
        .skip_while(|l| *l != "$ buf breaking --against '.git#branch=main'")
        .skip(1)
        .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
        .collect();
    assert!(!lines.is_empty(), "docs/buf.md lost its transcript");
    lines.join("\n")
}
