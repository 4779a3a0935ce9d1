//! `protocompat lsp` spoken to over its stdio as an editor speaks to it, on a copy of
//! `examples/service` made a git repository whose `main` is the baseline: diagnostics of
//! unsaved buffers (incremental changes), quick fixes and the hover, a syntax error, a file no
//! topic uses, two topics sharing an import, input that is no protocol, and shutdown.

mod support;

use std::path::Path;

use protocompat_testkit::lsp::{uri, Client};
use serde_json::{json, Value};
use support::*;

fn start(dir: &Path) -> Client {
    Client::start(Path::new(env!("CARGO_BIN_EXE_protocompat")), dir)
}

fn rules(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// Applies LSP text edits (one line each here) to `text`.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| {
        let start = &e["range"]["start"];
        std::cmp::Reverse((start["line"].as_u64(), start["character"].as_u64()))
    });
    for edit in edits {
        let (start, end) = (&edit["range"]["start"], &edit["range"]["end"]);
        let line = start["line"].as_u64().unwrap() as usize;
        assert_eq!(end["line"], start["line"], "{edit}");
        let (from, to) = (
            start["character"].as_u64().unwrap() as usize,
            end["character"].as_u64().unwrap() as usize,
        );
        lines[line].replace_range(from..to, edit["newText"].as_str().unwrap());
    }
    lines.join("\n")
}

#[test]
fn an_unsaved_buffer_gets_diagnostics_a_hover_and_a_proven_quick_fix() {
    let dir = service_repo("lsp-session", &[]);
    let order = dir.join("proto/shop/order.proto");
    let on_disk = std::fs::read_to_string(&order).unwrap();
    let v3 = std::fs::read_to_string(repo().join("examples/shop/v3/order.proto")).unwrap();

    let mut client = start(&dir);
    client.open(&order, &on_disk);
    client.diagnostics(&order, |d| d.is_empty());
    // The whole of v3 typed in, unsaved.
    client.change(&order, 2, json!([{"text": v3}]));
    let diagnostics = client.diagnostics(&order, |d| !d.is_empty());
    let renumbered = diagnostics
        .iter()
        .find(|d| d["code"] == "FIELD_NUMBER_CHANGED")
        .unwrap_or_else(|| panic!("{diagnostics:#?}"));
    assert_eq!(
        renumbered["range"]["start"],
        json!({"line": 7, "character": 2})
    );
    assert_eq!(renumbered["severity"], 1);
    assert_eq!(renumbered["source"], "protocompat");
    assert!(
        renumbered["message"]
            .as_str()
            .unwrap()
            .starts_with("FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] "),
        "{renumbered}"
    );
    assert!(renumbered["codeDescription"]["href"]
        .as_str()
        .unwrap()
        .ends_with("docs/rules.md#field_number_changed"));
    let related = &renumbered["relatedInformation"][0];
    assert!(
        related["message"].as_str().unwrap().contains(
            "in .#ref=main,subdir=proto at proto/shop/order.proto:8:3 (the line at the ref)"
        ),
        "{related}"
    );
    let mut found = rules(&diagnostics);
    found.sort();
    // Money's currency is retyped for each topic that reaches Money: orders, shipments and
    // payments each report it under its own path.
    assert_eq!(
        found,
        [
            "FIELD_KIND_CHANGED",
            "FIELD_KIND_CHANGED",
            "FIELD_KIND_CHANGED",
            "FIELD_NUMBER_CHANGED",
            "PACKED_TO_EXPANDED",
            "SCALAR_TYPE_CHANGED"
        ]
    );
    let warning = diagnostics
        .iter()
        .find(|d| d["code"] == "SCALAR_TYPE_CHANGED")
        .unwrap();
    assert_eq!(warning["severity"], 2);
    // A warning's fix is offered, never preferred.
    let offered = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&order)},
            "range": warning["range"],
            "context": {"diagnostics": [], "only": ["quickfix"]},
        }),
    );
    let offered = offered["result"].as_array().unwrap().clone();
    assert!(
        offered.iter().any(|a| a["title"]
            .as_str()
            .unwrap()
            .starts_with("protocompat: keep field id as it was, deprecated")
            && a["isPreferred"] == false),
        "{offered:#?}"
    );
    assert!(
        offered.iter().all(|a| a["kind"] == "quickfix"),
        "{offered:#?}"
    );

    // The hover shows what a reader makes of the data.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&order)}, "position": {"line": 7, "character": 4}}),
    );
    let shown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{hover}"));
    assert!(shown.contains("persistent://shop/orders/orders"), "{shown}");
    assert!(
        shown
            .contains("existing writes, new reads:\n  writer: { note: \"a\" }\n  bytes:  22 01 61"),
        "{shown}"
    );

    // The quick fix: preferred, one edit, and the finding is gone once it is made.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&order)},
            "range": renumbered["range"],
            "context": {"diagnostics": [renumbered]},
        }),
    );
    let actions = actions["result"].as_array().unwrap().clone();
    let fix = actions
        .iter()
        .find(|a| a["kind"] == "quickfix" && a["isPreferred"] == true)
        .unwrap_or_else(|| panic!("{actions:#?}"));
    assert_eq!(
        fix["title"],
        "protocompat: give field note its old number 4"
    );
    let edits = fix["edit"]["changes"][uri(&order)]
        .as_array()
        .unwrap()
        .clone();
    let fixed = apply(&v3, &edits);
    assert!(fixed.contains("string note = 4;"), "{fixed}");
    // As an editor sends an edit: incremental.
    client.change(
        &order,
        3,
        json!(edits
            .iter()
            .map(|e| json!({"range": e["range"], "text": e["newText"]}))
            .collect::<Vec<_>>()),
    );
    let after = client.diagnostics(&order, |d| {
        !rules(d).contains(&"FIELD_NUMBER_CHANGED".to_owned())
    });
    assert!(!after.is_empty(), "the other findings stay");
    assert!(
        actions.iter().any(|a| a["kind"] == "source.fixAll"),
        "{actions:#?}"
    );
    assert_eq!(
        std::fs::read_to_string(&order).unwrap(),
        on_disk,
        "nothing written"
    );

    assert_eq!(client.shutdown_and_exit(), Some(0));
}

#[test]
fn syntax_errors_unused_files_and_a_shared_import() {
    let dir = service_repo("lsp-shapes", &[]);
    let order = dir.join("proto/shop/order.proto");
    let shipment = dir.join("proto/shop/shipment.proto");
    let on_disk = std::fs::read_to_string(&order).unwrap();
    let mut client = start(&dir);

    // A syntax error: one diagnostic at its place, and the server carries on.
    client.open(&order, &on_disk);
    client.diagnostics(&order, |d| d.is_empty());
    client.change(
        &order,
        2,
        json!([{"range": {"start": {"line": 4, "character": 14}, "end": {"line": 4, "character": 15}}, "text": ""}]),
    );
    let broken = client.diagnostics(&order, |d| !d.is_empty());
    assert_eq!(broken.len(), 1, "{broken:#?}");
    assert!(
        broken[0]["message"].as_str().unwrap().contains("expected"),
        "{broken:#?}"
    );
    assert_eq!(broken[0]["range"]["start"]["line"], 5, "{broken:#?}");

    // Mended; then Money's currency renumbered: both topics that reach Money through the
    // import report it, each under its own path, in the shared file.
    client.change(
        &order,
        3,
        json!([{"range": {"start": {"line": 4, "character": 14}, "end": {"line": 4, "character": 14}}, "text": ";"}]),
    );
    client.diagnostics(&order, |d| d.is_empty());
    let moved = on_disk.replace("string currency = 2;", "string currency = 7;");
    client.change(&order, 4, json!([{"text": moved}]));
    let shared = client.diagnostics(&order, |d| d.len() >= 2);
    let messages: Vec<&str> = shared
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("shop.Order.total.currency")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("shop.Shipment.shipping_cost.currency")),
        "{messages:#?}"
    );
    assert!(
        shared.iter().all(|d| d["range"]["start"]["line"] == 12),
        "{shared:#?}"
    );
    // shipment.proto itself is unchanged: nothing shown there.
    assert!(!client
        .seen
        .iter()
        .any(|m| m["params"]["uri"] == uri(&shipment)
            && !m["params"]["diagnostics"].as_array().unwrap().is_empty()));

    // A file no topic uses is shown with nothing.
    let stray = dir.join("proto/shop/stray.proto");
    client.open(
        &stray,
        "syntax = \"proto3\";\nmessage Stray { int32 a = 1 }\n",
    );
    assert!(client.diagnostics(&stray, |_| true).is_empty());

    assert_eq!(client.shutdown_and_exit(), Some(0));
}

#[test]
fn no_input_ends_the_server() {
    let dir = service_repo("lsp-hostile", &[]);
    let mut client = start(&dir);
    client.raw(b"Content-Length: 9\r\n\r\n{not json");
    let parse = client.wait(|m| m["error"]["code"] == -32700);
    assert_eq!(parse["id"], Value::Null);
    client.raw(b"No-Colon-Here\r\n\r\n");
    client.wait(|m| m["error"]["code"] == -32700);
    let unknown = client.request("protocompat/nothing", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let bad_params = client.request("textDocument/hover", json!({"textDocument": 7}));
    assert_eq!(bad_params["error"]["code"], -32602, "{bad_params}");
    // A buffer past the checker's bound is not checked, and says so.
    let order = dir.join("proto/shop/order.proto");
    let huge = format!("syntax = \"proto3\";\n{}", "// padding\n".repeat(2_000_000));
    client.open(&order, &huge);
    let note = client.diagnostics(&order, |d| !d.is_empty());
    assert!(
        note[0]["message"]
            .as_str()
            .unwrap()
            .contains("over the 16777216 the checker reads"),
        "{note:#?}"
    );
    // It stays while the document does: every check of the file shows it, not the first only.
    client.change(
        &order,
        2,
        json!([{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "text": "//\n"}]),
    );
    // A file outside the workspace is no topic's.
    let outside = tempdir("lsp-outside").join("x.proto");
    client.open(&outside, "syntax = \"proto3\";\n");
    assert!(client.diagnostics(&outside, |_| true).is_empty());
    // The checks run in order: by now the change's has been published too.
    let last = client
        .seen
        .iter()
        .rev()
        .find(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri(&order)
        })
        .expect("the change's diagnostics");
    let shown = last["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    let said = shown[0]["message"].as_str().unwrap();
    assert!(
        said.starts_with("this document is 22000022 bytes, over the 16777216"),
        "{said}"
    );
    // Still answering.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&outside)}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(hover["result"], Value::Null);
    // `exit` without `shutdown` is exit status 1, as the protocol says.
    client.notify("exit", Value::Null);
    drop(client.stdin.take());
    assert_eq!(client.exit_code(), Some(1));
}

#[test]
fn without_a_project_file_it_says_so_once_and_checks_nothing() {
    let dir = tempdir("lsp-no-project");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.proto");
    std::fs::write(&file, "syntax = \"proto3\";\nmessage A { int32 a = 1; }\n").unwrap();
    let mut client = start(&dir);
    let said = client.wait(|m| m["method"] == "window/showMessage");
    assert!(
        said["params"]["message"]
            .as_str()
            .unwrap()
            .contains("no protocompat.yaml"),
        "{said}"
    );
    client.open(&file, "syntax = \"proto3\";\nmessage A { int64 a = 1; }\n");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 1, "character": 14}}),
    );
    assert_eq!(hover["result"], Value::Null);
    assert!(!client
        .seen
        .iter()
        .any(|m| m["method"] == "textDocument/publishDiagnostics"));
    assert_eq!(
        client
            .seen
            .iter()
            .filter(|m| m["method"] == "window/showMessage")
            .count(),
        0
    );
    assert_eq!(client.shutdown_and_exit(), Some(0));
}

/// An Editions file is compiled by protoc from the unsaved buffer, as protox compiles the
/// others: the copies protoc is given are made from the buffer.
#[test]
fn an_editions_buffer_is_compiled_by_protoc_unsaved() {
    let dir = tempdir("lsp-editions");
    let _ = std::fs::remove_dir_all(&dir);
    let order = "edition = \"2026\";\npackage shop;\nmessage Order {\n  int64 id = 1;\n  string note = 2;\n}\n";
    write_tree(
        &dir,
        &[
            (
                "protocompat.yaml",
                "version: 1\nbaseline:\n  git: main\nimports: [.]\ntopics:\n  - name: persistent://public/default/orders\n    root: shop.Order\n    file: order.proto\n",
            ),
            ("order.proto", order),
        ],
    );
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "baseline"]);
    let file = dir.join("order.proto");
    let mut client = start(&dir);
    client.open(&file, &order.replace("note = 2", "note = 3"));
    let shown = client.diagnostics(&file, |d| !d.is_empty());
    assert_eq!(rules(&shown), ["FIELD_NUMBER_CHANGED"], "{shown:#?}");
    assert_eq!(
        shown[0]["range"]["start"],
        json!({"line": 4, "character": 2})
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), order);
    assert_eq!(client.shutdown_and_exit(), Some(0));
}
