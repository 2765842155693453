//! The forwarding table: the one place that says which entry points can go
//! to hipDNN, which op family each belongs to, and which handler serves it.
//!
//! `miopen-wrap generate` reads this table: an entry point listed here gets a
//! routed body that calls `crate::forward::entry::<name>` in the wrapper;
//! every other entry point's routed body calls MIOpen Private. Adding an
//! entry point to the forwarding set is one line here plus its handler.

use std::fmt;

/// Convolution direction, in MIOpen's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    BackwardData,
    BackwardWeights,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::BackwardData => "backward-data",
            Direction::BackwardWeights => "backward-weights",
        }
    }
}

/// An op family: the unit `MIOPEN_DISABLE_HIPDNN_FOR` switches off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// `miopenConvolutionForward*`, `miopenFindConvolutionForwardAlgorithm`.
    ConvForward,
    /// `miopenConvolutionBackwardData*`, `miopenFindConvolutionBackwardDataAlgorithm`.
    ConvBackwardData,
    /// `miopenConvolutionBackwardWeights*`, `miopenFindConvolutionBackwardWeightsAlgorithm`.
    ConvBackwardWeights,
    /// `miopenConvolutionBiasActivationForward`.
    ConvBiasActivation,
}

impl Family {
    pub const ALL: [Family; 4] =
        [Family::ConvForward, Family::ConvBackwardData, Family::ConvBackwardWeights, Family::ConvBiasActivation];

    /// The documented name (`MIOPEN_DISABLE_HIPDNN_FOR`, routing trace).
    pub fn name(self) -> &'static str {
        match self {
            Family::ConvForward => "conv_fwd",
            Family::ConvBackwardData => "conv_bwd_data",
            Family::ConvBackwardWeights => "conv_bwd_weights",
            Family::ConvBiasActivation => "conv_bias_activ",
        }
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Bit of this family in a [`crate::config::FamilySet`].
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a forwarded entry point does; the wrapper has one handler per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Handler {
    /// `miopenConvolution{Forward,BackwardData,BackwardWeights}` (legacy compute).
    Compute(Direction),
    /// `miopenConvolution*Immediate`.
    Immediate(Direction),
    /// `miopenConvolution*GetWorkSpaceSize`.
    WorkspaceSize(Direction),
    /// `miopenFindConvolution*Algorithm`.
    Find(Direction),
    /// `miopenConvolution*GetSolutionCount`.
    SolutionCount(Direction),
    /// `miopenConvolution*GetSolution`.
    Solution(Direction),
    /// `miopenConvolution*GetSolutionWorkspaceSize`.
    SolutionWorkspaceSize(Direction),
    /// `miopenConvolution*CompileSolution`.
    CompileSolution(Direction),
    /// `miopenConvolutionBiasActivationForward`.
    BiasActivation,
}

/// One row of the forwarding table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forwarded {
    pub entry_point: &'static str,
    pub family: Family,
    pub handler: Handler,
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
}

impl Hook {
    /// Whether the hook sees the call's result (and may replace it) rather
    /// than running before the call.
    pub fn after(self) -> bool {
        matches!(self, Hook::ErrorString)
    }
}

const fn row(entry_point: &'static str, family: Family, handler: Handler) -> Forwarded {
    Forwarded { entry_point, family, handler }
}

use Direction::{BackwardData as Bwd, BackwardWeights as Wrw, Forward as Fwd};
use Family::{ConvBackwardData as BD, ConvBackwardWeights as BW, ConvForward as F};

/// The forwarding set (RFC §4.4), with each entry's family and handler.
pub const FORWARDING_TABLE: &[Forwarded] = &[
    row("miopenConvolutionForward", F, Handler::Compute(Fwd)),
    row("miopenConvolutionForwardImmediate", F, Handler::Immediate(Fwd)),
    row("miopenConvolutionForwardGetWorkSpaceSize", F, Handler::WorkspaceSize(Fwd)),
    row("miopenFindConvolutionForwardAlgorithm", F, Handler::Find(Fwd)),
    row("miopenConvolutionForwardGetSolutionCount", F, Handler::SolutionCount(Fwd)),
    row("miopenConvolutionForwardGetSolution", F, Handler::Solution(Fwd)),
    row("miopenConvolutionForwardGetSolutionWorkspaceSize", F, Handler::SolutionWorkspaceSize(Fwd)),
    row("miopenConvolutionForwardCompileSolution", F, Handler::CompileSolution(Fwd)),
    row("miopenConvolutionBackwardData", BD, Handler::Compute(Bwd)),
    row("miopenConvolutionBackwardDataImmediate", BD, Handler::Immediate(Bwd)),
    row("miopenConvolutionBackwardDataGetWorkSpaceSize", BD, Handler::WorkspaceSize(Bwd)),
    row("miopenFindConvolutionBackwardDataAlgorithm", BD, Handler::Find(Bwd)),
    row("miopenConvolutionBackwardDataGetSolutionCount", BD, Handler::SolutionCount(Bwd)),
    row("miopenConvolutionBackwardDataGetSolution", BD, Handler::Solution(Bwd)),
    row("miopenConvolutionBackwardDataGetSolutionWorkspaceSize", BD, Handler::SolutionWorkspaceSize(Bwd)),
    row("miopenConvolutionBackwardDataCompileSolution", BD, Handler::CompileSolution(Bwd)),
    row("miopenConvolutionBackwardWeights", BW, Handler::Compute(Wrw)),
    row("miopenConvolutionBackwardWeightsImmediate", BW, Handler::Immediate(Wrw)),
    row("miopenConvolutionBackwardWeightsGetWorkSpaceSize", BW, Handler::WorkspaceSize(Wrw)),
    row("miopenFindConvolutionBackwardWeightsAlgorithm", BW, Handler::Find(Wrw)),
    row("miopenConvolutionBackwardWeightsGetSolutionCount", BW, Handler::SolutionCount(Wrw)),
    row("miopenConvolutionBackwardWeightsGetSolution", BW, Handler::Solution(Wrw)),
    row("miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize", BW, Handler::SolutionWorkspaceSize(Wrw)),
    row("miopenConvolutionBackwardWeightsCompileSolution", BW, Handler::CompileSolution(Wrw)),
    row("miopenConvolutionBiasActivationForward", Family::ConvBiasActivation, Handler::BiasActivation),
];

/// Entry points observed (never forwarded) while forwarding is enabled.
pub const HOOKS: &[(&str, Hook)] =
    &[("miopenDestroy", Hook::ReleaseHandle), ("miopenGetErrorString", Hook::ErrorString)];

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
    fn every_entry_point_once_and_families_round_trip() {
        let mut names: Vec<_> = FORWARDING_TABLE.iter().map(|f| f.entry_point).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FORWARDING_TABLE.len());
        for f in Family::ALL {
            assert_eq!(Family::from_name(f.name()), Some(f));
            assert!(FORWARDING_TABLE.iter().any(|r| r.family == f), "{f} has no entry point");
        }
        assert_eq!(Family::from_name("convolution"), None);
    }

    #[test]
    fn direction_of_a_row_matches_its_family() {
        for r in FORWARDING_TABLE {
            let dir = match r.handler {
                Handler::Compute(d)
                | Handler::Immediate(d)
                | Handler::WorkspaceSize(d)
                | Handler::Find(d)
                | Handler::SolutionCount(d)
                | Handler::Solution(d)
                | Handler::SolutionWorkspaceSize(d)
                | Handler::CompileSolution(d) => d,
                Handler::BiasActivation => Direction::Forward,
            };
            let expected = match r.family {
                Family::ConvForward | Family::ConvBiasActivation => Direction::Forward,
                Family::ConvBackwardData => Direction::BackwardData,
                Family::ConvBackwardWeights => Direction::BackwardWeights,
            };
            assert_eq!(dir, expected, "{}", r.entry_point);
        }
        assert!(lookup("miopenConvolutionForward").is_some());
        assert!(lookup("miopenCreate").is_none());
        assert_eq!(hook("miopenDestroy"), Some(Hook::ReleaseHandle));
        assert!(hook("miopenGetErrorString").is_some_and(Hook::after));
        assert!(WRAPPER_ADDITIONS.iter().all(|a| lookup(a).is_none() && hook(a).is_none()));
    }
}
