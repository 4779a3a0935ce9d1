//! A schema source that counts its copies, for tests of what a check decodes.

use protocompat::{SchemaRef, SchemaSource};

/// Slices that count how often a check copies one out (it decodes only what it copies).
pub struct Counting<'a> {
    pub existing: &'a [&'a [u8]],
    pub proposed: &'a [u8],
    pub copies: usize,
}

impl SchemaSource for Counting<'_> {
    fn existing(&self) -> usize {
        self.existing.len()
    }

    fn inspect<R>(&mut self, which: SchemaRef, f: impl FnOnce(&[u8]) -> R) -> Result<R, String> {
        Ok(f(match which {
            SchemaRef::New => self.proposed,
            SchemaRef::Existing(i) => self.existing[i],
        }))
    }

    fn copy(&mut self, which: SchemaRef) -> Result<Vec<u8>, String> {
        self.copies += 1;
        self.inspect(which, <[u8]>::to_vec)
    }
}
