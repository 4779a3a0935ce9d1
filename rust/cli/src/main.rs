//! `protocompat`: the broker plugin's PIP-246 verdict, on the command line.

mod args;
mod broker;
mod buf;
mod commands;
mod console;
mod fix;
mod input;
mod locate;
mod lsp;
mod metrics;
mod output;
mod project;
mod safe;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

/// The same allocator as the broker plugin's library, metered as there, so the CLI's timings
/// and memory budget match it.
#[global_allocator]
static ALLOCATOR: protocompat::budget::MeteredAllocator<mimalloc::MiMalloc> =
    protocompat::budget::MeteredAllocator(mimalloc::MiMalloc);

/// Keeps the process's memory in small pages, for the commands that run many threads on the
/// network. mimalloc asks Linux for transparent huge pages on its arenas, and each thread's
/// first allocations then take a 2 MiB page or two of their own: about 4 MiB resident a thread,
/// whatever it holds (an audit of 300 small histories at --concurrency 8 took 61 MiB, 20 in
/// small pages, for the same CPU time). `check` keeps huge pages: it runs one thread, and a
/// large schema's check took a third more CPU time in small pages. mimalloc does the same when
/// told `MIMALLOC_ALLOW_THP=0`; this reaches the mappings it made before `main` too.
fn small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of ours; should it
    // fail (a kernel before 3.15), pages stay as they were.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Check(request) => commands::check::run(request),
        Command::Init(args) => commands::init::run(&args),
        Command::Audit(args) => {
            small_pages();
            commands::audit::run(args)
        }
        Command::Brokers(args) => {
            small_pages();
            commands::brokers::run(args)
        }
        Command::Schema {
            upload,
            input,
            file,
        } => commands::schema::run(upload, &input, &file),
        Command::Rules { profile } => commands::rules::run(profile),
        Command::Completions { shell } => commands::completions::completions(shell),
        Command::Man => commands::completions::man(),
        Command::BufPlugin { args } => commands::buf_plugin::run(&args),
        Command::Lsp { stdio: _ } => lsp::serve(),
    }
}
