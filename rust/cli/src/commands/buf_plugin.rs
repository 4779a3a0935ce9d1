//! `protocompat buf-plugin`: answers buf's PluginRPC calls ([`crate::buf`]).

use std::process::ExitCode;

pub fn run(args: &[String]) -> ExitCode {
    crate::buf::serve(args)
}
