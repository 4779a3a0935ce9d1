//! One module a command: each takes its parsed arguments (`args/`) and returns the exit status.

pub mod audit;
pub mod brokers;
pub mod check;
pub mod rules;
pub mod schema;
