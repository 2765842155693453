//! The convolution group's runtime row: its handle state's release and the
//! hipDNN operation types its graphs use, probed when the backend loads
//! (every forwarded call of the RFC's set, and the fused graphs of the
//! groups under its umbrella, rely on them).

use hipdnn_backend::abi::{attr, attr_type, conv_mode, descriptor_type as ty, pointwise_mode};
use hipdnn_backend::probe::Probe;

use crate::forward::common::{Probed, RuntimeRow};

pub const RUNTIME: RuntimeRow = RuntimeRow {
    group: &miopen_forwarding_core::conv::group::ROW,
    release: super::parity::release,
    probes: &PROBES,
    probed: Probed::AtLoad,
};

const fn conv_mode_on(descriptor: i32, descriptor_name: &'static str) -> Probe {
    Probe {
        descriptor,
        descriptor_name,
        attribute: attr::CONVOLUTION_CONV_MODE,
        attribute_name: "CONVOLUTION_CONV_MODE",
        attribute_type: attr_type::CONVOLUTION_MODE,
        attribute_type_name: "HIPDNN_TYPE_CONVOLUTION_MODE",
        value: conv_mode::CROSS_CORRELATION,
    }
}

/// The numbering and attribute types the convolution graph builder relies
/// on. Each line fails on a backend whose type number means something else
/// or that takes the attribute with another type.
const PROBES: [Probe; 4] = [
    conv_mode_on(ty::OPERATION_CONVOLUTION_FORWARD, "OPERATION_CONVOLUTION_FORWARD"),
    conv_mode_on(ty::OPERATION_CONVOLUTION_BACKWARD_FILTER, "OPERATION_CONVOLUTION_BACKWARD_FILTER"),
    conv_mode_on(ty::OPERATION_CONVOLUTION_BACKWARD_DATA, "OPERATION_CONVOLUTION_BACKWARD_DATA"),
    Probe {
        descriptor: ty::OPERATION_POINTWISE,
        descriptor_name: "OPERATION_POINTWISE",
        attribute: attr::POINTWISE_MODE,
        attribute_name: "POINTWISE_MODE",
        attribute_type: attr_type::POINTWISE_MODE,
        attribute_type_name: "HIPDNN_TYPE_POINTWISE_MODE",
        value: pointwise_mode::RELU_FWD,
    },
];
