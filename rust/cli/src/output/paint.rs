//! Colour in the text report (`check --color`): rule IDs of failures red, of warnings yellow,
//! fixes green, locations dim. The report is built as spans of text with a role each; the
//! plain report is the spans joined, and the coloured one wraps each role's span in our own
//! escape codes after the span's text went through [`safe::lines`], so a control character
//! from an input is shown as an escape either way, and the only raw escapes are ours.

use std::io::{IsTerminal, Write};

use anstyle::{AnsiColor, Effects, Style};
use clap::ValueEnum;

use crate::safe;

/// When the text report is coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal that shows colour and NO_COLOR is unset (CLICOLOR_FORCE
    /// colours any stdout; NO_COLOR wins over it).
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether the report on stdout is coloured, by the conventions of no-color.org and
    /// bixense.com/clicolors: NO_COLOR set (and not empty) turns it off, CLICOLOR_FORCE (set,
    /// not `0`) on, CLICOLOR=0 off; else colour on a terminal whose TERM is not `dumb`.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                if anstyle_query::no_color() {
                    false
                } else if anstyle_query::clicolor_force() {
                    true
                } else if anstyle_query::clicolor() == Some(false) {
                    false
                } else {
                    std::io::stdout().is_terminal() && anstyle_query::term_supports_color()
                }
            }
        }
    }
}

/// What a span of the report is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Plain,
    /// `file:line:col: `, where a finding or an edit is.
    Location,
    /// A failure's rule ID.
    Failure,
    /// `warning: ` and a warning's rule ID.
    Warning,
    /// The lead of a fix line (`fix: `, `suggested fix …: `).
    Fix,
}

impl Role {
    fn style(self) -> Style {
        match self {
            Role::Plain => Style::new(),
            Role::Location => Style::new().effects(Effects::DIMMED),
            Role::Failure => Style::new()
                .fg_color(Some(AnsiColor::Red.into()))
                .effects(Effects::BOLD),
            Role::Warning => Style::new()
                .fg_color(Some(AnsiColor::Yellow.into()))
                .effects(Effects::BOLD),
            Role::Fix => Style::new().fg_color(Some(AnsiColor::Green.into())),
        }
    }
}

/// Text made of spans, each with its [`Role`].
#[derive(Debug, Default, Clone)]
pub struct Painted {
    spans: Vec<(Role, String)>,
}

impl Painted {
    pub fn push(&mut self, text: impl Into<String>) {
        self.push_as(Role::Plain, text);
    }

    pub fn push_as(&mut self, role: Role, text: impl Into<String>) {
        let text = text.into();
        if text.is_empty() {
            return;
        }
        match self.spans.last_mut() {
            Some((last, joined)) if *last == role => joined.push_str(&text),
            _ => self.spans.push((role, text)),
        }
    }

    /// A line of its own: a newline first, unless this is the first text.
    pub fn line(&mut self) {
        if !self.spans.is_empty() {
            self.push("\n");
        }
    }

    /// The text without colour.
    pub fn plain(&self) -> String {
        self.spans.iter().map(|(_, text)| text.as_str()).collect()
    }

    /// The text with each role's colour, every span made safe first ([`safe::lines`]): the
    /// escape codes are the only control characters but newlines. A span's colour ends before
    /// each newline in it, so a pager or a log cut at a line keeps no colour open.
    pub fn ansi(&self) -> String {
        let mut out = String::new();
        for (role, text) in &self.spans {
            let text = safe::lines(text);
            if *role == Role::Plain {
                out.push_str(&text);
                continue;
            }
            let style = role.style();
            for (i, part) in text.split('\n').enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                if !part.is_empty() {
                    out.push_str(&format!("{style}{part}{style:#}"));
                }
            }
        }
        out
    }
}

/// Prints `painted` and a newline on stdout, coloured or not; a closed pipe is no error, as
/// with [`crate::console::print_out`].
pub fn print(painted: &Painted, color: bool) {
    if !color {
        crate::console::print_out(&painted.plain());
        return;
    }
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", painted.ansi()).and_then(|()| stdout.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_codes_are_ours_and_inputs_stay_escaped() {
        let mut painted = Painted::default();
        painted.push_as(Role::Location, "x\u{1b}[2J.proto:1:1: ");
        painted.push_as(Role::Failure, "FIELD_NUMBER_CHANGED");
        painted.push(" a\u{9b}b\nnext");
        assert_eq!(
            painted.plain(),
            "x\u{1b}[2J.proto:1:1: FIELD_NUMBER_CHANGED a\u{9b}b\nnext"
        );
        let ansi = painted.ansi();
        assert_eq!(
            ansi,
            "\u{1b}[2mx\\u{1b}[2J.proto:1:1: \u{1b}[0m\u{1b}[1m\u{1b}[31mFIELD_NUMBER_CHANGED\
             \u{1b}[0m a\\u{9b}b\nnext"
        );
        // Strip our codes: what is left is the plain text made safe.
        let stripped = ansi
            .replace("\u{1b}[2m", "")
            .replace("\u{1b}[1m", "")
            .replace("\u{1b}[31m", "")
            .replace("\u{1b}[0m", "");
        assert_eq!(stripped, safe::lines(&painted.plain()));
    }

    #[test]
    fn a_colour_ends_at_each_line() {
        let mut painted = Painted::default();
        painted.push_as(Role::Fix, "a\nb");
        assert_eq!(painted.ansi(), "\u{1b}[32ma\u{1b}[0m\n\u{1b}[32mb\u{1b}[0m");
    }

    #[test]
    fn always_and_never_are_what_they_say() {
        assert!(ColorChoice::Always.enabled());
        assert!(!ColorChoice::Never.enabled());
    }
}
