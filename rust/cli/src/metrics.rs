//! Which checker a broker runs, read from its Prometheus metrics (the text exposition format):
//! the plugin's `protocompat_info{profile,version}` and `protocompat_native_library_loaded`,
//! among thousands of the broker's own series. The answer comes from a server, and can be
//! large: it is read line by line, only lines of ours are kept, each cut at a bound.

use std::io::{self, BufRead};

use protocompat::text::bound;

/// The longest line kept. Ours, with the labels Pulsar adds to every series (cluster, …), are
/// some hundred bytes; the rest of a longer line is skipped, never held.
pub const MAX_LINE: usize = 4096;
/// Label values are cut here before they are shown: profile names and versions are short.
pub const MAX_VALUE: usize = 64;

const PREFIX: &[u8] = b"protocompat_";
const INFO: &str = "protocompat_info";
const LIBRARY: &str = "protocompat_native_library_loaded";

/// What a broker's metrics say of the plugin.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Checker {
    /// Whether any `protocompat_` series is there: without one, the plugin is not configured
    /// and the broker runs Pulsar's built-in checker.
    pub plugin: bool,
    /// The labels of `protocompat_info`, printable and cut at [`MAX_VALUE`]; `None` when the
    /// series is not there (a plugin from before it, or a line cut at [`MAX_LINE`]).
    pub info: Option<Info>,
    /// `protocompat_native_library_loaded` is 1 (true) or anything else (false).
    pub library_loaded: Option<bool>,
    /// A second `protocompat_info` or library series that disagrees with the first: two
    /// plugins in one broker, which no single answer describes.
    pub conflicting: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub profile: Option<String>,
    pub version: Option<String>,
}

/// A sample line: `name{label="value",…} value [timestamp]`.
#[derive(Debug, PartialEq)]
pub struct Sample<'a> {
    pub name: &'a str,
    pub labels: Vec<(&'a str, String)>,
    pub value: f64,
}

impl Sample<'_> {
    fn label(&self, name: &str) -> Option<String> {
        self.labels
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| bound(value, MAX_VALUE))
    }
}

/// Reads a metrics answer to its end, keeping what our series say.
pub fn scan(reader: &mut dyn BufRead) -> io::Result<Checker> {
    let mut checker = Checker::default();
    let mut line = Vec::with_capacity(512);
    while read_line(reader, &mut line, MAX_LINE)? {
        if !line.starts_with(PREFIX) {
            continue;
        }
        checker.plugin = true;
        if let Some(sample) = std::str::from_utf8(&line).ok().and_then(sample) {
            checker.add(&sample);
        }
    }
    Ok(checker)
}

impl Checker {
    fn add(&mut self, sample: &Sample) {
        match sample.name {
            INFO => {
                let info = Info {
                    profile: sample.label("profile"),
                    version: sample.label("version"),
                };
                match &self.info {
                    None => self.info = Some(info),
                    Some(first) => self.conflicting |= *first != info,
                }
            }
            LIBRARY => {
                let loaded = sample.value == 1.0;
                match self.library_loaded {
                    None => self.library_loaded = Some(loaded),
                    Some(first) => self.conflicting |= first != loaded,
                }
            }
            _ => {}
        }
    }
}

/// Reads one line into `line` (cleared first), keeping its first `max` bytes, and only as
/// many as tell it is not one of ours; false at the end of the input.
fn read_line(reader: &mut dyn BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<bool> {
    line.clear();
    let mut read_any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let newline = buffer.iter().position(|&b| b == b'\n');
        let content = &buffer[..newline.unwrap_or(buffer.len())];
        let ours = line.len() < PREFIX.len() || line.starts_with(PREFIX);
        if ours {
            let room = max.saturating_sub(line.len()).min(content.len());
            line.extend_from_slice(&content[..room]);
            if line.len() >= PREFIX.len() && !line.starts_with(PREFIX) {
                line.truncate(PREFIX.len());
            }
        }
        let used = newline.map_or(buffer.len(), |at| at + 1);
        reader.consume(used);
        if newline.is_some() {
            return Ok(true);
        }
    }
}

/// A sample line parsed, labels in any order; `None` for comments (`# HELP`, `# TYPE`), blank
/// lines and anything malformed.
pub fn sample(line: &str) -> Option<Sample<'_>> {
    let line = line.trim_end_matches('\r');
    let name_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(line.len());
    let (name, mut rest) = line.split_at(name_end);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut labels = Vec::new();
    if let Some(inside) = rest.strip_prefix('{') {
        rest = inside;
        loop {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix('}') {
                rest = after;
                break;
            }
            let key_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            let (key, after) = rest.split_at(key_end);
            if key.is_empty() {
                return None;
            }
            let quoted = after
                .trim_start()
                .strip_prefix('=')?
                .trim_start()
                .strip_prefix('"')?;
            let (value, after) = label_value(quoted)?;
            labels.push((key, value));
            rest = after.trim_start();
            match rest.strip_prefix(',') {
                Some(after) => rest = after,
                None if rest.starts_with('}') => {}
                None => return None,
            }
        }
    } else if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let value = rest.split_whitespace().next()?.parse().ok()?;
    Some(Sample {
        name,
        labels,
        value,
    })
}

/// A label value after its opening quote, unescaped (`\\`, `\"`, `\n`), and what follows its
/// closing quote.
fn label_value(quoted: &str) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    loop {
        match chars.next()? {
            (at, '"') => return Some((value, &quoted[at + 1..])),
            (_, '\\') => match chars.next()?.1 {
                'n' => value.push('\n'),
                other => value.push(other),
            },
            (_, c) => value.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(text: &str) -> Checker {
        scan(&mut text.as_bytes()).unwrap()
    }

    fn info(profile: &str, version: &str) -> Option<Info> {
        Some(Info {
            profile: Some(profile.to_owned()),
            version: Some(version.to_owned()),
        })
    }

    #[test]
    fn labels_are_read_in_any_order_among_pulsars_own() {
        let checker = scanned(
            "# HELP protocompat_info The checker this broker runs\n\
             # TYPE protocompat_info gauge\n\
             pulsar_topics_count{cluster=\"standalone\"} 12 1700000000000\n\
             protocompat_info{cluster=\"standalone\",version=\"0.1.0\", profile=\"pip246\",} 1.0\n\
             protocompat_native_library_loaded{cluster=\"standalone\"} 1\n",
        );
        assert_eq!(
            checker,
            Checker {
                plugin: true,
                info: info("pip246", "0.1.0"),
                library_loaded: Some(true),
                conflicting: false,
            }
        );
        let reordered = scanned(
            "protocompat_native_library_loaded 1\r\n\
             protocompat_info{profile=\"conservative\",version=\"unknown\"} 1\r\n",
        );
        assert_eq!(reordered.info, info("conservative", "unknown"));
        assert_eq!(reordered.library_loaded, Some(true));
    }

    #[test]
    fn escaped_label_values_are_unescaped_and_made_printable() {
        let parsed = sample(r#"protocompat_info{profile="a\"b\\c\nd",version="1"} 1"#).unwrap();
        assert_eq!(parsed.labels[0], ("profile", "a\"b\\c\nd".to_owned()));
        let checker = scanned("protocompat_info{profile=\"\u{1b}[2Jx\",version=\"\\\"1\\\"\"} 1\n");
        assert_eq!(checker.info, info("\\u{1b}[2Jx", "\"1\""));
    }

    #[test]
    fn long_label_values_are_cut() {
        let long = "p".repeat(1000);
        let checker = scanned(&format!(
            "protocompat_info{{profile=\"{long}\",version=\"1\"}} 1\n"
        ));
        let profile = checker.info.unwrap().profile.unwrap();
        assert!(profile.len() <= MAX_VALUE, "{profile}");
        assert!(profile.starts_with("ppp"));
    }

    #[test]
    fn a_broker_without_the_plugin_has_no_series_of_ours() {
        let checker =
            scanned("# HELP pulsar_topics_count x\npulsar_topics_count 3\nprotocompatible_x 1\n\n");
        assert_eq!(checker, Checker::default());
        // One series but not the other: the plugin is there, what it runs is not said.
        let partial = scanned("protocompat_native_library_loaded 0\n");
        assert!(partial.plugin && partial.info.is_none());
        assert_eq!(partial.library_loaded, Some(false));
    }

    #[test]
    fn disagreeing_series_are_flagged() {
        let checker = scanned(
            "protocompat_info{profile=\"pip246\",version=\"1\"} 1\n\
             protocompat_info{profile=\"conservative\",version=\"1\"} 1\n",
        );
        assert!(checker.conflicting);
        assert_eq!(checker.info, info("pip246", "1"));
        let same = scanned(
            "protocompat_info{profile=\"pip246\",version=\"1\",x=\"a\"} 1\n\
             protocompat_info{version=\"1\",profile=\"pip246\",x=\"b\"} 1\n",
        );
        assert!(!same.conflicting);
    }

    #[test]
    fn huge_lines_are_cut_and_the_next_line_is_still_read() {
        let huge_theirs = "x".repeat(10 << 20);
        let huge_ours = format!("protocompat_info{{profile=\"{}", "a".repeat(10 << 20));
        let text = format!(
            "pulsar_x{{l=\"{huge_theirs}\"}} 1\n{huge_ours}\"}} 1\n\
             protocompat_native_library_loaded 1\n"
        );
        let mut reader = io::BufReader::with_capacity(8192, text.as_bytes());
        let mut line = Vec::new();
        assert!(read_line(&mut reader, &mut line, MAX_LINE).unwrap());
        assert!(line.len() <= PREFIX.len(), "{}", line.len());
        assert!(read_line(&mut reader, &mut line, MAX_LINE).unwrap());
        assert_eq!(line.len(), MAX_LINE);
        let checker = scan(&mut io::BufReader::with_capacity(8192, text.as_bytes())).unwrap();
        // The cut line has no closing quote: the plugin is there, its info unread.
        assert!(checker.plugin && checker.info.is_none());
        assert_eq!(checker.library_loaded, Some(true));
    }

    #[test]
    fn malformed_lines_are_skipped() {
        for bad in [
            "# HELP protocompat_info x",
            "",
            "protocompat_info{profile=\"x} 1",
            "protocompat_info{profile=x} 1",
            "protocompat_info{=\"x\"} 1",
            "protocompat_info{a=\"x\" b=\"y\"} 1",
            "protocompat_info",
            "protocompat_info 1x",
            "protocompat_info-1 1",
        ] {
            assert_eq!(sample(bad), None, "{bad}");
        }
        assert_eq!(sample("protocompat_info{} 1").unwrap().labels, vec![]);
        assert_eq!(sample("protocompat_x 1 1700000000").unwrap().value, 1.0);
    }

    #[test]
    fn a_read_error_is_passed_on() {
        struct Failing;
        impl io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("reset"))
            }
        }
        assert!(scan(&mut io::BufReader::new(Failing)).is_err());
    }
}
