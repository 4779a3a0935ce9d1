//! Where an annotation goes: buf names a place by a file of the request and a source-info path
//! in it, and shows it at that declaration's line and column.

use std::collections::HashMap;

use prost_types::DescriptorProto;
use protocompat::Finding;

use super::proto::FileLocation;
use crate::input::{Loaded, Sources};
use crate::locate::{declarations, At, Index};

/// Where the root message of `schema` is declared.
pub fn root_location(schema: &Loaded, root: &str) -> Option<FileLocation> {
    Located::new(schema.sources.as_ref()?).find(root, root)
}

/// Finds a finding's place in the new schema's files and the existing one's.
pub struct Places<'a> {
    root: &'a str,
    new: Option<Located<'a>>,
    old: Option<Located<'a>>,
}

impl<'a> Places<'a> {
    pub fn new(root: &'a str, new: &'a Loaded, old: &'a Loaded) -> Places<'a> {
        Places {
            root,
            new: new.sources.as_ref().map(Located::new),
            old: old.sources.as_ref().map(Located::new),
        }
    }

    /// The new file's declaration where the path is whole in it. Else (a field the new schema
    /// lacks) the existing file's declaration as the against location, and in the new files
    /// the message that held it, or the deepest part of the path they have. A strategy's
    /// rejection, which names no declaration, goes to the root message.
    pub fn of(&self, finding: &Finding) -> (Option<FileLocation>, Option<FileLocation>) {
        let Some(new) = &self.new else {
            return (None, None);
        };
        if finding.existing.is_none() {
            return (new.find(self.root, self.root), None);
        }
        let in_new = new.index.source_path(self.root, &finding.path);
        if let Some((file, path, true)) = in_new {
            return (Some(new.location(file, path)), None);
        }
        let in_old = self.old.as_ref().and_then(|old| {
            let (file, path, whole) = old.index.source_path(self.root, &finding.path)?;
            whole.then_some((old, file, path))
        });
        let holder = in_old.as_ref().and_then(|(old, file, path)| {
            let holder = old.message_at(*file, path.get(..path.len().checked_sub(2)?)?)?;
            let (file, path, _) = new.messages.get(holder)?;
            Some(new.location(*file, path.clone()))
        });
        let deepest = in_new.map(|(file, path, _)| new.location(file, path));
        (
            holder.or(deepest),
            in_old.map(|(old, file, path)| old.location(file, path)),
        )
    }
}

/// One side's declarations, by path from the root and by full name.
struct Located<'a> {
    sources: &'a Sources,
    index: Index<'a>,
    messages: HashMap<String, At<'a, DescriptorProto>>,
}

impl<'a> Located<'a> {
    fn new(sources: &'a Sources) -> Located<'a> {
        Located {
            sources,
            index: Index::new(sources),
            messages: declarations(&sources.set).0,
        }
    }

    fn find(&self, root: &str, path: &str) -> Option<FileLocation> {
        let (file, path, _) = self.index.source_path(root, path)?;
        Some(self.location(file, path))
    }

    fn location(&self, file: usize, source_path: Vec<i32>) -> FileLocation {
        FileLocation {
            file_name: self.sources.set.file[file].name().to_owned(),
            source_path,
        }
    }

    /// The full name of the message declared at `path` in file `file`.
    fn message_at(&self, file: usize, path: &[i32]) -> Option<&str> {
        self.messages
            .iter()
            .find(|(_, (f, p, _))| *f == file && p == path)
            .map(|(name, _)| name.as_str())
    }
}
