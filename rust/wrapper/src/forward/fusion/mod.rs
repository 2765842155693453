//! The fusion-plan group: `miopenCompileFusionPlan`,
//! `miopenFusionPlanGetWorkSpaceSize`, `miopenExecuteFusionPlan` and
//! `miopenExecuteFusionPlan_v2` (family `fusion_plan`; `MIOPEN_DISABLE_HIPDNN_FOR=convolution`
//! switches it off too).
//!
//! - [`record`]: the plans, operators and arguments the wrapper saw built
//!   (the `FusionRecord` hooks of the forwarding table);
//! - [`entry`]: one function per forwarded entry point;
//! - `handlers`: compile to a hipDNN plan, its workspace, execute. The graph,
//!   plan and run are the convolution op layer's with its fused epilogue
//!   (`forward::ops::conv`), so a plan and
//!   `miopenConvolutionBiasActivationForward` of the same problem share a
//!   hipDNN plan;
//! - `logging`: MIOpen's driver line of an execute MIOpen does not see;
//! - [`group`]: the group's runtime row (release, hipDNN probes).

pub mod entry;
pub mod group;
mod handlers;
mod logging;
pub mod record;
// The group's hooks (its row's), where the generated routed bodies call them.
pub use record as hooks;
