//! Least-recently-used maps bounded both by entry count and by the memory their values take,
//! and the index digest of schema data.
//!
//! A cache keyed by a hash an attacker can collide would let one schema's verdict stand in for
//! another's (docs/rules.md#remembered-results). So the digest here only *finds* a candidate: the
//! checker confirms every hit against the schema bytes themselves before using it, and keys
//! everything else by the identity of a confirmed entry. BENCHMARKS.md ("Cache keys") has the
//! figures that chose this over a cryptographic or keyed digest.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash};

use lru::LruCache;
use xxhash_rust::xxh3::xxh3_128_with_seed;

/// Finds remembered schema data: xxh3-128 under a per-process random seed. Not a security
/// boundary (hits are confirmed byte for byte); the seed only makes deliberate collisions,
/// which could at worst evict each other, harder to aim.
pub(crate) struct IndexDigest {
    seed: u64,
}

impl IndexDigest {
    pub(crate) fn random() -> IndexDigest {
        IndexDigest::with_seed(RandomState::new().hash_one(0x7072_6f74_6f63_6f6d_u64))
    }

    pub(crate) fn with_seed(seed: u64) -> IndexDigest {
        IndexDigest { seed }
    }

    pub(crate) fn of(&self, data: &[u8]) -> u128 {
        xxh3_128_with_seed(data, self.seed)
    }
}

/// An LRU map holding at most `max_entries` entries whose weights add up to at most
/// `max_bytes`. A bound of zero turns the map off; a value heavier than `max_bytes` is not kept.
pub(crate) struct BoundedLru<K: Hash + Eq, V> {
    entries: LruCache<K, (V, usize)>,
    max_entries: usize,
    max_bytes: usize,
    bytes: usize,
}

impl<K: Hash + Eq, V: Clone> BoundedLru<K, V> {
    pub(crate) fn new(max_entries: usize, max_bytes: usize) -> Self {
        BoundedLru {
            entries: LruCache::unbounded(),
            max_entries,
            max_bytes,
            bytes: 0,
        }
    }

    pub(crate) fn get(&mut self, key: &K) -> Option<V> {
        self.entries.get(key).map(|(value, _)| value.clone())
    }

    /// Keeps `value`, evicting the least recently used entries as the bounds require; the
    /// entries evicted, so that what hangs off them can go too.
    pub(crate) fn put(&mut self, key: K, value: V, weight: usize) -> Vec<(K, V)> {
        self.put_unless(key, value, weight, |_| false)
            .unwrap_or_default()
    }

    /// [`BoundedLru::put`], unless making room would evict an entry whose value `keep` holds on to:
    /// then nothing changes, and `None`. A check that needs more entries than fit keeps those
    /// it has, instead of evicting each before its next use: a history walked in the same
    /// order on every upload would otherwise never find one.
    pub(crate) fn put_unless(
        &mut self,
        key: K,
        value: V,
        weight: usize,
        keep: impl Fn(&V) -> bool,
    ) -> Option<Vec<(K, V)>> {
        if self.max_entries == 0 || weight > self.max_bytes {
            return Some(Vec::new());
        }
        let fits = self.bytes + weight <= self.max_bytes && self.entries.len() < self.max_entries;
        if fits && !self.entries.contains(&key) {
            // Nothing to evict: the common case, without looking for victims.
            self.entries.put(key, (value, weight));
            self.bytes += weight;
            return Some(Vec::new());
        }
        let replaced = self.entries.peek(&key).map(|(_, w)| *w);
        let mut bytes = self.bytes - replaced.unwrap_or(0) + weight;
        let mut count = self.entries.len() + usize::from(replaced.is_none());
        // The entries that would go, least recently used first.
        for (victim, (held, w)) in self.entries.iter().rev() {
            if bytes <= self.max_bytes && count <= self.max_entries {
                break;
            }
            if *victim == key {
                continue;
            }
            if keep(held) {
                return None;
            }
            bytes -= w;
            count -= 1;
        }
        if let Some((_, old)) = self.entries.put(key, (value, weight)) {
            self.bytes -= old;
        }
        self.bytes += weight;
        let mut evicted = Vec::new();
        while self.bytes > self.max_bytes || self.entries.len() > self.max_entries {
            match self.entries.pop_lru() {
                Some((key, (value, w))) => {
                    self.bytes -= w;
                    evicted.push((key, value));
                }
                None => break,
            }
        }
        Some(evicted)
    }

    pub(crate) fn remove(&mut self, key: &K) {
        if let Some((_, w)) = self.entries.pop(key) {
            self.bytes -= w;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_and_bytes_both_bound_the_map() {
        let mut map = BoundedLru::new(3, 100);
        for i in 0..10 {
            map.put(i, i, 10);
        }
        assert_eq!((map.len(), map.bytes()), (3, 30));
        assert_eq!(map.get(&9), Some(9));
        assert_eq!(map.get(&0), None);
        map.put(100, 100, 90);
        assert!(map.bytes() <= 100, "{}", map.bytes());
        assert_eq!(map.get(&100), Some(100));
        map.put(200, 200, 101);
        assert_eq!(
            map.get(&200),
            None,
            "heavier than the whole bound: not kept"
        );
    }

    #[test]
    fn entries_held_on_to_are_not_evicted() {
        let mut map = BoundedLru::new(10, 30);
        for i in 0..3 {
            map.put(i, i, 10);
        }
        // Making room for 3 would evict 0, which is held on to: 3 is not kept.
        assert_eq!(map.put_unless(3, 3, 10, |v| *v == 0), None);
        assert_eq!((map.len(), map.get(&3)), (3, None));
        // The refusal changed nothing: 0 is still the least recently used, and goes now.
        assert_eq!(map.put_unless(3, 3, 10, |v| *v == 2), Some(vec![(0, 0)]));
        assert_eq!(map.get(&3), Some(3));
        assert_eq!(map.put(4, 4, 10), vec![(1, 1)]);
    }

    #[test]
    fn zero_turns_the_map_off() {
        let mut map = BoundedLru::new(0, 1000);
        map.put(1, 1, 1);
        assert_eq!(map.len(), 0);
        let mut map = BoundedLru::new(10, 0);
        map.put(1, 1, 1);
        assert_eq!(map.len(), 0);
    }

    #[test]
    fn seeds_differ_between_digests() {
        let (a, b) = (IndexDigest::random(), IndexDigest::random());
        assert_ne!(a.of(b"schema"), b.of(b"schema"));
    }
}
