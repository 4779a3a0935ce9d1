//! Tells a Protobuf Editions `.proto` file by its first statement, `edition = "2023";`.
//!
//! protox (0.9 and 0.10) parses syntax proto2 and proto3 only: on an Editions file it stops at
//! the first token with "expected 'enum', ... but found 'edition'", so a set with such a file
//! goes to protoc instead (`protoc.rs`). The statement that declares the syntax or edition must
//! be the first of a file, so only what may come before it is skipped here: a UTF-8 byte-order
//! mark, whitespace and comments (`//`, `/* */`, and `#`, which protox also takes for a line
//! comment). Anything else first, `syntax` included, makes the file no Editions file, so a
//! comment or a string that mentions an edition cannot fool it.

use crate::console::Error;
use protocompat::model::Syntax;
use protocompat::ErrorRule;

/// The edition the source declares (`2023`, `2024`), or `None` when its first statement is not
/// `edition = "…"`.
pub fn declared_edition(source: &[u8]) -> Option<String> {
    let mut tokens = Tokens {
        rest: source.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(source),
    };
    if tokens.identifier()? != b"edition" || !tokens.punct(b'=') {
        return None;
    }
    // Adjacent string literals are one string, as in protoc: `edition = "20" "23";`.
    let mut edition = tokens.string()?;
    while let Some(more) = tokens.string() {
        edition.extend(more);
    }
    let edition = String::from_utf8_lossy(&edition);
    let shown: String = edition.chars().take(40).collect();
    Some(shown.escape_debug().to_string())
}

/// Refuses a file whose first statement declares an edition the engine does not read
/// (`UNSTABLE`, `2027`, …), with the message the broker gives such a schema; `shown` is how the
/// user knows the file. protoc would compile some of them (`UNSTABLE` with a flag), or refuse
/// them naming only its own maximum.
pub fn readable(source: &[u8], shown: &str) -> Result<(), Error> {
    let Some(edition) = declared_edition(source) else {
        return Ok(());
    };
    let known = [
        Syntax::Edition2023,
        Syntax::Edition2024,
        Syntax::Edition2026,
    ]
    .iter()
    .filter_map(|s| s.edition())
    .any(|(_, name)| name == edition);
    if known {
        return Ok(());
    }
    Err(Error::input(format!(
        "{}: {shown} declares edition = \"{edition}\"; this checker supports {}",
        ErrorRule::UnsupportedFeature.id(),
        Syntax::SUPPORTED
    )))
}

struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Tokens<'a> {
    /// Skips whitespace and comments; false inside a comment left open.
    fn skip_blank(&mut self) -> bool {
        loop {
            match self.rest {
                [b' ' | b'\t' | b'\n' | b'\r' | b'\x0B' | b'\x0C', rest @ ..] => self.rest = rest,
                [b'/', b'/', rest @ ..] | [b'#', rest @ ..] => {
                    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                    self.rest = &rest[end..];
                }
                [b'/', b'*', rest @ ..] => match rest.windows(2).position(|w| w == b"*/") {
                    Some(end) => self.rest = &rest[end + 2..],
                    None => return false,
                },
                _ => return true,
            }
        }
    }

    fn identifier(&mut self) -> Option<&'a [u8]> {
        if !self.skip_blank() {
            return None;
        }
        let rest = self.rest;
        if !rest.first()?.is_ascii_alphabetic() && rest[0] != b'_' {
            return None;
        }
        let end = rest
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .unwrap_or(rest.len());
        self.rest = &rest[end..];
        Some(&rest[..end])
    }

    fn punct(&mut self, byte: u8) -> bool {
        if self.skip_blank() && self.rest.first() == Some(&byte) {
            self.rest = &self.rest[1..];
            return true;
        }
        false
    }

    /// A string literal in `"` or `'`, its escapes kept as written; None if there is none or
    /// it is not closed on its line.
    fn string(&mut self) -> Option<Vec<u8>> {
        if !self.skip_blank() {
            return None;
        }
        let (&quote, body) = self.rest.split_first()?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        let mut value = Vec::new();
        let mut bytes = body.iter().enumerate();
        while let Some((i, &b)) = bytes.next() {
            match b {
                b'\n' => return None,
                b'\\' => {
                    value.push(b);
                    value.push(*bytes.next()?.1);
                }
                _ if b == quote => {
                    self.rest = &body[i + 1..];
                    return Some(value);
                }
                _ => value.push(b),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::declared_edition;

    fn edition(source: &str) -> Option<String> {
        declared_edition(source.as_bytes())
    }

    #[test]
    fn an_edition_statement_first_is_found() {
        assert_eq!(
            edition("edition = \"2023\";\nmessage A {}"),
            Some("2023".into())
        );
        assert_eq!(edition("edition='2024';"), Some("2024".into()));
        assert_eq!(edition("\u{FEFF}edition = \"2023\";"), Some("2023".into()));
        assert_eq!(edition("edition = \"20\" '23';"), Some("2023".into()));
        assert_eq!(
            edition("// Copyright\n/* a\n * block */\n# hash\n\t\r\n edition\n=\n\"2023\"\n;"),
            Some("2023".into())
        );
        assert_eq!(
            edition("edition /* x */ = // y\n \"2023\";"),
            Some("2023".into())
        );
        assert_eq!(
            edition("edition = \"x\\\"\u{7}\";"),
            Some("x\\\\\\\"\\u{7}".into())
        );
    }

    #[test]
    fn proto2_and_proto3_files_are_not_editions() {
        for source in [
            "syntax = \"proto3\";\nedition = \"2023\";",
            "syntax = \"proto2\";",
            "// edition = \"2023\";\nsyntax = \"proto3\";",
            "/* edition = \"2023\"; */ syntax = \"proto3\";",
            "# edition = \"2023\";\nsyntax = \"proto3\";",
            "message A { string edition = 1; }",
            "package edition;",
            "option x = \"edition = \\\"2023\\\";\";",
            "editions = \"2023\";",
            "edition2023 = \"2023\";",
            "edition \"2023\";",
            "edition = 2023;",
            "edition = \"2023",
            "edition = \"20\n23\";",
            "/* edition = \"2023\";",
            "",
            "\u{FEFF}",
            "\"edition\" = \"2023\";",
        ] {
            assert_eq!(edition(source), None, "{source:?}");
        }
    }

    #[test]
    fn any_bytes_are_safe() {
        for source in [
            &b"\xFF\xFE"[..],
            b"edition = \"\xFF\";",
            b"/",
            b"/*",
            b"edition = \"\\",
        ] {
            let _ = declared_edition(source);
        }
        assert_eq!(
            declared_edition(b"edition = \"\xFF\";"),
            Some("\u{FFFD}".into())
        );
    }
}
