//! Edits made in memory (`remedy::descriptor::apply`) against the compilers: for each kind of
//! edit, in proto2, proto3 and Edition 2023 where it applies, a small file is compiled, the
//! edit applied to its set, and the file edited by hand as `fix/place` writes it compiled too;
//! the two sets must not differ (`differences`). By protoc always, and by protox too where it
//! reads the file (it does not read Editions). Then what `differences` must catch, and what
//! `apply` must refuse.

mod support;

use std::path::Path;
use std::process::Command;

use protocompat::model::Scalar;
use protocompat::remedy::descriptor::{apply, differences, Tree};
use protocompat::remedy::{
    Edit, EnumOption, FieldOption, FieldType, FileOption, Label, NewField, Value,
};
use support::{bundled_protoc, tempdir};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Compiler {
    Protoc,
    Protox,
}

fn compile(compiler: Compiler, name: &str, text: &str) -> Vec<u8> {
    let dir = tempdir(&format!("apply-{name}-{compiler:?}"));
    std::fs::write(dir.join("order.proto"), text).unwrap();
    let bytes = match compiler {
        Compiler::Protoc => {
            let out = dir.join("set.pb");
            let status = Command::new(bundled_protoc())
                .arg(format!("-I{}", dir.display()))
                .arg("--include_imports")
                .arg(format!("--descriptor_set_out={}", out.display()))
                .arg("order.proto")
                .status()
                .unwrap();
            assert!(status.success(), "{name}: protoc refused\n{text}");
            std::fs::read(&out).unwrap()
        }
        Compiler::Protox => protox::Compiler::new([&dir])
            .unwrap()
            .include_imports(true)
            .open_file("order.proto")
            .unwrap_or_else(|e| panic!("{name}: protox refused: {e:?}\n{text}"))
            .encode_file_descriptor_set(),
    };
    std::fs::remove_dir_all(&dir).ok();
    bytes
}

fn compilers(text: &str) -> Vec<Compiler> {
    if text.starts_with("edition") {
        vec![Compiler::Protoc]
    } else {
        vec![Compiler::Protoc, Compiler::Protox]
    }
}

/// `edits` applied to `before`'s set give `after`'s, and `after` is not `before`.
fn same_as_compiled(name: &str, before: &str, edits: &[Edit], after: &str) {
    assert_ne!(before, after, "{name}: the edited text is the text");
    for compiler in compilers(before) {
        let original = Tree::parse(&compile(compiler, name, before)).unwrap();
        let expected = Tree::parse(&compile(compiler, name, after)).unwrap();
        assert!(
            !differences(&original, &expected).is_empty(),
            "{name} ({compiler:?}): the edit changes nothing the comparison sees"
        );
        let mut applied = original.clone();
        apply(&mut applied, edits).unwrap_or_else(|e| panic!("{name} ({compiler:?}): {e}"));
        let found = differences(&applied, &expected);
        assert!(
            found.is_empty(),
            "{name} ({compiler:?}):\n{}",
            found.iter().map(|d| format!("  {d}\n")).collect::<String>()
        );
        // What was applied encodes to a set prost reads.
        let bytes = applied.encode();
        assert_eq!(Tree::parse(&bytes).unwrap(), applied, "{name}");
        let _: prost_types::FileDescriptorSet = prost::Message::decode(bytes.as_slice()).unwrap();
    }
}

/// `before` with each `(from, to)` replaced once (each `from` must be there).
fn edited(before: &str, replacements: &[(&str, &str)]) -> String {
    let mut text = before.to_owned();
    for (from, to) in replacements {
        assert!(text.contains(from), "{from:?} is not in the text");
        text = text.replacen(from, to, 1);
    }
    text
}

const PROTO2: &str = r#"syntax = "proto2";
package shop;
enum Currency {
  EUR = 0;
  USD = 1;
}
message Money { optional int64 cents = 1; }
message Order {
  optional int64 id = 1;
  optional string currency = 2;
  repeated int32 counts = 3;
  optional Money total = 4;
  oneof pick {
    string a = 5;
    int32 b = 6;
  }
  optional Currency cur = 7;
  map<string, int32> tags = 8;
  optional double ratio = 9;
  optional bytes blob = 10;
}
"#;

const PROTO3: &str = r#"syntax = "proto3";
package shop;
enum Currency {
  EUR = 0;
  USD = 1;
}
message Money { int64 cents = 1; }
message Order {
  int64 id = 1;
  string currency = 2;
  repeated int32 counts = 3;
  Money total = 4;
  oneof pick {
    string a = 5;
    int32 b = 6;
  }
  optional string note = 7;
  map<string, int32> tags = 8;
}
"#;

const EDITION_2023: &str = r#"edition = "2023";
package shop;
enum Currency {
  EUR = 0;
  USD = 1;
}
message Money { int64 cents = 1; }
message Order {
  int64 id = 1;
  string currency = 2;
  repeated int32 counts = 3;
  Money total = 4;
  oneof pick {
    string a = 5;
    int32 b = 6;
  }
  Currency cur = 7;
  map<string, int32> tags = 8;
}
"#;

const ALL: [(&str, &str); 3] = [
    ("proto2", PROTO2),
    ("proto3", PROTO3),
    ("e2023", EDITION_2023),
];

fn order() -> String {
    "shop.Order".to_owned()
}

fn set_number(field: &str, number: u32) -> Edit {
    Edit::SetNumber {
        message: order(),
        field: field.into(),
        number,
    }
}

fn set_name(field: &str, name: &str) -> Edit {
    Edit::SetName {
        message: order(),
        field: field.into(),
        name: name.into(),
    }
}

fn set_option(field: &str, option: FieldOption, value: Value) -> Edit {
    Edit::SetOption {
        message: order(),
        field: field.into(),
        option,
        value,
    }
}

fn add(oneof: Option<&str>, label: Option<Label>, ty: FieldType, name: &str, number: u32) -> Edit {
    add_with(oneof, label, ty, name, number, vec![])
}

fn add_with(
    oneof: Option<&str>,
    label: Option<Label>,
    ty: FieldType,
    name: &str,
    number: u32,
    options: Vec<(FieldOption, Value)>,
) -> Edit {
    Edit::AddField {
        message: order(),
        oneof: oneof.map(str::to_owned),
        field: NewField {
            label,
            ty,
            name: name.into(),
            number,
            options,
        },
    }
}

fn ident(name: &str) -> Value {
    Value::Ident(name.into())
}

#[test]
fn number_set() {
    for (syntax, text) in ALL {
        let after = edited(text, &[("id = 1;", "id = 11;")]);
        same_as_compiled(
            &format!("{syntax} number"),
            text,
            &[set_number("id", 11)],
            &after,
        );
    }
}

#[test]
fn name_set() {
    for (syntax, text) in ALL {
        let after = edited(text, &[("currency = 2", "currency_code = 2")]);
        let edits = [set_name("currency", "currency_code")];
        same_as_compiled(&format!("{syntax} name"), text, &edits, &after);
        // A map's entry message is named after its field.
        let after = edited(text, &[("tags = 8", "labels_by_key = 8")]);
        let edits = [set_name("tags", "labels_by_key")];
        same_as_compiled(&format!("{syntax} map name"), text, &edits, &after);
    }
    // A proto3 `optional` field's synthetic oneof is named after it.
    let after = edited(PROTO3, &[("note = 7", "memo = 7")]);
    same_as_compiled(
        "proto3 optional name",
        PROTO3,
        &[set_name("note", "memo")],
        &after,
    );
}

/// One remedy renumbers a field, renames it, and adds a field of its old name and number.
#[test]
fn names_are_those_before_the_remedy() {
    for (syntax, text) in ALL {
        let label = (syntax == "proto2").then_some(Label::Optional);
        let edits = [
            set_number("currency", 12),
            set_name("currency", "currency_v2"),
            add(
                None,
                label,
                FieldType::Scalar(Scalar::String),
                "currency",
                2,
            ),
        ];
        let declared = if syntax == "proto2" {
            "  optional string currency = 2;\n}\n"
        } else {
            "  string currency = 2;\n}\n"
        };
        let after = edited(text, &[("currency = 2", "currency_v2 = 12")]);
        let after = replace_last_brace(&after, "Order", declared);
        same_as_compiled(&format!("{syntax} rename and re-add"), text, &edits, &after);
    }
}

/// `declared` as the last lines of message `message`'s body (its closing `}` at a line start).
fn replace_last_brace(text: &str, message: &str, declared: &str) -> String {
    let start = text.find(&format!("message {message} {{")).unwrap();
    let close = start + text[start..].find("\n}\n").unwrap() + 1;
    format!("{}{}{}", &text[..close], declared, &text[close + 2..])
}

#[test]
fn label_set() {
    let edits = |label| {
        [Edit::SetLabel {
            message: order(),
            field: "id".into(),
            label,
        }]
    };
    let after = edited(PROTO2, &[("optional int64 id", "required int64 id")]);
    same_as_compiled("proto2 required", PROTO2, &edits(Label::Required), &after);
    let after = edited(PROTO3, &[("  int64 id", "  optional int64 id")]);
    same_as_compiled("proto3 optional", PROTO3, &edits(Label::Optional), &after);
    let after = edited(PROTO3, &[("  int64 id", "  repeated int64 id")]);
    same_as_compiled("proto3 repeated", PROTO3, &edits(Label::Repeated), &after);
    let after = edited(EDITION_2023, &[("  int64 id", "  repeated int64 id")]);
    same_as_compiled(
        "e2023 repeated",
        EDITION_2023,
        &edits(Label::Repeated),
        &after,
    );
}

#[test]
fn option_set() {
    for (syntax, text) in ALL {
        let after = edited(text, &[("id = 1;", "id = 1 [deprecated = true];")]);
        let edits = [set_option("id", FieldOption::Deprecated, Value::Bool(true))];
        same_as_compiled(&format!("{syntax} deprecated"), text, &edits, &after);
    }
    for (syntax, text, packed) in [("proto2", PROTO2, true), ("proto3", PROTO3, false)] {
        let after = edited(
            text,
            &[("counts = 3;", &format!("counts = 3 [packed = {packed}];"))],
        );
        let edits = [set_option(
            "counts",
            FieldOption::Packed,
            Value::Bool(packed),
        )];
        same_as_compiled(&format!("{syntax} packed"), text, &edits, &after);
    }
    let defaults = [
        ("id", Value::Int(-7), "id = 1 [default = -7];"),
        ("cur", ident("USD"), "cur = 7 [default = USD];"),
        ("ratio", Value::Float(1e300), "ratio = 9 [default = 1e300];"),
        (
            "ratio",
            Value::Float(f64::NEG_INFINITY),
            "ratio = 9 [default = -inf];",
        ),
        ("ratio", Value::Float(0.1), "ratio = 9 [default = 0.1];"),
        (
            "currency",
            Value::String("a\"b\n\u{e9}".into()),
            "currency = 2 [default = \"a\\\"b\\n\u{e9}\"];",
        ),
        (
            "blob",
            Value::Bytes(b"\x00\xff'\\".to_vec()),
            "blob = 10 [default = \"\\000\\377'\\\\\"];",
        ),
    ];
    for (field, value, declared) in defaults {
        let (from, _) = declared.split_once(" [").unwrap();
        let after = edited(PROTO2, &[(&format!("{from};"), declared)]);
        let edits = [set_option(field, FieldOption::Default, value.clone())];
        same_as_compiled(&format!("proto2 default {value:?}"), PROTO2, &edits, &after);
    }
    let features = [
        ("id", FieldOption::FieldPresence, "IMPLICIT", "id = 1"),
        (
            "counts",
            FieldOption::RepeatedFieldEncoding,
            "EXPANDED",
            "counts = 3",
        ),
        (
            "currency",
            FieldOption::Utf8Validation,
            "NONE",
            "currency = 2",
        ),
        (
            "total",
            FieldOption::MessageEncoding,
            "DELIMITED",
            "total = 4",
        ),
    ];
    for (field, option, value, declared) in features {
        let after = edited(
            EDITION_2023,
            &[(
                &format!("{declared};"),
                &format!("{declared} [{} = {value}];", option.name()),
            )],
        );
        let edits = [set_option(field, option, ident(value))];
        same_as_compiled(
            &format!("e2023 {}", option.name()),
            EDITION_2023,
            &edits,
            &after,
        );
    }
    // Two features on one field: one feature set.
    let after = edited(
        EDITION_2023,
        &[(
            "id = 1;",
            "id = 1 [features.field_presence = IMPLICIT, deprecated = true];",
        )],
    );
    let edits = [
        set_option("id", FieldOption::FieldPresence, ident("IMPLICIT")),
        set_option("id", FieldOption::Deprecated, Value::Bool(true)),
    ];
    same_as_compiled("e2023 two options", EDITION_2023, &edits, &after);
}

#[test]
fn add_field() {
    let money = || FieldType::Message("shop.Money".into());
    let currency = || FieldType::Enum("shop.Currency".into());
    let int32 = || FieldType::Scalar(Scalar::Int32);
    let map = |key, value| FieldType::Map {
        key,
        value: Box::new(value),
    };
    let cases: Vec<(&str, &str, Vec<Edit>, &str)> = vec![
        (
            "proto2 scalars",
            PROTO2,
            vec![
                add(None, Some(Label::Optional), int32(), "qty", 20),
                add(None, Some(Label::Required), FieldType::Scalar(Scalar::String), "sku_code", 21),
                add_with(
                    None,
                    Some(Label::Repeated),
                    int32(),
                    "sizes",
                    22,
                    vec![(FieldOption::Packed, Value::Bool(true)), (FieldOption::Deprecated, Value::Bool(true))],
                ),
                add_with(None, Some(Label::Optional), currency(), "alt", 23, vec![(FieldOption::Default, ident("USD"))]),
            ],
            "  optional int32 qty = 20;\n  required string sku_code = 21;\n  repeated int32 sizes = 22 [packed = true, deprecated = true];\n  optional .shop.Currency alt = 23 [default = USD];\n",
        ),
        (
            "proto2 map and oneof",
            PROTO2,
            vec![
                add(None, None, map(Scalar::String, money()), "money_by_name", 20),
                add(Some("pick"), None, money(), "c", 21),
            ],
            "  map<string, .shop.Money> money_by_name = 20;\n",
        ),
        (
            "proto3 fields",
            PROTO3,
            vec![
                add(None, Some(Label::Optional), int32(), "qty", 20),
                add(None, None, currency(), "plain", 21),
                add(None, None, map(Scalar::Int32, currency()), "by_number", 22),
                add(None, Some(Label::Repeated), money(), "totals", 23),
                add(Some("pick"), None, int32(), "c", 24),
            ],
            "  optional int32 qty = 20;\n  .shop.Currency plain = 21;\n  map<int32, .shop.Currency> by_number = 22;\n  repeated .shop.Money totals = 23;\n",
        ),
        (
            "e2023 fields",
            EDITION_2023,
            vec![
                add_with(None, None, int32(), "qty", 20, vec![(FieldOption::FieldPresence, ident("IMPLICIT"))]),
                add_with(
                    None,
                    None,
                    map(Scalar::String, FieldType::Scalar(Scalar::String)),
                    "notes",
                    21,
                    vec![(FieldOption::Utf8Validation, ident("NONE"))],
                ),
                add(None, Some(Label::Repeated), money(), "totals", 22),
                add(Some("pick"), None, money(), "c", 23),
            ],
            "  int32 qty = 20 [features.field_presence = IMPLICIT];\n  map<string, string> notes = 21 [features.utf8_validation = NONE];\n  repeated .shop.Money totals = 22;\n",
        ),
    ];
    for (name, text, edits, declared) in cases {
        let mut after = replace_last_brace(text, "Order", &format!("{declared}}}\n"));
        if let Some(Edit::AddField {
            oneof: Some(_),
            field,
            ..
        }) = edits.last()
        {
            let printed = protocompat::remedy::print::field(field).unwrap();
            after = edited(
                &after,
                &[(
                    "    int32 b = 6;\n",
                    &format!("    int32 b = 6;\n    {printed}\n"),
                )],
            );
        }
        same_as_compiled(name, text, &edits, &after);
    }
}

#[test]
fn enum_edits() {
    let currency = || "shop.Currency".to_owned();
    for (syntax, text) in ALL {
        let after = edited(text, &[("  USD = 1;\n", "  USD = 1;\n  GBP = 2;\n")]);
        let edits = [Edit::AddEnumValue {
            enum_name: currency(),
            name: "GBP".into(),
            number: 2,
        }];
        same_as_compiled(&format!("{syntax} add value"), text, &edits, &after);
        let after = edited(text, &[("USD = 1;", "USD = -5;")]);
        let edits = [Edit::SetEnumNumber {
            enum_name: currency(),
            value: "USD".into(),
            number: -5,
        }];
        same_as_compiled(&format!("{syntax} value number"), text, &edits, &after);
        let after = edited(
            text,
            &[(
                "  USD = 1;\n",
                "  USD = 1;\n  EURO = 0;\n  option allow_alias = true;\n",
            )],
        );
        let edits = [
            Edit::AddEnumValue {
                enum_name: currency(),
                name: "EURO".into(),
                number: 0,
            },
            Edit::SetEnumOption {
                enum_name: currency(),
                option: EnumOption::AllowAlias,
                value: Value::Bool(true),
            },
        ];
        same_as_compiled(&format!("{syntax} alias"), text, &edits, &after);
    }
    let after = edited(
        EDITION_2023,
        &[(
            "  USD = 1;\n",
            "  USD = 1;\n  option features.enum_type = CLOSED;\n",
        )],
    );
    let edits = [Edit::SetEnumOption {
        enum_name: currency(),
        option: EnumOption::EnumType,
        value: ident("CLOSED"),
    }];
    same_as_compiled("e2023 closed enum", EDITION_2023, &edits, &after);
}

fn move_out(field: &str, label: Option<Label>) -> Edit {
    Edit::MoveOutOfOneof {
        message: order(),
        field: field.into(),
        label,
    }
}

fn move_into(field: &str, oneof: &str) -> Edit {
    Edit::MoveIntoOneof {
        message: order(),
        field: field.into(),
        oneof: oneof.into(),
    }
}

const PICK: &str = "  oneof pick {\n    string a = 5;\n    int32 b = 6;\n  }\n";

#[test]
fn move_out_of_oneof() {
    let cases: Vec<(&str, &str, Vec<Edit>, &str)> = vec![
        (
            "proto2 one out",
            PROTO2,
            vec![move_out("b", Some(Label::Optional))],
            "  oneof pick {\n    string a = 5;\n  }\n  optional int32 b = 6;\n",
        ),
        (
            "proto2 all out",
            PROTO2,
            vec![
                move_out("b", Some(Label::Optional)),
                move_out("a", Some(Label::Required)),
            ],
            "  optional int32 b = 6;\n  required string a = 5;\n",
        ),
        (
            "proto3 one out",
            PROTO3,
            vec![move_out("b", None)],
            "  oneof pick {\n    string a = 5;\n  }\n  int32 b = 6;\n",
        ),
        (
            "proto3 all out, one optional",
            PROTO3,
            vec![move_out("a", Some(Label::Optional)), move_out("b", None)],
            "  optional string a = 5;\n  int32 b = 6;\n",
        ),
        (
            "e2023 all out",
            EDITION_2023,
            vec![move_out("a", None), move_out("b", None)],
            "  string a = 5;\n  int32 b = 6;\n",
        ),
    ];
    for (name, text, edits, replaced) in cases {
        same_as_compiled(name, text, &edits, &edited(text, &[(PICK, replaced)]));
    }
}

#[test]
fn move_into_oneof() {
    let existing = "  oneof pick {\n    string a = 5;\n    int32 b = 6;\n    int64 id = 1;\n  }\n";
    for (syntax, text) in ALL {
        let declared = if syntax == "proto2" {
            "  optional int64 id = 1;\n"
        } else {
            "  int64 id = 1;\n"
        };
        let after = edited(text, &[(declared, ""), (PICK, existing)]);
        same_as_compiled(
            &format!("{syntax} into pick"),
            text,
            &[move_into("id", "pick")],
            &after,
        );
        let after = edited(text, &[(declared, "")]);
        let after = replace_last_brace(
            &after,
            "Order",
            "  oneof choice {\n    int64 id = 1;\n  }\n}\n",
        );
        same_as_compiled(
            &format!("{syntax} into a new oneof"),
            text,
            &[move_into("id", "choice")],
            &after,
        );
        // Every field of a oneof into another: the one left empty goes.
        let after = edited(text, &[(PICK, "")]);
        let after = replace_last_brace(
            &after,
            "Order",
            "  oneof choice {\n    string a = 5;\n    int32 b = 6;\n  }\n}\n",
        );
        let edits = [move_into("a", "choice"), move_into("b", "choice")];
        same_as_compiled(
            &format!("{syntax} a whole oneof into another"),
            text,
            &edits,
            &after,
        );
    }
    // A proto3 `optional` field leaves its synthetic oneof.
    let after = edited(
        PROTO3,
        &[
            ("  optional string note = 7;\n", ""),
            (
                PICK,
                "  oneof pick {\n    string a = 5;\n    int32 b = 6;\n    string note = 7;\n  }\n",
            ),
        ],
    );
    same_as_compiled(
        "proto3 optional into pick",
        PROTO3,
        &[move_into("note", "pick")],
        &after,
    );
}

#[test]
fn rename_type() {
    for (syntax, text) in ALL {
        let after = text.replace("Money", "Amount");
        let edits = [Edit::RenameType {
            type_name: "shop.Money".into(),
            name: "Amount".into(),
        }];
        same_as_compiled(&format!("{syntax} rename message"), text, &edits, &after);
        let after = text.replace("Currency", "Curr");
        let edits = [Edit::RenameType {
            type_name: "shop.Currency".into(),
            name: "Curr".into(),
        }];
        same_as_compiled(&format!("{syntax} rename enum"), text, &edits, &after);
    }
    // A type nested in a renamed one, and a map whose value is it.
    let text = "syntax = \"proto3\";\npackage shop;\nmessage Box { message Item { int32 n = 1; } }\nmessage Order {\n  Box.Item item = 1;\n  map<string, Box.Item> items = 2;\n}\n";
    let edits = [Edit::RenameType {
        type_name: "shop.Box".into(),
        name: "Crate".into(),
    }];
    same_as_compiled(
        "nested and map",
        text,
        &edits,
        &text.replace("Box", "Crate"),
    );
}

#[test]
fn set_file_option() {
    let edits = [Edit::SetFileOption {
        message: order(),
        option: FileOption::JavaStringCheckUtf8,
        value: Value::Bool(true),
    }];
    // protoc refuses the option under Editions.
    let mut tree = Tree::parse(&compile(Compiler::Protoc, "file-option", EDITION_2023)).unwrap();
    let error = apply(&mut tree, &edits).unwrap_err();
    assert!(error.contains("Editions files do not take"), "{error}");
    for (syntax, text) in &ALL[..2] {
        let first = text.lines().next().unwrap();
        let after = edited(
            text,
            &[(
                "package shop;\n",
                "package shop;\noption java_string_check_utf8 = true;\n",
            )],
        );
        same_as_compiled(
            &format!("{syntax} file option ({first})"),
            text,
            &edits,
            &after,
        );
    }
}

/// What a compiled set has that no fix adds is named.
#[test]
fn differences_name_what_was_planted() {
    let base = Tree::parse(&compile(Compiler::Protox, "planted-base", PROTO2)).unwrap();
    let planted = [
        (
            edited(
                PROTO2,
                &[("message Money", "message Injected {}\nmessage Money")],
            ),
            "message shop.Injected is there, but no fix adds it",
        ),
        (
            edited(PROTO2, &[("cents = 1;", "cents = 1 [deprecated = true];")]),
            "field shop.Money.cents: option deprecated is there, but no fix adds it",
        ),
        (
            edited(
                PROTO2,
                &[(
                    "package shop;\n",
                    "package shop;\noption java_package = \"evil\";\n",
                )],
            ),
            "option java_package is there, but no fix adds it",
        ),
        (
            edited(PROTO2, &[("id = 1;", "id = 1 [default = 3];")]),
            "field shop.Order.id: default differs (none intended, `3` compiled)",
        ),
        (
            edited(PROTO2, &[("USD = 1;", "USD = 1;\n  GBP = 2;")]),
            "enum value shop.GBP is there, but no fix adds it",
        ),
        (
            edited(
                PROTO2,
                &[(
                    "    int32 b = 6;\n",
                    "    int32 b = 6;\n    int32 c = 11;\n",
                )],
            ),
            "field shop.Order.c is there, but no fix adds it",
        ),
        (
            edited(
                PROTO2,
                &[(
                    "  optional double ratio = 9;\n",
                    "  oneof more { double ratio = 9; }\n",
                )],
            ),
            "field shop.Order.ratio: its oneof differs (none intended, more compiled)",
        ),
        (
            edited(
                PROTO2,
                &[("optional Money total", "optional Currency total")],
            ),
            "field shop.Order.total: type differs",
        ),
        (
            edited(
                PROTO2,
                &[("repeated int32 counts", "optional int32 counts")],
            ),
            "field shop.Order.counts: label differs",
        ),
    ];
    for (text, said) in planted {
        let compiled = Tree::parse(&compile(Compiler::Protox, "planted", &text)).unwrap();
        let found: Vec<String> = differences(&base, &compiled)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(found.iter().any(|d| d.contains(said)), "{said}: {found:#?}");
        assert!(
            found.iter().all(|d| d.starts_with("order.proto: ")),
            "{found:#?}"
        );
    }
    // An import, and a custom option, which prost's types would drop.
    let dir = tempdir("planted-import");
    std::fs::write(dir.join("evil.proto"), "syntax = \"proto2\";\npackage evil;\nimport \"google/protobuf/descriptor.proto\";\nextend google.protobuf.FieldOptions { optional string tag = 50001; }\n").unwrap();
    let imported = edited(
        PROTO2,
        &[("package shop;\n", "package shop;\nimport \"evil.proto\";\n")],
    );
    let custom = edited(
        &imported,
        &[("cents = 1;", "cents = 1 [(evil.tag) = \"x\"];")],
    );
    let set = |text: &str| {
        std::fs::write(dir.join("order.proto"), text).unwrap();
        Tree::parse(
            &protox::Compiler::new([&dir])
                .unwrap()
                .include_imports(true)
                .open_file("order.proto")
                .unwrap()
                .encode_file_descriptor_set(),
        )
        .unwrap()
    };
    let (with_import, with_option) = (set(&imported), set(&custom));
    let found: Vec<String> = differences(&base, &with_import)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        found.contains(
            &"order.proto: import \"evil.proto\" is there, but no fix adds it".to_owned()
        ),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|d| d.starts_with("evil.proto: the file is there")),
        "{found:#?}"
    );
    let found: Vec<String> = differences(&with_import, &with_option)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        found,
        ["order.proto: field shop.Money.cents: option (50001) is there, but no fix adds it"]
    );
    std::fs::remove_dir_all(&dir).ok();
    // Names from a hostile schema are printed inert.
    let mut hostile = base.clone();
    let mut bad = protocompat::remedy::descriptor::Message::new(
        protocompat::remedy::descriptor::Kind::Message,
    );
    bad.push(
        1,
        protocompat::remedy::descriptor::Value::Bytes(b"X\n\x1b[2J::error::".to_vec()),
    );
    hostile
        .file_mut(0)
        .unwrap()
        .push(4, protocompat::remedy::descriptor::Value::Message(bad));
    let found: Vec<String> = differences(&base, &hostile)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        found
            .iter()
            .all(|d| !d.contains('\n') && !d.contains('\x1b')),
        "{found:#?}"
    );
}

/// What protoc would refuse, `apply` refuses, naming the edit.
#[test]
fn refuses_what_cannot_be_applied() {
    let set = Tree::parse(&compile(Compiler::Protox, "refused", PROTO3)).unwrap();
    let int32 = || FieldType::Scalar(Scalar::Int32);
    let refused = [
        (
            set_number("nothing", 3),
            "field shop.Order.nothing is not in the schema",
        ),
        (set_number("id", 0), "not a field number"),
        (set_number("id", 19_500), "not a field number"),
        (set_number("id", 2), "two fields numbered 2"),
        (
            set_name("id", "currency"),
            "declares a field `currency` twice",
        ),
        (set_name("id", "tags-x"), "not an identifier"),
        (
            add(None, None, int32(), "pick", 30),
            "declares the name `pick` twice",
        ),
        (
            add(
                None,
                None,
                FieldType::Message("shop.Nowhere".into()),
                "x",
                30,
            ),
            "shop.Nowhere is not in the schema",
        ),
        (add(Some("nope"), None, int32(), "x", 30), "no oneof nope"),
        (
            set_option("id", FieldOption::Default, Value::Int(3)),
            "proto3 fields have no declared defaults",
        ),
        (
            set_option("id", FieldOption::FieldPresence, ident("IMPLICIT")),
            "only in Editions",
        ),
        (move_out("id", None), "in no oneof"),
        (
            move_into("counts", "pick"),
            "repeated field cannot be in a oneof",
        ),
        (
            Edit::AddEnumValue {
                enum_name: "shop.Currency".into(),
                name: "EUR".into(),
                number: 7,
            },
            "declares a value `EUR` twice",
        ),
        (
            Edit::SetEnumNumber {
                enum_name: "shop.Currency".into(),
                value: "EUR".into(),
                number: 3,
            },
            "first value must be 0",
        ),
        (
            Edit::RenameType {
                type_name: "shop.Money".into(),
                name: "Order".into(),
            },
            "declares the name `Order` twice",
        ),
    ];
    for (edit, said) in refused {
        let mut tree = set.clone();
        let error = apply(&mut tree, std::slice::from_ref(&edit)).unwrap_err();
        assert!(error.starts_with("cannot apply `"), "{error}");
        assert!(error.contains(said), "{said}: {error}");
    }
    let tree = Tree::parse(&compile(Compiler::Protox, "refused-2", PROTO2)).unwrap();
    let mut applied = tree.clone();
    let error = apply(
        &mut applied,
        &[set_option(
            "id",
            FieldOption::Default,
            Value::String("x".into()),
        )],
    )
    .unwrap_err();
    assert!(
        error.contains("not a default of the field's type"),
        "{error}"
    );
    let mut applied = tree;
    let error = apply(&mut applied, &[move_out("a", None)]).unwrap_err();
    assert!(error.contains("proto2 field needs a label"), "{error}");
    let _ = Path::new("");
}

/// protoc and protox make sets of one text that differ only where `differences` lets them.
#[test]
fn the_compilers_agree() {
    let defaults = edited(
        PROTO2,
        &[
            ("ratio = 9;", "ratio = 9 [default = 1e300];"),
            ("blob = 10;", "blob = 10 [default = \"\\000\\377'\"];"),
            ("id = 1;", "id = 1 [default = 0x10];"),
        ],
    );
    for (name, text) in [
        ("proto2", PROTO2),
        ("proto3", PROTO3),
        ("defaults", &defaults),
    ] {
        let protoc = Tree::parse(&compile(Compiler::Protoc, name, text)).unwrap();
        let protox = Tree::parse(&compile(Compiler::Protox, name, text)).unwrap();
        let found = differences(&protoc, &protox);
        assert!(found.is_empty(), "{name}: {found:#?}");
        if name == "defaults" {
            // protoc writes `1e+300` and `16`, protox its own spelling: compared by value.
            assert_ne!(protoc, protox, "the compilers spelled the defaults alike");
        }
    }
}

/// Edition 2024 as 2023, for the edits whose result it could change.
#[test]
fn edition_2024() {
    let text = EDITION_2023.replace("\"2023\"", "\"2024\"");
    let after = edited(&text, &[("id = 1;", "id = 11;")]);
    same_as_compiled("e2024 number", &text, &[set_number("id", 11)], &after);
    let edits = [add_with(
        None,
        None,
        FieldType::Map {
            key: Scalar::String,
            value: Box::new(FieldType::Message("shop.Money".into())),
        },
        "money_by_name",
        20,
        vec![(FieldOption::Deprecated, Value::Bool(true))],
    )];
    let after = replace_last_brace(
        &text,
        "Order",
        "  map<string, .shop.Money> money_by_name = 20 [deprecated = true];\n}\n",
    );
    same_as_compiled("e2024 map", &text, &edits, &after);
    let after = edited(&text, &[("  int64 id = 1;\n", "")]);
    let after = replace_last_brace(
        &after,
        "Order",
        "  oneof choice {\n    int64 id = 1;\n  }\n}\n",
    );
    same_as_compiled(
        "e2024 into a new oneof",
        &text,
        &[move_into("id", "choice")],
        &after,
    );
}
