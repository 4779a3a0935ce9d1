//! What the benches that print figures (not Criterion's) share: their settings from the
//! environment, and their seconds.

use std::time::Duration;

/// The number in environment variable `name`, or `default` when it is unset or not a number.
pub fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}
