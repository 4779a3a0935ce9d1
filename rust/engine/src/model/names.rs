//! Type names resolved as protobuf resolves them: a name with a leading dot is a full name; any
//! other is looked up in the scope it was written in, then in each enclosing scope.
//!
//! A scope can be hundreds of components deep (a 1,000-byte package `a.a.a…`), so building and
//! hashing the full candidate name at each level would cost the depth times the length of the
//! scope for every field: seconds for one schema inside the default limits. Scopes are instead
//! the nodes of a tree (every component-prefix of every package and declaration), and a
//! one-part name climbs that tree with keys of one node and the name.
//!
//! A dotted relative name (`Outer.Inner`) still builds each candidate: descending the tree by
//! its parts from every enclosing scope would cost the depth times the parts, which a name of
//! hundreds of parts under a deep package makes far worse than the candidates' bytes.

use std::collections::HashMap;

/// Names are interned and declarations resolved through maps of names. Their hasher is seeded
/// per process, like the standard one, so an input cannot aim collisions at it, and is several
/// times faster on short names.
pub(super) type NameMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A message or an enum, by its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Symbol {
    Message(u32),
    Enum(u32),
}

/// The symbols of one model by full name and, once a relative name asks for it, by scope.
pub(super) struct Names<'m> {
    full: NameMap<&'m str, Symbol>,
    /// Built at the first relative name: compilers write full names (`.pkg.Type`), so most
    /// schemas never need it.
    scopes: Option<Scopes<'m>>,
}

/// Every scope a symbol is declared in or a name is looked up from, as a tree.
struct Scopes<'m> {
    ids: NameMap<&'m str, u32>,
    /// Each scope's enclosing scope; the root (the empty scope) has none.
    parent: Vec<Option<u32>>,
    /// (scope, last component of a full name) -> what is declared there.
    declared: NameMap<(u32, &'m str), Symbol>,
}

/// The root: the empty scope, where names without a package live.
const ROOT: u32 = 0;

/// A name's enclosing scope, and its last component when the scope joins it as a lookup would
/// (`scope.last`, or `last` alone in the empty scope). A name whose only dot leads (`.a`) is in
/// the empty scope, which never joins with a dot: no component.
fn split(text: &str) -> (&str, Option<&str>) {
    match text.rsplit_once('.') {
        None => ("", Some(text)),
        Some(("", _)) => ("", None),
        Some((scope, last)) => (scope, Some(last)),
    }
}

impl<'m> Names<'m> {
    pub(super) fn new(capacity: usize) -> Names<'m> {
        Names {
            full: NameMap::with_capacity_and_hasher(capacity, Default::default()),
            scopes: None,
        }
    }

    /// Declares `symbol` under `full_name`; false if the name was declared already.
    pub(super) fn declare(&mut self, full_name: &'m str, symbol: Symbol) -> bool {
        match self.full.insert(full_name, symbol) {
            None => true,
            Some(first) => {
                // The first declaration stays: the caller refuses the set anyway.
                self.full.insert(full_name, first);
                false
            }
        }
    }

    /// What `name`, written in scope `scope` (a package or a message's full name), refers to.
    pub(super) fn resolve(&mut self, name: &str, scope: &'m str) -> Option<Symbol> {
        if let Some(full) = name.strip_prefix('.') {
            return self.full.get(full).copied();
        }
        if name.is_empty() {
            return None;
        }
        if name.contains('.') {
            return by_candidates(&self.full, name, scope);
        }
        let full = &self.full;
        self.scopes
            .get_or_insert_with(|| Scopes::of(full))
            .resolve(name, scope)
    }
}

/// A relative `name` looked up by building its full name in `scope` and in each enclosing
/// scope, innermost first.
fn by_candidates(full: &NameMap<&str, Symbol>, name: &str, scope: &str) -> Option<Symbol> {
    let mut scope = scope;
    loop {
        let candidate = if scope.is_empty() {
            name.to_owned()
        } else {
            format!("{scope}.{name}")
        };
        if let Some(symbol) = full.get(candidate.as_str()) {
            return Some(*symbol);
        }
        if scope.is_empty() {
            return None;
        }
        scope = scope.rsplit_once('.').map_or("", |(outer, _)| outer);
    }
}

impl<'m> Scopes<'m> {
    fn of(full: &NameMap<&'m str, Symbol>) -> Scopes<'m> {
        let mut ids = NameMap::default();
        ids.insert("", ROOT);
        let mut scopes = Scopes {
            ids,
            parent: vec![None],
            declared: NameMap::with_capacity_and_hasher(full.len(), Default::default()),
        };
        for (&full_name, &symbol) in full {
            // `.T`: only its full name finds it (see `split`).
            if let (scope, Some(last)) = split(full_name) {
                let scope = scopes.scope(scope);
                scopes.declared.insert((scope, last), symbol);
            }
        }
        scopes
    }

    /// The node of `text` and of each of its enclosing scopes, made where missing: from the
    /// deepest one that has a node, iteratively, so a deep package is hashed whole only once.
    fn scope(&mut self, text: &'m str) -> u32 {
        if let Some(&node) = self.ids.get(text) {
            return node;
        }
        let mut missing = vec![text];
        let mut node = loop {
            let (outer, _) = split(missing[missing.len() - 1]);
            if let Some(&node) = self.ids.get(outer) {
                break node;
            }
            missing.push(outer);
        };
        for text in missing.into_iter().rev() {
            let child = self.parent.len() as u32;
            self.parent.push(Some(node));
            self.ids.insert(text, child);
            node = child;
        }
        node
    }

    /// A one-part relative `name` looked up from `scope` outward, one scope at a time.
    fn resolve(&mut self, name: &str, scope: &'m str) -> Option<Symbol> {
        let mut at = Some(self.scope(scope));
        while let Some(node) = at {
            if let Some(symbol) = self.declared.get(&(node, name)) {
                return Some(*symbol);
            }
            at = self.parent[node as usize];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: every candidate full name built and looked up whole, as the lookup was
    /// written before the tree, and as dotted names still are.
    fn resolve_by_strings(full: &NameMap<&str, Symbol>, name: &str, scope: &str) -> Option<Symbol> {
        match name.strip_prefix('.') {
            Some(full_name) => full.get(full_name).copied(),
            None if name.is_empty() => None,
            None => by_candidates(full, name, scope),
        }
    }

    #[test]
    fn the_tree_finds_what_building_every_candidate_finds() {
        // Names over a small alphabet, so that scopes, declarations and references collide
        // often: empty components, the same component at several depths, dotted references.
        let parts = ["a", "b", "T", "", "a.T", "b.a"];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut random = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let joined = |random: &mut dyn FnMut(usize) -> usize, most: usize| {
            let count = random(most + 1);
            (0..count)
                .map(|_| parts[random(parts.len())])
                .collect::<Vec<_>>()
                .join(".")
        };
        let mut compared = 0;
        let mut found = 0;
        for _ in 0..300 {
            let declared: Vec<String> = (0..12).map(|_| joined(&mut random, 4)).collect();
            let scopes: Vec<String> = (0..8).map(|_| joined(&mut random, 5)).collect();
            let names: Vec<String> = (0..8)
                .map(|_| {
                    let name = joined(&mut random, 3);
                    if random(4) == 0 {
                        format!(".{name}")
                    } else {
                        name
                    }
                })
                .collect();
            let mut tree = Names::new(declared.len());
            for (i, full_name) in declared.iter().enumerate() {
                let symbol = if i % 2 == 0 {
                    Symbol::Message(i as u32)
                } else {
                    Symbol::Enum(i as u32)
                };
                tree.declare(full_name, symbol);
            }
            let full = tree.full.clone();
            for scope in &scopes {
                for name in &names {
                    let expected = resolve_by_strings(&full, name, scope);
                    assert_eq!(tree.resolve(name, scope), expected, "{name:?} in {scope:?}");
                    compared += 1;
                    found += usize::from(expected.is_some());
                }
            }
        }
        assert!(found > 1_000 && found < compared, "{found} of {compared}");
    }
}
