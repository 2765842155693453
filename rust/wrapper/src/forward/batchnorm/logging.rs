//! MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line for a forwarded batchnorm call:
//! a call MIOpen Private does not see (forwarded, or failed on hipDNN)
//! writes the `MIOpenDriver bnorm` line MIOpen would have. Each batchnorm
//! entry point runs its handler through [`run_logging_cmd`] with the
//! [`Logged`] arguments of its direction.

use std::ffi::c_void;

use miopen_forwarding_core::batchnorm::driver_cmd::{self, Cmd, Direction};
use miopen_forwarding_core::Config;

use crate::diagnostics;
use crate::forward::common::{read, run, Outcome};
use crate::forward::miopen_sys::{self as sys, args};

/// What MIOpen's line is made of: x, the statistics' descriptor (MIOpen's
/// `sMeanDesc`), the mode, the pass, and the buffers whose presence sets
/// `-s 1` (both running statistics; an inference call's estimates) and
/// `-r 1` (both saved statistics).
pub struct Logged {
    pub x: sys::miopenTensorDescriptor_t,
    pub stats: sys::miopenTensorDescriptor_t,
    pub mode: u32,
    pub direction: Direction,
    pub running: [*const c_void; 2],
    pub saved: [*const c_void; 2],
}

impl Logged {
    /// An inference call's line: MIOpen's running statistics are its estimates.
    pub fn inference(a: &args::miopenBatchNormalizationForwardInference_V2) -> Logged {
        Logged {
            x: a.xDesc,
            stats: a.estMeanDesc,
            mode: a.bn_mode,
            direction: Direction::ForwardInference,
            running: [a.estimatedMean, a.estimatedVariance].map(|p| p as *const c_void),
            saved: [std::ptr::null(); 2],
        }
    }

    /// A training call's line: the statistics' descriptor is the saved
    /// mean's; both pairs of buffers as the caller gave them.
    pub fn training(a: &args::miopenBatchNormalizationForwardTraining_V2) -> Logged {
        Logged {
            x: a.xDesc,
            stats: a.savedMeanDesc,
            mode: a.bn_mode,
            direction: Direction::ForwardTraining,
            running: [a.resultRunningMean, a.resultRunningVariance].map(|p| p as *const c_void),
            saved: [a.resultSaveMean, a.resultSaveInvVariance].map(|p| p as *const c_void),
        }
    }

    /// A backward call's line: no running statistics; the saved ones as given.
    pub fn backward(a: &args::miopenBatchNormalizationBackward_V2) -> Logged {
        Logged {
            x: a.xDesc,
            stats: a.savedMeanDesc,
            mode: a.bn_mode,
            direction: Direction::Backward,
            running: [std::ptr::null(); 2],
            saved: [a.savedMean, a.savedInvVariance],
        }
    }
}

/// [`run`] for a batchnorm entry point: MIOpen logs every batchnorm call
/// under `MIOPEN_ENABLE_LOGGING_CMD`. The steady path (the variable off)
/// pays one test of the flag; the line is written out of line, by
/// [`write_unless_declined`], and `logged` is asked for only then.
pub fn run_logging_cmd(
    index: usize,
    config: &Config,
    logged: impl FnOnce() -> Logged,
    handler: impl FnOnce() -> Outcome,
) -> Option<u32> {
    run(index, config, || {
        let outcome = handler();
        if config.env.log_driver_cmd {
            write_unless_declined(&outcome, logged);
        }
        outcome
    })
}

/// The line of a call that was not declined (MIOpen Private did not see
/// it: forwarded, or failed on hipDNN).
#[cold]
#[inline(never)]
fn write_unless_declined(outcome: &Outcome, logged: impl FnOnce() -> Logged) {
    if !matches!(outcome, Outcome::Declined(_)) {
        write_line(&logged());
    }
}

fn write_line(l: &Logged) {
    let (Ok(x), Ok(stats)) = (read::tensor(l.x, "x"), read::tensor(l.stats, "stats")) else {
        return;
    };
    let both = |p: [*const c_void; 2]| p.iter().all(|b| !b.is_null());
    let cmd = Cmd {
        x: &x,
        stats_dtype: stats.dtype,
        mode: l.mode,
        direction: l.direction,
        running: both(l.running),
        saved: both(l.saved),
    };
    if let Some(line) = driver_cmd::line(&cmd) {
        diagnostics::write_stderr(&line);
    }
}
