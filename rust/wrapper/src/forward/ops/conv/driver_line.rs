//! Writing MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line for a convolution
//! call MIOpen Private does not see (forwarded, or failed on hipDNN): the
//! line itself is `miopen_forwarding_core::ops::conv::driver_line`'s.

use miopen_forwarding_core::ops::conv::driver_line::{line, CmdKind};
use miopen_forwarding_core::ops::conv::Problem;
use miopen_forwarding_core::Config;

use crate::diagnostics;
use crate::forward::common::{run, Outcome};

/// The problem's line of `kind`, when the configuration asks for lines.
pub fn write(config: &Config, p: &Problem, kind: CmdKind) {
    if config.env.log_driver_cmd {
        diagnostics::write_stderr(&line(p, kind));
    }
}

/// [`run`] for an entry point MIOpen logs once it has run the call: after
/// a handler whose outcome is not a decline, the line `line` makes (None:
/// no line), when the configuration asks for lines.
pub fn run_logged(
    index: usize,
    config: &'static Config,
    handler: impl FnOnce() -> Outcome,
    line: impl FnOnce() -> Option<String>,
) -> Option<u32> {
    run(index, config, || {
        let outcome = handler();
        if !matches!(outcome, Outcome::Declined(_)) && config.env.log_driver_cmd {
            if let Some(l) = line() {
                diagnostics::write_stderr(&l);
            }
        }
        outcome
    })
}
