//! Each side of a check is its own input with its own import roots: two trees, a directory, a
//! git ref, a saved history. The scenario of issue 12 first: a shared `-I` made the new file's
//! imports resolve in the old tree, and a breaking change in an imported file passed.

mod support;

use support::*;

/// `v1/` and `new/`, two versions of one proto tree.
fn two_trees(name: &str) -> std::path::PathBuf {
    let dir = tempdir(name);
    write_tree(
        &dir,
        &[
            ("v1/acme/orders/v1/order.proto", ORDER),
            ("v1/acme/orders/v1/money.proto", MONEY_V1),
            ("new/acme/orders/v1/order.proto", ORDER),
            ("new/acme/orders/v1/money.proto", MONEY_V2),
        ],
    );
    dir
}

/// Before: exit 0, "Compatible". A new file outside every import root is now refused, as
/// protoc refuses it, instead of being compiled against the other tree's imports.
#[test]
fn a_shared_include_never_lets_a_breaking_import_through() {
    let dir = two_trees("shared-include");
    let out = protocompat_in(
        &dir,
        &[
            "check",
            "-I",
            "v1",
            &format!("v1/{FILE}"),
            &format!("new/{FILE}"),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "new/{FILE}: the file is not under any import root (v1); protoc refuses it too"
        )) && stderr.contains("(here, likely -I new)")
            && stderr.contains("--against"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    // Both trees as roots: the new file is shadowed by the old tree's, and said so.
    let out = protocompat_in(
        &dir,
        &[
            "check",
            "-I",
            "v1",
            "-I",
            "new",
            &format!("v1/{FILE}"),
            &format!("new/{FILE}"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("`{FILE}` is shadowed: import root v1 also holds")),
        "{}",
        text(&out.stderr)
    );
}

/// The way to compare two trees: each side with its own roots. The change in the imported
/// file is found, at its line in the new tree.
#[test]
fn two_trees_are_compared_each_with_its_own_imports() {
    let dir = two_trees("two-trees");
    for against in [
        vec!["--against", "v1"],
        vec![
            "--against",
            &format!("v1/{FILE}") as &str,
            "--against-include",
            "v1",
        ],
    ] {
        let mut args = vec!["check", "--strategy", "backward"];
        args.extend(against.iter().copied());
        let new = format!("new/{FILE}");
        args.extend(["-I", "new", &new]);
        let out = protocompat_in(&dir, &args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains(
                "new/acme/orders/v1/money.proto:5:3: FIELD_NUMBER_CHANGED \
                 acme.orders.v1.Order.total.currency (field 2): writer=number 2 reader=number 3"
            ),
            "{args:?}: {stdout}"
        );
        assert!(
            stdout.contains("BACKWARD: the new schema must read data written with existing[0]"),
            "{stdout}"
        );
    }
}

/// protoc's habits: from a proto root, imports resolve from the current directory, and the
/// root file is named by its path under it, as the Java client built by protoc names it.
#[test]
fn the_current_directory_is_the_default_import_root() {
    let dir = two_trees("cwd-root");
    let out = protocompat_in(&dir.join("new"), &["schema", FILE]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["rootFileDescriptorName"], FILE);
    assert_eq!(json["rootMessageTypeName"], "acme.orders.v1.Order");
}

/// A check against a git ref reads the old tree from git, not from the work tree.
#[test]
fn a_git_ref_is_the_existing_side() {
    let dir = tempdir("git-ref");
    write_tree(
        &dir,
        &[
            ("proto/acme/orders/v1/order.proto", ORDER),
            ("proto/acme/orders/v1/money.proto", MONEY_V1),
        ],
    );
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "v1"]);
    write_tree(&dir, &[("proto/acme/orders/v1/money.proto", MONEY_V2)]);

    let new = format!("proto/{FILE}");
    let out = protocompat_in(
        &dir,
        &[
            "check",
            "--against",
            ".git#branch=main,subdir=proto",
            "-I",
            "proto",
            &new,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("proto/acme/orders/v1/money.proto:5:3: FIELD_NUMBER_CHANGED"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "existing[0]: .git#branch=main,subdir=proto:{FILE}"
        )),
        "{stdout}"
    );
    // The work tree against its own HEAD: nothing changed in order.proto's closure but money.
    let unchanged = protocompat_in(
        &dir,
        &[
            "check",
            "--against",
            ".git#ref=HEAD~0,subdir=proto",
            "--root",
            "acme.orders.v1.Money",
            "-I",
            "proto",
            "proto/acme/orders/v1/money.proto",
        ],
    );
    assert_eq!(
        unchanged.status.code(),
        Some(1),
        "{}",
        text(&unchanged.stderr)
    );

    let missing = protocompat_in(
        &dir,
        &[
            "check",
            "--against",
            ".git#ref=no-such-branch",
            "-I",
            "proto",
            &new,
        ],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("no-such-branch"),
        "{}",
        text(&missing.stderr)
    );
}

/// A directory side without the new side's file finds the one declaring the root message.
#[test]
fn a_moved_file_is_found_by_its_root_message() {
    let dir = two_trees("moved");
    std::fs::create_dir_all(dir.join("v1/legacy")).unwrap();
    std::fs::rename(
        dir.join(format!("v1/{FILE}")),
        dir.join("v1/legacy/order.proto"),
    )
    .unwrap();
    let out = protocompat_in(
        &dir,
        &[
            "check",
            "--against",
            "v1",
            "-I",
            "new",
            &format!("new/{FILE}"),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("existing[0]: v1/legacy/order.proto"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_lone_schema_has_nothing_to_be_compatible_with() {
    let out = protocompat(&[
        "check",
        "--root",
        "shop.Order",
        path(&case("allowed_changes", "new")),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains("nothing to compare it with"),
        "{}",
        text(&out.stderr)
    );
}

/// What `pulsar-admin schemas get --all-version` prints (one JSON object per version, the data
/// in base64) and what the admin REST API answers are histories: the broker's rules for one
/// apply (the latest only for a non-transitive strategy; stored bytes are not checked).
#[test]
fn saved_histories_are_checked_as_the_broker_checks_them() {
    use base64::Engine as _;
    let dir = tempdir("history");
    let schema = |case_name: &str| {
        let out = protocompat(&[
            "schema",
            "-I",
            path(case(case_name, "old").parent().unwrap()),
            "--root",
            "shop.Order",
            path(&case(case_name, "old")),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout).trim_end().to_owned()
    };
    // v0 and v1 differ in field numbers; the new schema is v0 again.
    let (v0, v1) = (schema("field_number_changed"), {
        let out = protocompat(&[
            "schema",
            "-I",
            path(case("field_number_changed", "new").parent().unwrap()),
            "--root",
            "shop.Order",
            path(&case("field_number_changed", "new")),
        ]);
        text(&out.stdout).trim_end().to_owned()
    });
    let base64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let all_versions = format!(
        "{{\n  \"name\" : \"orders\",\n  \"schema\" : \"{}\",\n  \"type\" : \"PROTOBUF_NATIVE\",\n  \"properties\" : {{ }}\n}}\n{{\n  \"name\" : \"orders\",\n  \"schema\" : \"{}\",\n  \"type\" : \"PROTOBUF_NATIVE\",\n  \"properties\" : {{ }}\n}}\n",
        base64(&v0),
        base64(&v1)
    );
    let saved = dir.join("all-versions.json");
    std::fs::write(&saved, all_versions).unwrap();
    let rest = dir.join("rest.json");
    std::fs::write(
        &rest,
        serde_json::json!({"getSchemaResponses": [
            {"version": 4, "type": "PROTOBUF_NATIVE", "timestamp": 1, "data": v0, "properties": {}},
            {"version": 5, "type": "PROTOBUF_NATIVE", "timestamp": 2, "data": v1, "properties": {}},
        ]})
        .to_string(),
    )
    .unwrap();
    let new = dir.join("new.json");
    std::fs::write(&new, &v0).unwrap();

    // The new schema is stored already (as the first version): the broker checks nothing.
    let out = protocompat(&[
        "check",
        "--strategy",
        "FULL_TRANSITIVE",
        "--against",
        path(&saved),
        path(&new),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("note: the new schema is byte for byte"),
        "{}",
        text(&out.stdout)
    );

    // A new schema that differs from both: FULL compares the latest only (version 5), and
    // names it by its version; FULL_TRANSITIVE compares both.
    let other = dir.join("other.json");
    std::fs::write(&other, schema("allowed_changes")).unwrap();
    let full = protocompat(&["check", "--against", path(&rest), path(&other)]);
    let stdout = text(&full.stdout);
    assert!(stdout.contains("against 1 existing schema"), "{stdout}");
    assert!(
        stdout.contains("note: FULL compares the latest of the 2 existing schemas only"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("\nversion 5: {}\n", path(&rest))),
        "{stdout}"
    );
    let transitive = protocompat(&[
        "check",
        "--strategy",
        "full_transitive",
        "--against",
        path(&saved),
        path(&other),
    ]);
    assert!(
        text(&transitive.stdout).contains("against 2 existing schemas"),
        "{}",
        text(&transitive.stdout)
    );
    assert!(
        text(&transitive.stdout).contains(&format!("existing[1]: {} [1]", path(&saved))),
        "{}",
        text(&transitive.stdout)
    );
}
