//! Bounding text that comes from schemas, callers or panics before it goes into a message.

/// What marks a text that was cut.
pub const CUT_MARKER: char = '…';

/// `text` in at most `max_bytes` bytes: unchanged if it fits, otherwise cut on a character
/// boundary and ended with [`CUT_MARKER`], the marker counted in the bound.
///
/// Bytes, not characters, because the bound is there for memory and for the size of what the
/// broker shows: 300 characters of CJK or emoji would be 900 to 1,200 bytes. Below the
/// marker's own 3 bytes there is no room for it, and the text is only cut.
pub fn bound(text: &str, max_bytes: usize) -> String {
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
