//! Builds two different schema data whose XXH3-128 hashes are equal, from XXH3's published
//! algorithm alone: the attack that made a cache keyed by that hash accept an incompatible
//! schema (docs/rules.md#remembered-results).
//!
//! Past 240 bytes XXH3 mixes its input 1 KiB block by block. Inside a block, each 8-byte lane
//! `v` of each 64-byte stripe only *adds* to two of eight 64-bit accumulators: `v` to
//! `acc[i ^ 1]` and `lo32(v ^ key) * hi32(v ^ key)` to `acc[i]`, where `key` is the secret at
//! that stripe and lane. A lane whose `v ^ key` has a zero half adds nothing to `acc[i]`, and
//! its other half is free: so a few such lanes can add any chosen value to any accumulator.
//! Two inputs of the same length that differ only inside one block (not the last 64 bytes)
//! hash alike once their block sums agree. The lanes used here lie inside a JSON string that
//! the schema reader ignores, so both inputs stay valid schema data.

use xxhash_rust::xxh3::xxh3_128_with_seed;

const BLOCK: usize = 1024;
const STRIPES: usize = 16;
const LANES: usize = 8;

/// XXH3's default secret (xxhash.h, `XXH3_kSecret`).
const K_SECRET: [u8; 192] = [
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
];

/// The secret XXH3 derives from a seed (`XXH3_initCustomSecret`).
fn secret_for(seed: u64) -> [u8; 192] {
    let mut secret = K_SECRET;
    for i in 0..12 {
        let lo = read(&K_SECRET, 16 * i).wrapping_add(seed);
        let hi = read(&K_SECRET, 16 * i + 8).wrapping_sub(seed);
        secret[16 * i..16 * i + 8].copy_from_slice(&lo.to_le_bytes());
        secret[16 * i + 8..16 * i + 16].copy_from_slice(&hi.to_le_bytes());
    }
    secret
}

fn read(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// What one block adds to the accumulators.
fn block_sums(block: &[u8], secret: &[u8]) -> [u64; LANES] {
    let mut acc = [0u64; LANES];
    for stripe in 0..STRIPES {
        for lane in 0..LANES {
            let value = read(block, 64 * stripe + 8 * lane);
            let keyed = value ^ read(secret, 8 * stripe + 8 * lane);
            acc[lane ^ 1] = acc[lane ^ 1].wrapping_add(value);
            acc[lane] = acc[lane].wrapping_add((keyed & 0xffff_ffff) * (keyed >> 32));
        }
    }
    acc
}

/// Bytes a JSON string may hold raw (serde_json does not check UTF-8 in a string it ignores).
fn allowed(byte: u8) -> bool {
    byte >= 0x20 && byte != b'"' && byte != b'\\'
}

fn all_allowed(half: u32) -> bool {
    half.to_le_bytes().into_iter().all(allowed)
}

/// A small deterministic generator, so the pair is the same on every run.
struct Rng(u64);

impl Rng {
    fn half(&mut self) -> u32 {
        loop {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let candidate = (self.0 >> 32) as u32;
            if all_allowed(candidate) {
                return candidate;
            }
        }
    }
}

/// A lane whose keyed value has a zero half: `Fixed::High` keeps the high half equal to the
/// key's (the low half is free), `Fixed::Low` the low half.
#[derive(Clone, Copy)]
enum Fixed {
    High,
    Low,
}

struct Slot {
    offset: usize,
    key: u64,
    fixed: Fixed,
}

impl Slot {
    fn value(&self, free: u32) -> u64 {
        match self.fixed {
            Fixed::High => (self.key & !0xffff_ffff) | u64::from(free),
            Fixed::Low => (u64::from(free) << 32) | (self.key & 0xffff_ffff),
        }
    }
}

/// Rewrites bytes of `twin` inside `junk` (a byte range of an ignored JSON string, the same in
/// both inputs) so that `xxh3_128_with_seed(twin, seed) == xxh3_128_with_seed(original, seed)`.
/// Both inputs must have the same length and differ only in their first 1 KiB block.
pub fn collide(original: &[u8], twin: &mut [u8], junk: std::ops::Range<usize>, seed: u64) {
    assert_eq!(original.len(), twin.len());
    assert!(
        original.len() > BLOCK + 64,
        "the differing block must not be the last"
    );
    assert_eq!(
        original[BLOCK..],
        twin[BLOCK..],
        "differences outside the first block"
    );
    let secret = secret_for(seed);
    let mut rng = Rng(seed ^ 0x5eed);

    // Four lanes per accumulator: two with a free low half, two with a free high half.
    let mut slots: Vec<Vec<Slot>> = (0..LANES).map(|_| Vec::new()).collect();
    for (lane, chosen) in slots.iter_mut().enumerate() {
        // Stripes whose key half is all allowed bytes, by which half it is.
        let mut high_only = Vec::new();
        let mut low_only = Vec::new();
        let mut both = Vec::new();
        for stripe in 0..STRIPES {
            let offset = 64 * stripe + 8 * lane;
            if !(junk.start <= offset && offset + 8 <= junk.end.min(BLOCK)) {
                continue;
            }
            let key = read(&secret, 8 * stripe + 8 * lane);
            match (all_allowed((key >> 32) as u32), all_allowed(key as u32)) {
                (true, true) => both.push((offset, key)),
                (true, false) => high_only.push((offset, key)),
                (false, true) => low_only.push((offset, key)),
                (false, false) => {}
            }
        }
        // A stripe usable either way is spent only once the one-way stripes run out.
        for (fixed, only) in [(Fixed::High, &mut high_only), (Fixed::Low, &mut low_only)] {
            for _ in 0..2 {
                let (offset, key) = only.pop().or_else(|| both.pop()).unwrap_or_else(|| {
                    panic!("not enough usable lanes for accumulator lane {lane}: lengthen the junk")
                });
                chosen.push(Slot { offset, key, fixed });
            }
        }
    }
    // Start every slot at a value that adds nothing to its product accumulator ...
    for slot in slots.iter().flatten() {
        twin[slot.offset..slot.offset + 8].copy_from_slice(&slot.value(rng.half()).to_le_bytes());
    }
    // ... then move each sum accumulator by what still separates the twin from the original.
    let target = block_sums(&original[..BLOCK], &secret);
    let current = block_sums(&twin[..BLOCK], &secret);
    for (lane, chosen) in slots.iter().enumerate() {
        let sum_lane = lane ^ 1;
        let now: u64 = chosen
            .iter()
            .map(|s| read(twin, s.offset))
            .fold(0, u64::wrapping_add);
        let wanted = now.wrapping_add(target[sum_lane].wrapping_sub(current[sum_lane]));
        let base: u64 = chosen.iter().map(|s| s.value(0)).fold(0, u64::wrapping_add);
        let rest = wanted.wrapping_sub(base);
        let (highs, lows): (Vec<&Slot>, Vec<&Slot>) =
            chosen.iter().partition(|s| matches!(s.fixed, Fixed::High));
        // Free low halves first; their carry goes into the high half.
        let (a, b) = split(&mut rng, rest as u32);
        let carry = ((u64::from(a) + u64::from(b)) >> 32) as u32;
        let (c, d) = split(&mut rng, ((rest >> 32) as u32).wrapping_sub(carry));
        for (slot, free) in [(highs[0], a), (highs[1], b), (lows[0], c), (lows[1], d)] {
            twin[slot.offset..slot.offset + 8].copy_from_slice(&slot.value(free).to_le_bytes());
        }
    }
    assert_eq!(block_sums(&twin[..BLOCK], &secret), target);
    assert_eq!(
        xxh3_128_with_seed(twin, seed),
        xxh3_128_with_seed(original, seed)
    );
}

/// Two allowed halves adding up to `total` modulo 2^32.
fn split(rng: &mut Rng, total: u32) -> (u32, u32) {
    loop {
        let a = rng.half();
        let b = total.wrapping_sub(a);
        if all_allowed(b) {
            return (a, b);
        }
    }
}
