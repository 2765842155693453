//! The fusion-plan group's runtime row: its plans' records are dropped with
//! the plans (`record`), and its graphs are the convolution group's fused
//! ones, whose types that group probes at load.

use crate::forward::common::{nothing_to_release, Probed, RuntimeRow};

pub const RUNTIME: RuntimeRow = RuntimeRow {
    group: &miopen_forwarding_core::fusion::group::ROW,
    release: nothing_to_release,
    probes: &[],
    probed: Probed::AtFirstPlan,
};
