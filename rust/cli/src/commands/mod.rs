//! One module a command: each takes its parsed arguments (`args/`) and returns the exit status.

pub mod audit;
pub mod brokers;
pub mod buf_plugin;
pub mod check;
pub mod completions;
pub mod init;
pub mod rules;
pub mod schema;
