//! Each output format, byte for byte, against a golden file in `tests/golden/`. A change to a
//! format shows up here as a diff to review; `PROTOCOMPAT_WRITE_GOLDEN=1 cargo test -p
//! protocompat-cli --test formats` rewrites the files.

mod support;

use std::path::PathBuf;

use support::*;

/// `examples/shop/vN` (N = `new`) against v1, each side with its own root.
fn shop(new: &str) -> Vec<String> {
    let dir = format!("examples/shop/{new}");
    let file = format!("{dir}/order.proto");
    [
        "check",
        "--root",
        "shop.Order",
        "--against",
        "examples/shop/v1",
        "-I",
        &dir,
        &file,
    ]
    .map(str::to_owned)
    .to_vec()
}

/// A bad existing schema: an import cycle.
const BAD: &[&str] = &[
    "check",
    "--root",
    "shop.Order",
    "tests/fixtures/bad/import_cycle.schema",
    "examples/shop/v1/order.proto",
];

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn golden(name: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// The GitHub format's `::stop-commands::` token, random in each run, as `TOKEN`.
fn without_stop_token(output: String) -> String {
    let token = output
        .lines()
        .find_map(|line| line.strip_prefix("::stop-commands::"))
        .map(str::to_owned);
    match token {
        Some(token) => {
            assert_eq!(token.len(), 32, "{output}");
            output.replace(&token, "TOKEN")
        }
        None => output,
    }
}

/// Runs `args` with `--format format` (and `extra`), and compares stdout and the exit status
/// with `tests/golden/NAME`.
fn check_golden(name: &str, args: &[&str], format: &str, extra: &[&str]) {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--format", format]);
    all.extend(extra);
    let out = protocompat(&all);
    let actual = without_stop_token(format!(
        "exit {}\n{}",
        out.status.code().unwrap_or(-1),
        text(&out.stdout)
    ));
    let file = golden(name);
    if std::env::var_os("PROTOCOMPAT_WRITE_GOLDEN").is_some() {
        std::fs::write(&file, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (PROTOCOMPAT_WRITE_GOLDEN=1 writes it)",
            file.display()
        )
    });
    assert_eq!(actual, expected, "protocompat {}", all.join(" "));
}

#[test]
fn text_format() {
    let (v3, v2) = (shop("v3"), shop("v2"));
    let (check, compatible) = (strs(&v3), strs(&v2));
    check_golden("incompatible.text", &check, "text", &[]);
    check_golden("compatible.text", &compatible, "text", &[]);
    check_golden("bad-input.text", BAD, "text", &[]);
}

#[test]
fn json_format() {
    let (v3, v2) = (shop("v3"), shop("v2"));
    let (check, compatible) = (strs(&v3), strs(&v2));
    check_golden("incompatible.json", &check, "json", &[]);
    check_golden("compatible.json", &compatible, "json", &[]);
    check_golden("bad-input.json", BAD, "json", &[]);
}

#[test]
fn github_format() {
    let (v3, v2) = (shop("v3"), shop("v2"));
    let (check, compatible) = (strs(&v3), strs(&v2));
    check_golden("incompatible.github", &check, "github", &[]);
    check_golden("compatible.github", &compatible, "github", &[]);
    check_golden("bad-input.github", BAD, "github", &[]);
    check_golden(
        "fail-on-warning.github",
        &check,
        "github",
        &["--fail-on-warning"],
    );
}

#[test]
fn junit_format() {
    let (v3, v2) = (shop("v3"), shop("v2"));
    let (check, compatible) = (strs(&v3), strs(&v2));
    check_golden("incompatible.junit.xml", &check, "junit", &[]);
    check_golden("compatible.junit.xml", &compatible, "junit", &[]);
    check_golden("bad-input.junit.xml", BAD, "junit", &[]);
    check_golden(
        "fail-on-warning.junit.xml",
        &check,
        "junit",
        &["--fail-on-warning"],
    );
}

/// Warnings alone pass, unless --fail-on-warning: then exit 1, and the text says why.
#[test]
fn fail_on_warning_fails_a_compatible_check_with_warnings() {
    let (old, new) = (
        case("scalar_type_changed", "old"),
        case("scalar_type_changed", "new"),
    );
    let args = ["check", "--root", "shop.Order", path(&old), path(&new)];
    assert_eq!(protocompat(&args).status.code(), Some(0));
    let mut failing = args.to_vec();
    failing.push("--fail-on-warning");
    let out = protocompat(&failing);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("failed: --fail-on-warning, and the check found warnings"),
        "{}",
        text(&out.stdout)
    );
    // A check without warnings still passes with the flag.
    let v2 = shop("v2");
    let mut clean = strs(&v2);
    clean.push("--fail-on-warning");
    assert_eq!(protocompat(&clean).status.code(), Some(0));
}

/// The JUnit output is XML a parser reads, with a failing test case per failing comparison.
#[test]
fn junit_output_parses_as_xml() {
    let v3 = shop("v3");
    let mut args = strs(&v3);
    args.extend(["--format", "junit"]);
    let xml = text(&protocompat(&args).stdout);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let suites = doc.root_element();
    assert_eq!(suites.tag_name().name(), "testsuites");
    assert_eq!(suites.attribute("failures"), Some("1"));
    let failure = doc
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    assert!(failure
        .text()
        .unwrap()
        .contains("examples/shop/v3/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note"));
    // Five failures in three changes: a line a change, FULL's two directions on one.
    assert_eq!(failure.text().unwrap().lines().count(), 3);
}

/// `check` with `--color WHEN` and the environment's colour settings; the stdout.
fn coloured(when: &str, env: &[(&str, &str)], args: &[&str]) -> String {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_protocompat"));
    command
        .args(args)
        .args(["--color", when])
        .current_dir(support::repo())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    for (name, value) in env {
        command.env(name, value);
    }
    text(&command.output().expect("protocompat runs").stdout)
}

/// The escape codes `--color` adds, and nothing else: taken out, the coloured report is the
/// plain one, byte for byte.
const OUR_CODES: &[&str] = &[
    "\u{1b}[2m",
    "\u{1b}[1m",
    "\u{1b}[31m",
    "\u{1b}[33m",
    "\u{1b}[32m",
    "\u{1b}[0m",
];

#[test]
fn colour_is_asked_for_or_forced_and_adds_only_our_codes() {
    let v3 = shop("v3");
    let args = strs(&v3);
    let plain = coloured("never", &[], &args);
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let always = coloured("always", &[], &args);
    // Failures red, warnings yellow, fixes green, locations dim.
    for (code, what) in [
        (
            "\u{1b}[1m\u{1b}[31mFIELD_NUMBER_CHANGED\u{1b}[0m",
            "a failure's rule",
        ),
        (
            "\u{1b}[1m\u{1b}[33mwarning: SCALAR_TYPE_CHANGED\u{1b}[0m",
            "a warning's rule",
        ),
        (
            "\u{1b}[32mfix: give field note its old number 4\u{1b}[0m",
            "a fix",
        ),
        (
            "\u{1b}[2mexamples/shop/v3/order.proto:8:3: \u{1b}[0m",
            "a location",
        ),
    ] {
        assert!(always.contains(code), "{what}: {always}");
    }
    let mut stripped = always.clone();
    for code in OUR_CODES {
        stripped = stripped.replace(code, "");
    }
    assert_eq!(stripped, plain);

    // auto, on a pipe: plain, unless CLICOLOR_FORCE says otherwise; NO_COLOR wins over it.
    assert_eq!(coloured("auto", &[], &args), plain);
    assert_eq!(coloured("auto", &[("CLICOLOR_FORCE", "1")], &args), always);
    assert_eq!(
        coloured("auto", &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], &args),
        plain
    );
    // Another format is never coloured.
    let mut json = args.clone();
    json.extend(["--format", "json"]);
    assert!(!coloured("always", &[], &json).contains('\u{1b}'));
}

/// A file named to move the cursor and clear the screen reaches a coloured report as an
/// escape, beside our codes.
#[test]
fn colour_keeps_an_input_s_control_characters_inert() {
    let dir = std::env::temp_dir().join(format!("protocompat-colour-{}", std::process::id()));
    let hostile = dir.join("a\u{1b}[2Jb");
    std::fs::create_dir_all(&hostile).unwrap();
    std::fs::copy(
        support::repo().join("examples/shop/v3/order.proto"),
        hostile.join("order.proto"),
    )
    .unwrap();
    let file = hostile.join("order.proto");
    let against = support::repo().join("examples/shop/v1");
    let args = [
        "check",
        "--root",
        "shop.Order",
        "--against",
        path(&against),
        "-I",
        path(&hostile),
        path(&file),
    ];
    let out = coloured("always", &[], &args);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.contains("a\\u{1b}[2Jb/order.proto:8:3: "), "{out}");
    let mut stripped = out.clone();
    for code in OUR_CODES {
        stripped = stripped.replace(code, "");
    }
    assert!(!stripped.contains('\u{1b}'), "{out:?}");
}
