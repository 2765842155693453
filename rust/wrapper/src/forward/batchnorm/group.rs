//! The batchnorm group's runtime row: no handle state of its own, and the
//! hipDNN operation types its graphs use, probed at its first plan, so a
//! backend that lacks or renumbers them makes only this group unavailable.

use hipdnn_backend::abi::{attr, attr_type, data_type, descriptor_type as ty};
use hipdnn_backend::probe::Probe;

use crate::forward::common::{nothing_to_release, Probed, RuntimeRow};

pub const RUNTIME: RuntimeRow = RuntimeRow {
    group: &miopen_forwarding_core::batchnorm::group::ROW,
    release: nothing_to_release,
    probes: &PROBES,
    probed: Probed::AtFirstPlan,
};

/// The compute type (FLOAT) set as a DATA_TYPE: an attribute only the
/// pinned meaning of a batchnorm operation type takes.
const fn compute_type_on(
    descriptor: i32,
    descriptor_name: &'static str,
    attribute: i32,
    attribute_name: &'static str,
) -> Probe {
    Probe {
        descriptor,
        descriptor_name,
        attribute,
        attribute_name,
        attribute_type: attr_type::DATA_TYPE,
        attribute_type_name: "HIPDNN_TYPE_DATA_TYPE",
        value: data_type::FLOAT,
    }
}

/// Inference with variance (21), training (27), backward (20), and inference
/// with inverse variance (17: the first node of the fusion group's backward
/// plan graph, `forward::batchnorm::fused`). Unprobed, a backend whose 17 is
/// not that type would fail that plan's compile with a hipDNN error where
/// MIOpen compiles it; probed, it makes the group unavailable with one
/// diagnostic naming the type, as a renumbered 21, 27 or 20 does.
const PROBES: [Probe; 4] = [
    compute_type_on(
        ty::OPERATION_BATCHNORM_INFERENCE_EXT,
        "OPERATION_BATCHNORM_INFERENCE_EXT",
        attr::BATCHNORM_INF_COMP_TYPE_EXT,
        "BATCHNORM_INF_COMP_TYPE_EXT",
    ),
    compute_type_on(
        ty::OPERATION_BATCHNORM_INFERENCE_VARIANCE_EXT,
        "OPERATION_BATCHNORM_INFERENCE_VARIANCE_EXT",
        attr::BATCHNORM_INF_VAR_COMP_TYPE_EXT,
        "BATCHNORM_INF_VAR_COMP_TYPE_EXT",
    ),
    compute_type_on(
        ty::OPERATION_BATCHNORM_EXT,
        "OPERATION_BATCHNORM_EXT",
        attr::BATCHNORM_COMP_TYPE_EXT,
        "BATCHNORM_COMP_TYPE_EXT",
    ),
    compute_type_on(
        ty::OPERATION_BATCHNORM_BACKWARD_EXT,
        "OPERATION_BATCHNORM_BACKWARD_EXT",
        attr::BATCHNORM_BACKWARD_COMP_TYPE_EXT,
        "BATCHNORM_BACKWARD_COMP_TYPE_EXT",
    ),
];
