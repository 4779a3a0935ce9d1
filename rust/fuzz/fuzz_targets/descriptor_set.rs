//! Arbitrary bytes as the descriptor set inside well-formed schema data, so the fuzzer spends
//! its time in descriptor decoding, import resolution and pool building rather than in JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocompat_testkit::schema_of_bytes;

/// Root names the seed corpus uses (the compat fixtures and the catalogue).
const ROOTS: [(&str, &str); 4] = [
    ("shop.Order", "order.proto"),
    ("Order", "order.proto"),
    ("shop.Envelope.Order", "order.proto"),
    ("h.Root", "root.proto"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, set)) = data.split_first() else {
        return;
    };
    let (root_message, root_file) = ROOTS[usize::from(pick) % ROOTS.len()];
    let schema = schema_of_bytes(set.to_vec(), root_message, root_file);
    let _ = protocompat::Schema::decode(&schema);
});
