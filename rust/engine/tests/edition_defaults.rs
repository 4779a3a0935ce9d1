//! The compiled-in feature defaults (`Features::defaults`) held to protoc's own table, as
//! `protoc --edition_defaults_out` writes it for `descriptor.proto` and `java_features.proto`,
//! for every syntax and edition the checker reads. The protoc is the one the CLI bundles
//! (protoc-bin-vendored), so a newer protoc whose defaults moved fails here first.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use protocompat::model::{
    EnumType, Features, FieldPresence, JavaUtf8Validation, MessageEncoding, RepeatedFieldEncoding,
    Syntax, Utf8Validation,
};

fn protoc() -> PathBuf {
    protoc_bin_vendored::protoc_bin_path().expect("protoc-bin-vendored has a protoc here")
}

fn include() -> PathBuf {
    protoc_bin_vendored::include_path().expect("protoc-bin-vendored has its include folder")
}

/// protoc's `FeatureSetDefaults` for `file` from PROTO2 to 2026, as text (`--decode`).
fn defaults_text(file: &str) -> String {
    let dir = std::env::temp_dir().join(format!("edition-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(file.replace('/', "_"));
    let status = Command::new(protoc())
        .arg(format!("-I{}", include().display()))
        .arg(format!("--edition_defaults_out={}", out.display()))
        .args([
            "--edition_defaults_minimum=PROTO2",
            "--edition_defaults_maximum=2026",
        ])
        .arg(file)
        .status()
        .unwrap();
    assert!(status.success(), "protoc --edition_defaults_out {file}");
    let bytes = std::fs::read(&out).unwrap();
    let decoded = Command::new(protoc())
        .arg(format!("-I{}", include().display()))
        .args([
            "--decode=google.protobuf.FeatureSetDefaults",
            "google/protobuf/descriptor.proto",
            "google/protobuf/java_features.proto",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(&bytes)?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(decoded.status.success(), "protoc --decode");
    std::fs::remove_dir_all(&dir).ok();
    String::from_utf8(decoded.stdout).unwrap()
}

/// Each `defaults { edition: … }` entry's features, overridable and fixed together, keyed
/// `name` or `pb.java.name`.
fn entries(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let mut edition = String::new();
    let mut features = BTreeMap::new();
    let mut java = false;
    let mut depth = 0;
    for line in text.lines().map(str::trim) {
        if let Some(block) = line.strip_suffix(" {") {
            depth += 1;
            java |= block == "[pb.java]";
        } else if line == "}" {
            depth -= 1;
            if java && depth == 2 {
                java = false;
            } else if depth == 0 {
                out.insert(std::mem::take(&mut edition), std::mem::take(&mut features));
            }
        } else if let Some(e) = line.strip_prefix("edition: ").filter(|_| depth == 1) {
            edition = e.to_owned();
        } else if let Some((name, value)) = line.split_once(": ").filter(|_| depth >= 2) {
            let prefix = if java { "pb.java." } else { "" };
            features.insert(format!("{prefix}{name}"), value.to_owned());
        }
    }
    out
}

/// The entry that applies to `edition`: the last one at or before it.
fn applying<'a>(
    table: &'a BTreeMap<String, BTreeMap<String, String>>,
    edition: &str,
) -> &'a BTreeMap<String, String> {
    const ORDER: [&str; 6] = [
        "EDITION_LEGACY",
        "EDITION_PROTO2",
        "EDITION_PROTO3",
        "EDITION_2023",
        "EDITION_2024",
        "EDITION_2026",
    ];
    let at = ORDER.iter().position(|e| *e == edition).unwrap();
    ORDER[..=at]
        .iter()
        .rev()
        .find_map(|e| table.get(*e))
        .unwrap_or_else(|| panic!("protoc lists no defaults at or before {edition}"))
}

/// What the checker keeps, spelled as protoc's text format spells it.
fn spelled(features: &Features) -> BTreeMap<String, String> {
    let presence = match features.field_presence {
        FieldPresence::Explicit => "EXPLICIT",
        FieldPresence::Implicit => "IMPLICIT",
        FieldPresence::LegacyRequired => "LEGACY_REQUIRED",
    };
    let enum_type = match features.enum_type {
        EnumType::Open => "OPEN",
        EnumType::Closed => "CLOSED",
    };
    let repeated = match features.repeated_field_encoding {
        RepeatedFieldEncoding::Packed => "PACKED",
        RepeatedFieldEncoding::Expanded => "EXPANDED",
    };
    let utf8 = match features.utf8_validation {
        Utf8Validation::Verify => "VERIFY",
        Utf8Validation::None => "NONE",
    };
    let message = match features.message_encoding {
        MessageEncoding::LengthPrefixed => "LENGTH_PREFIXED",
        MessageEncoding::Delimited => "DELIMITED",
    };
    let java_utf8 = match features.java_utf8_validation {
        JavaUtf8Validation::Default => "DEFAULT",
        JavaUtf8Validation::Verify => "VERIFY",
    };
    [
        ("field_presence", presence.to_owned()),
        ("enum_type", enum_type.to_owned()),
        ("repeated_field_encoding", repeated.to_owned()),
        ("utf8_validation", utf8.to_owned()),
        ("message_encoding", message.to_owned()),
        (
            "pb.java.legacy_closed_enum",
            features.java_legacy_closed_enum.to_string(),
        ),
        ("pb.java.utf8_validation", java_utf8.to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

const SUPPORTED: [(Syntax, &str); 5] = [
    (Syntax::Proto2, "EDITION_PROTO2"),
    (Syntax::Proto3, "EDITION_PROTO3"),
    (Syntax::Edition2023, "EDITION_2023"),
    (Syntax::Edition2024, "EDITION_2024"),
    (Syntax::Edition2026, "EDITION_2026"),
];

#[test]
fn the_compiled_in_defaults_are_protocs_for_every_supported_edition() {
    let table = entries(&defaults_text("google/protobuf/java_features.proto"));
    assert!(
        table.contains_key("EDITION_2026"),
        "protoc lists no 2026 defaults:\n{table:?}"
    );
    let mut differences = Vec::new();
    for (syntax, edition) in SUPPORTED {
        let protoc = applying(&table, edition);
        for (feature, ours) in spelled(&Features::defaults(syntax)) {
            match protoc.get(&feature) {
                Some(theirs) if *theirs == ours => {}
                theirs => differences.push(format!(
                    "{edition} {feature}: protoc {theirs:?}, the checker {ours}"
                )),
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// 2026's wire defaults are 2024's: what changed (naming style, visibility, limits) is not
/// kept, so the two editions read alike.
#[test]
fn edition_2026_differs_from_2024_only_in_features_that_leave_the_wire_alone() {
    let table = entries(&defaults_text("google/protobuf/java_features.proto"));
    let (e2024, e2026) = (
        applying(&table, "EDITION_2024"),
        applying(&table, "EDITION_2026"),
    );
    let changed: Vec<&str> = e2026
        .iter()
        .filter(|(name, value)| e2024.get(*name) != Some(*value))
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(
        changed,
        [
            "default_symbol_visibility",
            "enforce_naming_style",
            "enforce_proto_limits"
        ],
        "protoc's 2026 defaults moved a feature the checker reads"
    );
    assert_eq!(
        Features::defaults(Syntax::Edition2024),
        Features::defaults(Syntax::Edition2026)
    );
}
