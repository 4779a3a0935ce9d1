//! The search's budget, on the worst inputs we could build: each search spends at most its
//! share and the check's total, whatever the schemas, and says so when it runs out.

use prost::Message;

use super::budget::{ExampleBudget, Meter, PER_CHECK, PER_FINDING};
use super::search::{search, Subject};
use super::Example;
use crate::model::{FieldRef, MessageRef, SchemaData};
use crate::Schema;

/// Compiles one .proto text into a decoded schema rooted at `root`.
pub(super) fn schema(proto: &str, root: &str) -> Schema {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "protocompat-example-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.proto"), proto).unwrap();
    let mut set = protox::compile(["t.proto"], [&dir]).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    // As a Java client uploads it: source info would count against the limits.
    for file in &mut set.file {
        file.source_code_info = None;
    }
    let data = SchemaData {
        descriptor_set: set.encode_to_vec(),
        root_message: root.to_owned(),
        root_file: "t.proto".to_owned(),
    }
    .to_json();
    Schema::decode(data.as_bytes()).unwrap()
}

/// Field number `i` (from 1), stepping over the 19000-19999 protobuf reserves.
fn number(i: usize) -> usize {
    if i >= 19_000 {
        i + 1_000
    } else {
        i
    }
}

/// `members` fields of type `ty`, in `oneof choice` or not, after `preamble`: in `message Root`,
/// or `depth` messages down from it (`Root.l.l…`) when `depth` > 0.
pub(super) fn oneof_schema(
    syntax: &str,
    preamble: &str,
    ty: &str,
    members: usize,
    in_oneof: bool,
    depth: usize,
) -> String {
    let mut proto = format!("syntax = \"{syntax}\";\npackage t;\n{preamble}\n");
    let optional = if syntax == "proto2" { "optional " } else { "" };
    let name = |level: usize| match level {
        0 => "Root".to_owned(),
        l if l == depth => "Body".to_owned(),
        l => format!("L{l}"),
    };
    for level in 0..depth {
        proto.push_str(&format!(
            "message {} {{ {optional}{} l = 1; }}\n",
            name(level),
            name(level + 1)
        ));
    }
    proto.push_str(&format!("message {} {{\n", name(depth)));
    if in_oneof {
        proto.push_str("  oneof choice {\n");
    }
    let label = if in_oneof { "" } else { optional };
    for i in 1..=members {
        proto.push_str(&format!("    {label}{ty} f{i} = {};\n", number(i)));
    }
    if in_oneof {
        proto.push_str("  }\n");
    }
    proto.push_str("}\n");
    proto
}

/// The search for the ONEOF_CONFLICT finding on `oneof choice` of `old` (the writer) and
/// `new`, at the end of the path `Root.l.l…` of `depth` fields.
fn search_oneof(
    old: &Schema,
    new: &Schema,
    depth: usize,
    meter: &Meter,
) -> Result<Example, String> {
    let mut trail: Vec<(FieldRef, FieldRef)> = Vec::new();
    let (mut w, mut r): (MessageRef, MessageRef) = (old.root(), new.root());
    for _ in 0..depth {
        let pair = (w.field(1).unwrap(), r.field(1).unwrap());
        trail.push(pair);
        w = pair.0.kind().message().unwrap();
        r = pair.1.kind().message().unwrap();
    }
    let subject = Subject {
        name: Some("choice".to_owned()),
        number: None,
    };
    search((old.root(), new.root()), &trail, &subject, meter)
}

/// Members that read alike whichever is set: a closed enum of one value, whose only value is
/// its default. Every pair of them reads the same, so the search tries pair after pair.
const ALIKE: &str = "enum One { ONE = 0; }";

#[test]
fn the_issues_8000_members_find_their_example_in_two_messages() {
    let old = schema(
        &oneof_schema("proto3", "", "string", 8_000, false, 0),
        "t.Root",
    );
    let new = schema(
        &oneof_schema("proto3", "", "string", 8_000, true, 0),
        "t.Root",
    );
    let meter = Meter::of(PER_FINDING);
    let example = search_oneof(&old, &new, 0, &meter).expect("an example");
    assert_eq!(example.writer, "f1: \"a\" f2: \"a\"");
    assert_eq!(example.reader, "reads t.Root.f1 as \"\", not \"a\"");
    // The empty message, then the first pair: not the 32 million pairs of 8,000 members.
    assert_eq!(meter.tried(), 2);
    assert!(meter.spent() < 100_000, "{}", meter.spent());
}

#[test]
fn members_that_read_alike_stop_the_search_at_its_budget() {
    let old = schema(
        &oneof_schema("proto2", ALIKE, "One", 8_000, false, 0),
        "t.Root",
    );
    let new = schema(
        &oneof_schema("proto2", ALIKE, "One", 8_000, true, 0),
        "t.Root",
    );
    let meter = Meter::of(PER_FINDING);
    let why = search_oneof(&old, &new, 0, &meter).expect_err("no example");
    assert!(meter.out());
    assert_eq!(meter.spent(), PER_FINDING);
    let tried = meter.tried();
    assert_eq!(
        why,
        format!(
            "the search's budget ran out after trying {tried} messages along this path \
             without finding one"
        )
    );
    // Each pair reads all 8,000 fields of the reader's message for required ones: a few
    // hundred pairs, not millions.
    assert!((10..=PER_FINDING / 8_000).contains(&tried), "{tried}");
}

#[test]
fn a_small_oneof_of_members_that_read_alike_is_searched_to_the_end() {
    let old = schema(
        &oneof_schema("proto2", ALIKE, "One", 20, false, 0),
        "t.Root",
    );
    let new = schema(&oneof_schema("proto2", ALIKE, "One", 20, true, 0), "t.Root");
    let meter = Meter::of(PER_FINDING);
    let why = search_oneof(&old, &new, 0, &meter).expect_err("no example");
    assert_eq!(
        why,
        "every message tried along this path reads the same under both schemas"
    );
    // The empty message and each of the 190 pairs.
    assert_eq!(meter.tried(), 191);
    assert!(!meter.out());
}

#[test]
fn the_checks_total_runs_out_across_findings_and_says_so() {
    let old = schema(
        &oneof_schema("proto2", ALIKE, "One", 2_000, false, 0),
        "t.Root",
    );
    let new = schema(
        &oneof_schema("proto2", ALIKE, "One", 2_000, true, 0),
        "t.Root",
    );
    let subject = Subject {
        name: Some("choice".to_owned()),
        number: None,
    };
    let budget = ExampleBudget::of(PER_FINDING * 5 / 2);
    let mut reasons = Vec::new();
    for _ in 0..4 {
        let found = super::of((old.root(), new.root()), &[], &subject, &budget);
        reasons.push(found.expect_err("no example"));
    }
    assert!(reasons[0].starts_with("the search's budget ran out after trying "));
    assert_eq!(reasons[0], reasons[1]);
    let check = "the check's budget for examples ran out before this finding's search found \
                 one (earlier findings used it)";
    assert_eq!(reasons[2], check);
    assert_eq!(reasons[3], check);
    assert!(budget.ran_out());
    assert_eq!(PER_CHECK % PER_FINDING, 0);
}

/// A closed enum of `values` values and a field of it, in `message Root`; `lacking` leaves out
/// value `lacking` of the enum.
fn enum_schema(values: usize, lacking: Option<usize>) -> Schema {
    let mut proto = String::from("syntax = \"proto2\";\npackage t;\nenum E {\n");
    for i in (0..values).filter(|&i| Some(i) != lacking) {
        proto.push_str(&format!("  V{i} = {i};\n"));
    }
    proto.push_str("}\nmessage Root { optional E e = 1; map<int32, E> m = 2; }\n");
    schema(&proto, "t.Root")
}

fn search_field(old: &Schema, new: &Schema, name: &str, meter: &Meter) -> Result<Example, String> {
    let number = old.root().field_named(name).unwrap().number();
    let subject = Subject {
        name: Some(name.to_owned()),
        number: Some(number),
    };
    search((old.root(), new.root()), &[], &subject, meter)
}

#[test]
fn a_large_enum_is_read_in_one_pass() {
    // A closed enum of 100,000 values, one of which the reader lacks: the values the reader
    // does not know come first, found by one pass over each enum sorted by number.
    let old = enum_schema(100_000, None);
    let new = enum_schema(100_000, Some(99_999));
    let meter = Meter::of(PER_FINDING);
    let example = search_field(&old, &new, "e", &meter).expect("an example");
    assert_eq!(example.writer, "e: V99999");
    assert_eq!(meter.tried(), 1);
    assert!(meter.spent() < PER_FINDING / 4, "{}", meter.spent());
}

/// Prints what a unit of the budget costs on the worst shapes built here: run in release mode
/// (`cargo test -p protocompat --release --lib example::tests::unit_costs -- --ignored
/// --nocapture`) when the units or the budget change. Figures, not assertions.
#[test]
#[ignore]
fn unit_costs() {
    let big = |bytes: usize| {
        "message Big { required string s = 1 [default = \"".to_owned()
            + &"x".repeat(bytes)
            + "\"]; }"
    };
    let shapes: Vec<(&str, String, String, usize)> = vec![
        (
            "8,000 strings moved into a oneof",
            oneof_schema("proto3", "", "string", 8_000, false, 0),
            oneof_schema("proto3", "", "string", 8_000, true, 0),
            0,
        ),
        (
            "8,000 members that read alike",
            oneof_schema("proto2", ALIKE, "One", 8_000, false, 0),
            oneof_schema("proto2", ALIKE, "One", 8_000, true, 0),
            0,
        ),
        (
            "300 members that read alike",
            oneof_schema("proto2", ALIKE, "One", 300, false, 0),
            oneof_schema("proto2", ALIKE, "One", 300, true, 0),
            0,
        ),
        (
            "300 members that read alike, 85 messages deep",
            oneof_schema("proto2", ALIKE, "One", 300, false, 85),
            oneof_schema("proto2", ALIKE, "One", 300, true, 85),
            85,
        ),
        (
            "3,000 members too large to show",
            oneof_schema("proto2", &big(300), "Big", 3_000, false, 0),
            oneof_schema("proto2", &big(300), "Big", 3_000, true, 0),
            0,
        ),
        (
            "300 members with a default of 1 MB",
            oneof_schema("proto2", &big(1 << 20), "Big", 300, false, 0),
            oneof_schema("proto2", &big(1 << 20), "Big", 300, true, 0),
            0,
        ),
    ];
    // All but the last member in one writer oneof: pairs of them cannot be set together, and
    // are passed over one after another.
    let mut apart = oneof_schema("proto2", ALIKE, "One", 8_000, true, 0);
    apart = apart.replacen(
        "    One f8000 = 8000;\n  }\n",
        "  }\n  optional One f8000 = 8000;\n",
        1,
    );
    let shapes = shapes.into_iter().chain([(
        "8,000 members of which the writer keeps all but one in a oneof",
        apart,
        oneof_schema("proto2", ALIKE, "One", 8_000, true, 0),
        0,
    )]);
    let (all, lacking) = (
        enum_schema(100_000, None),
        enum_schema(100_000, Some(50_000)),
    );
    for field in ["e", "m"] {
        let meter = Meter::of(PER_FINDING);
        let started = std::time::Instant::now();
        let found = search_field(&all, &lacking, field, &meter);
        let took = started.elapsed();
        println!(
            "field {field} of an enum of 100,000 values: {} units, {} messages tried, {:.2} ms, \
             {:.2} ns a unit; {}",
            meter.spent(),
            meter.tried(),
            took.as_secs_f64() * 1e3,
            took.as_secs_f64() * 1e9 / meter.spent().max(1) as f64,
            found.map_or_else(|why| why, |example| example.reader)
        );
    }
    for (what, old, new, depth) in shapes {
        let (old, new) = (schema(&old, "t.Root"), schema(&new, "t.Root"));
        // The fastest of a few runs: the machine may be busy with something else.
        let mut runs = (0..5).map(|_| {
            let meter = Meter::of(PER_FINDING);
            let started = std::time::Instant::now();
            let found = search_oneof(&old, &new, depth, &meter);
            (started.elapsed(), meter, found)
        });
        let first = runs.next().unwrap();
        let took = runs.map(|(took, _, _)| took).fold(first.0, std::cmp::min);
        let (_, meter, found) = first;
        println!(
            "{what}: {} units, {} messages tried, {:.2} ms, {:.2} ns a unit; {}",
            meter.spent(),
            meter.tried(),
            took.as_secs_f64() * 1e3,
            took.as_secs_f64() * 1e9 / meter.spent().max(1) as f64,
            match found {
                Ok(example) => example.reader,
                Err(why) => why,
            }
        );
    }
}
