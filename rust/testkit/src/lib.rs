//! What the tests, benches, examples and fuzz targets of protocompat share: schema data built
//! from `.proto` text or from descriptors, the fixture cases (`tests/fixtures`) and how a case
//! is checked, the costliest shapes of schema data known inside the limits, and the random
//! schemas the fuzz targets evolve. Dev-only: nothing here ships.
//!
//! The `compile` feature (on by default) holds what compiles `.proto` files with protox; the
//! fuzz targets go without it, so that their instrumented builds stay small.

pub mod bench_env;
#[cfg(feature = "compile")]
pub mod bench_schema;
#[cfg(feature = "compile")]
pub mod cases;
pub mod collide;
#[cfg(feature = "compile")]
mod compile;
mod counting;
pub mod evolve;
mod findings;
mod git;
mod json_names;
pub mod lsp;
mod paths;
pub mod raw;
pub mod scalar;
mod schema_data;
#[cfg(feature = "compile")]
pub mod sets;
pub mod shapes;
pub mod tail;

#[cfg(feature = "compile")]
pub use compile::{
    descriptor_set_from_text, schema_data, schema_data_without_source_info, schema_from_text,
};
pub use counting::Counting;
pub use findings::{key, sorted_keys};
pub use git::git;
pub use json_names::without_json_names;
pub use paths::{bench_schemas, fixtures, repo, tempdir};
pub use raw::{
    edition_file, file_features, put_len, root_file_with, root_file_with_enum_values,
    tiny_root_file, unimported_file,
};
pub use schema_data::{schema_of_bytes, schema_of_files, schema_of_protos, schema_of_raw_files};
