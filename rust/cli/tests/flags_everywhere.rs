//! Every flag of `protocompat check` is offered by the Maven plugin and by the GitHub Action,
//! or is listed here with why it is not. A flag added to the CLI fails this test until each way
//! into CI passes it on (or says why it need not), and each parameter or input named here must
//! exist and reach the command line.

mod support;

use std::collections::BTreeSet;
use std::process::Command;

use support::repo;

/// How each way into CI spells a flag: the Maven plugin's user property (`-Dprotocompat.X`)
/// and the Action's input. `None` with the reason it is not offered there.
struct Offered {
    flag: &'static str,
    maven: Result<&'static str, &'static str>,
    action: Result<&'static str, &'static str>,
}

const NOT_IN_CI: &str = "an interactive flag: CI checks and reports, it does not edit or trim";

const OFFERED: &[Offered] = &[
    Offered {
        flag: "--project",
        maven: Ok("project"),
        action: Ok("project"),
    },
    Offered {
        flag: "--color",
        maven: Err("Maven colours its own log"),
        action: Err("GitHub's annotations carry no colour"),
    },
    Offered {
        flag: "--strategy",
        maven: Ok("strategy"),
        action: Ok("strategy"),
    },
    Offered {
        flag: "--format",
        maven: Err("the plugin reads the JSON report and logs it as Maven messages"),
        action: Err("the Action's report is GitHub's annotations (--format github)"),
    },
    Offered {
        flag: "--fail-on-warning",
        maven: Ok("failOnWarning"),
        action: Ok("fail-on-warning"),
    },
    Offered {
        flag: "--no-examples",
        maven: Err(NOT_IN_CI),
        action: Err(NOT_IN_CI),
    },
    Offered {
        flag: "--no-fixes",
        maven: Err(NOT_IN_CI),
        action: Err(NOT_IN_CI),
    },
    Offered {
        flag: "--fix",
        maven: Err(NOT_IN_CI),
        action: Err(NOT_IN_CI),
    },
    Offered {
        flag: "--fix-warnings",
        maven: Err(NOT_IN_CI),
        action: Err(NOT_IN_CI),
    },
    Offered {
        flag: "--against",
        maven: Ok("against"),
        action: Ok("against"),
    },
    Offered {
        flag: "--against-include",
        maven: Ok("againstIncludes"),
        action: Err("the Action's default baseline is a git tree at the schema's own root"),
    },
    Offered {
        flag: "--admin-url",
        maven: Ok("adminUrl"),
        action: Ok("admin-url"),
    },
    Offered {
        flag: "--topic",
        maven: Ok("topic"),
        action: Ok("topic"),
    },
    Offered {
        flag: "--auth-token",
        maven: Err("a token on a command line is seen by every process: authTokenFile or serverId"),
        action: Ok("auth-token"),
    },
    Offered {
        flag: "--auth-token-file",
        maven: Ok("authTokenFile"),
        action: Err("the Action takes the token from a secret (auth-token)"),
    },
    Offered {
        flag: "--tls-ca-file",
        maven: Ok("tlsCaFile"),
        action: Err("a runner trusts its system's CAs; a private CA is installed on the runner"),
    },
    Offered {
        flag: "--allow-redirect-host",
        maven: Ok("allowRedirectHosts"),
        action: Ok("allow-redirect-host"),
    },
    Offered {
        flag: "--timeout",
        maven: Ok("timeout"),
        action: Ok("timeout"),
    },
    Offered {
        flag: "--max-response-bytes",
        maven: Err(
            "a limit for the broker's operator, not a build's; its default holds any history",
        ),
        action: Err(
            "a limit for the broker's operator, not a build's; its default holds any history",
        ),
    },
    Offered {
        flag: "--root",
        maven: Ok("root"),
        action: Ok("root"),
    },
    Offered {
        flag: "--include",
        maven: Ok("includes"),
        action: Ok("include"),
    },
    Offered {
        flag: "--protoc",
        maven: Err("the bundled protoc compiles Editions files; a build does not pick its own"),
        action: Err("the bundled protoc compiles Editions files; a runner does not pick its own"),
    },
    Offered {
        flag: "--protoc-timeout",
        maven: Err("its default (60 s) holds any schema a build compiles"),
        action: Err("its default (60 s) holds any schema a runner compiles"),
    },
    Offered {
        flag: "--limit",
        maven: Err("the broker's limits are its operator's (-Dprotocompat.limit.*), not a build's"),
        action: Err(
            "the broker's limits are its operator's (-Dprotocompat.limit.*), not a runner's",
        ),
    },
    Offered {
        flag: "--profile",
        maven: Ok("profile"),
        action: Ok("profile"),
    },
];

/// The long flags `protocompat check --help` lists, --help and its aliases aside.
fn cli_flags() -> BTreeSet<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .args(["check", "--help"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line
                .strip_prefix('-')
                .and_then(|l| l.split_once(", "))
                .map_or(line, |(_, l)| l);
            let flag = line.strip_prefix("--")?;
            let end = flag
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(flag.len());
            Some(format!("--{}", &flag[..end]))
        })
        .filter(|flag| flag != "--help")
        .collect()
}

/// A flag as a script may pass it: itself, its short form, or the variable the CLI reads it
/// from (clap's `env`), which keeps a secret off the command line.
fn spellings(flag: &'static str) -> impl Iterator<Item = &'static str> {
    let other: &[&'static str] = match flag {
        "--include" => &["-I"],
        "--auth-token" => &["PULSAR_AUTH_TOKEN"],
        _ => &[],
    };
    std::iter::once(flag).chain(other.iter().copied())
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The inputs action.yml declares: the keys two spaces in under `inputs:`.
fn action_inputs() -> BTreeSet<String> {
    read("action.yml")
        .lines()
        .skip_while(|line| *line != "inputs:")
        .skip(1)
        .take_while(|line| line.is_empty() || line.starts_with(' '))
        .filter_map(|line| line.strip_prefix("  "))
        .filter(|line| !line.starts_with(' '))
        .filter_map(|line| line.strip_suffix(':'))
        .map(str::to_owned)
        .collect()
}

/// The Maven plugin's user properties: `property = "protocompat.X"` in the mojo.
fn maven_properties() -> BTreeSet<String> {
    let mojo = read("maven-plugin/src/main/java/dev/protocompat/maven/CheckMojo.java");
    mojo.split("property = \"protocompat.")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(name, _)| name.to_owned()))
        .collect()
}

#[test]
fn every_check_flag_is_offered_by_maven_and_the_action_or_says_why_not() {
    let listed: BTreeSet<String> = OFFERED.iter().map(|o| o.flag.to_owned()).collect();
    let flags = cli_flags();
    assert!(flags.contains("--against"), "--help parsed: {flags:?}");
    let unlisted: Vec<&String> = flags.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "flags of `protocompat check` that neither the Maven plugin nor the Action is said to \
         offer (add each to OFFERED, with its parameter and input or why not): {unlisted:?}"
    );
    let gone: Vec<&String> = listed.difference(&flags).collect();
    assert!(
        gone.is_empty(),
        "OFFERED lists flags the CLI no longer has: {gone:?}"
    );
}

#[test]
fn each_parameter_and_input_named_exists_and_reaches_the_command_line() {
    let properties = maven_properties();
    let inputs = action_inputs();
    let maven_args = read("maven-plugin/src/main/java/dev/protocompat/maven/CliArguments.java");
    let action_script = read("ci/github-action.sh");
    let action = read("action.yml");
    let mut wrong = Vec::new();
    for offered in OFFERED {
        if let Ok(property) = offered.maven {
            if !properties.contains(property) {
                wrong.push(format!(
                    "{}: the Maven plugin has no property protocompat.{property}",
                    offered.flag
                ));
            }
            if !spellings(offered.flag).any(|s| maven_args.contains(&format!("\"{s}\""))) {
                wrong.push(format!(
                    "{}: CliArguments.java never passes it",
                    offered.flag
                ));
            }
        }
        if let Ok(input) = offered.action {
            if !inputs.contains(input) {
                wrong.push(format!("{}: action.yml has no input {input}", offered.flag));
            }
            let variable = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
            let passes = spellings(offered.flag).any(|s| {
                [
                    format!("{s}="),
                    format!("{s} "),
                    format!("{s})"),
                    format!("{s}:"),
                ]
                .iter()
                .any(|spelled| action_script.contains(spelled) || action.contains(spelled))
            });
            let reads =
                action_script.contains(&variable) || action.contains(&format!("inputs.{input} }}"));
            if !passes || !reads {
                wrong.push(format!(
                    "{}: ci/github-action.sh does not pass input {input} on",
                    offered.flag
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Nothing offered that the table does not know: a parameter or input with no flag behind it.
    let named_properties: BTreeSet<&str> = OFFERED.iter().filter_map(|o| o.maven.ok()).collect();
    let maven_own = [
        "skip",
        "protoFiles",
        "descriptorSet",
        "serverId",
        "executable",
    ];
    let stray: Vec<&String> = properties
        .iter()
        .filter(|p| !named_properties.contains(p.as_str()) && !maven_own.contains(&p.as_str()))
        .collect();
    assert!(
        stray.is_empty(),
        "Maven properties no flag is listed for: {stray:?}"
    );
    let named_inputs: BTreeSet<&str> = OFFERED.iter().filter_map(|o| o.action.ok()).collect();
    let action_own = ["schema"];
    let stray: Vec<&String> = inputs
        .iter()
        .filter(|i| !named_inputs.contains(i.as_str()) && !action_own.contains(&i.as_str()))
        .collect();
    assert!(
        stray.is_empty(),
        "Action inputs no flag is listed for: {stray:?}"
    );
}
