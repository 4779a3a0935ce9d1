//! Two descriptor sets (arbitrary, or mutated from the fixtures) checked against each other
//! under a strategy and a profile the input picks. The engine turns panics into CheckError::Internal, which
//! is how a bug would reach the broker, so that counts as a crash here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocompat::{Bounds, CheckError, Checker, Requested, PROFILES};
use protocompat_testkit::schema_of_bytes;

fn schema(set: &[u8]) -> Vec<u8> {
    schema_of_bytes(set.to_vec(), "shop.Order", "order.proto")
}

fuzz_target!(|data: &[u8]| {
    // [strategy and profile][split: u16 little-endian][old set][new set]
    if data.len() < 3 {
        return;
    }
    // Codes 0 to 9: every strategy and one the engine does not know.
    let strategy = Requested::from_code(i32::from(data[0] % 10));
    let split = usize::from(u16::from_le_bytes([data[1], data[2]]));
    let rest = &data[3..];
    let (old, new) = rest.split_at(split.min(rest.len()));
    let (old, new) = (schema(old), schema(new));
    let profile = PROFILES[usize::from(data[0] / 10) % PROFILES.len()];
    let result = Checker::new(Bounds::NONE)
        .with_profile(profile)
        .check(&[&old], &new, strategy);
    if let Err(CheckError::Internal(message)) = result {
        panic!("contained panic: {message}");
    }
    if let Ok(report) = result {
        assert!(report.render_text().len() <= protocompat::report::TEXT_LIMIT);
    }
});
