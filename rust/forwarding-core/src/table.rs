//! The forwarding table: the one place that says which entry points can go
//! to hipDNN and which op family each belongs to.
//!
//! `miopen-wrap generate` reads this table: an entry point listed here gets a
//! routed body that calls `crate::forward::<group>::entry::<name>` in the
//! wrapper (the family's group names the module, `crate::family`); every
//! other entry point's routed body calls MIOpen Private. Adding an entry
//! point to the forwarding set is one line here plus its entry function.

pub use crate::family::{Family, Group};

/// One row of the forwarding table: an entry point and its family. The
/// family's group names the wrapper's module that forwards it
/// (`crate::forward::<group module>::entry::<entry point>`, which
/// `miopen-wrap generate` calls from the routed body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forwarded {
    pub entry_point: &'static str,
    pub family: Family,
}

/// Entry points whose wrapper body must observe the call while forwarding
/// is enabled even though the call itself always goes to MIOpen Private.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    /// `miopenDestroy`: release the handle's hipDNN handle and cached plans first.
    ReleaseHandle,
    /// `miopenGetErrorString`: MIOpen's text, prefixed `[hipDNN-forwarded] `
    /// when the status came from a forwarded call on this thread (RFC §6.1).
    ErrorString,
    /// A fusion plan's construction (plan, operators, arguments, destroy):
    /// MIOpen has no getter for a plan's operators, so the wrapper records
    /// what MIOpen accepted, after the call, for the fusion group to translate.
    FusionRecord,
}

impl Hook {
    /// Whether the hook sees the call's result (and may replace it) rather
    /// than running before the call.
    pub fn after(self) -> bool {
        matches!(self, Hook::ErrorString | Hook::FusionRecord)
    }
}

const fn row(entry_point: &'static str, family: Family) -> Forwarded {
    Forwarded { entry_point, family }
}

use Family::{
    BnBackward as BNB, BnForwardInference as BNI, BnForwardTraining as BNT, ConvBackwardData as BD,
    ConvBackwardWeights as BW, ConvBiasActivation as CBA, ConvFind2 as FIND2, ConvForward as F, FusionPlan as FP,
};

/// The forwarding set (RFC §4.4), with each entry's family.
pub const FORWARDING_TABLE: &[Forwarded] = &[
    row("miopenConvolutionForward", F),
    row("miopenConvolutionForwardImmediate", F),
    row("miopenConvolutionForwardGetWorkSpaceSize", F),
    row("miopenFindConvolutionForwardAlgorithm", F),
    row("miopenConvolutionForwardGetSolutionCount", F),
    row("miopenConvolutionForwardGetSolution", F),
    row("miopenConvolutionForwardGetSolutionWorkspaceSize", F),
    row("miopenConvolutionForwardCompileSolution", F),
    row("miopenConvolutionBackwardData", BD),
    row("miopenConvolutionBackwardDataImmediate", BD),
    row("miopenConvolutionBackwardDataGetWorkSpaceSize", BD),
    row("miopenFindConvolutionBackwardDataAlgorithm", BD),
    row("miopenConvolutionBackwardDataGetSolutionCount", BD),
    row("miopenConvolutionBackwardDataGetSolution", BD),
    row("miopenConvolutionBackwardDataGetSolutionWorkspaceSize", BD),
    row("miopenConvolutionBackwardDataCompileSolution", BD),
    row("miopenConvolutionBackwardWeights", BW),
    row("miopenConvolutionBackwardWeightsImmediate", BW),
    row("miopenConvolutionBackwardWeightsGetWorkSpaceSize", BW),
    row("miopenFindConvolutionBackwardWeightsAlgorithm", BW),
    row("miopenConvolutionBackwardWeightsGetSolutionCount", BW),
    row("miopenConvolutionBackwardWeightsGetSolution", BW),
    row("miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize", BW),
    row("miopenConvolutionBackwardWeightsCompileSolution", BW),
    row("miopenConvolutionBiasActivationForward", CBA),
    row("miopenCompileFusionPlan", FP),
    row("miopenFusionPlanGetWorkSpaceSize", FP),
    row("miopenExecuteFusionPlan", FP),
    row("miopenExecuteFusionPlan_v2", FP),
    // Find 2.0 (`crate::forward::find2`): the problem and find-option calls
    // run on MIOpen Private and are recorded (the objects are opaque and
    // have no getters); the search, the run and every call on a solution
    // object answer for the wrapper's own hipDNN solutions.
    row("miopenCreateConvProblem", FIND2),
    row("miopenDestroyProblem", FIND2),
    row("miopenSetProblemTensorDescriptor", FIND2),
    row("miopenCreateFindOptions", FIND2),
    row("miopenDestroyFindOptions", FIND2),
    row("miopenSetFindOptionTuning", FIND2),
    row("miopenSetFindOptionResultsOrder", FIND2),
    row("miopenSetFindOptionWorkspaceLimit", FIND2),
    row("miopenSetFindOptionPreallocatedWorkspace", FIND2),
    row("miopenSetFindOptionPreallocatedTensor", FIND2),
    row("miopenFindSolutions", FIND2),
    row("miopenRunSolution", FIND2),
    row("miopenDestroySolution", FIND2),
    row("miopenLoadSolution", FIND2),
    row("miopenSaveSolution", FIND2),
    row("miopenGetSolutionSize", FIND2),
    row("miopenGetSolutionWorkspaceSize", FIND2),
    row("miopenGetSolutionTime", FIND2),
    row("miopenGetSolutionSolverId", FIND2),
    row("miopenBatchNormalizationForwardInference", BNI),
    row("miopenBatchNormalizationForwardInference_V2", BNI),
    row("miopenBatchNormalizationForwardTraining", BNT),
    row("miopenBatchNormalizationForwardTraining_V2", BNT),
    row("miopenBatchNormalizationBackward", BNB),
    row("miopenBatchNormalizationBackward_V2", BNB),
];

/// Entry points observed (never forwarded) while forwarding is enabled.
pub const HOOKS: &[(&str, Hook)] = &[
    ("miopenDestroy", Hook::ReleaseHandle),
    ("miopenGetErrorString", Hook::ErrorString),
    ("miopenCreateFusionPlan", Hook::FusionRecord),
    ("miopenCreateOpConvForward", Hook::FusionRecord),
    ("miopenCreateOpBiasForward", Hook::FusionRecord),
    ("miopenCreateOpActivationForward", Hook::FusionRecord),
    ("miopenCreateOpBatchNormInference", Hook::FusionRecord),
    ("miopenSetOpArgsConvForward", Hook::FusionRecord),
    ("miopenSetOpArgsBiasForward", Hook::FusionRecord),
    ("miopenSetOpArgsActivForward", Hook::FusionRecord),
    ("miopenDestroyFusionPlan", Hook::FusionRecord),
    ("miopenDestroyOperatorArgs", Hook::FusionRecord),
];

/// Forwarded entry points a MIOpen header may lack: added after a release
/// the wrapper supports, and called by no handler through its `_impl` (the
/// handler of one binds nothing of its own). A header without one still gets
/// the forwarding handlers; the entry point then has no stub at all, as in
/// the library it wraps. `miopenExecuteFusionPlan_v2` is in rocm-libraries'
/// `projects/miopen/include/miopen/miopen.h` but not in MIOpen 3.3.0's
/// (ROCm/MIOpen @2d1fd99 `include/miopen/miopen.h`).
pub const OPTIONAL_ENTRY_POINTS: &[&str] = &["miopenExecuteFusionPlan_v2"];

/// Exports of `libMIOpen.so` that MIOpen does not have: the wrapper's own
/// API (declared in `include/miopen/hipdnn_forwarding.h`). The release gates
/// accept exactly these as additions.
pub const WRAPPER_ADDITIONS: &[&str] = &["miopenGetLastForwardedError"];

/// MIOpen Private entry points the forwarding handlers call (as `_impl`):
/// descriptor getters, the stream, and the side-effect-free queries a
/// forwarded problem reports alongside its plan. The handlers' bindings are
/// these, the forwarded entry points, and the survivors they call, which no
/// public header declares (`src_patches/survivor-calls.json`).
pub const PRIVATE_CALLS: &[&str] = &[
    "miopenGetErrorString",
    "miopenGetStream",
    "miopenGetTensorDescriptorSize",
    "miopenGetTensorDescriptor",
    "miopenGetConvolutionSpatialDim",
    "miopenGetConvolutionNdDescriptor",
    "miopenGetConvolutionGroupCount",
    "miopenGetConvolutionAttribute",
    "miopenGetActivationDescriptor",
];

/// The descriptor types whose contents the forwarding handlers read and
/// remember between calls (`docs/forwarding.md`, "Descriptor generations").
/// Every entry point outside the forwarding table that takes one (by value,
/// `const` or not: a setter, a destroy, anything that could write through
/// the handle) or creates one (`T*`) reports the descriptor to the wrapper
/// after MIOpen Private's call, so a forwarded call knows whether a
/// descriptor it read before may have changed. `miopen-wrap generate` finds
/// those entry points from the header's types.
pub const WATCHED_DESCRIPTORS: &[&str] =
    &["miopenTensorDescriptor_t", "miopenConvolutionDescriptor_t", "miopenActivationDescriptor_t"];

/// The table row of an entry point, if it is in the forwarding set.
pub fn lookup(entry_point: &str) -> Option<&'static Forwarded> {
    FORWARDING_TABLE.iter().find(|f| f.entry_point == entry_point)
}

/// The hook of an entry point, if any.
pub fn hook(entry_point: &str) -> Option<Hook> {
    HOOKS.iter().find(|(n, _)| *n == entry_point).map(|(_, h)| *h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_point_once_and_every_family_has_one() {
        let mut names: Vec<_> = FORWARDING_TABLE.iter().map(|f| f.entry_point).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FORWARDING_TABLE.len());
        for f in Family::all() {
            assert!(FORWARDING_TABLE.iter().any(|r| r.family == f), "{f} has no entry point");
        }
    }

    #[test]
    fn lookups() {
        assert_eq!(lookup("miopenConvolutionForward").map(|r| r.family), Some(Family::ConvForward));
        assert!(lookup("miopenCreate").is_none());
        assert_eq!(hook("miopenDestroy"), Some(Hook::ReleaseHandle));
        assert!(hook("miopenGetErrorString").is_some_and(Hook::after));
        assert!(WRAPPER_ADDITIONS.iter().all(|a| lookup(a).is_none() && hook(a).is_none()));
    }
}
