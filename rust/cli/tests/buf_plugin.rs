//! `protocompat buf-plugin` driven as buf drives it: PluginRPC requests built here with prost
//! from the upstream .proto definitions (pluginrpc.v1, buf.plugin.check.v1), written to the
//! plugin's stdin, and its stdout read back as a `pluginrpc.v1.Response`. These structs are
//! written apart from the plugin's own, so a field number wrong in one shows here.

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use prost::Message;
use prost_types::{Any, FileDescriptorProto};

use support::*;

#[derive(Clone, PartialEq, prost::Message)]
struct Request {
    #[prost(message, optional, tag = "1")]
    value: Option<Any>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Response {
    #[prost(message, optional, tag = "1")]
    value: Option<Any>,
    #[prost(message, optional, tag = "2")]
    error: Option<RpcError>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct RpcError {
    #[prost(int32, tag = "1")]
    code: i32,
    #[prost(string, tag = "2")]
    message: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct CheckRequest {
    #[prost(message, repeated, tag = "1")]
    file_descriptors: Vec<FileDescriptor>,
    #[prost(message, repeated, tag = "2")]
    against_file_descriptors: Vec<FileDescriptor>,
    #[prost(message, repeated, tag = "3")]
    options: Vec<PluginOption>,
    #[prost(string, repeated, tag = "4")]
    rule_ids: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct FileDescriptor {
    #[prost(message, optional, tag = "1")]
    file_descriptor_proto: Option<FileDescriptorProto>,
    #[prost(bool, tag = "2")]
    is_import: bool,
}

#[derive(Clone, PartialEq, prost::Message)]
struct PluginOption {
    #[prost(string, tag = "1")]
    key: String,
    #[prost(message, optional, tag = "2")]
    value: Option<OptionValue>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct OptionValue {
    #[prost(string, tag = "4")]
    string_value: String,
    #[prost(message, optional, tag = "6")]
    list_value: Option<ListValue>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct ListValue {
    #[prost(message, repeated, tag = "1")]
    values: Vec<OptionValue>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct CheckResponse {
    #[prost(message, repeated, tag = "1")]
    annotations: Vec<Annotation>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Annotation {
    #[prost(string, tag = "1")]
    rule_id: String,
    #[prost(string, tag = "2")]
    message: String,
    #[prost(message, optional, tag = "3")]
    file_location: Option<FileLocation>,
    #[prost(message, optional, tag = "4")]
    against_file_location: Option<FileLocation>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct FileLocation {
    #[prost(string, tag = "1")]
    file_name: String,
    #[prost(int32, repeated, tag = "2")]
    source_path: Vec<i32>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct ListRulesResponse {
    #[prost(string, tag = "1")]
    next_page_token: String,
    #[prost(message, repeated, tag = "2")]
    rules: Vec<Rule>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Rule {
    #[prost(string, tag = "1")]
    id: String,
    #[prost(string, repeated, tag = "2")]
    category_ids: Vec<String>,
    #[prost(bool, tag = "3")]
    default: bool,
    #[prost(string, tag = "4")]
    purpose: String,
    #[prost(int32, tag = "5")]
    r#type: i32,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Spec {
    #[prost(message, repeated, tag = "1")]
    procedures: Vec<Procedure>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Procedure {
    #[prost(string, tag = "1")]
    path: String,
}

const CHECK: &str = "/buf.plugin.check.v1.CheckService/Check";
const LIST_RULES: &str = "/buf.plugin.check.v1.CheckService/ListRules";
const CODE_INVALID_ARGUMENT: i32 = 3;
const CODE_RESOURCE_EXHAUSTED: i32 = 8;

/// Runs the plugin as buf does, `stdin` written whole (or until the plugin stops reading), in
/// a directory holding no project file.
fn plugin(args: &[&str], stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    plugin_in(&tempdir("buf-plugin-cwd"), args, stdin)
}

/// Runs the plugin in `dir`, where buf would run it.
fn plugin_in(dir: &Path, args: &[&str], stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_protocompat"))
        .arg("buf-plugin")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("protocompat runs");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // A plugin that stops reading (a request past its bound) closes the pipe: not an error.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (out.status.code(), out.stdout, text(&out.stderr))
}

/// Calls `procedure` with `value` (a message named `name`), as a `pluginrpc.v1.Request`.
fn call(procedure: &str, name: &str, value: Vec<u8>) -> Response {
    call_in(&tempdir("buf-plugin-cwd"), procedure, name, value).0
}

/// [`call`] in `dir`, with what the plugin wrote on stderr.
fn call_in(dir: &Path, procedure: &str, name: &str, value: Vec<u8>) -> (Response, String) {
    let request = Request {
        value: Some(Any {
            type_url: format!("type.googleapis.com/{name}"),
            value,
        }),
    };
    let (code, stdout, stderr) = plugin_in(
        dir,
        &[procedure, "--format", "binary"],
        &request.encode_to_vec(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    let response = Response::decode(stdout.as_slice()).expect("a pluginrpc.v1.Response");
    (response, stderr)
}

/// `examples/shop/VERSION/order.proto` compiled as buf compiles a module whose root holds
/// `shop/order.proto`: with source info, named by its path in the module.
fn shop(version: &str) -> Vec<FileDescriptor> {
    let dir = tempdir(&format!("buf-plugin-shop-{version}"));
    std::fs::create_dir_all(dir.join("shop")).unwrap();
    std::fs::copy(
        repo()
            .join("examples/shop")
            .join(version)
            .join("order.proto"),
        dir.join("shop/order.proto"),
    )
    .unwrap();
    compiled(&dir, "shop/order.proto")
}

fn compiled(dir: &Path, file: &str) -> Vec<FileDescriptor> {
    let mut compiler = protox::Compiler::new([dir]).unwrap();
    compiler.include_imports(true).include_source_info(true);
    compiler.open_file(file).unwrap();
    compiler
        .file_descriptor_set()
        .file
        .into_iter()
        .map(|f| FileDescriptor {
            is_import: f.name() != file,
            file_descriptor_proto: Some(f),
        })
        .collect()
}

fn roots(names: &[&str]) -> PluginOption {
    PluginOption {
        key: "roots".into(),
        value: Some(OptionValue {
            list_value: Some(ListValue {
                values: names
                    .iter()
                    .map(|n| OptionValue {
                        string_value: (*n).into(),
                        list_value: None,
                    })
                    .collect(),
            }),
            ..Default::default()
        }),
    }
}

fn check(request: CheckRequest) -> Result<Vec<Annotation>, RpcError> {
    check_in(&tempdir("buf-plugin-cwd"), request).0
}

/// [`check`] run in `dir`, with what the plugin wrote on stderr.
fn check_in(dir: &Path, request: CheckRequest) -> (Result<Vec<Annotation>, RpcError>, String) {
    let (response, stderr) = call_in(
        dir,
        CHECK,
        "buf.plugin.check.v1.CheckRequest",
        request.encode_to_vec(),
    );
    (annotations(response), stderr)
}

fn annotations(response: Response) -> Result<Vec<Annotation>, RpcError> {
    if let Some(error) = response.error {
        return Err(error);
    }
    let value = response.value.expect("a response value");
    assert_eq!(
        value.type_url,
        "type.googleapis.com/buf.plugin.check.v1.CheckResponse"
    );
    Ok(CheckResponse::decode(value.value.as_slice())
        .unwrap()
        .annotations)
}

/// The 1-based line and column buf shows for `location`, from the new file's source info.
fn line_and_column(files: &[FileDescriptor], location: &FileLocation) -> (i32, i32) {
    let file = files
        .iter()
        .filter_map(|f| f.file_descriptor_proto.as_ref())
        .find(|f| f.name() == location.file_name)
        .expect("the annotation names a file of the request");
    let found = file
        .source_code_info
        .as_ref()
        .unwrap()
        .location
        .iter()
        .find(|l| l.path == location.source_path)
        .expect("the source path is one of the file's");
    (found.span[0] + 1, found.span[1] + 1)
}

#[test]
fn it_speaks_pluginrpc_protocol_1_and_lists_its_procedures() {
    let (code, stdout, _) = plugin(&["--protocol"], b"");
    assert_eq!((code, text(&stdout).trim()), (Some(0), "1"));
    let (code, stdout, _) = plugin(&["--spec", "--format", "binary"], b"");
    assert_eq!(code, Some(0));
    let paths: Vec<String> = Spec::decode(stdout.as_slice())
        .unwrap()
        .procedures
        .into_iter()
        .map(|p| p.path)
        .collect();
    assert_eq!(
        paths,
        [
            CHECK,
            LIST_RULES,
            "/buf.plugin.check.v1.CheckService/ListCategories"
        ]
    );
    let (code, _, stderr) = plugin(&["--bogus"], b"");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("unknown argument `--bogus`"), "{stderr}");
}

#[test]
fn list_rules_gives_our_ids_in_the_profiles_categories() {
    let response = call(
        LIST_RULES,
        "buf.plugin.check.v1.ListRulesRequest",
        Vec::new(),
    );
    let value = response.value.unwrap();
    assert_eq!(
        value.type_url,
        "type.googleapis.com/buf.plugin.check.v1.ListRulesResponse"
    );
    let rules = ListRulesResponse::decode(value.value.as_slice())
        .unwrap()
        .rules;
    let rule = |id: &str| rules.iter().find(|r| r.id == id).unwrap();
    let number = rule("FIELD_NUMBER_CHANGED");
    assert_eq!(number.category_ids, ["PIP246", "CONSERVATIVE"]);
    assert!(number.default);
    assert_eq!(number.r#type, 2, "RULE_TYPE_BREAKING");
    let scalar = rule("SCALAR_TYPE_CHANGED");
    assert_eq!(scalar.category_ids, ["PIP246_WARNINGS"]);
    assert!(
        !scalar.default,
        "a warning is no default: it would fail buf breaking"
    );
    // An empty stdin is a request with no fields, as PluginRPC has it.
    let (code, stdout, _) = plugin(&[LIST_RULES], b"");
    assert_eq!(code, Some(0));
    assert!(Response::decode(stdout.as_slice()).unwrap().value.is_some());
}

#[test]
fn a_compatible_change_has_no_annotation() {
    let annotations = check(CheckRequest {
        file_descriptors: shop("v2"),
        against_file_descriptors: shop("v1"),
        options: vec![roots(&["shop.Order"])],
        rule_ids: Vec::new(),
    })
    .unwrap();
    assert_eq!(annotations, []);
}

#[test]
fn a_changed_field_number_is_annotated_at_the_new_fields_line() {
    let new = shop("v3");
    let annotations = check(CheckRequest {
        file_descriptors: new.clone(),
        against_file_descriptors: shop("v1"),
        options: vec![roots(&["shop.Order"])],
        rule_ids: vec!["FIELD_NUMBER_CHANGED".into(), "PACKED_TO_EXPANDED".into()],
    })
    .unwrap();
    let mut ids: Vec<&str> = annotations.iter().map(|a| a.rule_id.as_str()).collect();
    ids.sort();
    // Only the rules asked for: FIELD_KIND_CHANGED and the warnings are left out. FULL finds
    // the renumbering both ways: one change, one annotation.
    assert_eq!(ids, ["FIELD_NUMBER_CHANGED", "PACKED_TO_EXPANDED"]);
    let number = annotations
        .iter()
        .find(|a| {
            a.message
                .starts_with("FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5)")
        })
        .unwrap();
    let location = number.file_location.as_ref().unwrap();
    assert_eq!(location.file_name, "shop/order.proto");
    assert_eq!(line_and_column(&new, location), (8, 3), "string note = 5;");
    // The message: the change naming both directions, each one's example, and the fix once,
    // on one line.
    for part in [
        "FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5",
        ": both directions]",
        "existing writes, new reads: e.g. writer { note: \"a\" } (bytes 22 01 61)",
        "new writes, existing reads: e.g. writer { note: \"a\" } (bytes 2a 01 61)",
        "fix: give field note its old number 4",
    ] {
        assert!(number.message.contains(part), "{}", number.message);
    }
    assert_eq!(
        number.message.matches("fix:").count(),
        1,
        "{}",
        number.message
    );
    assert!(!number.message.contains('\n'));
}

#[test]
fn a_root_the_against_side_lacks_is_new_and_not_checked() {
    let dir = tempdir("buf-plugin-new-root");
    write_tree(
        &dir,
        &[(
            "shop/invoice.proto",
            "syntax = \"proto3\";\npackage shop;\nmessage Invoice { int64 id = 1; }\n",
        )],
    );
    let mut new = shop("v3");
    new.extend(compiled(&dir, "shop/invoice.proto"));
    let request = |roots_given: &[&str]| CheckRequest {
        file_descriptors: new.clone(),
        against_file_descriptors: shop("v1"),
        options: vec![roots(roots_given)],
        rule_ids: Vec::new(),
    };
    assert_eq!(check(request(&["shop.Invoice"])).unwrap(), []);
    // A root no side declares is a mistake in the options, named.
    let error = check(request(&["shop.Invoic"])).unwrap_err();
    assert_eq!(error.code, CODE_INVALID_ARGUMENT);
    assert!(
        error.message.contains("declares `shop.Invoic`"),
        "{}",
        error.message
    );
}

#[test]
fn without_roots_the_check_says_how_to_name_them() {
    let error = check(CheckRequest {
        file_descriptors: shop("v1"),
        against_file_descriptors: shop("v1"),
        options: Vec::new(),
        rule_ids: Vec::new(),
    })
    .unwrap_err();
    assert_eq!(error.code, CODE_INVALID_ARGUMENT);
    assert!(
        error.message.contains("roots: [shop.Order]"),
        "{}",
        error.message
    );
}

/// An option whose value is one string.
fn option(key: &str, value: &str) -> PluginOption {
    PluginOption {
        key: key.into(),
        value: Some(OptionValue {
            string_value: value.into(),
            list_value: None,
        }),
    }
}

const PROJECT: &str = "\
version: 1
baseline:
  git: main
topics:
  - name: persistent://shop/orders/orders
    root: shop.Order
    file: proto/shop/order.proto
    strategy: BACKWARD
  - name: persistent://shop/orders/legacy
    root: legacy.Order
    file: legacy/order.proto
    strategy: FULL
";

#[test]
fn a_project_file_gives_each_topic_its_strategy_and_skips_files_buf_did_not_send() {
    let dir = tempdir("buf-plugin-project");
    write_tree(&dir, &[("protocompat.yaml", PROJECT)]);
    let request = |options: Vec<PluginOption>| CheckRequest {
        file_descriptors: shop("v3"),
        against_file_descriptors: shop("v1"),
        options,
        rule_ids: vec!["FIELD_NUMBER_CHANGED".into()],
    };
    let strategies = |annotations: &[Annotation]| -> Vec<String> {
        annotations
            .iter()
            .map(|a| {
                let (_, after) = a.message.split_once(" [").unwrap();
                after.split(',').next().unwrap().to_owned()
            })
            .collect()
    };
    // No option: protocompat.yaml where buf runs. Under BACKWARD, the one direction.
    let (found, stderr) = check_in(&dir, request(Vec::new()));
    assert_eq!(strategies(&found.unwrap()), ["BACKWARD"]);
    assert!(
        stderr.contains(
            "1 of the project's topics not checked: buf sent no file of theirs (they are \
             outside the modules it checks): persistent://shop/orders/legacy"
        ),
        "{stderr}"
    );
    // The option's strategy wins over the file's, as --strategy does.
    let (found, _) = check_in(
        &dir,
        request(vec![
            option("project", "protocompat.yaml"),
            option("strategy", "FULL"),
        ]),
    );
    assert_eq!(strategies(&found.unwrap()), ["FULL"]);

    // `broker` cannot be known inside buf: FULL, and said.
    let broker = PROJECT.replacen(
        "strategy: BACKWARD",
        "strategy: broker\n    baseline:\n      admin-url: http://127.0.0.1:9",
        1,
    );
    write_tree(&dir, &[("service.yaml", &broker)]);
    let (found, stderr) = check_in(&dir, request(vec![option("project", "service.yaml")]));
    assert_eq!(strategies(&found.unwrap()), ["FULL"]);
    assert!(
        stderr.contains(
            "1 of the project's topics take their strategy from the broker, which buf \
             breaking cannot ask: checked under FULL, which refuses what BACKWARD or FORWARD \
             would (the plugin option `strategy` names another): persistent://shop/orders/orders"
        ),
        "{stderr}"
    );

    // A root the file buf sent does not declare, and a malformed file: errors naming them.
    write_tree(
        &dir,
        &[
            (
                "typo.yaml",
                &PROJECT.replacen("root: shop.Order", "root: shop.Ordr", 1),
            ),
            ("bad.yaml", &PROJECT.replacen("topics:", "topic:", 1)),
        ],
    );
    for (file, said) in [
        (
            "typo.yaml",
            "topic persistent://shop/orders/orders: the project file's root `shop.Ordr`: \
             proto/shop/order.proto declares no such message on either side",
        ),
        (
            "bad.yaml",
            "option `project`: bad.yaml:4:1: topic: unknown key `topic` (did you mean `topics`?)",
        ),
        ("../protocompat.yaml", "leaves the directory buf runs in"),
    ] {
        let (found, _) = check_in(&dir, request(vec![option("project", file)]));
        let error = found.unwrap_err();
        assert_eq!(error.code, CODE_INVALID_ARGUMENT);
        assert!(error.message.contains(said), "{said}: {}", error.message);
    }
}

#[test]
fn garbage_and_oversized_requests_get_an_error_response() {
    for garbage in [&b"\xff\xff\xff"[..], b"\x0a\x05ab", b"not protobuf at all"] {
        let (code, stdout, stderr) = plugin(&[CHECK, "--format", "binary"], garbage);
        assert_eq!(code, Some(0), "{stderr}");
        let error = Response::decode(stdout.as_slice()).unwrap().error.unwrap();
        assert_eq!(error.code, CODE_INVALID_ARGUMENT, "{}", error.message);
    }
    // A CheckRequest whose file is not a FileDescriptorProto.
    let mut bad_file = Vec::new();
    prost::encoding::bytes::encode(1, &b"\x0a\x03\xff\xff\xff".to_vec(), &mut bad_file);
    let mut request = Vec::new();
    prost::encoding::bytes::encode(1, &bad_file, &mut request);
    let response = call(CHECK, "buf.plugin.check.v1.CheckRequest", request);
    assert_eq!(response.error.unwrap().code, CODE_INVALID_ARGUMENT);
    // A request of the wrong type.
    let response = call(CHECK, "buf.plugin.check.v1.ListRulesRequest", Vec::new());
    let error = response.error.unwrap();
    assert!(
        error
            .message
            .contains("not a buf.plugin.check.v1.CheckRequest"),
        "{}",
        error.message
    );
    // A small file declaring 250,000 empty messages: refused before any is decoded.
    let mut file = Vec::new();
    prost::encoding::string::encode(1, &"many.proto".to_owned(), &mut file);
    for _ in 0..250_000 {
        file.extend([0x22, 0x00]); // message_type {}
    }
    let mut descriptor = Vec::new();
    prost::encoding::bytes::encode(1, &file, &mut descriptor);
    let mut request = Vec::new();
    prost::encoding::bytes::encode(1, &descriptor, &mut request);
    prost::encoding::message::encode(3, &roots(&["many.M"]), &mut request);
    let response = call(CHECK, "buf.plugin.check.v1.CheckRequest", request);
    let error = response.error.unwrap();
    assert_eq!(error.code, CODE_RESOURCE_EXHAUSTED, "{}", error.message);
    assert!(
        error.message.contains("250000 messages, over the 200000"),
        "{}",
        error.message
    );
    // Past 256 MiB, refused without reading the rest.
    let huge = vec![0u8; (256 << 20) + 1];
    let (code, stdout, _) = plugin(&[CHECK], &huge);
    assert_eq!(code, Some(0));
    let error = Response::decode(stdout.as_slice()).unwrap().error.unwrap();
    assert_eq!(error.code, CODE_RESOURCE_EXHAUSTED, "{}", error.message);
    assert!(error.message.contains("over 256 MiB"), "{}", error.message);
}

#[test]
fn a_removed_field_is_placed_at_its_message_in_the_imported_file() {
    let order = "syntax = \"proto2\";\npackage acme;\nimport \"acme/money.proto\";\n\
                 message Order {\n  optional int64 id = 1;\n  optional Money total = 2;\n}\n";
    let money = |cents: &str| {
        format!(
            "syntax = \"proto2\";\npackage acme;\nmessage Money {{\n{cents}  optional string currency = 2;\n}}\n"
        )
    };
    let side = |name: &str, cents: &str| {
        let dir = tempdir(name);
        let money = money(cents);
        write_tree(
            &dir,
            &[("acme/order.proto", order), ("acme/money.proto", &money)],
        );
        compiled(&dir, "acme/order.proto")
    };
    let old = side("buf-plugin-money-old", "  required int64 cents = 1;\n");
    let new = side("buf-plugin-money-new", "");
    let annotations = check(CheckRequest {
        file_descriptors: new.clone(),
        against_file_descriptors: old.clone(),
        options: vec![roots(&["acme.Order"])],
        rule_ids: vec!["REQUIRED_FIELD_REMOVED".into()],
    })
    .unwrap();
    assert_eq!(annotations.len(), 1, "{annotations:?}");
    let removed = &annotations[0];
    let at = removed.file_location.as_ref().unwrap();
    assert_eq!(at.file_name, "acme/money.proto");
    assert_eq!(
        line_and_column(&new, at),
        (3, 1),
        "message Money, where to put it back"
    );
    let was = removed.against_file_location.as_ref().unwrap();
    assert_eq!(was.file_name, "acme/money.proto");
    assert_eq!(line_and_column(&old, was), (4, 3), "the old field");
    assert!(
        removed
            .message
            .starts_with("REQUIRED_FIELD_REMOVED acme.Order.total.cents (field 1)"),
        "{}",
        removed.message
    );
}
