//! The convolution group's data row (`convolution`: the legacy API's
//! convolutions in three directions and the one-call conv + bias +
//! activation), and its graph spec as a plan key.

use super::{miopen_activation as act, miopen_mode as mode, GraphSpec};
use crate::graph_key::OwnedGraph;
use crate::row::{Entry, GroupRow, Mirrored, Treatment, Variable};

const FWD: &str = "conv_fwd";
const BWD_DATA: &str = "conv_bwd_data";
const BWD_WEIGHTS: &str = "conv_bwd_weights";
const BIAS_ACTIV: &str = "conv_bias_activ";

pub const ROW: GroupRow = GroupRow {
    // This RFC's forwarding set (§4.4, Phase 2 task 1).
    default_build: true,
    families: &[FWD, BWD_DATA, BWD_WEIGHTS, BIAS_ACTIV],
    entry_points: &[
        Entry::new("miopenConvolutionForward", FWD),
        Entry::new("miopenConvolutionForwardImmediate", FWD),
        Entry::new("miopenConvolutionForwardGetWorkSpaceSize", FWD),
        Entry::new("miopenFindConvolutionForwardAlgorithm", FWD),
        Entry::new("miopenConvolutionForwardGetSolutionCount", FWD),
        Entry::new("miopenConvolutionForwardGetSolution", FWD),
        Entry::new("miopenConvolutionForwardGetSolutionWorkspaceSize", FWD),
        Entry::new("miopenConvolutionForwardCompileSolution", FWD),
        Entry::new("miopenConvolutionBackwardData", BWD_DATA),
        Entry::new("miopenConvolutionBackwardDataImmediate", BWD_DATA),
        Entry::new("miopenConvolutionBackwardDataGetWorkSpaceSize", BWD_DATA),
        Entry::new("miopenFindConvolutionBackwardDataAlgorithm", BWD_DATA),
        Entry::new("miopenConvolutionBackwardDataGetSolutionCount", BWD_DATA),
        Entry::new("miopenConvolutionBackwardDataGetSolution", BWD_DATA),
        Entry::new("miopenConvolutionBackwardDataGetSolutionWorkspaceSize", BWD_DATA),
        Entry::new("miopenConvolutionBackwardDataCompileSolution", BWD_DATA),
        Entry::new("miopenConvolutionBackwardWeights", BWD_WEIGHTS),
        Entry::new("miopenConvolutionBackwardWeightsImmediate", BWD_WEIGHTS),
        Entry::new("miopenConvolutionBackwardWeightsGetWorkSpaceSize", BWD_WEIGHTS),
        Entry::new("miopenFindConvolutionBackwardWeightsAlgorithm", BWD_WEIGHTS),
        Entry::new("miopenConvolutionBackwardWeightsGetSolutionCount", BWD_WEIGHTS),
        Entry::new("miopenConvolutionBackwardWeightsGetSolution", BWD_WEIGHTS),
        Entry::new("miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize", BWD_WEIGHTS),
        Entry::new("miopenConvolutionBackwardWeightsCompileSolution", BWD_WEIGHTS),
        Entry::new("miopenConvolutionBiasActivationForward", BIAS_ACTIV),
    ],
    private_calls: &[
        "miopenGetConvolutionSpatialDim",
        "miopenGetConvolutionNdDescriptor",
        "miopenGetConvolutionGroupCount",
        "miopenGetConvolutionAttribute",
        "miopenGetActivationDescriptor",
    ],
    watched_descriptors: &["miopenConvolutionDescriptor_t", "miopenActivationDescriptor_t"],
    mirrored: &[
        Mirrored::required("miopenConvolution", mode::CONVOLUTION),
        Mirrored::required("miopenTranspose", mode::TRANSPOSE),
        Mirrored::required("miopenGroupConv", mode::GROUP_CONV),
        Mirrored::required("miopenDepthwise", mode::DEPTHWISE),
        Mirrored::required("miopenActivationPASTHRU", act::PASTHRU),
        Mirrored::required("miopenActivationRELU", act::RELU),
        Mirrored::required("miopenActivationCLIPPEDRELU", act::CLIPPEDRELU),
        // MIOpen 3.3.0 (ROCm/MIOpen 2d1fd99) has no CLAMP; later ones do.
        Mirrored::optional("miopenActivationCLAMP", act::CLAMP),
    ],
    variables: &[
        Variable {
            name: "MIOPEN_FIND_MODE",
            applies: find_mode_normal,
            treatment: Treatment::Decline,
            why: "MIOpen's exhaustive Find; hipDNN picks its engine by heuristic",
        },
        Variable {
            name: "MIOPEN_DEBUG_CONV_",
            applies: any,
            treatment: Treatment::Decline,
            why: "selects MIOpen convolution solvers; hipDNN engines cannot honour it",
        },
    ],
    ..GroupRow::new("convolution", "conv")
};

impl OwnedGraph for GraphSpec {
    const GROUP: &'static GroupRow = &ROW;
}

fn any(_: &str) -> bool {
    true
}

/// MIOpen's Find modes: `1`/`NORMAL` asks for the exhaustive search.
fn find_mode_normal(v: &str) -> bool {
    matches!(v.trim().to_ascii_uppercase().as_str(), "1" | "NORMAL")
}

/// MIOpen's Normal Find mode (`miopenConvolutionFindModeNormal`), as the
/// descriptor holds it: the exhaustive search.
pub const FIND_MODE_NORMAL: i32 = 1;

/// Whether a convolution descriptor's Find mode asks for MIOpen's
/// exhaustive search: Normal, `MIOPEN_FIND_MODE=1`'s rule asked through the
/// API (MIGraphX calls `miopenHiddenSetConvolutionFindMode(desc, 1)`).
/// MIOpen reads the descriptor's mode in its Find, so only Find checks it;
/// the Find then asks hipDNN for `global.benchmarking`.
pub fn asks_exhaustive_search(mode: i32) -> bool {
    mode == FIND_MODE_NORMAL
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::environment::EnvPolicy;
    use crate::family::Group;

    fn policy(vars: &[(&str, &str)]) -> EnvPolicy {
        EnvPolicy::from_vars(vars.iter().copied())
    }

    #[test]
    fn find_mode_declines_only_the_exhaustive_search() {
        let conv = Group::of(&ROW);
        for v in ["1", "normal", "NORMAL"] {
            let p = policy(&[("MIOPEN_FIND_MODE", v)]);
            assert_eq!(p.declines.len(), 1, "{v}");
            assert!(p.decline_reason(conv).unwrap().starts_with(&format!("MIOPEN_FIND_MODE={v} (")), "{p:?}");
        }
        for v in ["2", "FAST", "3", "HYBRID", "5", "DYNAMIC_HYBRID", ""] {
            assert_eq!(policy(&[("MIOPEN_FIND_MODE", v)]), EnvPolicy::default(), "{v}");
        }
    }

    #[test]
    fn solver_selection_declines() {
        // MIOPEN_FIND_ENFORCE and MIOPEN_DEBUG_FIND_ONLY_SOLVER concern every
        // family (`crate::environment::EVERY_FAMILY`).
        let p = policy(&[("MIOPEN_DEBUG_CONV_WINOGRAD", "0"), ("MIOPEN_DEBUG_CONV_GEMM", "0")]);
        assert_eq!(p.declines.len(), 2);
        assert_eq!(
            p.decline_reason(Group::of(&ROW)),
            Some("MIOPEN_DEBUG_CONV_GEMM=0 (selects MIOpen convolution solvers; hipDNN engines cannot honour it)")
        );
    }

    #[test]
    fn only_the_normal_find_mode_asks_for_the_exhaustive_search() {
        assert!(asks_exhaustive_search(1));
        // Fast, Hybrid, the deprecated FastHybrid, DynamicHybrid (MIOpen's
        // default) and values MIOpen rejects ask for no exhaustive search.
        for mode in [0, 2, 3, 4, 5, 6, -1] {
            assert!(!asks_exhaustive_search(mode), "{mode}");
        }
    }
}
