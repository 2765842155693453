//! The batchnorm group's data row (`batchnorm`: inference, training and
//! backward, each with its `_V2`), and its three graph specs as plan keys.

use super::{backward, fused, miopen_bn_mode as bn, training, GraphSpec};
use crate::graph_key::OwnedGraph;
use crate::row::{Entry, GroupRow, Mirrored};

const INFERENCE: &str = "bn_fwd_inference";
const TRAINING: &str = "bn_fwd_training";
const BACKWARD: &str = "bn_bwd";

// Built only where a build's forwarding set names it (not in the default set).
pub const ROW: GroupRow = GroupRow {
    families: &[INFERENCE, TRAINING, BACKWARD],
    entry_points: &[
        // The legacy calls are their `_V2` with one descriptor for the four.
        Entry::new("miopenBatchNormalizationForwardInference", INFERENCE)
            .forwarded_as("miopenBatchNormalizationForwardInference_V2"),
        Entry::new("miopenBatchNormalizationForwardInference_V2", INFERENCE),
        Entry::new("miopenBatchNormalizationForwardTraining", TRAINING)
            .forwarded_as("miopenBatchNormalizationForwardTraining_V2"),
        Entry::new("miopenBatchNormalizationForwardTraining_V2", TRAINING),
        Entry::new("miopenBatchNormalizationBackward", BACKWARD).forwarded_as("miopenBatchNormalizationBackward_V2"),
        Entry::new("miopenBatchNormalizationBackward_V2", BACKWARD),
    ],
    mirrored: &[
        Mirrored::required("miopenBNPerActivation", bn::PER_ACTIVATION),
        Mirrored::required("miopenBNSpatial", bn::SPATIAL),
    ],
    ..GroupRow::new("batchnorm", "batchnorm")
};

impl OwnedGraph for GraphSpec {
    const GROUP: &'static GroupRow = &ROW;
}

impl OwnedGraph for training::GraphSpec {
    const GROUP: &'static GroupRow = &ROW;
}

impl OwnedGraph for backward::GraphSpec {
    const GROUP: &'static GroupRow = &ROW;
}

/// A fusion plan's batchnorm inference -> activation graph: the batchnorm
/// group's plan (its operation types are this group's probes).
impl OwnedGraph for fused::GraphSpecActivation {
    const GROUP: &'static GroupRow = &ROW;
}
