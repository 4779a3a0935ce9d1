//! Heap used while checking hostile and normal schemas, counted by a wrapping allocator.
//!
//! The figures are printed, not asserted (they depend on the allocator and the toolchain):
//! `cargo test -p protocompat --release --test peak_memory -- --nocapture`. The test asserts
//! only the verdicts. Everything runs in one test so that no other test allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use protocompat::{check, Limits, Strategy};
use protocompat_testkit::{
    bench_schemas, put_len, root_file_with, root_file_with_enum_values, schema_data,
    schema_data_without_source_info, schema_of_bytes, schema_of_files, tempdir, tiny_root_file,
    unimported_file,
};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let now = CURRENT.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Checks `data` as a new schema under FULL; prints the heap it needed beyond what was already
/// allocated (the schema data itself), and the wall time.
fn measure(what: &str, data: &[u8]) -> Result<bool, String> {
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let verdict = check(&[], data, Strategy::Full)
        .map(|report| report.compatible)
        .map_err(|e| e.to_string());
    let elapsed = started.elapsed();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    println!(
        "{what}: {} bytes of schema data, peak heap {} bytes ({:.1} MB) above it, {:.0} ms",
        data.len(),
        peak,
        peak as f64 / 1e6,
        elapsed.as_secs_f64() * 1e3
    );
    verdict
}

fn refused_with(verdict: Result<bool, String>, says: &str) {
    match verdict {
        Err(message) => {
            assert!(message.starts_with("RESOURCE_LIMIT_EXCEEDED"), "{message}");
            assert!(message.contains(says), "{message}");
        }
        Ok(compatible) => panic!("expected a refusal, got compatible={compatible}"),
    }
}

/// One test, so that no other test allocates while one is measured.
#[test]
fn peak_heap_of_hostile_and_normal_schemas() {
    refusals_and_normal_checks();
    uncounted_repetitions_and_long_full_names();
    the_default_limits();
}

fn refusals_and_normal_checks() {
    let bench = bench_schemas();
    let normal = schema_data(&bench, "large.proto", "bench.Root");
    assert_eq!(
        measure("normal schema (bench/schemas/large.proto)", &normal),
        Ok(true)
    );
    drop(normal);

    let six_million = schema_of_files(&[&tiny_root_file(), &unimported_file(6_000_000, 0)]);
    assert!(six_million.len() < Limits::DEFAULT.max_schema_bytes);
    refused_with(
        measure(
            "6,000,000 empty messages in an unimported file",
            &six_million,
        ),
        "has 6000001 messages, over the limit of 50000",
    );
    drop(six_million);

    let within = schema_of_files(&[&tiny_root_file(), &unimported_file(9_000, 10)]);
    assert_eq!(
        measure(
            "9,000 messages and 90,000 fields in an unimported file",
            &within
        ),
        Ok(true)
    );
    drop(within);

    let enums = schema_of_files(&[&root_file_with_enum_values(800_000)]);
    refused_with(
        measure("800,000 enum values in the root file", &enums),
        "has 800000 enum values, over the limit of 100000",
    );
}

/// Field number `i`, stepping over the 19000-19999 protobuf reserves.
fn number(i: usize) -> usize {
    if i >= 19_000 {
        i + 1_000
    } else {
        i
    }
}

/// Inputs that passed every count before: repeated records the counts did not see, and full
/// names multiplied by nesting. Each is now refused before decoding.
fn uncounted_repetitions_and_long_full_names() {
    let oneofs = schema_of_files(&[&root_file_with(&[0x42, 0x00].repeat(5_000_000), &[])]);
    refused_with(
        measure("5,000,000 empty oneofs in the root message", &oneofs),
        "(limit.maxDeclarations=N raises it)",
    );
    drop(oneofs);

    let mut locations = Vec::new();
    put_len(9, &[0x0a, 0x00].repeat(5_000_000), &mut locations);
    let mut comments = Vec::new();
    put_len(6, &[0x32, 0x00].repeat(5_000_000), &mut comments);
    let mut detached = Vec::new();
    put_len(1, &comments, &mut detached);
    let mut source_comments = Vec::new();
    put_len(9, &detached, &mut source_comments);
    let comments = schema_of_files(&[&root_file_with(&[], &source_comments)]);
    refused_with(
        measure(
            "5,000,000 detached comments in one source-code location",
            &comments,
        ),
        "(limit.maxNestedRecords=N raises it)",
    );
    drop(comments);
    let source_info = schema_of_files(&[&root_file_with(&[], &locations)]);
    refused_with(
        measure(
            "5,000,000 source-code locations in the root file",
            &source_info,
        ),
        "(limit.maxNestedRecords=N raises it)",
    );
    drop(source_info);

    // A 1,000-byte package over three nested 1,000-byte message names, 90,000 fields in the
    // innermost: each field's full name is about 4,000 bytes.
    let name = |c: &str| c.repeat(1000);
    let fields: String = (1..=90_000)
        .map(|i| format!("int32 f{i} = {}; ", number(i)))
        .collect();
    let proto = format!(
        "syntax = \"proto3\";\npackage {};\nmessage Order {{ {} inner = 1; message {} {{ message {} {{ message {} {{ {fields} }} }} }} }}\n",
        name("p"),
        [name("a"), name("b"), name("c")].join("."),
        name("a"),
        name("b"),
        name("c"),
    );
    let dir = tempdir();
    std::fs::write(dir.join("order.proto"), proto).unwrap();
    let long_names =
        schema_data_without_source_info(&dir, "order.proto", &format!("{}.Order", name("p")));
    std::fs::remove_dir_all(&dir).unwrap();
    refused_with(
        measure("90,000 fields with 4,000-byte full names", &long_names),
        "bytes of full names, over the limit of 33554432",
    );
}

/// The largest inputs the default limits let through, each checked against itself changed
/// once (so that both directions walk everything).
fn the_default_limits() {
    use std::fmt::Write;
    let limits = Limits::DEFAULT;
    let dir = tempdir();
    let compile = |name: &str, proto: &str, root: &str| {
        std::fs::write(dir.join(name), proto).unwrap();
        schema_data_without_source_info(&dir, name, root)
    };
    // Fields: as many as allowed, in messages of 10, each held by one field of the root.
    let messages = (limits.max_fields - 10) / 11;
    let mut proto = String::from("syntax = \"proto3\";\npackage shop;\nmessage Order {\n");
    for m in 0..messages.min(limits.max_messages - 2) {
        writeln!(proto, "  M{m} m{m} = {};", number(m + 1)).unwrap();
    }
    proto.push_str("}\n");
    for m in 0..messages.min(limits.max_messages - 2) {
        write!(proto, "message M{m} {{").unwrap();
        for f in 1..=10 {
            write!(proto, " int32 f{f} = {f};").unwrap();
        }
        proto.push_str(" }\n");
    }
    let fields = compile("fields.proto", &proto, "shop.Order");
    println!(
        "at the field limit: {} messages of 10 fields, {} bytes of schema data",
        messages.min(limits.max_messages - 2),
        fields.len()
    );
    assert_eq!(
        measure("the most fields allowed, decoded and walked", &fields),
        Ok(true)
    );
    drop(fields);

    let values: String = (0..limits.max_enum_values - 1)
        .map(|v| format!("V{v} = {v}; "))
        .collect();
    let enums = compile(
        "enums.proto",
        &format!(
            "syntax = \"proto3\";\npackage shop;\nenum E {{ {values} }}\nmessage Order {{ E e = 1; }}\n"
        ),
        "shop.Order",
    );
    assert_eq!(measure("the most enum values allowed", &enums), Ok(true));

    // Empty oneofs are the cheapest declarations to send; named ones build.
    let mut oneofs = Vec::new();
    for i in 0..limits.max_declarations - 10 {
        let mut oneof = Vec::new();
        put_len(1, format!("o{i}").as_bytes(), &mut oneof);
        put_len(8, &oneof, &mut oneofs);
    }
    let oneofs = schema_of_files(&[&root_file_with(&oneofs, &[])]);
    assert_eq!(measure("the most oneofs allowed", &oneofs), Ok(true));

    // Records inside options, which the walk does not enter: uninterpreted options' name
    // parts, as many as the element limit allows.
    let mut option = Vec::new();
    for _ in 0..limits.max_nested_records - 100 {
        put_len(2, &[], &mut option);
    }
    let mut options = Vec::new();
    put_len(999, &option, &mut options);
    let mut message_options = Vec::new();
    put_len(7, &options, &mut message_options);
    let options = schema_of_files(&[&root_file_with(&message_options, &[])]);
    let verdict = measure(
        "the most name parts of one uninterpreted option allowed",
        &options,
    );
    println!("  ({verdict:?})");

    // Relative type names in the deepest package the name limit allows (512 components),
    // each naming a type of an imported file without a package: protobuf looks each up in
    // all 513 enclosing scopes. As many fields as the full-name limit allows (each field's
    // full name holds the package).
    let package = vec!["a"; limits.max_name_length / 2].join(".");
    let fields_allowed = limits.max_full_name_bytes / (package.len() + 16);
    let mut types = Vec::new();
    put_len(1, b"types.proto", &mut types);
    let mut t = Vec::new();
    put_len(1, b"T", &mut t);
    put_len(4, &t, &mut types);
    let mut order = Vec::new();
    put_len(1, b"Order", &mut order);
    for i in 1..=fields_allowed {
        let mut field = Vec::new();
        put_len(1, format!("f{i}").as_bytes(), &mut field);
        // number, label optional, type message
        prost::encoding::encode_key(3, prost::encoding::WireType::Varint, &mut field);
        prost::encoding::encode_varint(number(i) as u64, &mut field);
        field.extend_from_slice(&[0x20, 0x01, 0x28, 0x0b]);
        put_len(6, b"T", &mut field);
        put_len(2, &field, &mut order);
    }
    let mut file = Vec::new();
    put_len(1, b"order.proto", &mut file);
    put_len(2, package.as_bytes(), &mut file);
    put_len(3, b"types.proto", &mut file);
    put_len(4, &order, &mut file);
    put_len(12, b"proto3", &mut file);
    let mut set = Vec::new();
    put_len(1, &types, &mut set);
    put_len(1, &file, &mut set);
    let deep = schema_of_bytes(set, &format!("{package}.Order"), "order.proto");
    let verdict = measure(
        &format!("{fields_allowed} relative type names in a 512-component package"),
        &deep,
    );
    assert_eq!(verdict, Ok(true));
    drop(deep);

    // Strings the pool keeps: reserved names, as many as the element limit allows.
    let names = [0x52, 0x00].repeat(limits.max_elements - 100);
    let reserved = schema_of_files(&[&root_file_with(&names, &[])]);
    let verdict = measure("the most reserved names allowed", &reserved);
    println!("  ({verdict:?})");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `conservative` pairs types by structure, so one enum meets many: every (writer, reader) pair
/// of 99 closed enums of 1,000 values each (9,801 pairs, inside the default limits), each pair
/// reached through its own field, checked FULL against a copy whose enums and values are
/// renamed. Prints the heap and the time; the budget or the verdict is asserted.
#[test]
#[ignore]
fn many_pairs_of_large_enums_under_the_conservative_profile() {
    let schema = |prefix: &str, writer: bool| {
        let mut text = String::from("syntax = \"proto2\";\npackage shop;\nmessage Order {\n");
        for i in 0..99 * 99 {
            let e = if writer { i / 99 } else { i % 99 };
            text.push_str(&format!("  optional {prefix}{e} f{} = {};\n", i + 1, i + 1));
        }
        text.push_str("}\n");
        for e in 0..99 {
            text.push_str(&format!("enum {prefix}{e} {{\n"));
            for v in 0..1000 {
                text.push_str(&format!("  {prefix}{e}_V{v} = {v};\n"));
            }
            text.push_str("}\n");
        }
        let dir = tempdir();
        std::fs::write(dir.join("order.proto"), text).unwrap();
        let data = schema_data_without_source_info(&dir, "order.proto", "shop.Order");
        std::fs::remove_dir_all(&dir).unwrap();
        data
    };
    let (old, new) = (schema("E", true), schema("F", false));
    let checker = protocompat::Checker::new(protocompat::Bounds::NONE)
        .with_profile(&protocompat::CONSERVATIVE);
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let verdict = checker.check(&[&old], &new, Strategy::Full);
    let elapsed = started.elapsed();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    println!(
        "9,801 pairs of 1,000-value enums (conservative): {} + {} bytes, peak heap {:.1} MB, {:.0} ms: {}",
        old.len(),
        new.len(),
        peak as f64 / 1e6,
        elapsed.as_secs_f64() * 1e3,
        match &verdict {
            Ok(report) => report.summary(),
            Err(e) => e.to_string(),
        }
    );
    match verdict {
        Ok(report) => assert!(report.compatible, "{}", report.render_text()),
        Err(e) => assert!(e.to_string().starts_with("RESOURCE_LIMIT_EXCEEDED"), "{e}"),
    }
}
