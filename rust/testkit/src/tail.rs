//! The fixed pseudo-random tail `evolve` appends to every input, so that a short input still
//! gets rich schemas and the same input always means the same case; `fix_property` rebuilds
//! evolve's cases from the corpus with it.

use std::sync::OnceLock;

/// 4 KiB from a fixed xorshift sequence.
pub fn tail() -> &'static [u8] {
    static TAIL: OnceLock<Vec<u8>> = OnceLock::new();
    TAIL.get_or_init(|| {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    })
}
