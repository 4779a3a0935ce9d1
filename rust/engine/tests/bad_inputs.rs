//! The bad-input catalogue (docs/rules.md#errors): every case is schema data as a broker would
//! receive it, written to `tests/fixtures/bad/` for the other test suites, and must be refused
//! with its rule ID and a message saying what is wrong.
//!
//! `PROTOCOMPAT_WRITE_FIXTURES=1 cargo test --test bad_inputs` rewrites the files from the
//! table below; without it, a difference between the table and the files fails.

use std::fs;

use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    FileDescriptorSet,
};
use protocompat::model::SchemaData;
use protocompat::{check, CheckError, SchemaRef, Strategy};
use protocompat_testkit::{
    edition_file, file_features, fixtures, schema_from_text, schema_of_bytes, schema_of_protos,
    schema_of_raw_files,
};
use serde_json::{json, Value};

const RECONSTRUCTION: &str = "SCHEMA_RECONSTRUCTION_FAILED";
const UNSUPPORTED: &str = "UNSUPPORTED_FEATURE";

struct BadCase {
    name: &'static str,
    data: Vec<u8>,
    rule: &'static str,
    /// Text the error message must contain.
    says: &'static str,
}

fn field(name: &str, number: i32, kind: Type) -> FieldDescriptorProto {
    FieldDescriptorProto {
        name: Some(name.into()),
        number: Some(number),
        label: Some(Label::Optional as i32),
        r#type: Some(kind as i32),
        ..Default::default()
    }
}

fn message_field(name: &str, number: i32, type_name: &str) -> FieldDescriptorProto {
    FieldDescriptorProto {
        type_name: Some(type_name.into()),
        ..field(name, number, Type::Message)
    }
}

fn message(name: &str, fields: Vec<FieldDescriptorProto>) -> DescriptorProto {
    DescriptorProto {
        name: Some(name.into()),
        field: fields,
        ..Default::default()
    }
}

fn file(
    name: &str,
    syntax: &str,
    messages: Vec<DescriptorProto>,
    imports: &[&str],
) -> FileDescriptorProto {
    FileDescriptorProto {
        name: Some(name.into()),
        package: Some("shop".into()),
        syntax: Some(syntax.into()),
        message_type: messages,
        dependency: imports.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    }
}

fn order() -> DescriptorProto {
    message("Order", vec![field("id", 1, Type::Int64)])
}

/// `order.proto` in proto3 with the given messages, as the root file of schema `shop.Order`.
fn order_file(messages: Vec<DescriptorProto>) -> Vec<u8> {
    schema_of_protos(
        vec![file("order.proto", "proto3", messages, &[])],
        "shop.Order",
        "order.proto",
    )
}

/// `depth` messages, each declared inside the one before.
fn nested_declarations(depth: usize) -> Vec<u8> {
    // Built inside out as bytes: building a deep DescriptorProto tree and encoding it with
    // prost would recurse as deep as the tree.
    let mut inner = message("Level", vec![]).encode_to_vec();
    for _ in 1..depth {
        let mut outer = message("Level", vec![]).encode_to_vec();
        prost::encoding::encode_key(3, prost::encoding::WireType::LengthDelimited, &mut outer);
        prost::encoding::encode_varint(inner.len() as u64, &mut outer);
        outer.extend_from_slice(&inner);
        inner = outer;
    }
    let mut file_bytes = file("order.proto", "proto3", vec![order()], &[]).encode_to_vec();
    prost::encoding::encode_key(
        4,
        prost::encoding::WireType::LengthDelimited,
        &mut file_bytes,
    );
    prost::encoding::encode_varint(inner.len() as u64, &mut file_bytes);
    file_bytes.extend_from_slice(&inner);
    let mut set = Vec::new();
    prost::encoding::encode_key(1, prost::encoding::WireType::LengthDelimited, &mut set);
    prost::encoding::encode_varint(file_bytes.len() as u64, &mut set);
    set.extend_from_slice(&file_bytes);
    schema_of_bytes(set, "shop.Order", "order.proto")
}

fn catalogue() -> Vec<BadCase> {
    let good = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; string note = 2; }\n",
        "shop.Order",
    );
    let good_set = SchemaData::parse(&good).unwrap().descriptor_set;
    let money = || {
        file(
            "money.proto",
            "proto3",
            vec![message("Money", vec![field("cents", 1, Type::Int64)])],
            &[],
        )
    };

    let mut cases = vec![
        BadCase {
            name: "not_json",
            data: b"syntax = \"proto3\"; message Order {}".to_vec(),
            rule: RECONSTRUCTION,
            says: "not PROTOBUF_NATIVE schema JSON",
        },
        BadCase {
            name: "json_array",
            data: b"[1, 2, 3]".to_vec(),
            rule: RECONSTRUCTION,
            says: "not PROTOBUF_NATIVE schema JSON",
        },
        BadCase {
            name: "json_invalid_utf8",
            data: b"{\"fileDescriptorSet\":\"\xff\xfe\",\"rootMessageTypeName\":\"shop.Order\",\"rootFileDescriptorName\":\"order.proto\"}".to_vec(),
            rule: RECONSTRUCTION,
            says: "not PROTOBUF_NATIVE schema JSON",
        },
        BadCase {
            name: "missing_root_message_name",
            data: json!({"fileDescriptorSet": "EgA=", "rootFileDescriptorName": "order.proto"}).to_string().into_bytes(),
            rule: RECONSTRUCTION,
            says: "no `rootMessageTypeName` field",
        },
        BadCase {
            name: "empty_root_file_name",
            data: json!({"fileDescriptorSet": "EgA=", "rootMessageTypeName": "shop.Order", "rootFileDescriptorName": ""}).to_string().into_bytes(),
            rule: RECONSTRUCTION,
            says: "`rootFileDescriptorName` is empty",
        },
        BadCase {
            name: "empty_descriptor_set",
            data: schema_of_protos(vec![], "shop.Order", "order.proto"),
            rule: RECONSTRUCTION,
            says: "`fileDescriptorSet` is empty",
        },
        BadCase {
            name: "bad_base64",
            data: json!({"fileDescriptorSet": "this is *not* base64", "rootMessageTypeName": "shop.Order", "rootFileDescriptorName": "order.proto"}).to_string().into_bytes(),
            rule: RECONSTRUCTION,
            says: "not valid standard base64",
        },
        BadCase {
            name: "not_a_descriptor_set",
            data: schema_of_bytes(b"\xff\xff\xff\xff\xff\xff".to_vec(), "shop.Order", "order.proto"),
            rule: RECONSTRUCTION,
            says: "not a serialized google.protobuf.FileDescriptorSet",
        },
        BadCase {
            name: "truncated_descriptor_set",
            data: schema_of_bytes(good_set[..good_set.len() - 5].to_vec(), "shop.Order", "order.proto"),
            rule: RECONSTRUCTION,
            says: "not a serialized google.protobuf.FileDescriptorSet",
        },
        BadCase {
            name: "descriptor_set_without_files",
            // Only an unknown field: a valid message, but no files.
            data: schema_of_bytes(vec![0x10, 0x01], "shop.Order", "order.proto"),
            rule: RECONSTRUCTION,
            says: "holds no files",
        },
        BadCase {
            name: "root_file_missing",
            data: schema_of_bytes(good_set.clone(), "shop.Order", "orders/v1/order.proto"),
            rule: RECONSTRUCTION,
            says: "root file `orders/v1/order.proto` is not in the fileDescriptorSet (it holds: order.proto)",
        },
        BadCase {
            name: "root_message_missing",
            data: schema_of_bytes(good_set.clone(), "shop.Purchase", "order.proto"),
            rule: RECONSTRUCTION,
            says: "root message `shop.Purchase` is not declared in the root file `order.proto` (it declares: shop.Order)",
        },
        BadCase {
            name: "root_message_in_another_file",
            data: schema_of_protos(vec![file("order.proto", "proto3", vec![order()], &["money.proto"]), money()], "shop.Money", "order.proto"),
            rule: RECONSTRUCTION,
            says: "root message `shop.Money` is declared in `money.proto`, not in the root file `order.proto`",
        },
        BadCase {
            name: "unresolved_import",
            data: schema_of_protos(vec![file("order.proto", "proto3", vec![order()], &["money.proto"])], "shop.Order", "order.proto"),
            rule: RECONSTRUCTION,
            says: "file `order.proto` imports `money.proto`, which is not in the fileDescriptorSet",
        },
        BadCase {
            name: "import_cycle",
            data: schema_of_protos(
                vec![
                    file("order.proto", "proto3", vec![order()], &["money.proto"]),
                    file("money.proto", "proto3", vec![], &["order.proto"]),
                ],
                "shop.Order",
                "order.proto",
            ),
            rule: RECONSTRUCTION,
            says: "import cycle: order.proto -> money.proto -> order.proto",
        },
        BadCase {
            name: "two_different_files_with_one_name",
            data: schema_of_protos(
                vec![
                    file("order.proto", "proto3", vec![order()], &[]),
                    file("order.proto", "proto3", vec![order(), message("Extra", vec![])], &[]),
                ],
                "shop.Order",
                "order.proto",
            ),
            rule: RECONSTRUCTION,
            says: "two different files named `order.proto`",
        },
        BadCase {
            name: "edition_unstable",
            data: schema_of_raw_files(
                &[edition_file(file("order.proto", "editions", vec![order()], &[]), 9999, &[])],
                "shop.Order",
                "order.proto",
            ),
            rule: UNSUPPORTED,
            says: "file `order.proto` uses EDITION_UNSTABLE; this checker supports proto2, proto3 and editions 2023, 2024 and 2026",
        },
        BadCase {
            name: "edition_after_2026_in_import",
            data: schema_of_raw_files(
                &[
                    file("order.proto", "proto3", vec![order()], &["money.proto"]).encode_to_vec(),
                    // 1003: the next edition after 2026, which descriptor.proto does not name yet.
                    edition_file(FileDescriptorProto { syntax: Some("editions".into()), ..money() }, 1003, &[]),
                ],
                "shop.Order",
                "order.proto",
            ),
            rule: UNSUPPORTED,
            says: "file `money.proto` uses edition number 1003",
        },
        BadCase {
            name: "editions_without_edition",
            data: schema_of_protos(vec![file("order.proto", "editions", vec![order()], &[])], "shop.Order", "order.proto"),
            rule: RECONSTRUCTION,
            says: "file `order.proto` declares syntax \"editions\" but no edition",
        },
        BadCase {
            name: "feature_with_unknown_value",
            data: schema_of_raw_files(
                &[edition_file(
                    file("order.proto", "editions", vec![order()], &[]),
                    1000,
                    &file_features(&[0x08, 0x00]),
                )],
                "shop.Order",
                "order.proto",
            ),
            rule: UNSUPPORTED,
            says: "feature `field_presence` set to its UNKNOWN value (0) (file `order.proto`)",
        },
        BadCase {
            name: "feature_this_checker_does_not_know",
            data: schema_of_raw_files(
                &[edition_file(
                    file("order.proto", "editions", vec![order()], &[]),
                    1001,
                    &file_features(&[0x78, 0x01]),
                )],
                "shop.Order",
                "order.proto",
            ),
            rule: UNSUPPORTED,
            says: "feature number 15, which this checker does not know (file `order.proto`)",
        },
        BadCase {
            name: "features_outside_editions",
            data: schema_of_raw_files(
                &[{
                    let mut bytes = file("order.proto", "proto3", vec![order()], &[]).encode_to_vec();
                    bytes.extend(file_features(&[0x08, 0x01]));
                    bytes
                }],
                "shop.Order",
                "order.proto",
            ),
            rule: RECONSTRUCTION,
            says: "features are set in a proto3 file; they are only valid under Protobuf Editions (file `order.proto`)",
        },
        BadCase {
            name: "unknown_syntax",
            data: schema_of_protos(vec![file("order.proto", "proto4", vec![order()], &[])], "shop.Order", "order.proto"),
            rule: RECONSTRUCTION,
            says: "file `order.proto` declares unknown syntax `proto4`",
        },
        BadCase {
            name: "duplicate_field_number",
            data: order_file(vec![message("Order", vec![field("id", 1, Type::Int64), field("note", 1, Type::String)])]),
            rule: RECONSTRUCTION,
            says: "(file `order.proto`, at shop.Order.note)",
        },
        BadCase {
            name: "duplicate_field_name",
            data: order_file(vec![message("Order", vec![field("id", 1, Type::Int64), field("id", 2, Type::String)])]),
            rule: RECONSTRUCTION,
            says: "(file `order.proto`, at shop.Order.id)",
        },
        // Names outside protobuf's identifier grammar would carry a newline or an escape
        // sequence into reports, logs and CI runners (a line `::error …` is a command there).
        BadCase {
            name: "field_name_with_a_newline",
            data: order_file(vec![message(
                "Order",
                vec![field("id\n::error file=README.md,line=1::pwned", 1, Type::Int64)],
            )]),
            rule: RECONSTRUCTION,
            says: "a field is named 'id\\n::error file=README.md,line=1::pwned', which is not an identifier",
        },
        BadCase {
            name: "message_name_with_an_escape_sequence",
            data: order_file(vec![order(), message("Audit\u{1b}]0;owned\u{7}", vec![])]),
            rule: RECONSTRUCTION,
            says: "a message is named 'Audit\\u{1b}]0;owned\\u{7}', which is not an identifier",
        },
        BadCase {
            name: "package_part_with_a_space",
            data: schema_of_protos(
                vec![FileDescriptorProto {
                    package: Some("shop. evil".into()),
                    ..file("order.proto", "proto3", vec![order()], &[])
                }],
                "shop. evil.Order",
                "order.proto",
            ),
            rule: RECONSTRUCTION,
            says: "a part of the package is named ' evil', which is not an identifier",
        },
        BadCase {
            name: "field_number_zero",
            data: order_file(vec![message("Order", vec![field("id", 0, Type::Int64)])]),
            rule: RECONSTRUCTION,
            says: "invalid field number '0' (file `order.proto`, at shop.Order.id)",
        },
        BadCase {
            name: "field_number_too_large",
            data: order_file(vec![message("Order", vec![field("id", 536_870_912, Type::Int64)])]),
            rule: RECONSTRUCTION,
            says: "invalid field number '536870912'",
        },
        BadCase {
            name: "unresolved_type_name",
            data: order_file(vec![message("Order", vec![message_field("total", 1, ".shop.Money")])]),
            rule: RECONSTRUCTION,
            says: "'.shop.Money' is not defined (file `order.proto`, at shop.Order.total)",
        },
        BadCase {
            name: "enum_without_values",
            data: schema_of_protos(
                vec![FileDescriptorProto {
                    enum_type: vec![EnumDescriptorProto { name: Some("Status".into()), ..Default::default() }],
                    ..file("order.proto", "proto2", vec![order()], &[])
                }],
                "shop.Order",
                "order.proto",
            ),
            rule: RECONSTRUCTION,
            says: "(file `order.proto`, at shop.Status)",
        },
        BadCase {
            name: "unparsable_default",
            data: schema_of_protos(
                vec![file(
                    "order.proto",
                    "proto2",
                    vec![message("Order", vec![FieldDescriptorProto { default_value: Some("twelve".into()), ..field("qty", 1, Type::Int32) }])],
                    &[],
                )],
                "shop.Order",
                "order.proto",
            ),
            rule: RECONSTRUCTION,
            says: "'twelve' for type 'int32' (file `order.proto`, at shop.Order.qty)",
        },
        BadCase {
            name: "invalid_utf8_in_descriptor",
            data: {
                let mut set = FileDescriptorSet { file: vec![file("order.proto", "proto3", vec![order(), message("Zzzz", vec![])], &[])] }.encode_to_vec();
                let at = set.windows(4).position(|w| w == b"Zzzz").unwrap();
                set[at..at + 4].copy_from_slice(b"\xff\xfe\xfd\xfc");
                schema_of_bytes(set, "shop.Order", "order.proto")
            },
            rule: RECONSTRUCTION,
            says: "not a serialized google.protobuf.FileDescriptorSet",
        },
        BadCase {
            name: "nesting_deeper_than_parse_limit",
            data: nested_declarations(150),
            rule: RECONSTRUCTION,
            says: "recursion limit reached (in FileDescriptorSet.file > FileDescriptorProto.message_type > DescriptorProto.nested_type ×99)",
        },
        BadCase {
            name: "broken_unreachable_declaration",
            data: order_file(vec![order(), message("Audit", vec![message_field("by", 1, ".shop.User")])]),
            rule: RECONSTRUCTION,
            says: "'.shop.User' is not defined (file `order.proto`, at shop.Audit.by)",
        },
    ];
    cases.sort_by_key(|c| c.name);
    cases
}

fn expectations(cases: &[BadCase]) -> String {
    let map: serde_json::Map<String, Value> = cases
        .iter()
        .map(|c| {
            (
                c.name.to_owned(),
                json!({"rule": c.rule, "message_contains": c.says}),
            )
        })
        .collect();
    serde_json::to_string_pretty(&Value::Object(map)).unwrap() + "\n"
}

#[test]
fn committed_catalogue_matches_the_generator() {
    let dir = fixtures().join("bad");
    let cases = catalogue();
    let expect = expectations(&cases);
    if std::env::var_os("PROTOCOMPAT_WRITE_FIXTURES").is_some() {
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        for case in &cases {
            fs::write(dir.join(format!("{}.schema", case.name)), &case.data).unwrap();
        }
        fs::write(dir.join("expect.json"), &expect).unwrap();
    }
    assert!(
        fs::read_to_string(dir.join("expect.json")).unwrap() == expect,
        "tests/fixtures/bad/expect.json is stale: run PROTOCOMPAT_WRITE_FIXTURES=1 cargo test --test bad_inputs"
    );
    for case in &cases {
        let committed = fs::read(dir.join(format!("{}.schema", case.name))).unwrap();
        assert!(
            committed == case.data,
            "tests/fixtures/bad/{}.schema is stale",
            case.name
        );
    }
    let files = fs::read_dir(&dir).unwrap().count();
    assert_eq!(
        files,
        cases.len() + 1,
        "tests/fixtures/bad holds files no case describes"
    );
}

/// Reads the committed files, as the Java tests do, and checks each error as the new schema
/// and as an existing one.
#[test]
fn every_bad_input_is_refused_with_its_rule_and_message() {
    let dir = fixtures().join("bad");
    let expect: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("expect.json")).unwrap()).unwrap();
    let good = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; }\n",
        "shop.Order",
    );
    let expect = expect.as_object().unwrap();
    assert!(expect.len() >= 25, "the catalogue shrank");
    let mut problems = Vec::new();
    for (name, want) in expect {
        let data = fs::read(dir.join(format!("{name}.schema"))).unwrap();
        let rule = want["rule"].as_str().unwrap();
        let says = want["message_contains"].as_str().unwrap();

        let as_new = check(&[good.as_slice()], &data, Strategy::Full);
        let as_existing = check(
            &[good.as_slice(), data.as_slice()],
            &good,
            Strategy::FullTransitive,
        );
        for (role, result, want_existing) in
            [("new", as_new, None), ("existing", as_existing, Some(1))]
        {
            let Err(CheckError::Schema(error)) = result else {
                problems.push(format!(
                    "{name} as {role} schema: expected {rule}, got {result:?}"
                ));
                continue;
            };
            let rule_id = error.rule.id();
            if rule_id != rule || !error.message.contains(says) {
                problems.push(format!(
                    "{name} as {role}: expected {rule} with `{says}`, got: {error}"
                ));
            }
            let named_right = match (error.schema.which, want_existing) {
                (SchemaRef::New, None) => true,
                (SchemaRef::Existing(index), Some(i)) => index == i,
                _ => false,
            };
            if !named_right {
                problems.push(format!(
                    "{name} as {role}: the error names {}",
                    error.schema
                ));
            }
            if error.to_string().len() >= 4096 {
                problems.push(format!("{name}: message longer than 4 KiB"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Even ALWAYS_COMPATIBLE never accepts a proposed schema the checker cannot read, but it
/// does not decode existing schemas, so an operator can still evolve past a refused one.
#[test]
fn always_compatible_validates_only_the_new_schema() {
    let bad = fs::read(fixtures().join("bad/edition_unstable.schema")).unwrap();
    let good = schema_from_text(
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; }\n",
        "shop.Order",
    );
    assert!(check(&[good.as_slice()], &bad, Strategy::AlwaysCompatible).is_err());
    let report = check(&[bad.as_slice()], &good, Strategy::AlwaysCompatible).unwrap();
    assert!(report.compatible);
}

/// 5,000 nested declarations: refused at protobuf's parse limit, without deep recursion.
#[test]
fn deeply_nested_declarations_fail_fast_on_a_small_stack() {
    let data = nested_declarations(5000);
    let result = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || check(&[], &data, Strategy::Full))
        .unwrap()
        .join()
        .unwrap();
    let Err(CheckError::Schema(error)) = result else {
        panic!("expected an error, got {result:?}");
    };
    assert!(error.message.contains("recursion limit reached"), "{error}");
}

/// RELIABILITY.md's table of the catalogue is what operators read when a schema is refused:
/// it lists every case, with the rule and message the catalogue holds.
#[test]
fn reliability_md_lists_the_catalogue() {
    let doc = fs::read_to_string(fixtures().join("../../RELIABILITY.md")).unwrap();
    let table: Vec<(String, String, String)> = doc
        .lines()
        .skip_while(|line| *line != "| Case | Rule | The message contains |")
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').splitn(3, " | ").collect();
            let cell = |i: usize| cells.get(i).map_or("", |c| c.trim()).to_owned();
            (cell(0).trim_matches('`').to_owned(), cell(1), cell(2))
        })
        .collect();
    let expected: Vec<(String, String, String)> = catalogue()
        .iter()
        .map(|c| (c.name.to_owned(), c.rule.to_owned(), c.says.to_owned()))
        .collect();
    let mut expected_sorted = expected.clone();
    expected_sorted.sort();
    let differences: Vec<String> = expected_sorted
        .iter()
        .filter(|row| !table.contains(row))
        .map(|(name, rule, says)| format!("| `{name}` | {rule} | {says} |"))
        .chain(
            table
                .iter()
                .filter(|row| !expected.contains(row))
                .map(|(name, ..)| {
                    format!("RELIABILITY.md lists `{name}`, which is not so in the catalogue")
                }),
        )
        .collect();
    assert!(
        differences.is_empty(),
        "RELIABILITY.md's catalogue table differs; the rows should read:\n{}",
        differences.join("\n")
    );
}
