//! The fresh name a remedy gives a field it keeps beside the old one, in a schema that reserves
//! a great many names. A message that reserved `a_v2` … `a_v160001` made one check take 23.5 s:
//! each candidate was compared with every reserved name in turn, and remedies are planned for
//! every check, `--fix` or not. The figure for this shape is printed by
//! `cargo bench -p protocompat-cli --bench reserved_names`.

use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
use protocompat::remedy::{Edit, Planner, Recheck};
use protocompat::{check, Limits, Strategy, PIP246};
use protocompat_testkit::schema_of_protos;

/// Message `p.M` with field `a = 1` of type `kind`, reserving `reserved`; built as descriptors
/// directly, since parsing 160,000 names as text takes a debug build long.
fn schema(kind: Type, reserved: Vec<String>) -> Vec<u8> {
    let message = DescriptorProto {
        name: Some("M".into()),
        field: vec![FieldDescriptorProto {
            name: Some("a".into()),
            number: Some(1),
            label: Some(Label::Optional as i32),
            r#type: Some(kind as i32),
            json_name: Some("a".into()),
            ..Default::default()
        }],
        reserved_name: reserved,
        ..Default::default()
    };
    let file = FileDescriptorProto {
        name: Some("order.proto".into()),
        package: Some("p".into()),
        syntax: Some("proto3".into()),
        message_type: vec![message],
        ..Default::default()
    };
    schema_of_protos(vec![file], "p.M", "order.proto")
}

/// The names each remedy of the check's findings gives field `a`.
fn new_names(reserved: Vec<String>) -> Vec<String> {
    let old = schema(Type::Int32, Vec::new());
    let new = schema(Type::String, reserved);
    let report = check(&[&old], &new, Strategy::Full).expect("a verdict");
    let findings: Vec<_> = report.failures.iter().chain(&report.warnings).collect();
    assert!(!findings.is_empty(), "int32 to string is a finding");
    let recheck = Recheck {
        existing: vec![old.as_slice()],
        new: &new,
        strategy: Strategy::Full,
        profile: &PIP246,
        limits: Limits::DEFAULT,
        work: 0,
    };
    let planner = Planner::new(&recheck, &report);
    findings
        .into_iter()
        .flat_map(|finding| planner.plan(finding).fix)
        .flat_map(|remedy| remedy.edits)
        .filter_map(|edit| match edit {
            Edit::SetName { field, name, .. } if field == "a" => Some(name),
            _ => None,
        })
        .collect()
}

#[test]
fn a_field_kept_beside_its_old_self_gets_the_first_name_not_reserved() {
    let names = new_names(vec!["a_v2".into(), "a_v4".into()]);
    assert!(!names.is_empty(), "a remedy renames field a");
    assert!(names.iter().all(|n| n == "a_v3"), "{names:?}");
}

/// 160,000 reserved names in a row: the first free name past them, in every direction's
/// remedy (the search is well inside its bound, and cheap with the names in a hash set).
#[test]
fn a_hundred_and_sixty_thousand_reserved_names_in_a_row_are_passed() {
    let reserved = (2..=160_001).map(|v| format!("a_v{v}")).collect();
    let names = new_names(reserved);
    assert!(!names.is_empty(), "a remedy renames field a");
    assert!(names.iter().all(|n| n == "a_v160002"), "{names:?}");
}
