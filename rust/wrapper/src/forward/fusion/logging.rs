//! MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line for a fusion-plan execute:
//! MIOpen writes it first thing in its execute, so an execute MIOpen Private
//! does not see (forwarded, or failed on hipDNN) writes it here.

use miopen_forwarding_core::fusion::driver_cmd;
use miopen_forwarding_core::Config;

use super::handlers::Call;
use super::record;
use crate::diagnostics;
use crate::forward::common::{run, Outcome};

/// [`run`] for `miopenExecuteFusionPlan` / `_v2`.
pub fn run_logging_cmd(
    index: usize,
    config: &'static Config,
    c: &Call,
    handler: impl FnOnce() -> Outcome,
) -> Option<u32> {
    run(index, config, || {
        let outcome = handler();
        if !matches!(outcome, Outcome::Declined(_)) && config.env.log_driver_cmd {
            if let Some(line) = record::plan(c.plan).and_then(|r| driver_cmd::line(&r.plan)) {
                diagnostics::write_stderr(&line);
            }
        }
        outcome
    })
}
