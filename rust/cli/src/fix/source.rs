//! The new side's `.proto` source as a remedy edits it: where each message, enum and field is
//! written (from the compiler's source info), and the files' text.

use std::collections::HashMap;
use std::fs;

use prost_types::source_code_info::Location;
use prost_types::{DescriptorProto, EnumDescriptorProto};

use crate::input::Sources;
use crate::locate::{declarations, At};
pub use crate::locate::{FIELD, ONEOF};

/// `EnumDescriptorProto.value` in source-info paths.
pub const ENUM_VALUE: i32 = 2;

/// A declaration found: its file (index in the set), its source-info path, its descriptor.
pub struct Found<'a, T> {
    pub file: usize,
    pub path: Vec<i32>,
    pub descriptor: &'a T,
}

/// Byte offsets into one file's text, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

pub struct Source<'a> {
    pub sources: &'a Sources,
    /// Each file's text, where it can be read from disk (not for a file from a git tree).
    texts: Vec<Option<String>>,
    messages: HashMap<String, At<'a, DescriptorProto>>,
    enums: HashMap<String, At<'a, EnumDescriptorProto>>,
}

impl<'a> Source<'a> {
    pub fn new(sources: &'a Sources) -> Source<'a> {
        let (messages, enums) = declarations(&sources.set);
        let mut texts = Vec::new();
        for file in &sources.set.file {
            texts.push(
                sources
                    .files
                    .get(file.name())
                    .and_then(|path| fs::read_to_string(path).ok()),
            );
        }
        Source {
            sources,
            texts,
            messages,
            enums,
        }
    }

    /// Whether its files are on disk (not in a git tree), so `--fix` can write them.
    pub fn editable(&self) -> bool {
        self.texts.iter().any(Option::is_some)
    }

    pub fn text(&self, file: usize) -> Option<&str> {
        self.texts.get(file)?.as_deref()
    }

    /// The path that opens the file, as the user named it.
    pub fn file_name(&self, file: usize) -> String {
        let name = self.sources.set.file[file].name();
        self.sources
            .files
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_owned())
    }

    pub fn message(&self, name: &str) -> Option<Found<'a, DescriptorProto>> {
        let (file, path, descriptor) = self.messages.get(name)?;
        Some(Found {
            file: *file,
            path: path.clone(),
            descriptor,
        })
    }

    /// Every message of every file, by full name.
    pub fn messages(&self) -> impl Iterator<Item = (&str, Found<'a, DescriptorProto>)> + '_ {
        self.messages
            .iter()
            .map(|(name, (file, path, descriptor))| {
                (
                    name.as_str(),
                    Found {
                        file: *file,
                        path: path.clone(),
                        descriptor: *descriptor,
                    },
                )
            })
    }

    pub fn enumeration(&self, name: &str) -> Option<Found<'a, EnumDescriptorProto>> {
        let (file, path, descriptor) = self.enums.get(name)?;
        Some(Found {
            file: *file,
            path: path.clone(),
            descriptor,
        })
    }

    fn location(&self, file: usize, path: &[i32]) -> Option<&'a Location> {
        self.sources.set.file[file]
            .source_code_info
            .as_ref()?
            .location
            .iter()
            .find(|l| l.path == path)
    }

    /// Where the declaration at `path` is written, as byte offsets into its file's text.
    pub fn span(&self, file: usize, path: &[i32]) -> Option<Span> {
        let span = &self.location(file, path)?.span;
        let (start_line, start_column, end_line, end_column) = match *span.as_slice() {
            [line, start, end] => (line, start, line, end),
            [start_line, start, end_line, end] => (start_line, start, end_line, end),
            _ => return None,
        };
        let text = self.text(file)?;
        let start = offset(text, start_line, start_column)?;
        let end = offset(text, end_line, end_column)?;
        (start <= end).then_some(Span { start, end })
    }
}

/// Columns as protoc counts them: characters, a tab advancing to the next multiple of 8.
fn offset(text: &str, line: i32, column: i32) -> Option<usize> {
    let line_start = if line == 0 {
        0
    } else {
        text.match_indices('\n')
            .nth(usize::try_from(line).ok()? - 1)?
            .0
            + 1
    };
    let mut col = 0;
    for (at, c) in text[line_start..].char_indices() {
        if col >= column || c == '\n' {
            return (col == column).then_some(line_start + at);
        }
        col = if c == '\t' {
            col + 8 - col % 8
        } else {
            col + 1
        };
    }
    (col == column).then_some(text.len())
}

/// 1-based line and column of a byte offset, counted as [`offset`] counts.
pub fn line_column(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let mut col = 0u32;
    for c in text[line_start..at].chars() {
        col = if c == '\t' {
            col + 8 - col % 8
        } else {
            col + 1
        };
    }
    (line, col + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_tabs_as_protoc_does() {
        let text = "a\n\tb = 1;\n";
        assert_eq!(offset(text, 1, 8), Some(3));
        assert_eq!(line_column(text, 3), (2, 9));
        assert_eq!(offset(text, 1, 3), None);
        assert_eq!(offset(text, 2, 0), Some(text.len()));
    }
}
