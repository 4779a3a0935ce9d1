//! Full names as ids, so that two schemas compare the types they name in constant time.
//!
//! The rules ask, for every field pair of every compared pair of schemas, whether two message
//! or enum types have the same full name (FIELD_KIND_CHANGED, which types the walk pairs,
//! ROOT_MESSAGE_CHANGED). A full name holds every enclosing scope's name: 31 messages named
//! with a kilobyte each, one inside the next, make a 31 KB full name out of 31 KB of schema,
//! and a thousand fields of that type made each pair of schemas compare 31 MB, none of it
//! charged.
//!
//! So each message and enum gets, as it is read, the id of its full name, a function of the
//! name's text alone: two schemas decoded apart give a type the same id, and `a.b.C` has one id
//! whether `b` is a package or a message. An id is made from its scope's id and its own simple
//! name, so computing every id of a schema costs the bytes of its simple names and package
//! parts, never those of its full names:
//! - a full name of at most 31 bytes is its own id, its bytes and its length;
//! - any longer one is the SHA-256 of its scope's id and its simple name, less one bit (which
//!   tells the two forms apart). Nobody can make two such names share an id: SHA-256 resists
//!   collisions. The short form spares the hash (a SHA-256 block, some 40 ns) for most types
//!   of real schemas (`shop.v1.Order`), which every cold check decodes.

use sha2::digest::generic_array::GenericArray;

/// A full name's id: the name itself when it has at most [`INLINE`] bytes (its length in the
/// last byte, which leaves the top bit clear), else a digest with that bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct NameId([u8; 32]);

/// The longest full name that is its own id.
const INLINE: usize = 31;
/// In the last byte: set in a digest, clear in a name's length.
const HASHED: u8 = 0x80;

/// SHA-256's initial state (FIPS 180-4, 5.3.3).
const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

impl NameId {
    /// The root scope's: the empty name, where names without a package live.
    pub(crate) const ROOT: NameId = NameId([0; 32]);

    /// The id of `name` declared in the scope of this id, and the SHA-256 blocks it took.
    #[inline]
    pub(crate) fn child(self, name: &str) -> (NameId, u64) {
        if let Some(id) = self.inline_child(name.as_bytes()) {
            return (id, 0);
        }
        let (mut digest, blocks) = sha256_of(&self.0, name.as_bytes());
        digest[31] |= HASHED;
        (NameId(digest), blocks)
    }

    /// The child's id when its full name is short enough to be it.
    #[inline]
    fn inline_child(self, name: &[u8]) -> Option<NameId> {
        let len = self.0[31];
        if len & HASHED != 0 {
            return None;
        }
        let len = usize::from(len);
        let dot = usize::from(len > 0);
        let total = len + dot + name.len();
        if total > INLINE {
            return None;
        }
        let mut bytes = self.0;
        if dot == 1 {
            bytes[len] = b'.';
        }
        bytes[len + dot..total].copy_from_slice(name);
        bytes[31] = total as u8;
        Some(NameId(bytes))
    }

    /// The id of a full name given as text (`a.b.C`), part by part, as its declarations make
    /// it; the SHA-256 blocks it took.
    pub(crate) fn of(full_name: &str) -> (NameId, u64) {
        if full_name.is_empty() {
            return (NameId::ROOT, 0);
        }
        full_name
            .split('.')
            .fold((NameId::ROOT, 0), |(id, blocks), part| {
                let (child, more) = id.child(part);
                (child, blocks + more)
            })
    }
}

/// The SHA-256 of `prefix` and `text`, and the compressions it took: SHA-256 run block by
/// block, with no buffering, since the whole input is at hand.
fn sha256_of(prefix: &[u8; 32], text: &[u8]) -> ([u8; 32], u64) {
    let mut state = SHA256_IV;
    let len = prefix.len() + text.len();
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(prefix);
    let mut filled = 32;
    let mut rest = text;
    let mut blocks = 0;
    // Whole blocks of input, then the last bytes with the padding: 0x80, zeros, and the length
    // in bits, which may take one block more.
    loop {
        let take = rest.len().min(64 - filled);
        block[filled..filled + take].copy_from_slice(&rest[..take]);
        filled += take;
        rest = &rest[take..];
        if filled < 64 {
            break;
        }
        sha2::compress256(&mut state, &[GenericArray::from(block)]);
        blocks += 1;
        filled = 0;
    }
    block[filled] = 0x80;
    block[filled + 1..].fill(0);
    if filled + 1 > 56 {
        sha2::compress256(&mut state, &[GenericArray::from(block)]);
        blocks += 1;
        block = [0u8; 64];
    }
    block[56..].copy_from_slice(&(len as u64 * 8).to_be_bytes());
    sha2::compress256(&mut state, &[GenericArray::from(block)]);
    blocks += 1;
    let mut digest = [0u8; 32];
    for (bytes, word) in digest.chunks_exact_mut(4).zip(state) {
        bytes.copy_from_slice(&word.to_be_bytes());
    }
    (digest, blocks)
}

/// The ids of the scopes being read, innermost last, and the SHA-256 blocks made so far.
#[derive(Default)]
pub(crate) struct OpenScopes<'a> {
    open: Vec<NameId>,
    /// The last file's package, and each distinct package once: a package is worked out once
    /// however many files declare it, and most sets have one.
    last_package: Option<(&'a str, NameId)>,
    packages: super::names::NameMap<&'a str, NameId>,
    blocks: u64,
}

impl<'a> OpenScopes<'a> {
    /// Enters a file's package (`a.b`, or empty).
    pub(crate) fn enter_package(&mut self, package: &'a str) {
        let id = match self.last_package {
            Some((last, id)) if last == package => id,
            _ => {
                let id = match self.packages.get(package) {
                    Some(&id) => id,
                    None => {
                        let (id, blocks) = NameId::of(package);
                        self.blocks += blocks;
                        id
                    }
                };
                // The table is only made once a second package shows up.
                if let Some((last, last_id)) = self.last_package.replace((package, id)) {
                    self.packages.insert(last, last_id);
                }
                id
            }
        };
        self.open.push(id);
    }

    /// The id of `name` declared in the innermost scope.
    #[inline]
    pub(crate) fn declare(&mut self, name: &str) -> NameId {
        let scope = self.open.last().copied().unwrap_or(NameId::ROOT);
        let (id, blocks) = scope.child(name);
        self.blocks += blocks;
        id
    }

    /// Enters the message of this id (from [`OpenScopes::declare`]): what is nested in it is
    /// declared in it.
    pub(crate) fn enter(&mut self, message: NameId) {
        self.open.push(message);
    }

    /// Leaves the innermost scope.
    pub(crate) fn leave(&mut self) {
        self.open.pop();
    }

    /// The SHA-256 compressions made so far: what the ids cost beyond the declarations.
    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// An id made scope by scope is that of the full name's text, so `a.b.C` has one id
    /// whether `b` is a package part or a message, in any schema.
    #[test]
    fn an_id_is_a_function_of_the_full_name_however_it_was_reached() {
        let long = "p".repeat(40);
        for package in ["a.b", &format!("{long}.b")] {
            let mut scopes = OpenScopes::default();
            scopes.enter_package(package);
            let c = scopes.declare("C");
            assert_eq!(c, NameId::of(&format!("{package}.C")).0);
            scopes.enter(c);
            assert_eq!(scopes.declare("D"), NameId::of(&format!("{package}.C.D")).0);
            let (outer, b) = package.rsplit_once('.').unwrap();
            let mut nested = OpenScopes::default();
            nested.enter_package(outer);
            let b = nested.declare(b);
            nested.enter(b);
            assert_eq!(nested.declare("C"), c);
        }
        let mut scopes = OpenScopes::default();
        scopes.enter_package("");
        assert_eq!(scopes.declare("C"), NameId::of("C").0);
    }

    /// Distinct names, short, long or at the border between, have distinct ids.
    #[test]
    fn distinct_names_have_distinct_ids() {
        let thirty = "abcdefghijklmnopqrstuvwxyz0123";
        let names = [
            "".to_owned(),
            "C".to_owned(),
            "a.C".to_owned(),
            "aC".to_owned(),
            "a.bC".to_owned(),
            "a.b.C".to_owned(),
            thirty.to_owned(),
            format!("{thirty}4"),
            format!("{thirty}45"),
            format!("a.{thirty}"),
            format!("{thirty}.4"),
            format!("{thirty}4.5"),
        ];
        let mut ids: Vec<NameId> = names.iter().map(|n| NameId::of(n).0).collect();
        ids.sort_by_key(|id| id.0);
        ids.dedup();
        assert_eq!(ids.len(), names.len());
    }

    /// The block-by-block SHA-256 is SHA-256, at every length around the block's borders.
    #[test]
    fn the_digest_is_sha256() {
        let prefix = [7u8; 32];
        for len in 0..200 {
            let text = vec![b'x'; len];
            let mut whole = prefix.to_vec();
            whole.extend_from_slice(&text);
            let expected: [u8; 32] = Sha256::digest(&whole).into();
            let (got, blocks) = sha256_of(&prefix, &text);
            assert_eq!(got, expected, "{len} bytes");
            assert_eq!(blocks, (whole.len() as u64 + 9).div_ceil(64), "{len} bytes");
        }
    }

    /// What the ids cost grows with the simple names, not with the full names they make.
    #[test]
    fn nested_names_cost_their_own_bytes() {
        let name = "n".repeat(1_000);
        let mut scopes = OpenScopes::default();
        scopes.enter_package("");
        for _ in 0..32 {
            let id = scopes.declare(&name);
            scopes.enter(id);
        }
        // Each level hashes its scope's id and its own name: 1,032 bytes, 17 blocks.
        assert_eq!(scopes.blocks(), 32 * 17);
    }
}
