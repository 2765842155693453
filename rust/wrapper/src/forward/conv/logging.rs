//! MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line for a forwarded legacy
//! convolution call: a call MIOpen Private does not see (forwarded, or
//! failed on hipDNN) writes the MIOpenDriver line MIOpen would have.

use miopen_forwarding_core::ops::conv::driver_line::{line, CmdKind};

use super::call::Conv;
use crate::forward::common::Outcome;
use crate::forward::ops::conv::driver_line::run_logged;
use crate::forward::ops::conv::read;

/// [`crate::forward::common::run`] for a convolution entry point that
/// MIOpen logs under `MIOPEN_ENABLE_LOGGING_CMD`.
pub fn run_logging_cmd(index: usize, c: &Conv, kind: CmdKind, handler: impl FnOnce() -> Outcome) -> Option<u32> {
    run_logged(index, c.config, handler, || read::problem(c.dir, &c.t, c.cd).ok().map(|p| line(&p, kind)))
}
