//! Command-line front end: one clap `Subcommand` per job and one exit-status
//! convention for all of them ([`crate::exit::Exit`]).
use clap::{Parser, Subcommand};

use crate::exit::{Exit, EXIT_STATUS_HELP};

#[derive(Debug, Parser)]
#[command(
    name = "miopen-wrap",
    version,
    about = "Turn a MIOpen source tree into the libMIOpen.so wrapper / libMIOpen_private.so pair (RFC 0001)",
    after_help = EXIT_STATUS_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Rename public entry points miopenFoo -> miopenFoo_impl in a MIOpen source tree.
    Rename(crate::rename::RenameArgs),
    /// Emit wrapper stubs, miopen_impl.h, export map and manifest from miopen.h.
    Generate(crate::generate::GenerateArgs),
    /// Release gates on the built or installed library pair.
    #[command(subcommand)]
    Check(crate::check::GateCommand),
    /// The whole adoption of a MIOpen tree: rename, generate, compile checks, CMake and source edits.
    Adopt(crate::adopt::AdoptArgs),
    /// Apply the adoption's C++ source edits (the logger) to a src/ directory of its own.
    SourceEdits(crate::adopt::SourceEditsArgs),
    /// Print what the tests check against, from the code, as JSON (docs/testing.md).
    Facts(crate::facts::FactsArgs),
}

/// Parse the command line, run the command, return its exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { Exit::CouldNotRun } else { Exit::Pass }.code();
        }
    };
    let exit = match cli.command {
        Command::Rename(args) => crate::rename::cli(&args),
        Command::Generate(args) => crate::generate::cli(&args),
        Command::Check(gate) => crate::check::cli(&gate),
        Command::Adopt(args) => crate::adopt::cli(&args),
        Command::SourceEdits(args) => crate::adopt::source_edits_cli(&args),
        Command::Facts(args) => crate::facts::cli(&args),
    };
    exit.code()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn exit_status_values_are_the_documented_ones() {
        assert_eq!((Exit::Pass.code(), Exit::CheckFailed.code(), Exit::CouldNotRun.code()), (0, 1, 2));
        assert!(EXIT_STATUS_HELP.contains("0 pass; 1 a check failed"));
    }
}
