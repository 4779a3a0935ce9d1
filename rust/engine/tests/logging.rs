//! What a check writes to the log (issue 9, finding 4): one summary and the first warnings of
//! a check that compared something new, nothing for a check the caches answer, however many
//! warnings the schemas produce and however often clients reconnect.

use std::sync::Mutex;

use log::{Log, Metadata, Record};
use protocompat::{Bounds, Checker, Strategy};
use protocompat_testkit::schema_from_text;

struct Capture(Mutex<Vec<String>>);

impl Log for Capture {
    fn enabled(&self, _: &Metadata) -> bool {
        true
    }
    fn log(&self, record: &Record) {
        self.0.lock().unwrap().push(record.args().to_string());
    }
    fn flush(&self) {}
}

static LOGGED: Capture = Capture(Mutex::new(Vec::new()));

fn take() -> Vec<String> {
    std::mem::take(&mut *LOGGED.0.lock().unwrap())
}

#[test]
fn a_check_logs_a_summary_and_a_few_warnings_and_a_cached_one_nothing() {
    log::set_logger(&LOGGED).unwrap();
    log::set_max_level(log::LevelFilter::Trace);
    let fields = |kind: &str| {
        (1..=5000)
            .map(|i| format!("{kind} f{i} = {i};"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let schema = |kind: &str| {
        schema_from_text(
            &format!(
                "syntax = \"proto3\";\npackage shop;\nmessage Order {{ {} }}\n",
                fields(kind)
            ),
            "shop.Order",
        )
    };
    let (old, new) = (schema("int32"), schema("int64"));
    let checker = Checker::new(Bounds::DEFAULT);

    assert!(
        checker
            .check(&[&old], &new, Strategy::Full)
            .unwrap()
            .compatible
    );
    let first = take();
    assert_eq!(first.len(), 5, "{first:#?}");
    assert!(
        first[0].contains("Compatible PROTOBUF_NATIVE schema"),
        "{}",
        first[0]
    );
    assert!(first[0].contains("10000 warnings"), "{}", first[0]);
    assert!(first[1..4]
        .iter()
        .all(|l| l.contains("SCALAR_TYPE_CHANGED shop.Order.f")));
    assert!(
        first[4].ends_with("9997 more warnings not logged"),
        "{}",
        first[4]
    );

    for _ in 0..3 {
        checker.check(&[&old], &new, Strategy::Full).unwrap();
    }
    assert_eq!(take(), Vec::<String>::new(), "cached checks logged");

    // Two retyped fields, both directions: four warnings, one of them not logged.
    let two = |kind: &str| {
        schema_from_text(
            &format!(
                "syntax = \"proto3\";\npackage shop;\nmessage Order {{ {kind} a = 1; {kind} b = 2; }}\n"
            ),
            "shop.Order",
        )
    };
    checker
        .check(&[&two("int32")], &two("int64"), Strategy::Full)
        .unwrap();
    let logged = take();
    assert_eq!(logged.len(), 5, "{logged:#?}");
    assert!(
        logged[4].ends_with(" 1 more warning not logged"),
        "{}",
        logged[4]
    );
}
