//! The names a `.proto` file imports, read from its text without parsing it, for files protox
//! cannot parse (Protobuf Editions): protoc is given a copy of exactly these files, checked as
//! protox's reads are ([`super::closure`]).
//!
//! The tokens are protoc's: whitespace, `//` and `/* */` comments, string literals in `"` or
//! `'` with its escapes, adjacent literals joined (`import "a/" "b.proto";`). Every `import`
//! word followed by a string (after `public`, `weak` or `option`, if any) counts, wherever it
//! is: a name too many is only one more file looked up, a name missed would be a file protoc
//! does not find, never one it reads unchecked.

/// Each name imported, in order, repeats kept.
pub fn imports(source: &[u8]) -> Vec<String> {
    let mut tokens = Lexer { rest: source };
    let mut names = Vec::new();
    let mut previous: [Option<Token>; 2] = [None, None];
    while let Some(token) = tokens.next() {
        if let Token::Str(first) = &token {
            let after_import = match &previous {
                [_, Some(Token::Word(w))] if w == b"import" => true,
                [Some(Token::Word(w)), Some(Token::Word(m))] => {
                    w == b"import" && matches!(m.as_slice(), b"public" | b"weak" | b"option")
                }
                _ => false,
            };
            if after_import {
                let mut name = first.clone();
                let mut next = tokens.next();
                while let Some(Token::Str(more)) = &next {
                    name.extend(more);
                    next = tokens.next();
                }
                if let Ok(name) = String::from_utf8(name) {
                    names.push(name);
                }
                previous = [None, next];
                continue;
            }
        }
        previous = [previous[1].take(), Some(token)];
    }
    names
}

#[derive(Debug, PartialEq)]
enum Token {
    Word(Vec<u8>),
    /// A string literal's value, escapes decoded.
    Str(Vec<u8>),
    Other,
}

struct Lexer<'a> {
    rest: &'a [u8],
}

impl Lexer<'_> {
    fn next(&mut self) -> Option<Token> {
        loop {
            match self.rest {
                [] => return None,
                [b' ' | b'\t' | b'\n' | b'\r' | b'\x0B' | b'\x0C', rest @ ..] => self.rest = rest,
                [b'/', b'/', rest @ ..] => self.rest = line_end(rest),
                [b'/', b'*', rest @ ..] => {
                    let end = rest.windows(2).position(|w| w == b"*/");
                    self.rest = end.map_or(&[][..], |end| &rest[end + 2..]);
                }
                [quote @ (b'"' | b'\''), rest @ ..] => {
                    let (value, rest) = string(rest, *quote);
                    self.rest = rest;
                    return Some(Token::Str(value));
                }
                [first, ..] if first.is_ascii_alphanumeric() || *first == b'_' => {
                    let end = self
                        .rest
                        .iter()
                        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                        .unwrap_or(self.rest.len());
                    let (word, rest) = self.rest.split_at(end);
                    self.rest = rest;
                    return Some(Token::Word(word.to_vec()));
                }
                [_, rest @ ..] => {
                    self.rest = rest;
                    return Some(Token::Other);
                }
            }
        }
    }
}

fn line_end(rest: &[u8]) -> &[u8] {
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    &rest[end..]
}

/// A literal's value up to its closing quote (or the line's end, where protoc stops too), and
/// what follows it. Escapes as protoc reads them: `\n` and the other C escapes, octal `\123`,
/// hex `\x41`, `\u00e9` and `\U0001F600` as UTF-8.
fn string(body: &[u8], quote: u8) -> (Vec<u8>, &[u8]) {
    let mut value = Vec::new();
    let mut rest = body;
    loop {
        match rest {
            [] => return (value, rest),
            [b'\n', ..] => return (value, rest),
            [b, after @ ..] if *b == quote => return (value, after),
            [b'\\', after @ ..] => rest = escape(after, &mut value),
            [b, after @ ..] => {
                value.push(*b);
                rest = after;
            }
        }
    }
}

/// Decodes one escape (what follows its backslash) onto `value`.
fn escape<'a>(after: &'a [u8], value: &mut Vec<u8>) -> &'a [u8] {
    let Some((&kind, rest)) = after.split_first() else {
        return after;
    };
    let simple = match kind {
        b'a' => Some(0x07),
        b'b' => Some(0x08),
        b'f' => Some(0x0C),
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'v' => Some(0x0B),
        _ => None,
    };
    if let Some(byte) = simple {
        value.push(byte);
        return rest;
    }
    match kind {
        b'0'..=b'7' => {
            let digits = digits(after, 3, |b| (b'0'..=b'7').contains(&b));
            value.push(number(&after[..digits], 8) as u8);
            &after[digits..]
        }
        b'x' | b'X' => {
            let digits = digits(rest, 2, |b| b.is_ascii_hexdigit());
            if digits == 0 {
                value.push(kind);
                return rest;
            }
            value.push(number(&rest[..digits], 16) as u8);
            &rest[digits..]
        }
        b'u' | b'U' => {
            let width = if kind == b'u' { 4 } else { 8 };
            let digits = digits(rest, width, |b| b.is_ascii_hexdigit());
            match char::from_u32(number(&rest[..digits], 16)).filter(|_| digits == width) {
                Some(c) => {
                    value.extend(c.encode_utf8(&mut [0; 4]).as_bytes());
                    &rest[digits..]
                }
                None => {
                    value.push(kind);
                    rest
                }
            }
        }
        // `\\`, `\'`, `\"`, `\?`, and what protoc would refuse: the character itself.
        _ => {
            value.push(kind);
            rest
        }
    }
}

fn digits(bytes: &[u8], at_most: usize, is_digit: impl Fn(u8) -> bool) -> usize {
    bytes
        .iter()
        .take(at_most)
        .take_while(|&&b| is_digit(b))
        .count()
}

fn number(digits: &[u8], radix: u32) -> u32 {
    digits.iter().fold(0u32, |n, &b| {
        n.wrapping_mul(radix)
            .wrapping_add((b as char).to_digit(radix).unwrap_or(0))
    })
}

#[cfg(test)]
mod tests {
    use super::imports;

    fn names(source: &str) -> Vec<String> {
        imports(source.as_bytes())
    }

    #[test]
    fn imports_are_found_as_protoc_reads_them() {
        assert_eq!(
            names(
                "edition = \"2023\";\n// import \"commented.proto\";\n/* import \"block.proto\"; */\n\
                 import \"a.proto\";\nimport public 'b.proto';\nimport weak \"c\" \"/d.proto\";\n\
                 import option \"e.proto\";\nimport/**/\"f.proto\";\n\
                 message M { string s = 1 [default = \"import \\\"no.proto\\\"\"]; }\n"
            ),
            ["a.proto", "b.proto", "c/d.proto", "e.proto", "f.proto"]
        );
    }

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(
            names(r#"import "a\x2fb\057c\u0064\U00000065\\\".proto";"#),
            ["a/b/cde\\\".proto"]
        );
        assert_eq!(names(r#"import "\x""#), ["x"]);
    }

    #[test]
    fn any_bytes_are_safe() {
        for source in [
            &b"import \"\\"[..],
            b"import \"\\u12",
            b"import \"\\U",
            b"import \"\\x",
            b"import \"\\777\";",
            b"import \"\xFF\";",
            b"import \"a\nimport \"b.proto\";",
            b"/*",
            b"import",
            b"import public",
        ] {
            let _ = imports(source);
        }
        assert_eq!(names("import \"a\nimport \"b.proto\";"), ["a", "b.proto"]);
    }
}
