//! The memory budget of one check (`limit.maxCheckMemoryBytes`), with the metered allocator
//! installed as the JNI library and the CLI install it, and the CPU backstop
//! (`limit.maxCheckCpuMillis`) looked at in the same places.

mod support;

use std::path::Path;

use protocompat::budget::MeteredAllocator;
use protocompat::{Bounds, Checker, Limits, Strategy};
use support::schema_data;

#[global_allocator]
static ALLOCATOR: MeteredAllocator<std::alloc::System> = MeteredAllocator(std::alloc::System);

#[test]
fn a_check_over_its_memory_budget_stops_and_says_so() {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/schemas");
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
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/schemas");
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
