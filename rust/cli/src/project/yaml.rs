//! The project file's YAML, read into a small tree of nodes that each know their line and
//! column, so that every error can point at the text the user wrote. Only what a project file
//! needs is accepted: one document of mappings, lists and scalars. Anchors, aliases and tags are
//! refused: an alias is how a few hundred bytes of YAML expand into gigabytes (the "billion
//! laughs"), and nothing in the file needs one.

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

/// A 1-based line and column, as editors count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct At {
    pub line: usize,
    pub column: usize,
}

impl At {
    fn of(span: &Span) -> At {
        At {
            line: span.start.line(),
            column: span.start.col() + 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// An integer or a float, kept as written: the file has no numbers to compute with.
    Number(String),
    String(String),
    List(Vec<Node>),
    /// Keys in the order written, each with where it is.
    Map(Vec<(Key, Node)>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub at: At,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub at: At,
    pub name: String,
}

impl Value {
    /// What a value is, in the words of an error message and of JSON Schema.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::List(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

/// Bounds on one file's tree, besides the file's own size (the caller's): no YAML text can
/// make the reading of it deep or long.
const MAX_DEPTH: usize = 16;
const MAX_NODES: usize = 100_000;

/// Why the YAML could not be read, and where.
#[derive(Debug, PartialEq)]
pub struct SyntaxError {
    pub at: At,
    pub message: String,
}

/// The one document of `text`, as a tree; an empty file is `Null`.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    let mut stack: Vec<Open> = Vec::new();
    let mut root: Option<Node> = None;
    let mut nodes = 0usize;
    let mut documents = 0usize;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| SyntaxError {
            at: At {
                line: e.marker().line(),
                column: e.marker().col() + 1,
            },
            message: e.info().to_owned(),
        })?;
        let at = At::of(&span);
        let refuse = |message: &str| {
            Err(SyntaxError {
                at,
                message: message.to_owned(),
            })
        };
        let node = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => continue,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return refuse("a second YAML document: the project file is one document");
                }
                continue;
            }
            Event::Alias(_) => {
                return refuse("an alias (`*name`): the project file uses no anchors or aliases")
            }
            Event::Scalar(_, _, anchor, _)
            | Event::SequenceStart(anchor, _)
            | Event::MappingStart(anchor, _)
                if anchor != 0 =>
            {
                return refuse("an anchor (`&name`): the project file uses no anchors or aliases")
            }
            Event::Scalar(_, _, _, Some(tag))
            | Event::SequenceStart(_, Some(tag))
            | Event::MappingStart(_, Some(tag)) => {
                return refuse(&format!(
                "a tag (`{tag}`): the project file uses no tags; quote a value to make it a string"
            ))
            }
            Event::Scalar(text, style, _, None) => Some(Node {
                at,
                value: scalar(text, style),
            }),
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if stack.len() == MAX_DEPTH {
                    return refuse(&format!("nested more than {MAX_DEPTH} levels deep"));
                }
                let is_map = matches!(event, Event::MappingStart(..));
                stack.push(Open {
                    at,
                    items: Vec::new(),
                    is_map,
                });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let open = stack.pop().expect("the parser balances collections");
                Some(open.close()?)
            }
        };
        let Some(node) = node else { continue };
        nodes += 1;
        if nodes > MAX_NODES {
            return refuse(&format!("more than {MAX_NODES} values in the file"));
        }
        match stack.last_mut() {
            Some(open) => open.items.push(node),
            None => root = Some(node),
        }
    }
    Ok(root.unwrap_or(Node {
        at: At { line: 1, column: 1 },
        value: Value::Null,
    }))
}

/// A list or mapping being read: its items so far (a mapping's alternate keys and values).
struct Open {
    at: At,
    items: Vec<Node>,
    is_map: bool,
}

impl Open {
    fn close(self) -> Result<Node, SyntaxError> {
        if !self.is_map {
            return Ok(Node {
                at: self.at,
                value: Value::List(self.items),
            });
        }
        let mut entries: Vec<(Key, Node)> = Vec::new();
        let mut items = self.items.into_iter();
        while let (Some(key), Some(value)) = (items.next(), items.next()) {
            let name = match key.value {
                Value::String(name) => name,
                Value::Number(name) => name,
                Value::Bool(b) => b.to_string(),
                Value::Null => "null".to_owned(),
                Value::List(_) | Value::Map(_) => {
                    return Err(SyntaxError {
                        at: key.at,
                        message: "a key that is a list or mapping: keys are names".to_owned(),
                    })
                }
            };
            if let Some((first, _)) = entries.iter().find(|(k, _)| k.name == name) {
                return Err(SyntaxError {
                    at: key.at,
                    message: format!(
                        "key `{name}` given twice in one mapping (first at line {})",
                        first.at.line
                    ),
                });
            }
            entries.push((Key { at: key.at, name }, value));
        }
        Ok(Node {
            at: self.at,
            value: Value::Map(entries),
        })
    }
}

/// A scalar as YAML 1.2's core schema types it: a plain `true`, `12` or `null` is no string,
/// as the editor's YAML language server, checking against the JSON Schema, sees it too.
fn scalar(text: Cow<str>, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::String(text.into_owned());
    }
    match text.as_ref() {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        t if is_number(t) => Value::Number(t.to_owned()),
        _ => Value::String(text.into_owned()),
    }
}

/// YAML 1.2 core schema's int and float forms.
fn is_number(t: &str) -> bool {
    let unsigned = t.strip_prefix(['-', '+']).unwrap_or(t);
    if let Some(hex) = t.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    if let Some(octal) = t.strip_prefix("0o") {
        return !octal.is_empty() && octal.bytes().all(|b| (b'0'..=b'7').contains(&b));
    }
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(t, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    // [0-9]+ | [0-9]*\.[0-9]* with at least one digit, then an optional exponent.
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['-', '+']).unwrap_or(e))),
        None => (unsigned, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty())
        }
        None => !mantissa.is_empty() && digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(|e| !e.is_empty() && digits(e))
}

/// `value` as JSON, for checking a file against the JSON Schema in tests.
#[cfg(test)]
pub fn to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &node.value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => n
            .parse::<i64>()
            .map(J::from)
            .or_else(|_| n.parse::<f64>().map(J::from))
            .unwrap_or_else(|_| J::String(n.clone())),
        Value::String(s) => J::String(s.clone()),
        Value::List(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Map(entries) => J::Object(
            entries
                .iter()
                .map(|(k, v)| (k.name.clone(), to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        parse(text).unwrap().value
    }

    #[test]
    fn scalars_are_typed_as_the_core_schema_types_them() {
        let Value::Map(entries) = value("a: 1\nb: '1'\nc: true\nd:\ne: main\nf: 1.5e3\ng: 0x1F\n")
        else {
            panic!("a mapping")
        };
        let kinds: Vec<(&str, &str)> = entries
            .iter()
            .map(|(k, v)| (k.name.as_str(), v.value.kind()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("a", "a number"),
                ("b", "a string"),
                ("c", "a boolean"),
                ("d", "null"),
                ("e", "a string"),
                ("f", "a number"),
                ("g", "a number")
            ]
        );
    }

    #[test]
    fn positions_are_one_based() {
        let Value::Map(entries) = value("top:\n  - name: x\n") else {
            panic!("a mapping")
        };
        assert_eq!(entries[0].0.at, At { line: 1, column: 1 });
        let Value::List(items) = &entries[0].1.value else {
            panic!("a list")
        };
        let Value::Map(inner) = &items[0].value else {
            panic!("a mapping")
        };
        assert_eq!(inner[0].0.at, At { line: 2, column: 5 });
    }

    #[test]
    fn what_a_project_file_never_needs_is_refused() {
        let laughs = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n";
        assert!(parse(laughs).unwrap_err().message.contains("anchor"));
        assert!(parse("a: !!str 1\n").unwrap_err().message.contains("tag"));
        assert!(parse("a: 1\n---\nb: 2\n")
            .unwrap_err()
            .message
            .contains("second"));
        let dup = parse("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(dup.at.line, 3);
        assert!(dup.message.contains("first at line 1"), "{}", dup.message);
        let deep = "[".repeat(40) + &"]".repeat(40);
        assert!(parse(&deep).is_err());
        assert!(parse("a: [1, 2\n").is_err());
    }

    #[test]
    fn an_empty_file_is_null() {
        assert_eq!(value(""), Value::Null);
        assert_eq!(value("# only a comment\n"), Value::Null);
    }
}
