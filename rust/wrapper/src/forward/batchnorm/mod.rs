//! The batchnorm group: `miopenBatchNormalizationForwardInference`,
//! `…ForwardTraining` and `…Backward`, each with its `_V2` form (families
//! `bn_fwd_inference`, `bn_fwd_training`, `bn_bwd`).
//!
//! - [`entry`]: one function per forwarded entry point (the generated
//!   routed body calls it);
//! - `handlers` (inference and the steps all three share), `training`,
//!   `backward`: argument parity, then the plan, run on the caller's buffers;
//! - `read`: the descriptors through Private's getters;
//! - `graph`: the batchnorm operation in a hipDNN graph;
//! - [`fused`]: the fusion group's batchnorm inference -> activation graph
//!   (its operations, plan and run; the fusion group records and checks the plan);
//! - `logging`: MIOpen's `MIOpenDriver bnorm` line for a call MIOpen does
//!   not see (`MIOPEN_ENABLE_LOGGING_CMD`);
//! - [`group`]: the group's runtime row (release, hipDNN probes).

mod backward;
pub mod entry;
pub mod fused;
mod graph;
pub mod group;
mod handlers;
mod logging;
mod read;
mod training;
