//! MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line for a fusion-plan execute:
//! MIOpen writes it first thing in its execute, so an execute MIOpen Private
//! does not see (forwarded, or failed on hipDNN) writes it here.

use miopen_forwarding_core::fusion;
use miopen_forwarding_core::Config;

use super::handlers::Call;
use super::record;
use crate::forward::common::Outcome;
use crate::forward::ops::conv::driver_line::run_logged;

/// [`crate::forward::common::run`] for `miopenExecuteFusionPlan` / `_v2`.
pub fn run_logging_cmd(
    index: usize,
    config: &'static Config,
    c: &Call,
    handler: impl FnOnce() -> Outcome,
) -> Option<u32> {
    run_logged(index, config, handler, || record::plan(c.plan).and_then(|r| fusion::driver_line(&r.plan)))
}
