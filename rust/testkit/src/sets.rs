//! Descriptor sets compiled from the fixtures, with the root file each is checked from.

use std::fs;

use prost::Message;
use serde_json::Value;

use crate::{bench_schemas, fixtures, tempdir};

/// One compiled set.
pub struct CompiledSet {
    pub name: String,
    pub root_file: String,
    pub bytes: Vec<u8>,
}

/// Every compat fixture, both sides, the benchmark schemas and [`everything`], compiled as the
/// tests compile them (with source info).
pub fn compiled_sets() -> Vec<CompiledSet> {
    let mut sets = Vec::new();
    let compat = fixtures().join("compat");
    let mut cases: Vec<_> = fs::read_dir(&compat)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    for case in cases {
        let expect: Value =
            serde_json::from_str(&fs::read_to_string(case.join("expect.json")).unwrap()).unwrap();
        let root_file = expect["root_file"].as_str().unwrap();
        for side in ["old", "new"] {
            let set = protox::compile([root_file], [case.join(side)]).unwrap();
            sets.push(CompiledSet {
                name: format!("{}/{side}", case.file_name().unwrap().to_string_lossy()),
                root_file: root_file.to_owned(),
                bytes: set.encode_to_vec(),
            });
        }
    }
    let bench = bench_schemas();
    for size in ["small", "medium", "large"] {
        let root_file = format!("{size}.proto");
        let set = protox::compile([&root_file], [&bench]).unwrap();
        sets.push(CompiledSet {
            name: format!("bench/{size}"),
            root_file,
            bytes: set.encode_to_vec(),
        });
    }
    sets.push(CompiledSet {
        name: "every kind of declaration".into(),
        root_file: "order.proto".into(),
        bytes: everything(),
    });
    sets
}

/// A set using what the fixtures do not: groups, extensions, services, public imports,
/// reserved names and ranges, options and defaults. Its root file is `order.proto`.
pub fn everything() -> Vec<u8> {
    let dir = tempdir();
    fs::write(
        dir.join("base.proto"),
        "syntax = \"proto2\";\npackage base;\nmessage Money { optional int64 cents = 1; }\n",
    )
    .unwrap();
    fs::write(
        dir.join("order.proto"),
        r#"syntax = "proto2";
package shop;
import public "base.proto";
option java_package = "com.example.shop";
enum Status { NEW = 0; DONE = 1 [deprecated = true]; reserved 5 to 9; reserved "OLD"; }
message Order {
  optional int64 id = 1 [default = 7];
  optional group Line = 2 { optional string sku = 1; repeated int32 qty = 2 [packed = true]; }
  optional base.Money total = 3;
  map<string, Status> tags = 4;
  oneof pick { string a = 5; int32 b = 6; }
  extensions 100 to 199;
  reserved 50 to 60;
  reserved "gone";
  message Inner { extend Order { optional string note = 100; } }
}
extend Order { optional int32 priority = 101; }
service Orders {
  rpc Get(Order) returns (Order);
  rpc Watch(stream Order) returns (stream base.Money) { option deprecated = true; }
}
"#,
    )
    .unwrap();
    let set = protox::compile(["order.proto"], [&dir]).unwrap();
    fs::remove_dir_all(&dir).unwrap();
    set.encode_to_vec()
}
