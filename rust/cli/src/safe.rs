//! The last step before a terminal, a log or a CI runner: no control character that came from
//! an input or a server gets there raw. Untrusted text is made printable where it is put into
//! a message or report (`protocompat::text::printable`); these are the safety net over a
//! whole output, which keeps our own newlines only.

use std::borrow::Cow;

use protocompat::text::{bound, is_unsafe_char, printable};

fn is_escaped(c: char) -> bool {
    c != '\n' && is_unsafe_char(c)
}

/// `text` with every unsafe character but the newline escaped as `printable` escapes it.
pub fn lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_escaped) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<str>> = text.split('\n').map(printable).collect();
    Cow::Owned(lines.join("\n"))
}

/// Serialized JSON with every unsafe character but the newline between tokens written as a
/// `\uXXXX` escape. serde_json escapes the C0 controls in strings already; DEL, C1, the line
/// separators and the bidirectional controls it leaves raw. Outside strings serialized JSON
/// holds none of them, so each one is inside a string, where the escape reads back as itself.
pub fn json(text: String) -> String {
    if !text.chars().any(is_escaped) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_escaped(c) {
            // All are in the Basic Multilingual Plane: one escape each.
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as [`bound`] shows it, made from its head only: a hostile string of any length
/// costs what is shown of it, where `bound` makes all of it printable first.
pub fn shown(text: &str, max_bytes: usize) -> String {
    // One byte past the bound, so that `bound` still sees the text is longer and marks the cut.
    let mut end = max_bytes.saturating_add(1).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    bound(&text[..end], max_bytes)
}

/// A token no input can know in advance, for GitHub's `::stop-commands::TOKEN`: 128 bits from
/// the standard library's randomly keyed hasher (seeded from the operating system).
pub fn stop_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let state = std::collections::hash_map::RandomState::new();
    (0..2u8)
        .map(|i| {
            let mut hasher = state.build_hasher();
            hasher.write_u8(i);
            hasher.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            format!("{:016x}", hasher.finish())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_our_newlines_and_escape_the_rest() {
        assert_eq!(lines("a\nb"), Cow::Borrowed("a\nb"));
        assert_eq!(
            lines("ok\n\u{1b}]0;x\u{7}\r\t\u{9b}"),
            "ok\n\\u{1b}]0;x\\u{7}\\r\\t\\u{9b}"
        );
    }

    #[test]
    fn json_escapes_what_serde_leaves_raw_and_still_parses() {
        let value = serde_json::json!({"label": "a\u{7f}b\u{85}c\u{2028}d\u{202e}e\u{1b}"});
        let text = json(serde_json::to_string_pretty(&value).unwrap());
        assert!(!text.chars().any(is_escaped), "{text}");
        assert!(
            text.contains("\\u007f") && text.contains("\\u0085"),
            "{text}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn shown_is_bound_from_the_head_only() {
        for text in [
            "short",
            &"x".repeat(300),
            &"x".repeat(301),
            &"\u{1b}".repeat(100_000),
            &"é".repeat(1000),
            &format!("{}\u{1b}", "x".repeat(299)),
        ] {
            assert_eq!(shown(text, 300), bound(text, 300), "{text:?}");
        }
    }

    #[test]
    fn stop_tokens_differ() {
        let (a, b) = (stop_token(), stop_token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }
}
