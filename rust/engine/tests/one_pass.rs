//! A set read in one pass (the model's reader keeping the prescan's counts) against the same set
//! walked by the prescan and then decoded: the one pass may give way, but whatever it builds is
//! exactly what the prescan and the decode build, and it never builds what they refuse.

use std::fs;
use std::path::Path;

use protocompat::model::{build_both_ways, prescan, Counts, Model, SchemaData};
use protocompat::{DecodeError, Limits};
use protocompat_testkit::sets::{compiled_sets, everything};
use protocompat_testkit::{fixtures, put_len, tempdir};

/// What is wrong when the one pass and the prescan disagree.
fn disagreement(
    (one_pass, after_prescan): (Option<Model>, Result<Model, DecodeError>),
) -> Option<String> {
    match (one_pass, after_prescan) {
        (None, _) => None,
        (Some(one), Ok(other)) if one == other => None,
        (Some(_), Ok(_)) => Some("the two ways build different models".into()),
        (Some(_), Err(error)) => Some(format!(
            "the one pass builds what the prescan refuses: {}",
            error.message
        )),
    }
}

/// Every `.schema` file under `dir`: the fixtures' schema data, good and bad.
fn schema_files(dir: &Path, found: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            schema_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "schema") {
            found.push((path.display().to_string(), fs::read(&path).unwrap()));
        }
    }
}

#[test]
fn compiled_sets_are_read_in_one_pass_into_the_same_model() {
    let sets = compiled_sets();
    assert!(sets.len() > 60, "the fixtures went missing");
    for set in &sets {
        let (one_pass, after_prescan) =
            build_both_ways(&set.bytes, &set.root_file, &Limits::DEFAULT);
        let one_pass = one_pass.unwrap_or_else(|| panic!("{}: not read in one pass", set.name));
        assert_eq!(Ok(one_pass), after_prescan, "{}", set.name);
    }
}

#[test]
fn fixture_schemas_good_and_bad_agree() {
    let mut files = Vec::new();
    schema_files(&fixtures(), &mut files);
    let (mut one_pass, mut refused) = (0, 0);
    for (name, data) in &files {
        let Ok(parsed) = SchemaData::parse(data) else {
            continue;
        };
        let both = build_both_ways(&parsed.descriptor_set, &parsed.root_file, &Limits::DEFAULT);
        one_pass += usize::from(both.0.is_some());
        refused += usize::from(both.1.is_err());
        if let Some(problem) = disagreement(both) {
            panic!("{name}: {problem}");
        }
    }
    // The editions fixtures are read in one pass; the bad catalogue is refused by the prescan
    // or the decode after it.
    assert!(one_pass > 40 && refused > 30, "{one_pass} {refused}");
}

/// Truncated and mutated sets: the mutations the prescan's own test makes, over sets using
/// every kind of declaration, options, ranges, groups, extensions and services.
#[test]
fn truncated_and_mutated_sets_never_pass_where_the_prescan_refuses() {
    let mut inputs = vec![(everything(), "order.proto".to_owned())];
    for set in compiled_sets() {
        if ["maps/old", "oneofs/new", "nested_types/new", "bench/small"]
            .contains(&set.name.as_str())
        {
            inputs.push((set.bytes, set.root_file));
        }
    }
    assert_eq!(inputs.len(), 5);
    let (mut tried, mut read, mut problems) = (0, 0, Vec::new());
    let mut try_set = |set: &[u8], root: &str, what: String| {
        tried += 1;
        let both = build_both_ways(set, root, &Limits::DEFAULT);
        read += usize::from(both.0.is_some());
        if let Some(problem) = disagreement(both) {
            problems.push(format!("{what}: {problem}"));
        }
    };
    for (set, root) in &inputs {
        for len in 0..set.len() {
            try_set(&set[..len], root, format!("{root} truncated to {len}"));
        }
        for at in 0..set.len() {
            for byte in [0x00, 0x01, 0x7f, 0x80, 0xff, set[at] ^ 0x01, set[at] ^ 0x04] {
                let mut mutated = set.clone();
                mutated[at] = byte;
                try_set(
                    &mutated,
                    root,
                    format!("{root}, byte {at} set to {byte:#04x}"),
                );
            }
        }
    }
    assert!(tried > 30_000, "{tried}");
    // Mutations inside names, numbers and options leave sets the one pass reads.
    assert!(read > 5_000, "{read}");
    problems.truncate(20);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each limit set just under what a set holds refuses it both ways; at what it holds, the
/// counts the one pass keeps exactly let it read the set.
#[test]
fn limits_hold_in_one_pass() {
    type Pick = fn(&mut Limits) -> &mut usize;
    type Count = fn(&Counts) -> usize;
    let limits: [(&str, Pick, Count, bool); 9] = [
        ("files", |l| &mut l.max_files, |c| c.files, true),
        ("messages", |l| &mut l.max_messages, |c| c.messages, true),
        ("fields", |l| &mut l.max_fields, |c| c.fields, true),
        (
            "enum values",
            |l| &mut l.max_enum_values,
            |c| c.enum_values,
            true,
        ),
        (
            "declarations",
            |l| &mut l.max_declarations,
            |c| c.declarations,
            true,
        ),
        (
            "nested records",
            |l| &mut l.max_nested_records,
            |c| c.nested_records,
            true,
        ),
        (
            "name length",
            |l| &mut l.max_name_length,
            |c| c.longest_name,
            true,
        ),
        // Counted from above: a full name with one byte more, elements as half the set.
        (
            "full names",
            |l| &mut l.max_full_name_bytes,
            |c| c.full_name_bytes,
            false,
        ),
        ("elements", |l| &mut l.max_elements, |c| c.elements, false),
    ];
    let mut checked = 0;
    for set in compiled_sets() {
        let counts = prescan(&set.bytes).unwrap();
        for (what, pick, count, exact) in limits {
            let held = count(&counts);
            if held == 0 {
                continue;
            }
            let mut under = Limits::DEFAULT;
            *pick(&mut under) = held - 1;
            let both = build_both_ways(&set.bytes, &set.root_file, &under);
            assert!(both.0.is_none(), "{}: {what} under the limit", set.name);
            assert!(both.1.is_err(), "{}: {what} under the limit", set.name);
            let mut at = Limits::DEFAULT;
            *pick(&mut at) = held;
            let (one_pass, after_prescan) = build_both_ways(&set.bytes, &set.root_file, &at);
            assert!(after_prescan.is_ok(), "{}: {what} at the limit", set.name);
            if exact {
                assert!(one_pass.is_some(), "{}: {what} at the limit", set.name);
            }
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked}");
}

/// A message nested `depth` levels (the set is level 0, its file 1), the innermost holding a
/// field: past eight nested messages (`ONE_PASS_DEPTH`) the one pass gives way, and the
/// prescan decides.
#[test]
fn deep_nesting_is_left_to_the_prescan() {
    let nested = |depth: usize| {
        let mut message = Vec::new();
        put_len(1, b"M", &mut message);
        let mut field = Vec::new();
        put_len(1, b"f", &mut field);
        field.extend_from_slice(&[0x18, 0x01, 0x20, 0x01, 0x28, 0x03]);
        put_len(2, &field, &mut message);
        for _ in 3..=depth {
            let mut outer = Vec::new();
            put_len(1, b"M", &mut outer);
            put_len(3, &message, &mut outer);
            message = outer;
        }
        let mut file = Vec::new();
        put_len(1, b"deep.proto", &mut file);
        put_len(4, &message, &mut file);
        let mut set = Vec::new();
        put_len(1, &file, &mut set);
        set
    };
    for depth in [3, 9, 10, 11, 30, 90, 99, 100, 101] {
        let (one_pass, after_prescan) =
            build_both_ways(&nested(depth), "deep.proto", &Limits::DEFAULT);
        // Nesting levels 2..=depth are messages.
        let messages = depth - 1;
        assert_eq!(one_pass.is_some(), messages <= 8, "depth {depth}");
        assert_eq!(after_prescan.is_ok(), depth < 100, "depth {depth}");
    }
}

/// Groups in unknown fields count towards protobuf's recursion limit, which the prescan
/// checks: the one pass leaves every group to it.
#[test]
fn groups_in_unknown_fields_are_left_to_the_prescan() {
    let with_groups = |levels: usize| {
        let mut message = Vec::new();
        put_len(1, b"M", &mut message);
        // Field 99 of DescriptorProto, unknown to descriptor.proto: groups nested `levels` deep.
        message.extend(std::iter::repeat_n([0x9b, 0x06], levels).flatten());
        message.extend(std::iter::repeat_n([0x9c, 0x06], levels).flatten());
        let mut file = Vec::new();
        put_len(1, b"groups.proto", &mut file);
        put_len(4, &message, &mut file);
        let mut set = Vec::new();
        put_len(1, &file, &mut set);
        set
    };
    let mut refused = 0;
    for levels in [1, 2, 50, 96, 97, 98, 99, 100] {
        let both = build_both_ways(&with_groups(levels), "groups.proto", &Limits::DEFAULT);
        assert!(both.0.is_none(), "{levels} levels of groups");
        refused += usize::from(both.1.is_err());
        if let Some(problem) = disagreement(both) {
            panic!("{levels} levels of groups: {problem}");
        }
    }
    // The deepest are past the recursion limit.
    assert!((1..8).contains(&refused), "{refused}");
}

/// Names the model does not keep are counted too: a set whose longest name is a JSON name,
/// an import, an extendee or a method's input type is held to
/// `limit.maxNameLength` in one pass as after the prescan.
#[test]
fn every_kind_of_name_counts_towards_the_longest() {
    let long = "x".repeat(300);
    // A path of 300 bytes and more, in directories short enough for the file system.
    let import = format!("{0}/{0}/i.proto", "d".repeat(150));
    let files: [(&str, String); 4] = [
        (
            "a JSON name",
            format!("syntax = \"proto3\"; message M {{ int32 a = 1 [json_name = \"{long}\"]; }}"),
        ),
        (
            "an import",
            format!("syntax = \"proto3\"; import \"{import}\"; message M {{ int32 a = 1; }}"),
        ),
        (
            "an extendee",
            format!(
                "syntax = \"proto2\"; message M{long} {{ extensions 10 to 20; }} \
                 message M {{ extend M{long} {{ optional int32 e = 10; }} }}"
            ),
        ),
        (
            "a method's input type",
            format!(
                "syntax = \"proto3\"; message M {{ message N{long} {{}} }} \
                 service S {{ rpc Get(M.N{long}) returns (M); }}"
            ),
        ),
    ];
    for (what, proto) in files {
        let dir = tempdir();
        fs::write(dir.join("order.proto"), &proto).unwrap();
        fs::create_dir_all(dir.join(&import).parent().unwrap()).unwrap();
        fs::write(dir.join(&import), "syntax = \"proto3\";").unwrap();
        let set = protox::compile(["order.proto"], [&dir]).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        let bytes = prost::Message::encode_to_vec(&set);
        let longest = prescan(&bytes).unwrap().longest_name;
        assert!(longest >= 300, "{what}: {longest}");
        let mut limits = Limits::DEFAULT;
        limits.max_name_length = longest - 1;
        let both = build_both_ways(&bytes, "order.proto", &limits);
        assert!(both.0.is_none() && both.1.is_err(), "{what}");
        limits.max_name_length = longest;
        let both = build_both_ways(&bytes, "order.proto", &limits);
        assert!(both.0.is_some() && both.0 == both.1.ok(), "{what}");
    }
}
