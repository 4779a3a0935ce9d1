//! The caching checker: same verdicts as the uncached one, no reload when warm, bounds held.

use protocompat::{check, Bounds, CheckError, Checker, SchemaRef, SchemaSource, Strategy};
use protocompat_testkit::{schema_from_text, schema_of_bytes, shapes, tempdir, Counting};

fn version(field: &str) -> Vec<u8> {
    schema_from_text(
        &format!("syntax = \"proto3\";\npackage shop;\nmessage Order {{ int64 id = 1; {field} }}\nmessage Money {{ int64 cents = 1; }}\n"),
        "shop.Order",
    )
}

/// Runs a check, counting how often it copies a schema out of the source.
fn counted(
    checker: &Checker,
    existing: &[&[u8]],
    proposed: &[u8],
    strategy: Strategy,
) -> (String, usize) {
    let mut source = Counting {
        existing,
        proposed,
        copies: 0,
    };
    let text = match checker.check_source(&mut source, strategy) {
        Ok(report) => report.render_text(),
        Err(e) => e.to_string(),
    };
    (text, source.copies)
}

#[test]
fn warm_checks_load_nothing_and_answer_the_same() {
    let history: Vec<Vec<u8>> = (0..20)
        .map(|i| version(&format!("string f{i} = {};", i + 2)))
        .collect();
    let proposed = version("Money f0 = 2;");
    let existing: Vec<&[u8]> = history.iter().map(Vec::as_slice).collect();
    let checker = Checker::new(Bounds::DEFAULT);
    let uncached = check(&existing, &proposed, Strategy::FullTransitive)
        .unwrap()
        .render_text();

    let (cold, cold_loads) = counted(&checker, &existing, &proposed, Strategy::FullTransitive);
    let (warm, warm_loads) = counted(&checker, &existing, &proposed, Strategy::FullTransitive);
    assert_eq!(cold, uncached);
    assert_eq!(warm, uncached);
    assert_eq!(cold_loads, 21, "the new schema and each existing one, once");
    // Findings need the SHA of v0, which the schema cache still holds.
    assert_eq!(warm_loads, 0);
    assert!(
        uncached.contains("FIELD_KIND_CHANGED shop.Order.f0"),
        "{uncached}"
    );
    let stats = checker.stats();
    assert_eq!((stats.schemas, stats.decoded, stats.verdicts), (21, 21, 40));
}

/// Remembered summaries and results are enough: a warm check decodes nothing, even when no
/// decoded schema may be kept.
#[test]
fn warm_checks_need_no_decoded_schema() {
    let checker = Checker::new(Bounds {
        max_decoded_bytes: 0,
        ..Bounds::DEFAULT
    });
    let history: Vec<Vec<u8>> = (0..5)
        .map(|i| version(&format!("string f{i} = {};", i + 2)))
        .collect();
    let existing: Vec<&[u8]> = history.iter().map(Vec::as_slice).collect();
    let proposed = version("Money f0 = 2;");
    let (cold, cold_loads) = counted(&checker, &existing, &proposed, Strategy::FullTransitive);
    let (warm, warm_loads) = counted(&checker, &existing, &proposed, Strategy::FullTransitive);
    assert_eq!(cold, warm);
    assert_eq!((cold_loads, warm_loads), (6, 0));
    assert_eq!(checker.stats().decoded, 0);
}

#[test]
fn bounds_are_held_whatever_the_traffic() {
    let schemas: Vec<Vec<u8>> = (0..30)
        .map(|i| version(&format!("string f{i} = 2;")))
        .collect();
    let heaviest = schemas
        .iter()
        .map(|s| protocompat::checker::decoded_weight(&protocompat::Schema::decode(s).unwrap()))
        .max()
        .unwrap();
    let bounds = Bounds {
        max_schemas: 8,
        max_decoded_bytes: heaviest * 5,
        max_verdicts: 7,
        ..Bounds::DEFAULT
    };
    let checker = Checker::new(bounds);
    for pair in schemas.windows(2) {
        checker
            .check(&[pair[0].as_slice()], &pair[1], Strategy::Full)
            .unwrap();
        let stats = checker.stats();
        assert!(stats.schemas <= 8 && stats.decoded <= 5, "{stats:?}");
        assert!(stats.decoded_bytes <= bounds.max_decoded_bytes, "{stats:?}");
        assert!(stats.verdicts <= 7, "{stats:?}");
    }
    checker.clear();
    let stats = checker.stats();
    assert_eq!(
        stats.schemas + stats.decoded + stats.decoded_bytes + stats.verdicts,
        0
    );
}

#[test]
fn no_bounds_means_no_caching() {
    let checker = Checker::new(Bounds::NONE);
    let (a, b) = (version(""), version("string note = 2;"));
    let (_, first) = counted(&checker, &[&a], &b, Strategy::Full);
    let (_, second) = counted(&checker, &[&a], &b, Strategy::Full);
    assert_eq!((first, second), (2, 2));
    assert_eq!(checker.stats().schemas, 0);
}

#[test]
fn bad_schemas_are_remembered_as_bad() {
    let checker = Checker::new(Bounds::DEFAULT);
    let good = version("");
    let (first, loads) = counted(&checker, &[&good], b"not json", Strategy::Full);
    let (second, reloads) = counted(&checker, &[&good], b"not json", Strategy::Full);
    assert!(
        first.starts_with("SCHEMA_RECONSTRUCTION_FAILED: new schema"),
        "{first}"
    );
    assert_eq!(first, second);
    assert_eq!((loads, reloads), (1, 0));
}

#[test]
fn a_failing_source_is_an_internal_error() {
    struct Gone;
    impl SchemaSource for Gone {
        fn existing(&self) -> usize {
            1
        }
        fn inspect<R>(&mut self, _: SchemaRef, _: impl FnOnce(&[u8]) -> R) -> Result<R, String> {
            Err("the array went away".into())
        }
    }
    let checker = Checker::new(Bounds::DEFAULT);
    let result = checker.check_source(&mut Gone, Strategy::Full);
    assert_eq!(
        result.unwrap_err(),
        CheckError::Internal("the array went away".into())
    );
}

/// A schema whose bulk is a file the root never imports is cached by what was decoded, not by
/// its size: a warm history does not decode it again (it used to weigh more than the whole
/// decoded-schema cache and be decoded on every check).
#[test]
fn schemas_weigh_what_was_decoded() {
    let mut unimported = String::from("syntax = \"proto3\";\npackage bulk;\n");
    for m in 0..9_000 {
        unimported.push_str(&format!(
            "message M{m} {{ int64 a = 1; int64 b = 2; int64 c = 3; }}\n"
        ));
    }
    let dir = tempdir();
    std::fs::write(dir.join("bulk.proto"), unimported).unwrap();
    std::fs::write(
        dir.join("order.proto"),
        "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; }\n",
    )
    .unwrap();
    // Both files in the set, only order.proto in the root's closure.
    let mut set = protox::compile(["order.proto", "bulk.proto"], [&dir]).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    for file in &mut set.file {
        file.source_code_info = None;
    }
    use prost::Message;
    let big = schema_of_bytes(set.encode_to_vec(), "shop.Order", "order.proto");
    let checker = Checker::new(Bounds {
        // Room for the small decoded closure, far less than the big schema would take decoded.
        max_decoded_bytes: big.len() * 2,
        ..Bounds::DEFAULT
    });
    let (first, second) = (version("string a = 2;"), version("string b = 3;"));
    let (_, cold) = counted(&checker, &[&big], &first, Strategy::Full);
    let (_, warm) = counted(&checker, &[&big], &second, Strategy::Full);
    assert_eq!((cold, warm), (2, 1), "the big schema was decoded again");
}

/// A history larger than the cache of schema data: each version over 1 MiB is remembered by
/// its SHA-256, so the history and its results stay remembered, and a second check of it
/// decodes nothing.
#[test]
fn a_history_of_large_schemas_stays_remembered() {
    let history: Vec<Vec<u8>> = (0..6).map(|v| shapes::large_version(3 << 20, v)).collect();
    assert!(history.iter().all(|v| v.len() > 2 << 20));
    let (existing, proposed) = history.split_at(5);
    let existing: Vec<&[u8]> = existing.iter().map(Vec::as_slice).collect();
    let checker = Checker::new(Bounds {
        max_schema_data_bytes: 4 << 20,
        ..Bounds::DEFAULT
    });
    let (first, copies) = counted(&checker, &existing, &proposed[0], Strategy::FullTransitive);
    assert_eq!(copies, 6, "{first}");
    let (second, copies) = counted(&checker, &existing, &proposed[0], Strategy::FullTransitive);
    assert_eq!((second, copies), (first, 0));
    let stats = checker.stats();
    assert_eq!(stats.schemas, 6);
    assert!(stats.schema_data_bytes < 64 << 10, "{stats:?}");
}

/// Uploads to a history larger than the decoded-schema cache: each check keeps the decoded
/// schemas it has used rather than evicting each before the next upload needs it, and a
/// schema whose data is forgotten takes its decoded model with it.
#[test]
fn a_history_larger_than_the_decoded_cache_keeps_what_fits() {
    let history: Vec<Vec<u8>> = (0..9).map(|v| shapes::large_version(3 << 20, v)).collect();
    let one = protocompat::Schema::decode(&history[0])
        .unwrap()
        .heap_bytes();
    let checker = Checker::new(Bounds {
        // Room for three decoded versions of the nine.
        max_decoded_bytes: one * 3 + one / 2,
        ..Bounds::DEFAULT
    });
    let mut copied = Vec::new();
    for upload in 5..9 {
        let existing: Vec<&[u8]> = history[..upload].iter().map(Vec::as_slice).collect();
        let (text, copies) = counted(
            &checker,
            &existing,
            &history[upload],
            Strategy::FullTransitive,
        );
        assert!(text.starts_with("Compatible"), "{text}");
        copied.push(copies);
        let stats = checker.stats();
        assert!(
            stats.decoded <= 3 && stats.decoded <= stats.schemas,
            "{stats:?}"
        );
    }
    println!("schemas copied per upload (the new one and those decoded again): {copied:?}");
    // Cold, the first upload copies the new version and each of the five; each later one
    // copies the new version and the earlier versions that are not kept, not all of them.
    assert_eq!(copied[0], 6, "{copied:?}");
    for (i, &copies) in copied.iter().enumerate().skip(1) {
        let versions = 5 + i;
        assert!(copies <= 1 + versions - 2, "upload {versions}: {copied:?}");
    }
}
