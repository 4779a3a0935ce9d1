//! The order in which the Pulsar Java client lists a schema's files, so that the schema data
//! the CLI makes from `.proto` source is byte for byte what a Java producer uploads. The broker
//! finds a stored version by the exact bytes: a different order is a different version.
//!
//! `ProtobufNativeSchemaUtils.serialize` puts each file into a `java.util.HashMap` keyed by
//! file name, its imports first (depth first, in declaration order), and writes the map's
//! values: bucket by bucket, each bucket in insertion order. That order is emulated here,
//! table growth included. A bucket of more than 8 names in a table of 64 or more becomes a
//! tree in Java, whose order this does not follow: it takes 48 files or more and 9 names
//! colliding, which protobuf file names do not do by accident.

use std::collections::HashMap;

use prost_types::FileDescriptorSet;

/// `set`'s files in the order the Java client writes them for the root file `root`; files
/// `root` does not import are left out, as the client leaves them out.
pub fn order(set: FileDescriptorSet, root: &str) -> FileDescriptorSet {
    FileDescriptorSet {
        file: order_by(set.file, root, |f| (f.name(), &f.dependency)),
    }
}

/// [`order`] for files of any form, given each one's name and imports: a descriptor set kept
/// as protoc's bytes is ordered without being decoded and encoded again.
pub fn order_by<T>(
    files: Vec<T>,
    root: &str,
    name_and_imports: impl Fn(&T) -> (&str, &[String]),
) -> Vec<T> {
    let imports: HashMap<String, Vec<String>> = files
        .iter()
        .map(|f| {
            let (name, imports) = name_and_imports(f);
            (name.to_owned(), imports.to_vec())
        })
        .collect();
    let mut inserted = Vec::new();
    visit(root, &imports, &mut inserted);
    let mut map = JavaHashMap::default();
    for name in &inserted {
        map.insert(name.clone());
    }
    let mut by_name: HashMap<String, T> = files
        .into_iter()
        .map(|f| (name_and_imports(&f).0.to_owned(), f))
        .collect();
    map.iteration_order()
        .filter_map(|name| by_name.remove(name))
        .collect()
}

/// `serializeFileDescriptor`: each dependency not yet in the map first, then the file.
fn visit(name: &str, files: &HashMap<String, Vec<String>>, inserted: &mut Vec<String>) {
    let Some(dependencies) = files.get(name) else {
        return;
    };
    for dependency in dependencies {
        if !inserted.contains(dependency) {
            visit(dependency, files, inserted);
        }
    }
    if !inserted.iter().any(|n| n == name) {
        inserted.push(name.to_owned());
    }
}

/// `String.hashCode()`: over UTF-16 code units, wrapping.
fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, unit| h.wrapping_mul(31).wrapping_add(unit as i32))
}

/// `HashMap.hash`: the high half folded into the low half.
fn spread(s: &str) -> u32 {
    let h = java_string_hash(s) as u32;
    h ^ (h >> 16)
}

/// The parts of `java.util.HashMap` that decide its iteration order.
struct JavaHashMap {
    buckets: Vec<Vec<String>>,
    size: usize,
}

impl Default for JavaHashMap {
    fn default() -> Self {
        JavaHashMap {
            buckets: vec![Vec::new(); 16],
            size: 0,
        }
    }
}

impl JavaHashMap {
    /// `putVal` for a key not yet present: appended to its bucket; a bucket that reaches nine
    /// entries in a table under 64 doubles the table (`treeifyBin`), and so does passing three
    /// quarters full.
    fn insert(&mut self, key: String) {
        let index = self.index(&key);
        self.buckets[index].push(key);
        if self.buckets[index].len() > 8 && self.buckets.len() < 64 {
            self.grow();
        }
        self.size += 1;
        if self.size > self.buckets.len() * 3 / 4 {
            self.grow();
        }
    }

    fn index(&self, key: &str) -> usize {
        spread(key) as usize & (self.buckets.len() - 1)
    }

    /// `resize`: each bucket splits in two, keeping its entries' order.
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.buckets);
        self.buckets = vec![Vec::new(); old.len() * 2];
        for key in old.into_iter().flatten() {
            let index = self.index(&key);
            self.buckets[index].push(key);
        }
    }

    fn iteration_order(&self) -> impl Iterator<Item = &String> {
        self.buckets.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hashes_are_javas() {
        // Values of "…".hashCode() in Java.
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("hello"), 99162322);
        assert_eq!(java_string_hash("order.proto"), 567_610_184);
        assert_eq!(java_string_hash("é"), 233);
    }

    #[test]
    fn iteration_is_by_bucket_then_insertion() {
        let mut map = JavaHashMap::default();
        // "Aa" and "BB" collide in Java (both hash to 2112, bucket 0): insertion order within
        // a bucket; "a" (97) is in bucket 1 though inserted first.
        for key in ["a", "BB", "Aa"] {
            map.insert(key.to_owned());
        }
        let order: Vec<&String> = map.iteration_order().collect();
        assert_eq!(order, ["BB", "Aa", "a"]);
    }

    #[test]
    fn a_table_three_quarters_full_doubles() {
        let mut map = JavaHashMap::default();
        for i in 0..13 {
            map.insert(format!("f{i}.proto"));
        }
        assert_eq!(map.buckets.len(), 32);
        assert_eq!(map.iteration_order().count(), 13);
    }
}
