//! The prescan (`protocompat::model::prescan`) against prost: counts taken from the raw bytes
//! equal those of the decoded set, malformed bytes are refused in prost's words, and files the
//! root does not import are counted but never decoded.

use prost::Message;
use prost_types::{DescriptorProto, FileDescriptorProto, FileDescriptorSet};
use protocompat::model::{prescan, Counts};
use protocompat::{check, Strategy};
use protocompat_testkit::sets::{self, everything};
use protocompat_testkit::{put_len, schema_of_files, tiny_root_file};

/// The compiled sets of `protocompat_testkit::sets`, by name.
fn compiled_sets() -> Vec<(String, Vec<u8>)> {
    sets::compiled_sets()
        .into_iter()
        .map(|set| (set.name, set.bytes))
        .collect()
}

/// The counts, taken from the decoded set.
fn decoded_counts(set: &FileDescriptorSet) -> Counts {
    let mut counts = Counts {
        files: set.file.len(),
        ..Counts::default()
    };
    let mut names: Vec<&str> = Vec::new();
    for file in &set.file {
        names.extend([file.name(), file.package()]);
        names.extend(file.dependency.iter().map(String::as_str));
        let mut messages: Vec<&DescriptorProto> = file.message_type.iter().collect();
        let mut fields: Vec<_> = file.extension.iter().collect();
        let mut enums: Vec<_> = file.enum_type.iter().collect();
        while let Some(message) = messages.pop() {
            counts.messages += 1;
            names.push(message.name());
            names.extend(message.oneof_decl.iter().map(|o| o.name()));
            counts.declarations += 1 + message.oneof_decl.len();
            messages.extend(&message.nested_type);
            fields.extend(&message.field);
            fields.extend(&message.extension);
            enums.extend(&message.enum_type);
        }
        for field in fields {
            counts.fields += 1;
            counts.declarations += 1;
            names.extend([
                field.name(),
                field.extendee(),
                field.type_name(),
                field.json_name(),
            ]);
        }
        for e in enums {
            names.push(e.name());
            counts.enum_values += e.value.len();
            counts.declarations += 1 + e.value.len();
            names.extend(e.value.iter().map(|v| v.name()));
        }
        for service in &file.service {
            names.push(service.name());
            counts.declarations += 1 + service.method.len();
            for method in &service.method {
                names.extend([method.name(), method.input_type(), method.output_type()]);
            }
        }
    }
    counts.longest_name = names.iter().map(|n| n.len()).max().unwrap_or(0);
    counts.full_name_bytes = full_name_bytes(set);
    counts
}

/// The prescan's measure of full names: for each declaration, the package and then each
/// enclosing declaration's name and its own, each with one separator.
fn full_name_bytes(set: &FileDescriptorSet) -> usize {
    fn message(m: &DescriptorProto, prefix: usize) -> usize {
        let own = prefix + m.name().len() + 1;
        own + m
            .field
            .iter()
            .chain(&m.extension)
            .map(|f| own + f.name().len() + 1)
            .sum::<usize>()
            + m.oneof_decl
                .iter()
                .map(|o| own + o.name().len() + 1)
                .sum::<usize>()
            + m.enum_type
                .iter()
                .map(|e| enumeration(e, own))
                .sum::<usize>()
            + m.nested_type.iter().map(|n| message(n, own)).sum::<usize>()
    }
    fn enumeration(e: &prost_types::EnumDescriptorProto, prefix: usize) -> usize {
        let own = prefix + e.name().len() + 1;
        own + e
            .value
            .iter()
            .map(|v| own + v.name().len() + 1)
            .sum::<usize>()
    }
    set.file
        .iter()
        .map(|file| {
            let package = file.package().len();
            file.message_type
                .iter()
                .map(|m| message(m, package))
                .sum::<usize>()
                + file
                    .enum_type
                    .iter()
                    .map(|e| enumeration(e, package))
                    .sum::<usize>()
                + file
                    .extension
                    .iter()
                    .map(|f| package + f.name().len() + 1)
                    .sum::<usize>()
                + file
                    .service
                    .iter()
                    .map(|s| {
                        let own = package + s.name().len() + 1;
                        own + s
                            .method
                            .iter()
                            .map(|m| own + m.name().len() + 1)
                            .sum::<usize>()
                    })
                    .sum::<usize>()
        })
        .sum()
}

#[test]
fn counts_equal_those_of_the_decoded_set() {
    let sets = compiled_sets();
    assert!(sets.len() > 60, "the fixtures went missing");
    for (name, bytes) in &sets {
        let decoded = FileDescriptorSet::decode(bytes.as_slice()).unwrap();
        let expected = decoded_counts(&decoded);
        assert!(expected.messages > 0 && expected.fields > 0, "{name}");
        let counts = prescan(bytes).unwrap();
        // Every declaration is at least its name and one more record.
        assert!(
            counts.elements >= 2 * (expected.messages + expected.fields + expected.enum_values),
            "{name}: {counts:?}"
        );
        assert_eq!(
            Counts {
                elements: 0,
                nested_records: 0,
                ..counts
            },
            expected,
            "{name}"
        );
    }
    let all = everything();
    let counts = prescan(&all).unwrap();
    // Order, Line (a group), TagsEntry (a map entry), Inner, and Money.
    assert_eq!(counts.messages, 5, "{counts:?}");
    assert_eq!(counts.enum_values, 2, "{counts:?}");
}

/// prost's error, in the words the engine uses (enclosing fields outermost first, repeats
/// folded).
fn prost_words(error: &prost::DecodeError) -> (String, Vec<String>) {
    let text = error.to_string();
    let mut rest = text
        .strip_prefix("failed to decode Protobuf message: ")
        .unwrap();
    let mut parts = Vec::new();
    // Enclosing fields are `Message.field: `, innermost first; the description follows.
    while let Some((part, tail)) = rest.split_once(": ") {
        if part.contains(' ') || !part.contains('.') {
            break;
        }
        parts.push(part);
        rest = tail;
    }
    let mut folded: Vec<(&str, usize)> = Vec::new();
    for part in parts.into_iter().rev() {
        match folded.last_mut() {
            Some((last, n)) if *last == part => *n += 1,
            _ => folded.push((part, 1)),
        }
    }
    let within: Vec<String> = folded
        .iter()
        .map(|(part, n)| match n {
            1 => (*part).to_owned(),
            n => format!("{part} ×{n}"),
        })
        .collect();
    (rest.to_owned(), within)
}

fn words(description: &str, within: &[String]) -> String {
    let detail = if within.is_empty() {
        description.to_owned()
    } else {
        format!("{description} (in {})", within.join(" > "))
    };
    format!("fileDescriptorSet is not a serialized google.protobuf.FileDescriptorSet: {detail}")
}

/// Compares the prescan's verdict on `bytes` with prost's: the prescan never refuses what prost
/// decodes, and refuses in prost's words, except where it does not look (UTF-8; inside
/// options, source info and ranges). Returns a description of a disagreement.
fn disagreement(bytes: &[u8]) -> Option<String> {
    let ours = prescan(bytes).err().map(|e| e.message);
    let theirs = FileDescriptorSet::decode(bytes)
        .err()
        .map(|e| prost_words(&e));
    let not_looked_at = |(description, within): &(String, Vec<String>)| {
        description.starts_with("invalid string value")
            || within.iter().any(|part| {
                [
                    ".options",
                    ".source_code_info",
                    ".extension_range",
                    ".reserved_range",
                ]
                .iter()
                .any(|blob| part.split(" ×").next().unwrap().ends_with(blob))
            })
    };
    match (ours, theirs) {
        (None, None) => None,
        (Some(ours), None) => Some(format!("prost decodes it, the prescan says: {ours}")),
        (None, Some(theirs)) if not_looked_at(&theirs) => None,
        (None, Some(theirs)) => Some(format!(
            "prost refuses it, the prescan does not: {}",
            words(&theirs.0, &theirs.1)
        )),
        (Some(ours), Some(theirs)) => {
            let expected = words(&theirs.0, &theirs.1);
            (ours != expected && !not_looked_at(&theirs))
                .then(|| format!("the prescan says: {ours}\n            prost says: {expected}"))
        }
    }
}

#[test]
fn truncated_and_mutated_sets_fail_as_prost_fails() {
    let mut inputs = vec![everything()];
    for (name, bytes) in compiled_sets() {
        if [
            "imported_types/new",
            "maps/old",
            "oneofs/new",
            "nested_types/new",
        ]
        .contains(&name.as_str())
        {
            inputs.push(bytes);
        }
    }
    assert_eq!(inputs.len(), 5);
    let mut tried = 0;
    let mut problems = Vec::new();
    for set in &inputs {
        for len in 0..set.len() {
            tried += 1;
            if let Some(problem) = disagreement(&set[..len]) {
                problems.push(format!("truncated to {len}: {problem}"));
            }
        }
        for at in 0..set.len() {
            // Bytes that end or continue varints, clear or set high bits, and change wire types.
            for byte in [0x00, 0x01, 0x7f, 0x80, 0xff, set[at] ^ 0x01, set[at] ^ 0x04] {
                let mut mutated = set.clone();
                mutated[at] = byte;
                tried += 1;
                if let Some(problem) = disagreement(&mutated) {
                    problems.push(format!("byte {at} set to {byte:#04x}: {problem}"));
                }
            }
        }
    }
    assert!(tried > 30_000, "{tried}");
    problems.truncate(20);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A message at each depth around prost's limit (the set is depth 0), holding `innermost`.
fn nested(depth: usize, innermost: &[u8]) -> Vec<u8> {
    // Built inside out as bytes: building the tree and encoding it would recurse.
    let mut message = innermost.to_vec();
    for _ in 3..=depth {
        let mut outer = Vec::new();
        put_len(3, &message, &mut outer);
        message = outer;
    }
    let mut file = Vec::new();
    put_len(1, b"deep.proto", &mut file);
    put_len(4, &message, &mut file);
    let mut set = Vec::new();
    put_len(1, &file, &mut set);
    set
}

#[test]
fn nesting_stops_where_prost_stops() {
    let varint = |tag: u64| {
        let mut out = Vec::new();
        prost::encoding::encode_varint(tag << 3, &mut out);
        out.push(1);
        out
    };
    let group = |inner: &[u8]| {
        let mut out = Vec::new();
        prost::encoding::encode_key(250, prost::encoding::WireType::StartGroup, &mut out);
        out.extend_from_slice(inner);
        prost::encoding::encode_key(250, prost::encoding::WireType::EndGroup, &mut out);
        out
    };
    let mut options = Vec::new();
    put_len(7, &[], &mut options);
    let mut name = Vec::new();
    put_len(1, b"Deep", &mut name);
    let mut reserved = Vec::new();
    put_len(10, b"gone", &mut reserved);
    let contents: [(&str, Vec<u8>); 7] = [
        ("nothing", vec![]),
        ("a name", name),
        ("a reserved name", reserved),
        ("an unknown varint", varint(99)),
        ("options", options),
        ("an empty group", group(&[])),
        ("a group holding a varint", group(&varint(1))),
    ];
    let mut refusals = 0;
    for depth in 96..=103 {
        for (what, innermost) in &contents {
            let set = nested(depth, innermost);
            if let Some(problem) = disagreement(&set) {
                panic!("depth {depth}, innermost holding {what}: {problem}");
            }
            refusals += usize::from(prescan(&set).is_err());
        }
    }
    // Each kind of content is refused from some depth on.
    assert!(refusals > 7 * 2, "{refusals}");
    assert!(prescan(&nested(100, b"")).is_ok());
    let deeper = prescan(&nested(101, b"")).unwrap_err().message;
    assert!(deeper.ends_with(
        "recursion limit reached (in FileDescriptorSet.file > FileDescriptorProto.message_type \
         > DescriptorProto.nested_type ×99)"
    ));
}

/// A file nothing imports imposes nothing beyond the limits: it is counted, not decoded.
#[test]
fn files_outside_the_import_closure_are_counted_but_never_decoded() {
    let root = tiny_root_file();
    let broken = |edit: &dyn Fn(&mut FileDescriptorProto)| {
        let mut file = FileDescriptorProto {
            name: Some("junk.proto".into()),
            syntax: Some("proto3".into()),
            message_type: vec![DescriptorProto {
                name: Some("Audit".into()),
                ..Default::default()
            }],
            ..Default::default()
        };
        edit(&mut file);
        file.encode_to_vec()
    };
    let editions = broken(&|f| f.syntax = Some("editions".into()));
    let unresolved_import = broken(&|f| f.dependency = vec!["missing.proto".into()]);
    let mut invalid_utf8 = broken(&|f| f.package = Some("Zzzz".into()));
    let at = invalid_utf8.windows(4).position(|w| w == b"Zzzz").unwrap();
    invalid_utf8[at..at + 4].copy_from_slice(b"\xff\xfe\xfd\xfc");
    let other_junk = broken(&|f| f.package = Some("other".into()));
    let nameless = broken(&|f| f.name = None);

    let accepted = |files: &[&[u8]]| {
        let data = schema_of_files(files);
        match check(&[], &data, Strategy::Full) {
            Ok(report) => assert!(report.compatible),
            Err(e) => panic!("{e}"),
        }
    };
    accepted(&[&root, &editions]);
    accepted(&[&root, &unresolved_import]);
    accepted(&[&root, &invalid_utf8]);
    accepted(&[&editions, &root, &other_junk]);
    accepted(&[&root, &nameless]);

    // Imported, the same file is refused.
    let mut importing = FileDescriptorProto::decode(root.as_slice()).unwrap();
    importing.dependency = vec!["junk.proto".into()];
    let importing = importing.encode_to_vec();
    let refused = |files: &[&[u8]], says: &str| {
        let data = schema_of_files(files);
        match check(&[], &data, Strategy::Full) {
            Err(e) => assert!(e.to_string().contains(says), "{e}"),
            Ok(report) => panic!("accepted: {}", report.render_text()),
        }
    };
    refused(
        &[&importing, &editions],
        "file `junk.proto` declares syntax \"editions\" but no edition",
    );
    refused(&[&importing, &invalid_utf8], "invalid string value");
    refused(
        &[&importing, &unresolved_import],
        "file `junk.proto` imports `missing.proto`, which is not in the fileDescriptorSet",
    );
    refused(
        &[&importing, &editions, &other_junk],
        "two different files named `junk.proto`",
    );
    // Listed twice with the same bytes, a file is one file.
    accepted(&[&importing, &other_junk, &importing, &other_junk]);

    // Outside the closure, bytes that cannot be walked are still refused: nothing could be
    // counted past them.
    let mut cut = other_junk.clone();
    cut.truncate(cut.len() - 3);
    let mut set = Vec::new();
    put_len(1, &root, &mut set);
    put_len(1, &cut, &mut set);
    let message = prescan(&set).unwrap_err().message;
    assert!(message.contains("not a serialized google.protobuf.FileDescriptorSet"));
}
