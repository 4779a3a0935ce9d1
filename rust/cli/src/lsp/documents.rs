//! The editor's open documents, kept as their text with each change applied (full or
//! incremental, LSP positions in UTF-16 code units), and positions between the report's
//! `line:column` and the LSP's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

use crate::input::overlay::{self, Buffers};

/// The largest document checked: the engine's own bound on a schema (`maxSchemaBytes`).
pub const MAX_DOCUMENT_BYTES: usize = 16 << 20;

#[derive(Default)]
pub struct Documents {
    open: HashMap<PathBuf, Document>,
}

struct Document {
    text: Arc<str>,
}

impl Documents {
    pub fn open(&mut self, path: &Path, text: String) {
        self.open.insert(
            overlay::key(path),
            Document {
                text: Arc::from(text),
            },
        );
    }

    pub fn close(&mut self, path: &Path) {
        self.open.remove(&overlay::key(path));
    }

    /// Applies the changes in order; a change that does not fit the text (a range past its
    /// end, which a well-behaved client never sends) is clamped to it.
    pub fn change(&mut self, path: &Path, changes: Vec<TextDocumentContentChangeEvent>) {
        let Some(document) = self.open.get_mut(&overlay::key(path)) else {
            return;
        };
        let mut text = document.text.to_string();
        for change in changes {
            match change.range {
                None => text = change.text,
                Some(range) => {
                    let start = offset(&text, range.start);
                    let end = offset(&text, range.end).max(start);
                    text.replace_range(start..end, &change.text);
                }
            }
        }
        document.text = Arc::from(text);
    }

    #[cfg(test)]
    pub fn text(&self, path: &Path) -> Option<Arc<str>> {
        self.open.get(&overlay::key(path)).map(|d| d.text.clone())
    }

    /// The open documents within the size bound, as the checks' overlay.
    pub fn buffers(&self) -> Buffers {
        self.open
            .iter()
            .filter(|(_, d)| d.text.len() <= MAX_DOCUMENT_BYTES)
            .map(|(path, d)| (path.clone(), d.text.clone()))
            .collect()
    }

    /// The size of the open document at `key` ([`overlay::key`]), if it is over the bound.
    pub fn oversized(&self, key: &Path) -> Option<usize> {
        self.open
            .get(key)
            .map(|d| d.text.len())
            .filter(|&len| len > MAX_DOCUMENT_BYTES)
    }
}

/// The byte offset of an LSP position (UTF-16 columns) in `text`, clamped to the text.
pub fn offset(text: &str, position: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match text[line_start..].find('\n') {
            Some(at) => line_start += at + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |at| line_start + at);
    let mut units = 0u32;
    for (at, c) in text[line_start..line_end].char_indices() {
        if units >= position.character {
            return line_start + at;
        }
        units += c.len_utf16() as u32;
    }
    line_end
}

/// A file's text with where each of its lines starts: a report names many positions in one
/// file, and each then costs its own line, not a walk from the top of the file.
pub struct Text {
    text: Arc<str>,
    starts: Vec<usize>,
}

impl Text {
    pub fn new(text: Arc<str>) -> Text {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .filter(|&at| at < text.len())
            .collect();
        Text { text, starts }
    }

    /// Line `line0` (0-based) without its line ending, as `str::lines` gives it.
    fn line(&self, line0: u32) -> Option<&str> {
        let start = *self.starts.get(line0 as usize)?;
        let end = self
            .starts
            .get(line0 as usize + 1)
            .map_or(self.text.len(), |next| next - 1);
        let line = &self.text[start..end];
        Some(line.strip_suffix('\r').unwrap_or(line))
    }

    /// The LSP range of a report's `line:column` (1-based; columns as protoc counts them:
    /// bytes, a tab to the next multiple of 8) up to `end` (exclusive), or to the end of the
    /// line's text.
    pub fn range(&self, line: u32, column: u32, end: Option<(u32, u32)>) -> Range {
        let start = self.position(line, column);
        let end = match end {
            Some((end_line, end_column)) => self.position(end_line, end_column),
            None => {
                let line_text = self.line(line.saturating_sub(1)).unwrap_or("");
                Position::new(
                    start.line,
                    line_text.trim_end().encode_utf16().count() as u32,
                )
                .max(start)
            }
        };
        Range::new(start, end)
    }

    fn position(&self, line: u32, column: u32) -> Position {
        let line0 = line.saturating_sub(1);
        let Some(line_text) = self.line(line0) else {
            return Position::new(line0, 0);
        };
        let wanted = column.saturating_sub(1);
        let (mut col, mut units) = (0u32, 0u32);
        for c in line_text.chars() {
            if col >= wanted {
                break;
            }
            col = if c == '\t' {
                col + 8 - col % 8
            } else {
                col + c.len_utf8() as u32
            };
            units += c.len_utf16() as u32;
        }
        Position::new(line0, units)
    }
}

/// A `file:` URI's path; `None` for any other scheme.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text.strip_prefix("file://")?;
    let decoded = percent_decode(rest)?;
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute path.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let mut text = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            text.push(byte as char);
        } else {
            text.push_str(&format!("%{byte:02X}"));
        }
    }
    text.parse().ok()
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_changes_count_utf16_units() {
        let mut docs = Documents::default();
        let path = Path::new("/nowhere/a.proto");
        docs.open(path, "message A {\n  // é😀x\n  int32 a = 1;\n}\n".into());
        // Replace the `x` after é (1 unit) and 😀 (2 units): column 3 + 3 = 6.
        docs.change(
            path,
            vec![TextDocumentContentChangeEvent {
                range: Some(Range::new(Position::new(1, 8), Position::new(1, 9))),
                range_length: None,
                text: "y".into(),
            }],
        );
        assert_eq!(
            &*docs.text(path).unwrap(),
            "message A {\n  // é😀y\n  int32 a = 1;\n}\n"
        );
        // A range past the end is clamped.
        docs.change(
            path,
            vec![TextDocumentContentChangeEvent {
                range: Some(Range::new(Position::new(9, 0), Position::new(99, 5))),
                range_length: None,
                text: "// end\n".into(),
            }],
        );
        assert!(docs.text(path).unwrap().ends_with("}\n// end\n"));
    }

    #[test]
    fn report_columns_become_utf16_positions() {
        let text = Text::new(Arc::from("a\r\n\tint32 é = 1;\r\nlast"));
        // protoc puts `int32` after a tab at column 9 (1-based).
        assert_eq!(text.range(2, 9, None).start, Position::new(1, 1));
        assert_eq!(text.range(2, 9, None).end, Position::new(1, 13));
        assert_eq!(
            text.range(2, 15, Some((2, 17))),
            Range::new(Position::new(1, 7), Position::new(1, 8))
        );
        assert_eq!(text.line(2), Some("last"));
        assert_eq!(text.line(3), None);
        assert_eq!(
            text.range(9, 3, None),
            Range::new(Position::new(8, 0), Position::new(8, 0))
        );
    }

    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/a b/ü.proto");
        let uri = uri_of(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.proto");
        assert_eq!(path_of(&uri).unwrap(), path);
    }
}
