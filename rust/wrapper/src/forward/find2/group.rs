//! The Find 2.0 group's runtime row: no handle state of its own, and its
//! graphs are the convolution group's, whose types that group probes at load.

use crate::forward::common::{nothing_to_release, Probed, RuntimeRow};

pub const RUNTIME: RuntimeRow = RuntimeRow {
    group: &miopen_forwarding_core::find2::group::ROW,
    release: nothing_to_release,
    probes: &[],
    probed: Probed::AtFirstPlan,
};
