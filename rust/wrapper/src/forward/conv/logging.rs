//! MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line for a forwarded convolution:
//! a call MIOpen Private does not see (forwarded, or failed on hipDNN)
//! writes the MIOpenDriver line MIOpen would have.

use miopen_forwarding_core::conv::driver_cmd::{self, CmdKind};

use super::call::Conv;
use super::read;
use crate::diagnostics;
use crate::forward::common::{run, Outcome};

/// [`run`] for a convolution entry point that MIOpen logs under
/// `MIOPEN_ENABLE_LOGGING_CMD`.
pub fn run_logging_cmd(index: usize, c: &Conv, kind: CmdKind, handler: impl FnOnce() -> Outcome) -> Option<u32> {
    run(index, c.config, || {
        let outcome = handler();
        if !matches!(outcome, Outcome::Declined(_)) && c.config.env.log_driver_cmd {
            if let Ok(p) = read::problem(c.dir, &c.t, c.cd) {
                diagnostics::write_stderr(&driver_cmd::line(&p, kind));
            }
        }
        outcome
    })
}
