//! What a walk has already met: rows of one model, and (writer, reader) pairs of rows.

use std::collections::HashSet;

/// Rows of one model already seen, one bit each.
#[derive(Default)]
pub(super) struct Seen {
    bits: Vec<u64>,
}

impl Seen {
    /// Whether `id` was not seen before.
    pub(super) fn insert(&mut self, id: u32) -> bool {
        let id = id as usize;
        let (word, bit) = (id / 64, 1u64 << (id % 64));
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let new = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        new
    }
}

/// (writer row, reader row) pairs already compared. Most writer types meet one reader type
/// only (always, where types are paired by name), so the first reader of each writer is kept
/// in a bit set and a table; only further readers go to a hash set.
#[derive(Default)]
pub(super) struct SeenPairs {
    writers: Seen,
    first_reader: Vec<u32>,
    more: HashSet<(u32, u32)>,
}

impl SeenPairs {
    /// Whether the pair was not compared before.
    pub(super) fn insert(&mut self, writer: u32, reader: u32) -> bool {
        if self.writers.insert(writer) {
            let at = writer as usize;
            if at >= self.first_reader.len() {
                self.first_reader.resize(at + 1, 0);
            }
            self.first_reader[at] = reader;
            return true;
        }
        self.first_reader[writer as usize] != reader && self.more.insert((writer, reader))
    }
}
