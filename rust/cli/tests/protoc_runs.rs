//! protoc as an input can make it behave: a file name that protoc would read as an option, an
//! import that never ends (a link to `/dev/zero`), a protoc that never returns, the CLI stopped
//! while protoc runs. Each ends within `--protoc-timeout` with an error that names the file and
//! the limit, leaves no protoc running and no temporary directory behind. And a directory
//! searched for --root, whose candidates protoc compiles together, still gets each file's own
//! answer.

#![cfg(unix)]

mod support;

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use support::*;

fn protoc() -> String {
    protoc_bin_vendored::protoc_bin_path()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned()
}

const EDITION_FILE: &str = "edition = \"2023\";\npackage p;\nmessage A { int32 x = 1; }\n";

/// The command run from `dir`, with a temporary directory of its own, empty, to look into
/// once it has ended.
fn command(dir: &Path, tmp: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_protocompat"));
    command
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn fresh_dir(dir: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    dir.to_path_buf()
}

fn assert_empty(tmp: &Path, what: &str) {
    let left: Vec<_> = std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{what}: left in TMPDIR: {left:?}");
}

/// Waits for `child`: a guard against a test that would hang, not a measure of time (the
/// limits under test are a second or two).
fn wait(child: &mut Child) -> ExitStatus {
    let give_up = Instant::now() + Duration::from_secs(300);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > give_up {
            let _ = child.kill();
            panic!("protocompat did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether process `pid` is running: a zombie (ended, not yet reaped by whoever adopted it)
/// is not.
fn running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
    !matches!(state.and_then(|s| s.chars().next()), Some('Z' | 'X') | None)
}

/// Whether process `pid` ends, as a process killed with SIGKILL does once it next runs: a
/// bound on the wait, not a measure of time.
fn ends(pid: u32) -> bool {
    let give_up = Instant::now() + Duration::from_secs(60);
    while running(pid) {
        if Instant::now() > give_up {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// Processes whose arguments name a path under `dir` (a protoc given files there): their pids
/// and arguments.
fn processes_using(dir: &Path) -> Vec<(u32, String)> {
    let needle = dir.to_str().unwrap().as_bytes();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(pid) = name.parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if cmdline.windows(needle.len()).any(|w| w == needle) && running(pid) {
            found.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    found
}

fn kill(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

/// Kills, when the test ends, whatever still uses `dir`: a test that fails leaves no protoc.
struct KillUsing(PathBuf);

impl Drop for KillUsing {
    fn drop(&mut self) {
        for (pid, _) in processes_using(&self.0) {
            kill(pid);
        }
    }
}

/// A protoc that never returns: it starts a child in its group, writes both pids to the file
/// `pids` beside it (named in the script: protoc gets none of the test's environment), and
/// waits. Whatever it started is killed when the test ends, even if
/// the CLI left it running.
struct FakeProtoc {
    script: PathBuf,
    pids: PathBuf,
}

impl FakeProtoc {
    fn new(dir: &Path) -> FakeProtoc {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("protoc-that-hangs");
        let pids = dir.join("pids");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nsleep 1000 &\necho $! >> '{pids}'\necho $$ >> '{pids}'\nwait\n",
                pids = path(&pids)
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        FakeProtoc { script, pids }
    }

    fn pids(&self) -> Vec<u32> {
        std::fs::read_to_string(&self.pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

impl Drop for FakeProtoc {
    fn drop(&mut self) {
        for pid in self.pids() {
            kill(pid);
        }
    }
}

/// A protoc that never returns is stopped at --protoc-timeout, for the named file and for the
/// files of a directory searched for --root: the error names the file and the limit, protoc
/// and what it started are gone, and so is the temporary directory.
#[cfg(target_os = "linux")]
#[test]
fn a_protoc_that_never_returns_is_stopped_at_the_limit() {
    let dir = tempdir("protoc-hangs");
    write_tree(&dir, &[("proto/ok.proto", EDITION_FILE)]);
    let fake = FakeProtoc::new(&dir);
    let script = path(&fake.script);
    for (args, file) in [
        (
            &["-I", "proto", "proto/ok.proto"][..],
            "`ok.proto` (proto/ok.proto)",
        ),
        (
            &["--root", "p.A", "proto"][..],
            "`ok.proto` (proto/ok.proto)",
        ),
    ] {
        let tmp = fresh_dir(&dir.join("tmp"));
        let _ = std::fs::remove_file(&fake.pids);
        let mut command = command(
            &dir,
            &tmp,
            &[
                &["schema", "--protoc", script, "--protoc-timeout", "1"][..],
                args,
            ]
            .concat(),
        );
        let mut child = command.spawn().unwrap();
        let status = wait(&mut child);
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "protoc (--protoc {script}) did not finish compiling {file} within \
                 --protoc-timeout 1 s and was stopped"
            )),
            "{args:?}: {stderr}"
        );
        let pids = fake.pids();
        assert_eq!(pids.len(), 2, "{args:?}: the fake protoc ran");
        for pid in pids {
            assert!(ends(pid), "{args:?}: process {pid} left running");
        }
        assert_empty(&tmp, &format!("{args:?}"));
    }
}

/// An Editions file that imports a link to /dev/zero, which protoc reads for ever, ends at the
/// limit with no protoc left and nothing left in the temporary directory. (Where the import
/// roots refuse such a link before protoc runs, the error names it instead.)
#[cfg(target_os = "linux")]
#[test]
fn an_import_of_dev_zero_ends_within_the_limit() {
    let dir = tempdir("protoc-dev-zero");
    write_tree(
        &dir,
        &[(
            "proto/a.proto",
            "edition = \"2023\";\npackage p;\nimport \"zero.proto\";\nmessage A { int32 x = 1; }\n",
        )],
    );
    let _ = std::fs::remove_file(dir.join("proto/zero.proto"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("proto/zero.proto")).unwrap();
    let tmp = fresh_dir(&dir.join("tmp"));
    let _kill = KillUsing(tmp.clone());
    let protoc = protoc();
    let mut child = command(
        &dir,
        &tmp,
        &[
            "schema",
            "--protoc",
            &protoc,
            "--protoc-timeout",
            "1",
            "-I",
            "proto",
            "proto/a.proto",
        ],
    )
    .spawn()
    .unwrap();
    let status = wait(&mut child);
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "did not finish compiling `a.proto` (proto/a.proto) within --protoc-timeout 1 s"
        ) || stderr.contains("zero.proto"),
        "{stderr}"
    );
    assert_eq!(processes_using(&tmp), []);
    assert_empty(&tmp, "/dev/zero");
}

/// The CLI stopped by SIGTERM while protoc runs kills protoc's group and removes its
/// temporary directory, then ends by the signal.
#[cfg(target_os = "linux")]
#[test]
fn the_cli_stopped_while_protoc_runs_leaves_nothing_behind() {
    let dir = tempdir("protoc-sigterm");
    write_tree(&dir, &[("ok.proto", EDITION_FILE)]);
    let fake = FakeProtoc::new(&dir);
    let tmp = fresh_dir(&dir.join("tmp"));
    let _ = std::fs::remove_file(&fake.pids);
    let mut command = command(
        &dir,
        &tmp,
        &["schema", "--protoc", path(&fake.script), "ok.proto"],
    );
    let mut child = command.spawn().unwrap();
    // Until the fake protoc has started its child and said so.
    let give_up = Instant::now() + Duration::from_secs(300);
    while fake.pids().len() < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "protocompat ended first"
        );
        assert!(Instant::now() < give_up, "the fake protoc never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        std::fs::read_dir(&tmp).unwrap().next().is_some(),
        "protoc's temporary directory is there while it runs"
    );
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = wait(&mut child);
    assert_eq!(status.signal(), Some(15), "{status:?}");
    for pid in fake.pids() {
        assert!(ends(pid), "process {pid} left running");
    }
    assert_empty(&tmp, "SIGTERM");
}

/// protoc reads an argument that starts with `-` as an option and one that starts with `@` as
/// a file of arguments, and has no `--`: files so named are compiled as files all the same,
/// named, found by a search and read from a git tree, and keep their names in the schema.
#[test]
fn file_names_that_protoc_would_read_as_options_are_files() {
    let dir = tempdir("protoc-option-names");
    let _ = std::fs::remove_dir_all(dir.join(".git"));
    let names = ["-ofoo.proto", "@x.proto", "--version.proto"];
    let sources: Vec<(String, String)> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            (
                format!("proto/{name}"),
                format!("edition = \"2023\";\npackage p{i};\nmessage A {{ int32 x = 1; }}\n"),
            )
        })
        .collect();
    let files: Vec<(&str, &str)> = sources
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    write_tree(&dir, &files);
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "files"]);
    let protoc = protoc();
    for (i, name) in names.iter().enumerate() {
        let file = format!("proto/{name}");
        let root = format!("p{i}.A");
        for args in [
            vec!["-I", "proto", file.as_str()],
            vec!["--root", root.as_str(), "proto"],
            vec!["--root", root.as_str(), ".git#ref=main,subdir=proto"],
        ] {
            let out = protocompat_in(
                &dir,
                &[&["schema", "--protoc", &protoc][..], &args].concat(),
            );
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?}: {}",
                text(&out.stderr)
            );
            let (json, _) = schema_output(&out.stdout);
            assert_eq!(json["rootFileDescriptorName"], *name, "{args:?}");
            assert_eq!(json["rootMessageTypeName"], root.as_str(), "{args:?}");
        }
    }
    assert!(!dir.join("foo.proto").exists());
}

/// A directory searched for --root compiles its Editions candidates in one protoc run; where
/// protoc refuses the run (a file that does not compile, two versions of a package side by
/// side), the answer is still each file's own: the one that declares the message is found,
/// and two that declare it are both named.
#[test]
fn a_search_finds_each_files_own_answer_when_protoc_refuses_the_run() {
    let dir = tempdir("protoc-search-halves");
    let order = |package: &str, field: &str| {
        format!("edition = \"2023\";\npackage {package};\nmessage Order {{ int32 {field} = 1; }}\n")
    };
    write_tree(
        &dir,
        &[
            (
                "proto/a_broken.proto",
                "edition = \"2023\";\nmessage Order {\n",
            ),
            ("proto/other.proto", &order("other", "x")),
            ("proto/v1/order.proto", &order("shop", "x")),
            ("proto/v2/order.proto", &order("shop", "y")),
            (
                "proto/z_plain.proto",
                "syntax = \"proto3\";\npackage plain;\nmessage Order {}\n",
            ),
        ],
    );
    let protoc = protoc();
    for (root, file) in [
        ("other.Order", "other.proto"),
        ("plain.Order", "z_plain.proto"),
    ] {
        let out = protocompat_in(
            &dir,
            &["schema", "--protoc", &protoc, "--root", root, "proto"],
        );
        assert_eq!(out.status.code(), Some(0), "{root}: {}", text(&out.stderr));
        let (json, _) = schema_output(&out.stdout);
        assert_eq!(json["rootFileDescriptorName"], file, "{root}");
    }
    let out = protocompat_in(
        &dir,
        &[
            "schema",
            "--protoc",
            &protoc,
            "--root",
            "shop.Order",
            "proto",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("2 files of proto declare `shop.Order`: v1/order.proto, v2/order.proto"),
        "{}",
        text(&out.stderr)
    );
}

/// protoc gets none of the CLI's credentials: not the broker's token, not a CI job's. It runs
/// all the same, whether named by its path, by a bare name looked up on PATH, or found on PATH,
/// and whether it compiles the file or refuses it (and is then asked its version).
#[test]
fn protoc_runs_without_the_clis_credentials() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir("protoc-environment");
    write_tree(
        &dir,
        &[
            ("ok.proto", EDITION_FILE),
            ("broken.proto", "edition = \"2023\";\nmessage A {\n"),
        ],
    );
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let seen = dir.join("seen");
    let script = bin.join("protoc");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nenv >> '{seen}'\necho '--- end of run' >> '{seen}'\nexec '{real}' \"$@\"\n",
            seen = path(&seen),
            real = protoc()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let search_path = std::env::join_paths(std::iter::once(bin.clone()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let secrets = [
        ("PULSAR_AUTH_TOKEN", "secret-pulsar-4c1e"),
        ("GITHUB_TOKEN", "ghp-secret-93b7"),
    ];
    for (args, code, runs) in [
        (&["--protoc", path(&script), "ok.proto"][..], 0, 1),
        (&["--protoc", "protoc", "ok.proto"][..], 0, 1),
        (&["ok.proto"][..], 0, 1),
        // Refused, then asked its version for the message.
        (&["--protoc", path(&script), "broken.proto"][..], 2, 2),
    ] {
        let _ = std::fs::remove_file(&seen);
        let mut command = Command::new(env!("CARGO_BIN_EXE_protocompat"));
        command
            .arg("schema")
            .args(args)
            .current_dir(&dir)
            .env("PROTOC", "")
            .env("PATH", &search_path);
        for (name, value) in secrets {
            command.env(name, value);
        }
        let out = command.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let environment = std::fs::read_to_string(&seen).unwrap_or_default();
        assert_eq!(
            environment.matches("--- end of run").count(),
            runs,
            "{args:?}: the fake protoc ran: {environment}"
        );
        for (name, value) in secrets {
            assert!(
                !environment.contains(name) && !environment.contains(value),
                "{args:?}: {name} reached protoc: {environment}"
            );
        }
        assert!(
            environment.contains(&format!("PATH={}", search_path.to_str().unwrap())),
            "{args:?}: {environment}"
        );
    }
}
