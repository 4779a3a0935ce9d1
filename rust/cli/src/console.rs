//! What the commands say and how they end: exit statuses, printing, and refusals.

use std::io::Write;
use std::process::ExitCode;

use protocompat::text::printable;

use crate::safe;

mod error;

pub use error::{Error, Kind};

/// Exit status for bad input or usage, as for clap's own usage errors.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Prints `text` and a newline; a closed pipe (`| head`) is not an error worth a panic. No
/// control character but our newlines gets through ([`safe::lines`]).
pub fn print_out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", safe::lines(text)).and_then(|()| stdout.flush());
}

/// Prints a message and a newline on stderr, as [`print_out`] does on stdout.
pub fn print_err(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{}", safe::lines(text)).and_then(|()| stderr.flush());
}

/// Bad input or usage, exit status 2: said on stderr as `protocompat[ COMMAND]: [INPUT: ][RULE:
/// ]MESSAGE`, one printable line whatever an input or a server put in it. A command reporting
/// in a machine format gives its error document (`document`, made from the error with its
/// message printable) on stdout first, so that a tool reading stdout is never left with nothing
/// to parse.
pub fn refuse(
    command: &str,
    error: &Error,
    document: impl FnOnce(&Error) -> Option<String>,
) -> ExitCode {
    let error = error.clone().map_message(|m| printable(&m).into_owned());
    if let Some(out) = document(&error) {
        print_out(&out);
    }
    let mut line = String::from("protocompat");
    if !command.is_empty() {
        line.push(' ');
        line.push_str(command);
    }
    line.push_str(": ");
    if let Some(input) = error.about() {
        line.push_str(&printable(input));
        line.push_str(": ");
    }
    if let Some(rule) = error.rule_id() {
        line.push_str(rule);
        line.push_str(": ");
    }
    line.push_str(error.message());
    print_err(&line);
    ExitCode::from(EXIT_BAD_INPUT)
}

/// The error document of a command whose JSON report is `{"error": {"message": ...}}`.
pub fn json_error(message: &str) -> String {
    safe::json(
        serde_json::to_string_pretty(&serde_json::json!({"error": {"message": message}}))
            .expect("JSON renders"),
    )
}
