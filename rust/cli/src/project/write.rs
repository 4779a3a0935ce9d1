//! What `protocompat init` writes into a project file: values a broker or a tree gave,
//! quoted so that the reader (`yaml.rs`) reads each back as the one value it was.

use std::path::Path;

/// `text` as a YAML double-quoted scalar: `"`, `\` and every character that is not plain
/// printable text escaped, so the value stays one scalar on one line whatever it holds.
pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || protocompat::text::is_unsafe_char(c) || c == '\u{feff}' => {
                out.push_str(&format!("\\U{:08x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What the project file's reader takes: a full topic name, a message's full name.
pub fn valid_entry(topic: &str, root: &str) -> bool {
    let text = format!(
        "topics:\n  - name: {}\n    root: {}\n",
        quote(topic),
        quote(root)
    );
    let Ok(tree) = super::yaml::parse(&text) else {
        return false;
    };
    super::model::Reader {
        file: "",
        dir: Path::new("."),
    }
    .project(&tree)
    .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hostile_value_stays_one_quoted_scalar() {
        let hostile = "a\"\nstrategy: ALWAYS_COMPATIBLE\n# \\ \u{202e}";
        let text = format!("k: {}\n", quote(hostile));
        assert_eq!(text.lines().count(), 1);
        let tree = super::super::yaml::parse(&text).unwrap();
        let super::super::yaml::Value::Map(entries) = tree.value else {
            panic!("a mapping")
        };
        assert_eq!(entries.len(), 1);
        assert_eq!(
            entries[0].1.value,
            super::super::yaml::Value::String(hostile.to_owned())
        );
    }
}
