//! Full names as ids, so that two schemas compare the types they name in constant time.
//!
//! The rules ask, for every field pair of every compared pair of schemas, whether two message
//! or enum types have the same full name (FIELD_KIND_CHANGED, which types the walk pairs,
//! ROOT_MESSAGE_CHANGED). A full name holds every enclosing scope's name: 32 nested messages
//! named with a kilobyte each make 32 KB full names out of 32 KB of schema, and a thousand
//! fields of that type made each pair of schemas compare 32 MB, none of it charged.
//!
//! So each message and enum gets, as it is read, the id of its full name: the first 128 bits
//! of the SHA-256 of the full name's text. Two schemas decoded apart give a type the same id
//! whatever else they hold, and nobody can make two full names share one (SHA-256 resists
//! collisions, and 128 bits of it leave 2^64 tries, far past anyone's reach): comparing ids is
//! comparing names. The text is never hashed whole: SHA-256 absorbs its input in order, so the
//! hasher's state after `scope.` is kept for the scope being read, and a declaration's id
//! costs cloning that state and absorbing its own simple name. Computing every id of a
//! schema costs the bytes of its simple names and packages, not those of its full names.

use sha2::{Digest, Sha256};

/// A full name's id: the first 128 bits of the SHA-256 of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct NameId(u128);

impl NameId {
    /// The id of `full_name`, hashed whole: for a name that comes as text (the root message's
    /// name in the schema data), and for the tests that hold ids to their text.
    pub(crate) fn of(full_name: &str) -> NameId {
        NameId::finish(Sha256::new_with_prefix(full_name))
    }

    fn finish(hasher: Sha256) -> NameId {
        let digest = hasher.finalize();
        let mut first = [0u8; 16];
        first.copy_from_slice(&digest[..16]);
        NameId(u128::from_be_bytes(first))
    }
}

/// The SHA-256 compressions of `bytes` absorbed, rounded up, and of the padding: what the
/// work of an id or a scope is counted in.
fn blocks(bytes: usize) -> u64 {
    (bytes as u64 + 9).div_ceil(64)
}

/// The hashers' states of the scopes being read, innermost last, and the work they took.
#[derive(Default)]
pub(crate) struct OpenScopes {
    /// Each the state after absorbing the scope's full name and a dot (empty for the root
    /// scope, where names without a package live).
    open: Vec<Sha256>,
    /// SHA-256 compressions made, counted as [`blocks`] of what each hasher absorbed.
    blocks: u64,
}

impl OpenScopes {
    /// Enters a file's package (`a.b`, or empty).
    pub(crate) fn enter_package(&mut self, package: &str) {
        let mut hasher = Sha256::new();
        if !package.is_empty() {
            hasher.update(package);
            hasher.update(".");
            self.blocks += blocks(package.len() + 1);
        }
        self.open.push(hasher);
    }

    /// The id of `name` declared in the innermost scope.
    pub(crate) fn declare(&mut self, name: &str) -> NameId {
        self.blocks += blocks(name.len());
        let mut hasher = self.innermost();
        hasher.update(name);
        NameId::finish(hasher)
    }

    /// Enters the message `name` declared in the innermost scope: its nested declarations are
    /// declared in it.
    pub(crate) fn enter_message(&mut self, name: &str) {
        self.blocks += blocks(name.len() + 1);
        let mut hasher = self.innermost();
        hasher.update(name);
        hasher.update(".");
        self.open.push(hasher);
    }

    /// Leaves the innermost scope.
    pub(crate) fn leave(&mut self) {
        self.open.pop();
    }

    fn innermost(&self) -> Sha256 {
        self.open.last().cloned().unwrap_or_default()
    }

    /// The SHA-256 compressions made so far (an upper bound): what the ids cost.
    pub(crate) fn blocks(&self) -> u64 {
        self.blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An id made scope by scope is the digest of the full name, so `a.b.C` has one id
    /// whether `b` is a package part or a message, in any schema.
    #[test]
    fn an_id_is_the_digest_of_the_full_name_however_it_was_reached() {
        let mut scopes = OpenScopes::default();
        scopes.enter_package("a.b");
        assert_eq!(scopes.declare("C"), NameId::of("a.b.C"));
        scopes.enter_message("C");
        assert_eq!(scopes.declare("D"), NameId::of("a.b.C.D"));
        scopes.leave();
        scopes.leave();
        scopes.enter_package("a");
        scopes.enter_message("b");
        assert_eq!(scopes.declare("C"), NameId::of("a.b.C"));
        scopes.leave();
        scopes.leave();
        scopes.enter_package("");
        assert_eq!(scopes.declare("C"), NameId::of("C"));
        assert_ne!(NameId::of("a.bC"), NameId::of("a.b.C"));
    }

    /// What the ids cost grows with the simple names, not with the full names they make.
    #[test]
    fn nested_names_cost_their_own_bytes() {
        let name = "n".repeat(1_000);
        let mut scopes = OpenScopes::default();
        scopes.enter_package("");
        for _ in 0..32 {
            scopes.declare(&name);
            scopes.enter_message(&name);
        }
        // Each level: its id (1,000 bytes) and its scope (1,001), 16 blocks each.
        assert_eq!(scopes.blocks(), 32 * 2 * 16);
    }
}
