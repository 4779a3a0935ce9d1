//! A remedy proven before it is shown: its edits made to the new schema's descriptor set in
//! memory ([`apply`]), so that the engine can check the pair again; and after `--fix` has
//! written and recompiled the files, the compiled set compared with the one the fixes meant
//! ([`differences`]), so that anything else in it (a declaration, an option, an import that no
//! fix adds) is caught.
//!
//! The set is kept as a lossless [`Tree`], not as prost's types, which drop what they do not
//! know: Editions features and custom options would be lost on the way back to bytes.

mod apply;
mod change;
mod check;
mod compare;
mod compare_decls;
mod default;
mod edition;
mod entries;
mod field;
mod find;
mod layout;
mod naming;
mod references;
mod tags;
mod tree;
mod wire;

pub use apply::apply;
pub use compare::{differences, Difference};
pub use find::{each_message, field_index, package, value_index, EnumPath, Scope, Syntax};
pub use naming::{json_name, map_entry};
pub use tree::{Field, Kind, Message, Tree, Value, MAX_DEPTH};
