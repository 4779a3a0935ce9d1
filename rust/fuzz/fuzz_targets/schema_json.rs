//! Arbitrary bytes as Pulsar schema data: decoding must refuse or succeed, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = protocompat::Schema::decode(data);
});
