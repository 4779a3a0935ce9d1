//! The memory budget of one check (`limit.maxCheckMemoryBytes`), with the metered allocator
//! installed as the JNI library and the CLI install it, and the CPU backstop
//! (`limit.maxCheckCpuMillis`) looked at in the same places.

use protocompat::budget::MeteredAllocator;
use protocompat::{Bounds, Checker, Limits, Strategy};
use protocompat_testkit::{bench_schemas, schema_data, schema_of_protos};

#[global_allocator]
static ALLOCATOR: MeteredAllocator<std::alloc::System> = MeteredAllocator(std::alloc::System);

#[test]
fn a_check_over_its_memory_budget_stops_and_says_so() {
    let bench = bench_schemas();
    let large = schema_data(&bench, "large.proto", "bench.Root");

    let roomy = Checker::new(Bounds::NONE);
    let report = roomy
        .check(&[], &large, Strategy::Full)
        .expect("the default budget holds a large schema");
    assert!(report.compatible);
    let peak = roomy.stats().last_check_peak_bytes;
    println!("a cold FULL check of the large schema held {peak} bytes at its peak");
    assert!(
        peak > 100 << 10,
        "a 240 KB schema decodes to more than 100 KiB, metered {peak}"
    );

    let tight = Checker::with_limits(
        Bounds::NONE,
        Limits {
            max_check_memory_bytes: 64 << 10,
            ..Limits::DEFAULT
        },
    );
    let refused = tight
        .check(&[], &large, Strategy::Full)
        .expect_err("over a 64 KiB budget");
    assert_eq!(refused.rule_id(), "RESOURCE_LIMIT_EXCEEDED");
    let text = refused.to_string();
    assert!(
        text.contains("over its budget of 64 KiB (limit.maxCheckMemoryBytes=N raises it)"),
        "{text}"
    );
    // The checker goes on working afterwards.
    assert!(
        roomy
            .check(&[&large], &large, Strategy::Full)
            .unwrap()
            .compatible
    );
}

/// The backstop under the work budget: a check whose thread has used more CPU time than
/// `limit.maxCheckCpuMillis` stops at the next look, whatever the work accounting says. A budget
/// of zero is spent by any check that decodes anything, so the refusal does not depend on the
/// machine's speed.
#[test]
fn a_check_over_its_cpu_budget_stops_and_says_so() {
    let bench = bench_schemas();
    let large = schema_data(&bench, "large.proto", "bench.Root");
    let none = Checker::with_limits(
        Bounds::NONE,
        Limits {
            max_check_cpu_millis: 0,
            ..Limits::DEFAULT
        },
    );
    let refused = none
        .check(&[&large], &large, Strategy::Full)
        .expect_err("no CPU time at all");
    assert_eq!(refused.rule_id(), "RESOURCE_LIMIT_EXCEEDED");
    let text = refused.to_string();
    assert!(
        text.contains("ms of CPU time after decoding the new schema, over its budget of 0 ms")
            && text.contains("(limit.maxCheckCpuMillis=N raises it)"),
        "{text}"
    );
    // The default lets the same check through.
    assert!(
        Checker::new(Bounds::NONE)
            .check(&[&large], &large, Strategy::Full)
            .unwrap()
            .compatible
    );
}

/// `shop.Order { optional string s = 1 [default = …]; }` (proto2).
fn with_string_default(default: &str) -> Vec<u8> {
    use prost_types::field_descriptor_proto::{Label, Type};
    use prost_types::{DescriptorProto, FieldDescriptorProto, FileDescriptorProto};
    let order = DescriptorProto {
        name: Some("Order".into()),
        field: vec![FieldDescriptorProto {
            name: Some("s".into()),
            number: Some(1),
            label: Some(Label::Optional as i32),
            r#type: Some(Type::String as i32),
            default_value: Some(default.into()),
            ..Default::default()
        }],
        ..Default::default()
    };
    let file = FileDescriptorProto {
        name: Some("order.proto".into()),
        package: Some("shop".into()),
        syntax: Some("proto2".into()),
        message_type: vec![order],
        ..Default::default()
    };
    schema_of_protos(vec![file], "shop.Order", "order.proto")
}

/// A finding shows a default in a few dozen bytes, and reads no more of it than that: a
/// default may be megabytes long, and a finding about it is made for every pair of a history
/// it is in. The `cost` fuzz target found the finding reading all of it (19 s of CPU for a
/// FULL_TRANSITIVE check of 2,560 versions against eleven 1 MB defaults, 59 ns per work
/// unit); here the same shows as heap: 8 MiB of a control character, escaped whole into six
/// bytes each (`\u{1}`) before being cut, held 56 MiB more at the check's peak.
#[test]
fn a_long_default_is_shown_without_reading_all_of_it() {
    let long = "\u{1}".repeat(8 << 20);
    let (old, new) = (with_string_default("a"), with_string_default(&long));
    let checker = Checker::new(Bounds::NONE);
    let report = checker.check(&[&old], &new, Strategy::Full).unwrap();
    let finding = report
        .failures
        .iter()
        .chain(&report.warnings)
        .find(|f| f.rule.id() == "DEFAULT_VALUE_CHANGED")
        .expect("the default changed");
    let shown = [&finding.writer, &finding.reader]
        .into_iter()
        .find(|text| text.contains("\\u{1}"))
        .expect("the long default is shown");
    assert!(shown.len() < 100, "{shown}");
    let peak = checker.stats().last_check_peak_bytes;
    // The same schema checked alone: decoded, nothing compared, nothing shown.
    checker.check(&[], &new, Strategy::Full).unwrap();
    let alone = checker.stats().last_check_peak_bytes;
    println!("a FULL check with an 8 MiB default held {peak} bytes at its peak, {alone} alone");
    assert!(
        peak < alone + (8 << 20),
        "showing the default held {} bytes more than decoding it",
        peak - alone
    );
}
