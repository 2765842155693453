//! The exit status every `miopen-wrap` command returns, and its help text:
//! used by the front end and every subcommand, so it depends on neither.

/// Shown under every command's `--help`.
pub const EXIT_STATUS_HELP: &str = "Exit status: 0 pass; 1 a check failed (a release gate, work still due under \
--check, rename collisions, an adoption step); 2 usage error, or the command could not run (missing input or \
tool, unreadable file).";

/// The exit status of every `miopen-wrap` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    Pass = 0,
    /// The command ran and found a problem.
    CheckFailed = 1,
    /// Usage error, or the command could not run.
    CouldNotRun = 2,
}

impl Exit {
    pub fn code(self) -> i32 {
        self as i32
    }

    /// `Pass` when true, `CheckFailed` when false.
    pub fn check(passed: bool) -> Exit {
        if passed {
            Exit::Pass
        } else {
            Exit::CheckFailed
        }
    }
}
