//! The fusion-plan group's data row (`fusion`: MIOpen's fusion-plan API,
//! whose forwarded plans are convolutions, so `convolution` is its umbrella,
//! and the batchnorm plans (inference -> activation, backward -> activation
//! backward), each forwarded only where the build forwards the batchnorm
//! group and its family of the same direction is not opted out).
//! Its plans are the convolution group's fused graphs and the batchnorm
//! group's fused graphs: it has no graph spec of its own.

use super::miopen_direction;
use crate::row::{refused_spelling, Entry, GroupRow, Hook, Mirrored, Treatment, Variable};

/// The group's one family.
pub const FUSION_PLAN: &str = "fusion_plan";

/// A fusion plan's construction (plan, operators, arguments, destroy):
/// MIOpen has no getter for a plan's operators, so the wrapper records what
/// MIOpen accepted, after the call, for the fusion group to translate.
const RECORD: Hook = Hook { kind: "fusion-record", after: true };

/// Why a refused spelling of a fused solver's switch declines every plan.
const REFUSED: &str = "a value MIOpen refuses: its compile of any fusion plan asks each fused solver, whose \
                       switch it reads first, and fails";

/// A switch of one of MIOpen's fused solvers whose `IsApplicable` reads it
/// before looking at the plan's operators, so that a refused spelling fails
/// every plan's compile, not only the plans of that solver's shape (the
/// solvers: `GetAllFusionSolvers`, `src/fusion.cpp` @ 2d1fd997).
const fn fused_solver_switch(name: &'static str) -> Variable {
    Variable { name, applies: refused_spelling, treatment: Treatment::Decline, why: REFUSED }
}

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
    // The batchnorm fused solvers (`src/solver/batchnorm/*_fused.cpp` @
    // 2d1fd997: the switch right after the empty-plan check), which the test
    // bed's MIOpen reads as MIOpen does. Of the convolution fused solvers that
    // read a switch first, the CK ones' fall under the convolution row's
    // `MIOPEN_DEBUG_CONV_`; the Winograd ones' (`MIOPEN_DEBUG_AMD_*`) are not
    // audited (README, "Not done yet").
    variables: &[
        fused_solver_switch("MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED"),
        fused_solver_switch("MIOPEN_DEBUG_BN_FWDTRG_ACTIV_FUSED"),
        fused_solver_switch("MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED"),
    ],
    ..GroupRow::new("fusion", "fusion")
};
