//! Bounding text that comes from schemas, callers, servers or panics before it goes into a
//! message, and making it safe to print: such text may carry control characters that a
//! terminal would obey (ESC sequences set the window title or clear the screen) or that a CI
//! runner would read as a command of its own (a newline followed by `::error …::`).

use std::borrow::Cow;

/// What marks a text that was cut.
pub const CUT_MARKER: char = '…';

/// Whether `c` must not reach a terminal, a log or a CI runner as it is: the C0 controls
/// (newline and tab included), DEL, the C1 controls (U+0080 to U+009F, which some terminals
/// read as CSI and OSC), the line and paragraph separators, and the bidirectional overrides
/// and isolates, which reorder what a reader sees.
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{2028}' | '\u{2029}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// `text` with every [`is_unsafe_char`] written as an escape (`\n`, `\r`, `\t`, else
/// `\u{1b}`), so that it prints as one line of inert characters; unchanged (borrowed) when it
/// holds none, which is almost always.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text` made [`printable`], in at most `max_bytes` bytes ([`cut`]): the one way text from an
/// input, a server or a panic goes into a message.
pub fn bound(text: &str, max_bytes: usize) -> String {
    // Escaping never makes text shorter, so nothing past its first `max_bytes + 1` bytes can be
    // shown: a text megabytes long costs what its shown part does.
    let mut end = text.len().min(max_bytes.saturating_add(1));
    while !text.is_char_boundary(end) {
        end += 1;
    }
    cut(&printable(&text[..end]), max_bytes)
}

/// `text` in at most `max_bytes` bytes: unchanged if it fits, otherwise cut on a character
/// boundary and ended with [`CUT_MARKER`], the marker counted in the bound. For text of our
/// own making whose untrusted parts went through [`bound`] already (a multi-line report).
///
/// Bytes, not characters, because the bound is there for memory and for the size of what the
/// broker shows: 300 characters of CJK or emoji would be 900 to 1,200 bytes. Below the
/// marker's own 3 bytes there is no room for it, and the text is only cut.
pub fn cut(text: &str, max_bytes: usize) -> String {
    if text.len() <= max_bytes {
        return text.to_owned();
    }
    let marker = CUT_MARKER.len_utf8();
    let (mut end, marked) = match max_bytes.checked_sub(marker) {
        Some(room) => (room, true),
        None => (max_bytes, false),
    };
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut bounded = String::with_capacity(end + marker);
    bounded.push_str(&text[..end]);
    if marked {
        bounded.push(CUT_MARKER);
    }
    bounded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_fits_is_unchanged() {
        assert_eq!(bound("", 0), "");
        assert_eq!(bound("abc", 3), "abc");
        assert_eq!(bound("é", 2), "é");
    }

    #[test]
    fn cut_text_ends_with_the_marker_within_the_bound() {
        assert_eq!(bound("abcdef", 5), "ab…");
        assert_eq!(bound("abcdef", 3), "…");
        // `é` is two bytes: the cut moves back to the boundary before it.
        assert_eq!(bound("aééé", 6), "aé…");
        assert_eq!(bound("aééé", 5), "a…");
    }

    #[test]
    fn control_characters_are_escaped_before_the_bound() {
        assert_eq!(printable("shop.Order"), Cow::Borrowed("shop.Order"));
        assert_eq!(
            printable("a\nb\r\t\u{1b}]0;x\u{7}\u{9b}\u{202e}"),
            "a\\nb\\r\\t\\u{1b}]0;x\\u{7}\\u{9b}\\u{202e}"
        );
        assert_eq!(bound("\u{1b}[2J", 100), "\\u{1b}[2J");
        // Escapes count in the bound; a cut never splits one into a raw control.
        let cut = bound(&"\u{1b}".repeat(100), 20);
        assert!(cut.len() <= 20 && !cut.chars().any(is_unsafe_char), "{cut}");
    }

    /// `bound` escapes only the start of a long text: what it gives is what escaping the whole
    /// text and cutting it would give.
    #[test]
    fn a_long_text_is_bounded_as_if_escaped_whole() {
        let texts = [
            "a".repeat(10_000),
            format!("{}\n{}", "é".repeat(40), "x".repeat(5_000)),
            format!("{}{}", "\u{1b}".repeat(30), "😀".repeat(1_000)),
            "\u{2028}ab\u{9b}".repeat(500),
        ];
        for text in &texts {
            for max in [0, 1, 2, 3, 5, 20, 59, 60, 61, 200, 4096, 20_000] {
                assert_eq!(bound(text, max), cut(&printable(text), max), "{max}");
            }
        }
    }

    #[test]
    fn no_room_for_the_marker_cuts_only() {
        assert_eq!(bound("abcdef", 2), "ab");
        assert_eq!(bound("éé", 1), "");
        assert_eq!(bound("abc", 0), "");
    }

    #[test]
    fn the_bound_holds_for_every_length_and_boundary() {
        let text = "a€b😀c";
        for max in 0..=text.len() + 1 {
            let bounded = bound(text, max);
            assert!(bounded.len() <= max, "{max}: {bounded}");
            if max < text.len() && max >= CUT_MARKER.len_utf8() {
                assert!(bounded.ends_with(CUT_MARKER), "{max}: {bounded}");
                let kept = bounded.trim_end_matches(CUT_MARKER);
                assert!(text.starts_with(kept), "{max}: {bounded}");
            }
        }
    }
}
