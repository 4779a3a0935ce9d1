//! Our compact model against prost-reflect, field by field: for every non-Editions fixture,
//! the benchmark schemas and generated schemas, each field reachable from the root has the same
//! facts in both (number, name, kind and type name, cardinality, packed, presence, default),
//! and each reachable enum the same values. prost-reflect cannot read Editions, so the Editions
//! fixtures are checked by their expected verdicts instead (`tests/editions.rs`).

use std::collections::{HashSet, VecDeque};
use std::fs;

use prost::Message;
use prost_reflect::{Cardinality as PrCardinality, DescriptorPool, Kind as PrKind, Value};
use protocompat::model::{Cardinality, DefaultValue, Kind, MessageRef, SchemaData};
use protocompat::Schema;
use protocompat_testkit::{bench_schemas, fixtures, schema_data, schema_of_bytes, tempdir};

/// Compares the model of `data` with prost-reflect's pool of the same descriptor set, over
/// everything reachable from the root. Returns how many fields were compared.
fn compare(data: &[u8], what: &str) -> usize {
    let parsed = SchemaData::parse(data).unwrap();
    let pool = DescriptorPool::decode(parsed.descriptor_set.as_slice())
        .unwrap_or_else(|e| panic!("{what}: prost-reflect refuses it: {e}"));
    let schema = Schema::decode(data).unwrap_or_else(|e| panic!("{what}: {}", e.message));
    let mut queue: VecDeque<MessageRef> = VecDeque::from([schema.root()]);
    let mut seen: HashSet<String> = HashSet::new();
    let mut compared = 0;
    while let Some(ours) = queue.pop_front() {
        if !seen.insert(ours.full_name().to_owned()) {
            continue;
        }
        let theirs = pool
            .get_message_by_name(ours.full_name())
            .unwrap_or_else(|| panic!("{what}: prost-reflect has no {}", ours.full_name()));
        let place = format!("{what}: {}", ours.full_name());
        assert_eq!(ours.is_map_entry(), theirs.is_map_entry(), "{place}");
        assert_eq!(ours.file().name(), theirs.parent_file().name(), "{place}");
        assert_eq!(
            ours.fields().len(),
            theirs.fields().len(),
            "{place}: field count"
        );
        for field in ours.fields() {
            let their = &theirs.get_field(field.number()).unwrap_or_else(|| {
                panic!("{place}: prost-reflect has no field {}", field.number())
            });
            let place = format!("{place}.{}", field.name());
            assert_eq!(field.name(), their.name(), "{place}");
            assert_eq!(field.number(), their.number(), "{place}");
            assert_eq!(
                ours.field(field.number()).unwrap().id(),
                field.id(),
                "{place}"
            );
            assert_eq!(
                ours.field_named(field.name()).unwrap().id(),
                field.id(),
                "{place}"
            );
            assert_eq!(kind(&field.kind()), their_kind(their), "{place}: kind");
            let cardinality = match their.cardinality() {
                PrCardinality::Optional => Cardinality::Optional,
                PrCardinality::Required => Cardinality::Required,
                PrCardinality::Repeated => Cardinality::Repeated,
            };
            assert_eq!(field.cardinality(), cardinality, "{place}: cardinality");
            assert_eq!(field.is_packed(), their.is_packed(), "{place}: packed");
            assert_eq!(
                field.has_presence(),
                their.supports_presence(),
                "{place}: presence"
            );
            assert_eq!(field.is_delimited(), their.is_group(), "{place}: group");
            if !field.is_repeated() && !matches!(field.kind(), Kind::Message(_) | Kind::Group(_)) {
                assert_eq!(
                    field.default_value().map(|d| default(&d)),
                    Some(their_default(&their.default_value())),
                    "{place}: default"
                );
            }
            if let Kind::Enum(e) = field.kind() {
                let their_enum = pool.get_enum_by_name(e.full_name()).unwrap();
                // prost-reflect lists values by number; the first declared is checked above,
                // through the default.
                let mut values: Vec<(String, i32)> =
                    e.values().map(|(n, v)| (n.to_owned(), v)).collect();
                let mut their_values: Vec<(String, i32)> = their_enum
                    .values()
                    .map(|v| (v.name().to_owned(), v.number()))
                    .collect();
                values.sort();
                their_values.sort();
                assert_eq!(values, their_values, "{place}: enum values");
            }
            if let Some(message) = field.kind().message() {
                queue.push_back(message);
            }
            compared += 1;
        }
    }
    compared
}

fn kind(kind: &Kind) -> String {
    match kind {
        Kind::Scalar(s) => s.name().to_owned(),
        Kind::Enum(e) => format!("enum {}", e.full_name()),
        Kind::Message(m) | Kind::Group(m) => format!("message {}", m.full_name()),
    }
}

fn their_kind(field: &prost_reflect::FieldDescriptor) -> String {
    match field.kind() {
        PrKind::Message(m) => format!("message {}", m.full_name()),
        PrKind::Enum(e) => format!("enum {}", e.full_name()),
        PrKind::Double => "double".into(),
        PrKind::Float => "float".into(),
        PrKind::Int32 => "int32".into(),
        PrKind::Int64 => "int64".into(),
        PrKind::Uint32 => "uint32".into(),
        PrKind::Uint64 => "uint64".into(),
        PrKind::Sint32 => "sint32".into(),
        PrKind::Sint64 => "sint64".into(),
        PrKind::Fixed32 => "fixed32".into(),
        PrKind::Fixed64 => "fixed64".into(),
        PrKind::Sfixed32 => "sfixed32".into(),
        PrKind::Sfixed64 => "sfixed64".into(),
        PrKind::Bool => "bool".into(),
        PrKind::String => "string".into(),
        PrKind::Bytes => "bytes".into(),
    }
}

/// A default as text both sides can be compared by (NaN included).
fn default(value: &DefaultValue) -> String {
    match value {
        DefaultValue::Bool(v) => format!("bool {v}"),
        DefaultValue::I32(v) => format!("i32 {v}"),
        DefaultValue::I64(v) => format!("i64 {v}"),
        DefaultValue::U32(v) => format!("u32 {v}"),
        DefaultValue::U64(v) => format!("u64 {v}"),
        DefaultValue::F32(v) => format!("f32 {v:?}"),
        DefaultValue::F64(v) => format!("f64 {v:?}"),
        DefaultValue::String(v) => format!("string {v:?}"),
        DefaultValue::Bytes(v) => format!("bytes {v:?}"),
        DefaultValue::Enum(v) => format!("enum {v}"),
    }
}

fn their_default(value: &Value) -> String {
    match value {
        Value::Bool(v) => format!("bool {v}"),
        Value::I32(v) => format!("i32 {v}"),
        Value::I64(v) => format!("i64 {v}"),
        Value::U32(v) => format!("u32 {v}"),
        Value::U64(v) => format!("u64 {v}"),
        Value::F32(v) => format!("f32 {v:?}"),
        Value::F64(v) => format!("f64 {v:?}"),
        Value::String(v) => format!("string {v:?}"),
        Value::Bytes(v) => format!("bytes {:?}", v.to_vec()),
        Value::EnumNumber(v) => format!("enum {v}"),
        other => format!("{other:?}"),
    }
}

#[test]
fn every_compat_fixture_reads_the_same_in_both_models() {
    let mut fields = 0;
    let mut schemas = 0;
    for case in fs::read_dir(fixtures().join("compat")).unwrap() {
        let case = case.unwrap().path();
        let expect: serde_json::Value =
            serde_json::from_slice(&fs::read(case.join("expect.json")).unwrap()).unwrap();
        let root_file = expect["root_file"].as_str().unwrap();
        for (side, root) in [("old", "root_message"), ("new", "new_root_message")] {
            let root = expect[root]
                .as_str()
                .or(expect["root_message"].as_str())
                .unwrap();
            let data = schema_data(&case.join(side), root_file, root);
            fields += compare(&data, &format!("{}/{side}", case.display()));
            schemas += 1;
        }
    }
    println!("{schemas} fixture schemas, {fields} fields compared");
    assert!(
        schemas >= 60 && fields >= 100,
        "{schemas} schemas, {fields} fields"
    );
}

#[test]
fn the_benchmark_schemas_read_the_same_in_both_models() {
    let bench = bench_schemas();
    for size in ["small", "medium", "large"] {
        let data = schema_data(&bench, &format!("{size}.proto"), "bench.Root");
        let fields = compare(&data, size);
        assert!(fields > 10, "{size}: {fields} fields");
    }
}

/// A small deterministic generator (xorshift), so a failure can be replayed by its seed.
struct Random(u64);

impl Random {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }
}

const SCALARS: &[(&str, &[&str])] = &[
    ("double", &["1.5", "-0.25", "inf", "-inf", "nan", "1e10"]),
    ("float", &["0.1", "-3", "inf", "nan"]),
    ("int32", &["-7", "0x1F", "017", "2147483647", "-2147483648"]),
    ("int64", &["-9223372036854775808", "42"]),
    ("uint32", &["4294967295", "0"]),
    ("uint64", &["18446744073709551615"]),
    ("sint32", &["-1"]),
    ("sint64", &["-2"]),
    ("fixed32", &["3"]),
    ("fixed64", &["4"]),
    ("sfixed32", &["-5"]),
    ("sfixed64", &["-6"]),
    ("bool", &["true", "false"]),
    ("string", &["\"hi\"", "\"caf\\303\\251\"", "\"\""]),
    ("bytes", &["\"\\001\\x02z\"", "\"\\n\\t\\\\\""]),
];

/// One random file: messages with scalar, enum, message, map, oneof, group and repeated
/// fields, packed options and defaults, in proto2 or proto3.
fn generated(seed: u64) -> (String, &'static str) {
    let mut random = Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let proto3 = random.next(2) == 0;
    let mut text = format!(
        "syntax = \"{}\";\npackage gen;\nenum Color {{ RED = 0; {}GREEN = 5; BLUE = -3; }}\n",
        if proto3 { "proto3" } else { "proto2" },
        if random.next(2) == 0 {
            "option allow_alias = true; ALIAS = 5; "
        } else {
            ""
        }
    );
    let messages = 2 + random.next(4);
    for m in 0..messages {
        text.push_str(&format!("message M{m} {{\n"));
        let fields = 1 + random.next(8);
        let mut number = 0;
        for f in 0..fields {
            number += 1 + random.next(3);
            let label = match (proto3, random.next(4)) {
                (true, 0) => "optional ",
                (true, 1) => "repeated ",
                (true, _) => "",
                (false, 0) => "required ",
                (false, 1) => "repeated ",
                (false, _) => "optional ",
            };
            let repeated = label == "repeated ";
            match random.next(10) {
                0 => text.push_str(&format!("  {label}Color f{f} = {number}{};\n", {
                    if !proto3 && !repeated && random.next(2) == 0 {
                        " [default = BLUE]"
                    } else {
                        ""
                    }
                })),
                1 => text.push_str(&format!(
                    "  {label}M{} f{f} = {number};\n",
                    random.next(messages)
                )),
                2 => text.push_str(&format!(
                    "  map<string, M{}> f{f} = {number};\n",
                    random.next(messages)
                )),
                3 => {
                    text.push_str(&format!(
                        "  oneof choice{f} {{ int32 f{f} = {number}; string g{f} = {}; }}\n",
                        number + 1
                    ));
                    number += 1;
                }
                4 if !proto3 => text.push_str(&format!(
                    "  {label}group G{m}x{f} = {number} {{ optional int32 inner = 1; }}\n"
                )),
                _ => {
                    let (scalar, defaults) = SCALARS[random.next(SCALARS.len())];
                    let mut options = Vec::new();
                    if !proto3 && !repeated && random.next(2) == 0 {
                        options.push(format!(
                            "default = {}",
                            defaults[random.next(defaults.len())]
                        ));
                    }
                    if repeated && !matches!(scalar, "string" | "bytes") && random.next(2) == 0 {
                        options.push(format!("packed = {}", random.next(2) == 0));
                    }
                    let options = if options.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", options.join(", "))
                    };
                    text.push_str(&format!("  {label}{scalar} f{f} = {number}{options};\n"));
                }
            }
        }
        text.push_str("}\n");
    }
    text.push_str("message Root {\n");
    for m in 0..messages {
        let label = if proto3 { "" } else { "optional " };
        text.push_str(&format!("  {label}M{m} m{m} = {};\n", m + 1));
    }
    text.push_str("}\n");
    (text, "gen.Root")
}

#[test]
fn generated_schemas_read_the_same_in_both_models() {
    let mut fields = 0;
    for seed in 1..=150u64 {
        let (text, root) = generated(seed);
        let dir = tempdir();
        fs::write(dir.join("order.proto"), &text).unwrap();
        let compiled = protox::compile(["order.proto"], [&dir]);
        fs::remove_dir_all(&dir).unwrap();
        let set = compiled.unwrap_or_else(|e| panic!("seed {seed}: {e:?}\n{text}"));
        let data = schema_of_bytes(set.encode_to_vec(), root, "order.proto");
        fields += compare(&data, &format!("seed {seed}\n{text}\n"));
    }
    println!("{fields} generated fields compared");
    assert!(fields > 1000, "{fields}");
}
