//! Shell completions and the man page, made from the command line's definitions: each names
//! every command and the check's flags, and each parses in its own language.

use std::io::Write;
use std::process::{Command, Stdio};

fn protocompat(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(args)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs `program args` with `input` on stdin; `None` when the program is not installed.
fn feed(program: &str, args: &[&str], input: &str) -> Option<std::process::Output> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("writes");
    Some(child.wait_with_output().expect("waits"))
}

const COMMANDS: &[&str] = &[
    "check",
    "audit",
    "brokers",
    "schema",
    "rules",
    "completions",
    "man",
];
const CHECK_FLAGS: &[&str] = &[
    "--against",
    "--admin-url",
    "--fix-warnings",
    "--profile",
    "--error-format",
];

#[test]
fn completions_name_every_command_and_flag_and_parse() {
    for shell in ["bash", "zsh", "fish"] {
        let script = protocompat(&["completions", shell]);
        for word in COMMANDS.iter().chain(CHECK_FLAGS) {
            // fish spells a long flag without its dashes: `-l against`.
            let spelled = match shell {
                "fish" => word.trim_start_matches("--").to_owned(),
                _ => (*word).to_owned(),
            };
            assert!(script.contains(&spelled), "{shell} completions lack {word}");
        }
        // Each shell checks its script's syntax without running it, where it is installed.
        let syntax = feed(shell, &["-n"], &script);
        match syntax {
            Some(out) => assert!(
                out.status.success(),
                "{shell} -n refuses the script: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
            None => eprintln!("{shell} is not installed: its script's syntax is not checked"),
        }
    }
}

#[test]
fn unknown_shell_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(["completions", "cmd.exe"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bash"));
}

#[test]
fn man_page_has_a_section_a_command_and_renders_without_warnings() {
    let page = protocompat(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH protocompat 1"),
        "{}",
        &page[..200.min(page.len())]
    );
    for command in COMMANDS {
        let title = format!(".SH \"PROTOCOMPAT {}\"", command.to_uppercase());
        assert!(page.contains(&title), "man page lacks {title}");
    }
    for flag in CHECK_FLAGS.iter().filter(|f| **f != "--error-format") {
        // roff escapes the dashes of a flag: \-\-against.
        let escaped = flag.replace('-', "\\-");
        assert!(page.contains(&escaped), "man page lacks {flag}");
    }
    if let Some(out) = feed("groff", &["-man", "-Tutf8", "-ww", "-z"], &page) {
        assert!(out.status.success());
        assert!(
            out.stderr.is_empty(),
            "groff warns: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Buf's spellings of the format: `--error-format`, and `github-actions` for GitHub's.
#[test]
fn buf_spellings_of_the_format_are_taken() {
    let repo = protocompat_testkit::repo();
    let shop = |v: &str| {
        repo.join(format!("examples/shop/{v}/order.proto"))
            .display()
            .to_string()
    };
    let run = |format: &[&str]| {
        let mut args = vec!["check", "-I", "/", "--root", "shop.Order"];
        args.extend(format);
        let (old, new) = (shop("v1"), shop("v3"));
        Command::new(env!("CARGO_BIN_EXE_protocompat"))
            .args(&args)
            .args([&old, &new])
            .current_dir(&repo)
            .output()
            .expect("runs")
    };
    let buf = run(&["--error-format", "json"]);
    let ours = run(&["--format", "json"]);
    assert_eq!(
        buf.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&buf.stderr)
    );
    assert!(serde_json::from_slice::<serde_json::Value>(&buf.stdout).is_ok());
    assert!(
        buf.stdout == ours.stdout,
        "--error-format json and --format json differ"
    );
    // The annotations, not the whole output: the stop-commands token differs from run to run.
    let annotations = |out: std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|line| line.starts_with("::error ") || line.starts_with("::warning "))
            .map(str::to_owned)
            .collect()
    };
    let github = annotations(run(&["--error-format=github-actions"]));
    assert!(!github.is_empty());
    assert!(github == annotations(run(&["--format", "github"])));
}
