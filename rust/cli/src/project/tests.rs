//! The parser and the JSON Schema users' editors load (docs/protocompat.schema.json) agree:
//! on the keys, on the names a value may take, and on whole files, valid and not.

use std::path::Path;

use serde_json::Value;

use super::model::{strategy_names, Reader, BASELINE_KEYS, TOPIC_KEYS, TOP_KEYS};
use super::yaml;

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocompat.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn keys(object: &Value) -> Vec<String> {
    let mut keys: Vec<String> = object["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    keys.sort();
    keys
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    names.sort();
    names
}

#[test]
fn the_schema_lists_the_keys_and_names_the_parser_takes() {
    let schema = schema();
    assert_eq!(keys(&schema), sorted(TOP_KEYS));
    assert_eq!(keys(&schema["$defs"]["topic"]), sorted(TOPIC_KEYS));
    assert_eq!(keys(&schema["$defs"]["baseline"]), sorted(BASELINE_KEYS));
    let enumerated = |v: &Value| -> Vec<String> {
        let mut names: Vec<String> = v["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        enumerated(&schema["$defs"]["topic"]["properties"]["strategy"]),
        sorted(&strategy_names())
    );
    let profiles: Vec<&str> = protocompat::PROFILES.iter().map(|p| p.name).collect();
    assert_eq!(
        enumerated(&schema["properties"]["profile"]),
        sorted(&profiles)
    );
    assert_eq!(
        schema["properties"]["topics"]["maxItems"],
        super::model::MAX_TOPICS
    );
}

const TOPIC: &str = "  - name: persistent://shop/orders/orders\n    root: shop.Order\n";

/// Files and whether each is valid: the parser and the schema must say the same of each.
fn cases() -> Vec<(String, bool)> {
    let with = |head: &str, topic_extra: &str| format!("{head}topics:\n{TOPIC}{topic_extra}");
    vec![
        (with("", ""), true),
        (
            with(
                "version: 1\nbaseline:\n  git: main\nprofile: conservative\nimports: [proto, vendor]\n",
                "    file: proto/shop/order.proto\n    strategy: FULL_TRANSITIVE\n",
            ),
            true,
        ),
        (
            with(
                "baseline: {admin-url: 'https://pulsar:8443'}\n",
                "    strategy: BACKWARD\n    imports: [./proto]\n",
            ),
            true,
        ),
        (with("", "    baseline: {history: saved/orders.json}\n"), true),
        (with("baseline: {dir: old/proto}\n", ""), true),
        // Unknown keys, anywhere.
        (with("profle: pip246\n", ""), false),
        (with("", "    roots: shop.Order\n"), false),
        (with("baseline: {svn: trunk}\n", ""), false),
        // Wrong types and values.
        (with("version: 2\n", ""), false),
        (with("imports: proto\n", ""), false),
        (with("profile: strict\n", ""), false),
        (with("", "    strategy: FUL\n"), false),
        (with("", "    strategy: 3\n"), false),
        (with("baseline: main\n", ""), false),
        (with("baseline: {git: main, dir: old}\n", ""), false),
        (with("baseline: {git: --output=x}\n", ""), false),
        (with("baseline: {admin-url: 'ftp://x'}\n", ""), false),
        ("topics: []\n".to_owned(), false),
        ("topics:\n  - name: orders\n    root: shop.Order\n".to_owned(), false),
        ("topics:\n  - name: persistent://a/b/c\n    root: 'shop..Order'\n".to_owned(), false),
        ("topics:\n  - name: persistent://a/b/c\n".to_owned(), false),
        ("baseline: {git: main}\n".to_owned(), false),
        // Paths that leave the project.
        (with("", "    file: ../other/order.proto\n"), false),
        (with("", "    file: /etc/passwd\n"), false),
        (with("imports: [proto/../..]\n", ""), false),
        (with("", "    file: 'a#ref=main'\n"), false),
    ]
}

#[test]
fn the_parser_and_the_schema_agree_on_each_file() {
    let validator = jsonschema::validator_for(&schema()).expect("the schema compiles");
    let dir = std::env::temp_dir();
    for (text, valid) in cases() {
        let tree = yaml::parse(&text).unwrap();
        let parsed = Reader {
            file: "protocompat.yaml",
            dir: &dir,
        }
        .project(&tree);
        assert_eq!(parsed.is_ok(), valid, "parser on:\n{text}\n{parsed:?}");
        let json = yaml::to_json(&tree);
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert_eq!(errors.is_empty(), valid, "schema on:\n{text}\n{errors:?}");
    }
}

/// Besides the schema's reach: a topic twice (with a partition's name), which JSON Schema
/// cannot compare, and `broker` without an admin URL.
#[test]
fn a_topic_twice_and_broker_without_an_admin_url_are_refused_where_written() {
    let dir = std::env::temp_dir();
    let read = |text: &str| {
        Reader {
            file: "p.yaml",
            dir: &dir,
        }
        .project(&yaml::parse(text).unwrap())
    };
    let twice = read(&format!(
        "topics:\n{TOPIC}  - name: persistent://shop/orders/orders-partition-2\n    root: shop.Order\n"
    ))
    .unwrap_err();
    assert_eq!((twice.at.line, twice.key.as_str()), (4, "topics[1].name"));
    assert!(
        twice.message.contains("listed twice (first at line 2)"),
        "{}",
        twice.message
    );
    let broker = read(&format!(
        "baseline: {{git: main}}\ntopics:\n{TOPIC}    strategy: broker\n"
    ))
    .unwrap_err();
    assert_eq!(broker.key, "topics[0].strategy");
    assert!(read(&format!(
        "baseline: {{admin-url: 'http://b:8080'}}\ntopics:\n{TOPIC}    strategy: broker\n"
    ))
    .is_ok());
}

#[cfg(unix)]
#[test]
fn a_path_a_symbolic_link_takes_out_of_the_project_is_refused() {
    let dir = std::env::temp_dir().join(format!("protocompat-project-link-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("proto")).unwrap();
    std::os::unix::fs::symlink("/etc", dir.join("out")).unwrap();
    let read = |file: &str| {
        let text = format!("topics:\n{TOPIC}    file: {file}\n");
        Reader {
            file: "p.yaml",
            dir: &dir,
        }
        .project(&yaml::parse(&text).unwrap())
    };
    let refused = read("out/passwd").unwrap_err();
    assert!(
        refused.message.contains("symbolic link"),
        "{}",
        refused.message
    );
    assert!(
        read("out/missing.proto").is_err(),
        "a link on the way to a missing file"
    );
    assert!(read("proto/order.proto").is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}
