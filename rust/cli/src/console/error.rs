//! The CLI's error: why a command cannot do what it was asked, in the one line it says so.

use std::fmt;

/// Why a command cannot do what it was asked. Its [`Kind`] is what callers decide on (a
/// project's topic whose file lacks its root is gone; audit skips a topic of another schema
/// type);
/// the input and the rule are what a refusal names before the message ([`super::refuse`],
/// and the JSON, GitHub and JUnit error documents, which give them fields of their own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: Kind,
    /// What the error is about, as the user wrote it (a file, `.git#ref=main`, --admin-url's
    /// URL), where the message does not name it itself.
    input: Option<String>,
    /// The engine's rule that refused a schema.
    rule: Option<&'static str>,
    message: String,
}

/// What kind of thing went wrong, where that changes what a command does with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Flags or values that do not go together, or nothing to work on: what clap cannot see.
    Usage,
    /// An input (or a file written in its place) that cannot be read or written, or is not a
    /// schema this command takes.
    Input,
    /// A directory or tree that was read, but in which no file declares the root message. As
    /// the new side, a project's topic whose schema is gone; (a baseline without it is no error:
    /// the schema is new there, [`crate::input::Found::Absent`]).
    Absent,
    /// A topic whose schema is of another type than PROTOBUF_NATIVE: not ours to check.
    OtherSchemaType,
    /// A server that could not be reached, refused, or answered what cannot be read; the
    /// message names the URL asked.
    Server,
    /// The token was held back from a host it may not go to: `--allow-redirect-host` is the
    /// remedy, which a command may say more about.
    TokenHeldBack,
    /// A bound was passed: `flag` raises it, and the message says so.
    Limit { flag: String },
    /// A failure of ours (a bug), caught before it could end the process.
    Internal,
}

impl Error {
    fn new(kind: Kind, message: impl Into<String>) -> Error {
        Error {
            kind,
            input: None,
            rule: None,
            message: message.into(),
        }
    }

    pub fn usage(message: impl Into<String>) -> Error {
        Error::new(Kind::Usage, message)
    }

    pub fn input(message: impl Into<String>) -> Error {
        Error::new(Kind::Input, message)
    }

    pub fn absent(message: impl Into<String>) -> Error {
        Error::new(Kind::Absent, message)
    }

    pub fn other_schema_type(message: impl Into<String>) -> Error {
        Error::new(Kind::OtherSchemaType, message)
    }

    pub fn server(message: impl Into<String>) -> Error {
        Error::new(Kind::Server, message)
    }

    pub fn token_held_back(message: impl Into<String>) -> Error {
        Error::new(Kind::TokenHeldBack, message)
    }

    pub fn limit(flag: impl Into<String>, message: impl Into<String>) -> Error {
        Error::new(Kind::Limit { flag: flag.into() }, message)
    }

    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(Kind::Internal, message)
    }

    /// The error, about `input` as the user wrote it.
    pub fn at(self, input: impl Into<String>) -> Error {
        Error {
            input: Some(input.into()),
            ..self
        }
    }

    /// The error, as the engine's rule `rule` refused a schema.
    pub fn under(self, rule: &'static str) -> Error {
        Error {
            rule: Some(rule),
            ..self
        }
    }

    /// The error, its message after `context: ` (what was being read), its kind kept.
    pub fn context(self, context: impl fmt::Display) -> Error {
        Error {
            message: format!("{context}: {}", self.message),
            ..self
        }
    }

    /// The error, its message rewritten by `edit` (text around it), its kind kept.
    pub fn map_message(self, edit: impl FnOnce(String) -> String) -> Error {
        Error {
            message: edit(self.message),
            ..self
        }
    }

    pub fn kind(&self) -> &Kind {
        &self.kind
    }

    pub fn about(&self) -> Option<&str> {
        self.input.as_deref()
    }

    pub fn rule_id(&self) -> Option<&'static str> {
        self.rule
    }

    /// The message alone, without the input and rule it is about.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// `[INPUT: ][RULE: ]MESSAGE`: what a refusal says after `protocompat[ COMMAND]: `.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(input) = &self.input {
            write!(f, "{input}: ")?;
        }
        if let Some(rule) = self.rule {
            write!(f, "{rule}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_input_and_rule_before_the_message() {
        let error = Error::input("field 2 is now 3")
            .under("FIELD_NUMBER_CHANGED")
            .at("v2/order.proto");
        assert_eq!(
            error.to_string(),
            "v2/order.proto: FIELD_NUMBER_CHANGED: field 2 is now 3"
        );
        assert_eq!(error.kind(), &Kind::Input);
        assert_eq!(Error::usage("no file").to_string(), "no file");
    }

    #[test]
    fn context_and_edits_keep_the_kind() {
        let error = Error::limit("--timeout", "GET http://b: no answer")
            .context("the schemas of t")
            .map_message(|m| format!("{m}; raise it"));
        assert_eq!(
            error.message(),
            "the schemas of t: GET http://b: no answer; raise it"
        );
        assert_eq!(
            error.kind(),
            &Kind::Limit {
                flag: "--timeout".into()
            }
        );
    }
}
