//! The fusion-plan group's data row (`fusion`: MIOpen's fusion-plan API,
//! whose forwarded plans are convolutions, so `convolution` is its umbrella,
//! and the batchnorm plans (inference -> activation, backward -> activation
//! backward), each forwarded only where the build forwards the batchnorm
//! group and its family of the same direction is not opted out).
//! Its plans are the convolution group's fused graphs and the batchnorm
//! group's fused graphs: it has no graph spec of its own.

use super::miopen_direction;
use crate::row::{Entry, GroupRow, Hook, Mirrored};

/// The group's one family.
pub const FUSION_PLAN: &str = "fusion_plan";

/// A fusion plan's construction (plan, operators, arguments, destroy):
/// MIOpen has no getter for a plan's operators, so the wrapper records what
/// MIOpen accepted, after the call, for the fusion group to translate.
const RECORD: Hook = Hook { kind: "fusion-record", after: true };

pub const ROW: GroupRow = GroupRow {
    umbrella: "convolution",
    // PyTorch's and XLA's conv + bias + ReLU reach the convolution through it.
    default_build: true,
    families: &[FUSION_PLAN],
    entry_points: &[
        Entry::new("miopenCompileFusionPlan", FUSION_PLAN),
        Entry::new("miopenFusionPlanGetWorkSpaceSize", FUSION_PLAN),
        Entry::new("miopenExecuteFusionPlan", FUSION_PLAN),
        // In rocm-libraries' `projects/miopen/include/miopen/miopen.h` but not
        // in MIOpen 3.3.0's (ROCm/MIOpen @2d1fd99 `include/miopen/miopen.h`).
        Entry::optional("miopenExecuteFusionPlan_v2", FUSION_PLAN),
    ],
    hooks: &[
        ("miopenCreateFusionPlan", RECORD),
        ("miopenCreateOpConvForward", RECORD),
        ("miopenCreateOpBiasForward", RECORD),
        ("miopenCreateOpActivationForward", RECORD),
        ("miopenCreateOpBatchNormInference", RECORD),
        ("miopenCreateOpBatchNormBackward", RECORD),
        ("miopenCreateOpActivationBackward", RECORD),
        ("miopenSetOpArgsConvForward", RECORD),
        ("miopenSetOpArgsBiasForward", RECORD),
        ("miopenSetOpArgsActivForward", RECORD),
        ("miopenSetOpArgsBatchNormInference", RECORD),
        ("miopenSetOpArgsBatchNormBackward", RECORD),
        ("miopenSetOpArgsActivBackward", RECORD),
        ("miopenDestroyFusionPlan", RECORD),
        ("miopenDestroyOperatorArgs", RECORD),
    ],
    mirrored: &[Mirrored::required("miopenVerticalFusion", miopen_direction::VERTICAL)],
    ..GroupRow::new("fusion", "fusion")
};
