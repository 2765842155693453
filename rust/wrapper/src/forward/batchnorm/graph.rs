//! The batchnorm group's operation in a hipDNN graph: one batchnorm
//! inference with variance (type 21), its epsilon a pass-by-value DOUBLE
//! tensor, compute type FLOAT (the attributes of
//! `BatchnormInferenceVarianceExtOperationDescriptor.cpp` @3cd1d5fb).

use hipdnn_backend::abi::{attr, attr_type, data_type, descriptor_type, Descriptor};
use miopen_forwarding_core::batchnorm::uid;
use miopen_forwarding_core::graph_key::GraphKey;

use crate::forward::common::graph::{not_this_group, Builder, Failure};

/// The group's [`crate::forward::common::graph::Operations`].
pub fn operations(b: &mut Builder, key: &GraphKey) -> Result<Vec<Descriptor>, Failure> {
    let GraphKey::Batchnorm(g) = key else {
        return Err(not_this_group("batchnorm operations"));
    };
    let epsilon = g.epsilon().to_ne_bytes();
    let tensors = [
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, b.tensor(&g.x)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, b.tensor(&g.mean)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, b.tensor(&g.variance)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, b.tensor(&g.scale)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, b.tensor(&g.bias)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, b.tensor(&g.y)?),
        (
            attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT,
            b.value_tensor(uid::EPSILON, "epsilon", data_type::DOUBLE, &epsilon)?,
        ),
    ];
    let d = b.create(descriptor_type::OPERATION_BATCHNORM_INFERENCE_VARIANCE_EXT, "create batchnorm inference")?;
    for (name, t) in tensors {
        b.set(d, name, attr_type::BACKEND_DESCRIPTOR, &[t], "batchnorm tensor")?;
    }
    let comp = [data_type::FLOAT];
    b.set(d, attr::BATCHNORM_INF_VAR_COMP_TYPE_EXT, attr_type::DATA_TYPE, &comp, "batchnorm compute type")?;
    b.finalize(d, "finalize batchnorm inference")?;
    Ok(vec![d])
}
