//! The batchnorm group: `miopenBatchNormalizationForwardInference` and its
//! `_V2` form (family `bn_fwd_inference`). Training and backward are not
//! onboarded yet: their rows are not in the forwarding table, so they pass
//! through to MIOpen Private.
//!
//! - [`entry`]: one function per forwarded entry point (the generated
//!   routed body calls it);
//! - `handlers`: argument parity, then the plan, run on the caller's buffers;
//! - `read`: the descriptors through Private's getters;
//! - `graph`: the batchnorm operation in a hipDNN graph;
//! - `logging`: MIOpen's `MIOpenDriver bnorm` line for a call MIOpen does
//!   not see (`MIOPEN_ENABLE_LOGGING_CMD`).

pub mod entry;
mod graph;
mod handlers;
mod logging;
mod read;

/// `miopenDestroy(h)` for the group's own state: none (its plans are the
/// shared plan cache's, released by `common::release`).
pub fn release(_h: usize) {}
