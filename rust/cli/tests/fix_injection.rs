//! A producer with write access to a topic can store any schema its broker accepts, and a
//! developer's `check --fix --admin-url … --topic …` then writes fixes made from that history
//! into the developer's own `.proto` file. Here the stored schema's bytes default closes its
//! string, its field and its message, and declares a file option and a message of its own.
//! `--fix` must write the old default back as that same value, escaped, and nothing else: no
//! new declaration, no option, whether the history comes from a saved file (`--against`) or
//! from the admin API.

mod support;

use std::fs;
use std::path::Path;

use prost::Message;
use prost_types::FileDescriptorSet;
use support::http::{answer, Server};
use support::*;

/// What the stored default says, as descriptor.proto keeps it: text that, written between
/// quotes as it is, would end the literal and go on declaring things.
const PLANTED: &str = "x\"];\n  option java_package = \"com.attacker.owned\";\n}\n\
                       message Injected {\n  optional int32 planted = 1;\n}\n\
                       message Tail {\n  optional bytes rest = 1 [default = \"";

const OLD: &str = "syntax = \"proto2\";\npackage shop;\n\nmessage Order {\n  \
                   optional bytes payload = 1 [default = \"x\"];\n  optional int64 id = 2;\n}\n";

/// The schema data of OLD with PLANTED as the payload's default, as a broker would store it.
fn planted_history_entry(dir: &Path) -> String {
    write_tree(dir, &[("order.proto", OLD)]);
    let out = protocompat_in(
        dir,
        &["schema", "--root", "shop.Order", "-I", ".", "order.proto"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (mut json, set) = schema_output(&out.stdout);
    let mut set = FileDescriptorSet::decode(set.as_slice()).unwrap();
    let payload = &mut set.file[0].message_type[0].field[0];
    assert_eq!(payload.name(), "payload");
    payload.default_value = Some(PLANTED.to_owned());
    json["fileDescriptorSet"] = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        set.encode_to_vec(),
    )
    .into();
    json.to_string()
}

/// The new side's changes: one that keeps the old field and declares it again (its type
/// changed), one that declares the old default on the field (its default changed).
const NEW_SIDES: [(&str, &str); 2] = [
    (
        "retyped",
        "syntax = \"proto2\";\npackage shop;\n\nmessage Order {\n  \
         optional Payload payload = 1;\n  optional int64 id = 2;\n}\n\n\
         message Payload {\n  optional string text = 1;\n}\n",
    ),
    (
        "default dropped",
        "syntax = \"proto2\";\npackage shop;\n\nmessage Order {\n  \
         optional bytes payload = 1;\n  optional int64 id = 2;\n}\n",
    ),
];

/// The declarations, file options and payload defaults of `file` as protoc compiles it.
fn compiled(dir: &Path) -> FileDescriptorSet {
    let out = protocompat_in(
        dir,
        &[
            "schema",
            "--root",
            "shop.Order",
            "--protoc",
            &bundled_protoc(),
            "-I",
            ".",
            "order.proto",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    FileDescriptorSet::decode(schema_output(&out.stdout).1.as_slice()).unwrap()
}

/// protoc's CEscape reversed, for reading the stored default back.
fn unescape(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let c = bytes[i + 1];
        i += 2;
        out.push(match c {
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                while i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) && v < 32 {
                    v = v * 8 + u32::from(bytes[i] - b'0');
                    i += 1;
                }
                v as u8
            }
            other => other,
        });
    }
    out
}

/// After `--fix`, the file holds only what the fix names: Order (and Payload where the new
/// side declares it), no file option, and the payload's old default as the same bytes.
fn assert_only_the_fix(dir: &Path, case: &str, before: &str) {
    let after = fs::read_to_string(dir.join("order.proto")).unwrap();
    assert_ne!(after, before, "{case}: --fix made no fix:\n{after}");
    // The planted text is in the file only inside the default's literal, escaped: no line
    // starts what it meant to declare.
    let planted = after.lines().map(str::trim_start).any(|line| {
        line.starts_with("option java_package") || line.starts_with("message Injected")
    });
    assert!(!planted, "{case}: planted text in the file:\n{after}");
    let set = compiled(dir);
    let file = &set.file[0];
    let names: Vec<&str> = file.message_type.iter().map(|m| m.name()).collect();
    let expected: &[&str] = if before.contains("Payload") {
        &["Order", "Payload"]
    } else {
        &["Order"]
    };
    assert_eq!(names, expected, "{case}:\n{after}");
    assert!(file.options.is_none(), "{case}: {:?}", file.options);
    let order = &file.message_type[0];
    let payload = order
        .field
        .iter()
        .find(|f| {
            f.name() == "payload" && f.r#type() == prost_types::field_descriptor_proto::Type::Bytes
        })
        .unwrap_or_else(|| panic!("{case}: no bytes payload:\n{after}"));
    assert_eq!(
        unescape(payload.default_value()),
        PLANTED.as_bytes(),
        "{case}: the default is not the stored one:\n{after}"
    );
}

/// `check --fix` of each new side, in a directory of its own under `root`, with `existing`
/// naming the existing side; then only the fix is in the file.
fn fix_each_new_side(root: &Path, existing: &[&str]) {
    for (case, new) in NEW_SIDES {
        let dir = root.join(case.replace(' ', "-"));
        write_tree(&dir, &[("order.proto", new)]);
        let mut args = vec!["check", "--fix", "--root", "shop.Order"];
        args.extend_from_slice(existing);
        args.extend(["-I", ".", "order.proto"]);
        let out = protocompat_in(&dir, &args);
        assert!(
            out.status.code() == Some(0) || out.status.code() == Some(1),
            "{case}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        assert_only_the_fix(&dir, case, new);
    }
}

#[test]
fn a_planted_default_comes_back_escaped_from_a_saved_history() {
    let root = tempdir("fix-injection-file");
    let history = root.join("history.json");
    fs::write(&history, planted_history_entry(&root.join("old"))).unwrap();
    fix_each_new_side(&root, &["--strategy", "FULL", "--against", path(&history)]);
}

#[test]
fn a_planted_default_comes_back_escaped_from_the_admin_api() {
    let root = tempdir("fix-injection-admin");
    let data = planted_history_entry(&root.join("old"));
    let history = serde_json::json!({"getSchemaResponses": [{
        "version": 0,
        "type": "PROTOBUF_NATIVE",
        "timestamp": 1700000000000u64,
        "data": data,
        "properties": {},
    }]})
    .to_string();
    let broker = Server::http(move |seen, w| {
        let path = seen.path.as_str();
        if path.starts_with("/admin/v2/schemas/") && path.ends_with("/schemas") {
            answer(w, "200 OK", &history)
        } else if path.contains("/schemaCompatibilityStrategy") {
            answer(w, "200 OK", "\"FULL\"")
        } else {
            answer(w, "404 Not Found", "{\"reason\":\"Not found\"}")
        }
    });
    let url = broker.url("http");
    let topic = "persistent://public/default/orders";
    fix_each_new_side(&root, &["--admin-url", &url, "--topic", topic]);
}
