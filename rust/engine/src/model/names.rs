//! Type names resolved: a name with a leading dot is a full name; any other is looked up in the
//! scope it was written in, then in each enclosing scope, innermost first, and names the first
//! declared message or enum it reaches (`scope.name`, then `outer.name`, …, then `name`).
//!
//! Compilers write full names (`.pkg.Type`), which one look in a map of full names finds. A
//! relative name costs more, and schema data is written by whoever may upload a schema: a scope
//! can be hundreds of components deep (a 1,000-byte package `a.a.a…`), and building and looking
//! up each candidate costs the depth times the length of the scope, for every reference, which
//! is seconds for one schema inside the default limits. So relative names are resolved together,
//! once every declaration is known, at a cost linear in the bytes of the names ([`Scopes`]):
//!
//! - every package component, message and enum is a node of a tree of scopes, its name an
//!   interned label;
//! - the relative names are written backwards into a trie of labels (`b.T` as `T`, `b`);
//! - from each declared message or enum, the trie is followed up the tree as far as the labels
//!   agree: where a whole name `N` ends, the node reached is a scope `A` in which `A.N` is
//!   declared. Each step is paid for by the bytes of a name that asked for it;
//! - one walk of the tree, keeping for each name the innermost such scope on the way down,
//!   answers every lookup at its scope in one step.

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

/// The symbols of one model by full name: what a full name (`.pkg.Type`) is looked up in, and
/// what finds a name declared twice.
pub(super) struct Names<'m> {
    full: NameMap<&'m str, Symbol>,
}

impl<'m> Names<'m> {
    pub(super) fn new(capacity: usize) -> Names<'m> {
        Names {
            full: NameMap::with_capacity_and_hasher(capacity, Default::default()),
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

    /// What a name with a leading dot (`.pkg.Type`) refers to; `None` for any other name.
    pub(super) fn full(&self, name: &str) -> Option<Symbol> {
        self.full.get(name.strip_prefix('.')?).copied()
    }
}

/// A node of the tree of scopes.
type Node = u32;

/// The root: the empty scope, where names without a package live.
const ROOT: Node = 0;
/// No node, no label, no symbol.
const NONE: u32 = u32::MAX;

/// Every scope of a model as a tree, for resolving relative names ([`Scopes::resolve`]).
pub(super) struct Scopes<'m> {
    /// Each distinct name component, as a number.
    labels: NameMap<&'m [u8], u32>,
    /// (parent node, label) -> child node.
    children: NameMap<u64, Node>,
    parent: Vec<Node>,
    label: Vec<u32>,
    /// The message or enum a node is, if it is one.
    symbol: Vec<Option<Symbol>>,
    first_child: Vec<Node>,
    next_sibling: Vec<Node>,
    /// The node of each scope a name can be written in, by the scope's key ([`Scopes::key`]).
    by_key: NameMap<u64, Node>,
    /// Work done so far: labels hashed (by bytes), nodes and trie steps visited.
    steps: u64,
}

/// A relative name waiting for its answer: where it was written, its place in the trie of
/// names, and the next lookup written in the same scope.
struct Lookup {
    trie: u32,
    next: u32,
}

impl<'m> Scopes<'m> {
    pub(super) fn new() -> Scopes<'m> {
        Scopes {
            labels: NameMap::default(),
            children: NameMap::default(),
            parent: vec![NONE],
            label: vec![NONE],
            symbol: vec![None],
            first_child: vec![NONE],
            next_sibling: vec![NONE],
            by_key: NameMap::default(),
            steps: 0,
        }
    }

    /// A scope's identity: where its text lies in the model (a file's package, a message's
    /// full name), so that a scope is found without hashing its text.
    pub(super) fn key(start: u32, len: u32) -> u64 {
        (u64::from(start) << 32) | u64::from(len)
    }

    /// The work done so far, in steps of about the same cost: a byte of a name hashed, a node
    /// or a trie step visited.
    pub(super) fn steps(&self) -> u64 {
        self.steps
    }

    fn label(&mut self, text: &'m [u8]) -> u32 {
        self.steps += text.len() as u64 + 1;
        let next = self.labels.len() as u32;
        *self.labels.entry(text).or_insert(next)
    }

    fn known_label(&mut self, text: &[u8]) -> Option<u32> {
        self.steps += text.len() as u64 + 1;
        self.labels.get(text).copied()
    }

    fn child(&mut self, parent: Node, label: u32) -> Node {
        let key = (u64::from(parent) << 32) | u64::from(label);
        if let Some(&node) = self.children.get(&key) {
            return node;
        }
        let node = self.parent.len() as Node;
        self.children.insert(key, node);
        self.parent.push(parent);
        self.label.push(label);
        self.symbol.push(None);
        self.first_child.push(NONE);
        self.next_sibling.push(self.first_child[parent as usize]);
        self.first_child[parent as usize] = node;
        node
    }

    /// A file's package (`a.b.c`, or empty): its node, made with those of its outer packages
    /// where missing, known by `key` from then on.
    pub(super) fn package(&mut self, key: u64, package: &'m str) {
        let mut node = ROOT;
        if !package.is_empty() {
            for component in package.as_bytes().split(|&b| b == b'.') {
                let label = self.label(component);
                node = self.child(node, label);
            }
        }
        self.by_key.insert(key, node);
    }

    /// A message or an enum named `name`, declared in the scope known by `scope`; known by
    /// `key` from then on. The scope must be known already: a package, or a message declared
    /// before.
    pub(super) fn declare(&mut self, scope: u64, key: u64, name: &'m str, symbol: Symbol) {
        let parent = self.by_key.get(&scope).copied().unwrap_or(ROOT);
        let label = self.label(name.as_bytes());
        let node = self.child(parent, label);
        self.symbol[node as usize] = Some(symbol);
        self.by_key.insert(key, node);
    }

    /// What each relative name (`name`, written in the scope known by `scope`) refers to: the
    /// symbol `A.name` for the innermost scope `A` that is the scope itself or one around it,
    /// or `None`.
    pub(super) fn resolve(&mut self, lookups: &[(u64, &str)]) -> Vec<Option<Symbol>> {
        let mut answers = vec![None; lookups.len()];
        let mut trie = Trie::default();
        // Lookups by the node of their scope, as linked lists.
        let mut first_lookup = vec![NONE; self.parent.len()];
        let mut pending: Vec<Lookup> = Vec::with_capacity(lookups.len());
        let mut labels = Vec::new();
        // Each distinct name is split and put in the trie once: most names are written many
        // times (every field of a type names it).
        let mut seen: NameMap<&str, u32> = NameMap::default();
        for &(scope, name) in lookups {
            let index = pending.len() as u32;
            let node = self.by_key.get(&scope).copied();
            self.steps += name.len() as u64 / 8 + 1;
            let at = match seen.get(name) {
                Some(&at) => at,
                None => {
                    labels.clear();
                    // A part that is empty or that no declaration uses cannot be part of a
                    // declared name: no scope joined with this name is declared.
                    let known = !name.is_empty()
                        && name.as_bytes().split(|&b| b == b'.').all(|part| {
                            let label = if part.is_empty() {
                                None
                            } else {
                                self.known_label(part)
                            };
                            labels.extend(label);
                            label.is_some()
                        });
                    let at = if known {
                        self.steps += labels.len() as u64;
                        labels.reverse();
                        trie.insert(&labels)
                    } else {
                        NONE
                    };
                    seen.insert(name, at);
                    at
                }
            };
            let next = match node {
                Some(node) if at != NONE => {
                    std::mem::replace(&mut first_lookup[node as usize], index)
                }
                _ => NONE,
            };
            pending.push(Lookup { trie: at, next });
        }
        // From each symbol up the tree, as far as the names asked for agree: a mark (trie
        // node, symbol) at each scope `A` where `A.N` is that symbol for a name `N` asked for.
        let mut first_mark = vec![NONE; self.parent.len()];
        let mut marks: Vec<(u32, Node, u32)> = Vec::new();
        if !trie.is_empty() {
            for symbol in 0..self.parent.len() {
                if self.symbol[symbol].is_none() {
                    continue;
                }
                let (mut at, mut node) = (0, symbol as Node);
                'up: while node != ROOT {
                    let Some(next) = trie.child(at, self.label[node as usize]) else {
                        break;
                    };
                    // Up the tree along the edge, as long as the labels agree; only a whole
                    // edge can end a name.
                    for &label in trie.edge_labels(next) {
                        if node == ROOT || self.label[node as usize] != label {
                            break 'up;
                        }
                        self.steps += 1;
                        node = self.parent[node as usize];
                    }
                    at = next;
                    if trie.ends[at as usize] {
                        marks.push((at, symbol as Node, first_mark[node as usize]));
                        first_mark[node as usize] = marks.len() as u32 - 1;
                    }
                }
            }
        }
        // One walk of the tree: `innermost[t]` is the symbol of the innermost scope on the way
        // down in which the name of trie node `t` is declared.
        let mut innermost = vec![NONE; trie.len()];
        let mut undo: Vec<(u32, Node)> = Vec::new();
        // (node, entered): entered nodes are left when met again.
        let mut stack: Vec<(Node, usize)> = vec![(ROOT, usize::MAX)];
        while let Some((node, undo_to)) = stack.pop() {
            if undo_to != usize::MAX {
                while undo.len() > undo_to {
                    let (at, was) = undo.pop().expect("undo holds the entries pushed");
                    innermost[at as usize] = was;
                }
                continue;
            }
            self.steps += 1;
            stack.push((node, undo.len()));
            let mut mark = first_mark[node as usize];
            while mark != NONE {
                let (at, symbol, next) = marks[mark as usize];
                undo.push((at, innermost[at as usize]));
                innermost[at as usize] = symbol;
                mark = next;
            }
            let mut lookup = first_lookup[node as usize];
            while lookup != NONE {
                let Lookup { trie: at, next } = pending[lookup as usize];
                let found = innermost[at as usize];
                if found != NONE {
                    answers[lookup as usize] = self.symbol[found as usize];
                }
                lookup = next;
            }
            let mut child = self.first_child[node as usize];
            while child != NONE {
                stack.push((child, usize::MAX));
                child = self.next_sibling[child as usize];
            }
        }
        answers
    }
}

/// Names written backwards, label by label, with each run of labels that no other name shares
/// kept as one edge: distinct names of hundreds of parts (`a.a.….T1`, `a.a.….T2`) cost a node or
/// two each, not one per part, and are matched along a flat run of labels.
#[derive(Default)]
struct Trie {
    /// (node, first label of the edge into the child) -> child; node 0 is the root, made at
    /// the first insert.
    children: NameMap<u64, u32>,
    /// The labels on the edge into each node: a range of `labels`.
    edge: Vec<(u32, u32)>,
    /// Whether a whole name ends at each node.
    ends: Vec<bool>,
    labels: Vec<u32>,
}

/// Where a label sequence leaves the trie, when followed from the root ([`Trie::follow`]).
enum Left {
    /// The labels run out exactly at this node.
    At(u32),
    /// At this node, `from` labels in, with no child for the next label.
    Below(u32, usize),
    /// Inside the edge into `child` (of `parent`), `from` labels in, `matched` labels of the
    /// edge agreeing.
    Inside {
        parent: u32,
        child: u32,
        from: usize,
        matched: u32,
    },
}

impl Trie {
    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn key(at: u32, label: u32) -> u64 {
        (u64::from(at) << 32) | u64::from(label)
    }

    fn node(&mut self, edge: (u32, u32)) -> u32 {
        self.edge.push(edge);
        self.ends.push(false);
        self.ends.len() as u32 - 1
    }

    fn edge_labels(&self, node: u32) -> &[u32] {
        let (start, len) = self.edge[node as usize];
        &self.labels[start as usize..(start + len) as usize]
    }

    /// How far `labels` follow the trie from the root.
    fn follow(&self, labels: &[u32]) -> Left {
        let (mut at, mut from) = (0, 0);
        loop {
            let Some(&label) = labels.get(from) else {
                return Left::At(at);
            };
            let Some(&child) = self.children.get(&Trie::key(at, label)) else {
                return Left::Below(at, from);
            };
            let edge = self.edge_labels(child);
            let matched = edge
                .iter()
                .zip(&labels[from..])
                .take_while(|(a, b)| a == b)
                .count();
            if matched < edge.len() {
                return Left::Inside {
                    parent: at,
                    child,
                    from,
                    matched: matched as u32,
                };
            }
            at = child;
            from += matched;
        }
    }

    /// Puts `labels` in the trie; the node where they end.
    fn insert(&mut self, labels: &[u32]) -> u32 {
        if self.ends.is_empty() {
            self.node((0, 0));
        }
        let end = match self.follow(labels) {
            Left::At(at) => at,
            Left::Below(at, from) => self.leaf(at, &labels[from..]),
            Left::Inside {
                parent,
                child,
                from,
                matched,
            } => {
                // The edge into `child` splits where the labels part from it.
                let (start, len) = self.edge[child as usize];
                let middle = self.node((start, matched));
                self.edge[child as usize] = (start + matched, len - matched);
                self.children
                    .insert(Trie::key(parent, labels[from]), middle);
                let first = self.labels[(start + matched) as usize];
                self.children.insert(Trie::key(middle, first), child);
                let rest = from + matched as usize;
                if rest == labels.len() {
                    middle
                } else {
                    self.leaf(middle, &labels[rest..])
                }
            }
        };
        self.ends[end as usize] = true;
        end
    }

    fn leaf(&mut self, parent: u32, labels: &[u32]) -> u32 {
        let start = self.labels.len() as u32;
        self.labels.extend_from_slice(labels);
        let leaf = self.node((start, labels.len() as u32));
        self.children.insert(Trie::key(parent, labels[0]), leaf);
        leaf
    }

    fn child(&self, at: u32, label: u32) -> Option<u32> {
        self.children.get(&Trie::key(at, label)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: every candidate full name built and looked up whole, as the lookup was
    /// written before the tree, innermost scope first.
    fn resolve_by_strings(full: &NameMap<&str, Symbol>, name: &str, scope: &str) -> Option<Symbol> {
        if let Some(full_name) = name.strip_prefix('.') {
            return full.get(full_name).copied();
        }
        if name.is_empty() {
            return None;
        }
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

    /// A small random source, the same on every run.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        /// Up to `most` parts from `parts`, joined with dots.
        fn joined(&mut self, parts: &[&str], most: usize) -> String {
            let count = self.below(most + 1);
            (0..count)
                .map(|_| parts[self.below(parts.len())])
                .collect::<Vec<_>>()
                .join(".")
        }
    }

    /// A key for a scope's text, as the reader keys a scope by where its text lies.
    fn key_of(text: &str) -> u64 {
        text.as_ptr() as u64 ^ ((text.len() as u64) << 48)
    }

    /// Scopes and declarations as the reader makes them: every scope a package, every symbol
    /// declared in one.
    fn tree<'m>(declared: &'m [String], scopes: &'m [String]) -> (Names<'m>, Scopes<'m>) {
        let mut names = Names::new(declared.len());
        let mut tree = Scopes::new();
        for scope in scopes {
            tree.package(key_of(scope), scope);
        }
        for (i, full_name) in declared.iter().enumerate() {
            let symbol = if i % 2 == 0 {
                Symbol::Message(i as u32)
            } else {
                Symbol::Enum(i as u32)
            };
            if !names.declare(full_name, symbol) {
                continue;
            }
            let (scope, name) = full_name.rsplit_once('.').unwrap_or(("", full_name));
            tree.package(key_of(scope), scope);
            tree.declare(key_of(scope), key_of(full_name), name, symbol);
        }
        (names, tree)
    }

    #[test]
    fn the_tree_finds_what_building_every_candidate_finds() {
        // Declared names are identifiers joined with dots (the reader refuses anything else);
        // scopes and references collide often over a small alphabet, references may be
        // dotted, lead with a dot, or hold empty parts.
        let parts = ["a", "b", "T", "a.T", "b.a"];
        let wild = ["a", "b", "T", "", "a.T", "b.a", "c"];
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let (mut compared, mut found, mut dotted) = (0, 0, 0);
        for _ in 0..300 {
            let declared: Vec<String> = (0..12)
                .map(|_| {
                    let name = random.joined(&parts, 4);
                    if name.is_empty() {
                        "T".to_owned()
                    } else {
                        name
                    }
                })
                .collect();
            let scopes: Vec<String> = (0..8).map(|_| random.joined(&parts, 5)).collect();
            let references: Vec<String> = (0..8)
                .map(|_| {
                    let name = random.joined(&wild, 3);
                    if random.below(4) == 0 {
                        format!(".{name}")
                    } else {
                        name
                    }
                })
                .collect();
            let (names, mut tree) = tree(&declared, &scopes);
            let lookups: Vec<(u64, &str)> = scopes
                .iter()
                .flat_map(|scope| references.iter().map(move |r| (key_of(scope), r.as_str())))
                .collect();
            let relative: Vec<(u64, &str)> = lookups
                .iter()
                .copied()
                .filter(|(_, name)| !name.starts_with('.'))
                .collect();
            let mut answers = tree.resolve(&relative).into_iter();
            for (scope, reference) in scopes
                .iter()
                .flat_map(|scope| references.iter().map(move |r| (scope, r)))
            {
                let expected = resolve_by_strings(&names.full, reference, scope);
                let got = if reference.starts_with('.') {
                    names.full(reference)
                } else {
                    answers.next().expect("one answer a lookup")
                };
                assert_eq!(
                    got, expected,
                    "{reference:?} in {scope:?}, declared {declared:?}"
                );
                compared += 1;
                found += usize::from(expected.is_some());
                dotted += usize::from(
                    expected.is_some() && reference.trim_start_matches('.').contains('.'),
                );
            }
        }
        assert!(found > 1_000 && found < compared, "{found} of {compared}");
        assert!(dotted > 200, "{dotted} dotted names found");
    }

    /// The shape that made the lookup cost the depth times the parts: every enclosing scope of
    /// a 512-part package has a child `a`, and each name is `a.a.….T` of 255 parts, declared at
    /// the root only. The work counted stays linear in the bytes of the names.
    #[test]
    fn deep_scopes_cost_the_bytes_of_the_names() {
        let package = vec!["a"; 512].join(".");
        let declared = format!("{}.T", vec!["a"; 255].join("."));
        let reference = declared.clone();
        let mut tree = Scopes::new();
        tree.package(1, &package);
        let (scope, name) = declared.rsplit_once('.').unwrap();
        tree.package(2, scope);
        tree.declare(2, 3, name, Symbol::Message(7));
        let lookups: Vec<(u64, &str)> = (0..1_000).map(|_| (1, reference.as_str())).collect();
        let before = tree.steps();
        let answers = tree.resolve(&lookups);
        assert!(answers.iter().all(|a| *a == Some(Symbol::Message(7))));
        let steps = tree.steps() - before;
        let bytes = (reference.len() * lookups.len()) as u64;
        assert!(
            steps < 3 * bytes + 10_000,
            "{steps} steps for {bytes} bytes of names"
        );
    }
}
