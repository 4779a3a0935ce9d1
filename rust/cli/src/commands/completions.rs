//! `protocompat completions` and `protocompat man`: both made from the command line's own
//! definitions (`args/`), so they never fall behind a flag.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;

use crate::args::Cli;

pub fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "protocompat", &mut script);
    emit(&script)
}

/// The page of the command and, after it, a section for each subcommand with its flags, as
/// `protocompat SUBCOMMAND --help` gives them.
pub fn man() -> ExitCode {
    let command = Cli::command();
    let mut page = Vec::new();
    let rendered = clap_mangen::Man::new(command.clone())
        .render(&mut page)
        .and_then(|()| {
            for sub in command.get_subcommands() {
                let title = format!("PROTOCOMPAT {}", sub.get_name().to_uppercase());
                page.extend_from_slice(format!(".SH \"{title}\"\n").as_bytes());
                let sub = clap_mangen::Man::new(sub.clone());
                sub.render_description_section(&mut page)?;
                sub.render_options_section(&mut page)?;
            }
            Ok(())
        });
    match rendered {
        Ok(()) => emit(&page),
        Err(e) => crate::console::refuse("man", None, None, &e.to_string(), |_| None),
    }
}

/// Generated text, not an input's: written as it is (roff and shell scripts hold characters
/// the console's printable filter would change). A closed pipe is not an error.
fn emit(bytes: &[u8]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
    ExitCode::SUCCESS
}
