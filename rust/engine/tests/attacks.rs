//! Attacks by a client that may upload schemas (issue 9; docs/rules.md#remembered-results,
//! docs/rules.md#limits): none may get an incompatible schema accepted, and none may make one
//! check hold unbounded memory.
//!
//! `PROTOCOMPAT_WRITE_FIXTURES=1 cargo test --test attacks` rewrites `tests/fixtures/attacks/`
//! (the colliding pair the Java tests send through JNI); without it, a difference fails.

use base64::Engine;
use protocompat::report::{KEPT_FINDINGS, TEXT_LIMIT};
use protocompat::{check, Bounds, Checker, Limits, Report, RuleId, Strategy};
use protocompat_testkit::collide::collide;
use protocompat_testkit::{descriptor_set_from_text, fixtures, schema_from_text};
use xxhash_rust::xxh3::{xxh3_128, xxh3_128_with_seed};

const BASE: &str = "syntax = \"proto3\";\npackage shop;\n\
    message Order { int64 id = 1; }\nmessage Other { int64 id = 1; }\n";
const ACCEPTED: &str = "syntax = \"proto3\";\npackage shop;\n\
    message Order { int64 id = 1; string note = 2; }\nmessage Other { int64 id = 1; }\n";
/// Another root, and a field retyped: rejected against BASE whenever it is really checked.
const TWIN: &str = "syntax = \"proto3\";\npackage shop;\n\
    message Order { string id = 1; string note = 2; }\nmessage Other { int64 id = 1; }\n";

/// Schema data led by an extra key `x` whose string value the reader ignores: the room the
/// attacker needs for compensating bytes. Every difference between the pair stays inside the
/// first 1 KiB; a second ignored key pads the data past it.
fn with_junk(proto: &str, root: &str) -> (Vec<u8>, std::ops::Range<usize>) {
    let set = base64::engine::general_purpose::STANDARD.encode(descriptor_set_from_text(proto));
    let junk = 6..760;
    let mut data = b"{\"x\":\"".to_vec();
    data.resize(junk.end, b'a');
    data.extend_from_slice(
        format!(
            "\",\"rootMessageTypeName\":\"{root}\",\"rootFileDescriptorName\":\"order.proto\",\
             \"fileDescriptorSet\":\"{set}\",\"y\":\"{}\"}}",
            "b".repeat(300)
        )
        .as_bytes(),
    );
    (data, junk)
}

/// The accepted schema and its twin, colliding under `xxh3_128_with_seed(_, seed)`.
fn colliding_pair(seed: u64) -> (Vec<u8>, Vec<u8>) {
    let (accepted, junk) = with_junk(ACCEPTED, "shop.Order");
    let (mut twin, twin_junk) = with_junk(TWIN, "shop.Other");
    assert_eq!(junk, twin_junk);
    collide(&accepted, &mut twin, junk, seed);
    (accepted, twin)
}

fn base() -> Vec<u8> {
    schema_from_text(BASE, "shop.Order")
}

fn verdict(checker: &Checker, existing: &[&[u8]], proposed: &[u8]) -> Report {
    checker
        .check(existing, proposed, Strategy::Full)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn assert_twin_rejected(checker: &Checker, base: &[u8], accepted: &[u8], twin: &[u8]) {
    assert!(verdict(checker, &[base], accepted).compatible);
    let after_accepted = verdict(checker, &[base], twin);
    assert!(
        !after_accepted.compatible,
        "{}",
        after_accepted.render_text()
    );
    assert_eq!(after_accepted.failures[0].rule, RuleId::RootMessageChanged);
    let against_accepted = verdict(checker, &[accepted], twin);
    assert!(
        !against_accepted.compatible,
        "{}",
        against_accepted.render_text()
    );
    // A fresh checker, which has remembered nothing, agrees.
    let fresh = verdict(&Checker::new(Bounds::DEFAULT), &[base], twin);
    assert_eq!(fresh.render_text(), after_accepted.render_text());
}

/// The attack as found: caches keyed by unseeded XXH3-128 took the twin for the schema they
/// had already accepted.
#[test]
fn a_twin_colliding_under_xxh3_is_checked_as_itself() {
    let (accepted, twin) = colliding_pair(0);
    assert_ne!(accepted, twin);
    assert_eq!(xxh3_128(&accepted), xxh3_128(&twin));
    assert_twin_rejected(&Checker::new(Bounds::DEFAULT), &base(), &accepted, &twin);
}

/// Even a collision aimed at the checker's own index digest changes nothing: every hit is
/// confirmed against the bytes.
#[test]
fn a_twin_colliding_under_the_index_digest_is_checked_as_itself() {
    let seed = 0x0123_4567_89ab_cdef;
    let (accepted, twin) = colliding_pair(seed);
    assert_eq!(
        xxh3_128_with_seed(&accepted, seed),
        xxh3_128_with_seed(&twin, seed)
    );
    let checker = Checker::with_index_seed(Bounds::DEFAULT, Limits::DEFAULT, seed);
    assert_twin_rejected(&checker, &base(), &accepted, &twin);
}

#[test]
fn the_committed_colliding_pair_is_the_generated_one() {
    let (accepted, twin) = colliding_pair(0);
    let dir = fixtures().join("attacks");
    let files = [
        ("xxh3_base.schema", base()),
        ("xxh3_accepted.schema", accepted),
        ("xxh3_twin.schema", twin),
    ];
    if std::env::var_os("PROTOCOMPAT_WRITE_FIXTURES").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, data) in &files {
            std::fs::write(dir.join(name), data).unwrap();
        }
    }
    for (name, data) in &files {
        let committed = std::fs::read(dir.join(name)).unwrap_or_default();
        assert!(
            committed == *data,
            "tests/fixtures/attacks/{name} differs from the generator: \
             run PROTOCOMPAT_WRITE_FIXTURES=1 cargo test --test attacks"
        );
    }
}

/// 5,000 fields retyped int32 -> int64 in a message under a long package name: compatible
/// with 5,000 warnings per direction. Only the first findings are held, however many.
#[test]
fn thousands_of_warnings_are_counted_not_held() {
    let package = "p".repeat(1000);
    let fields = |kind: &str| {
        (1..=5000)
            .map(|i| format!("{kind} f{i} = {i};"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let old = schema_from_text(
        &format!(
            "syntax = \"proto3\";\npackage {package};\nmessage Root {{ {} }}\n",
            fields("int32")
        ),
        &format!("{package}.Root"),
    );
    let new = schema_from_text(
        &format!(
            "syntax = \"proto3\";\npackage {package};\nmessage Root {{ {} }}\n",
            fields("int64")
        ),
        &format!("{package}.Root"),
    );
    let report = check(&[&old], &new, Strategy::Full).unwrap();
    assert!(report.compatible);
    assert_eq!(report.total_warnings, 10_000);
    assert_eq!(report.warnings.len(), KEPT_FINDINGS);
    let held: usize = report
        .warnings
        .iter()
        .map(|w| w.path.len() + w.writer.len() + w.reader.len())
        .sum();
    assert!(
        held <= KEPT_FINDINGS * 1024,
        "{held} bytes of findings held"
    );
    let text = report.render_text();
    assert!(text.len() <= TEXT_LIMIT);
    assert!(text.contains("10000 warnings"), "{text}");
}
