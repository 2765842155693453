//! The batchnorm group's operations in a hipDNN graph, one per graph: the
//! inference with variance (type 21), its epsilon a pass-by-value DOUBLE
//! tensor, compute type FLOAT (the attributes of
//! `BatchnormInferenceVarianceExtOperationDescriptor.cpp` @3cd1d5fb); the
//! training (type 27, `BatchnormOperationDescriptor.cpp` @447b498b: x,
//! scale, bias, epsilon, y required, saved mean and inverse variance both or
//! neither, no running statistics); the backward (type 20,
//! `BatchnormBackwardOperationDescriptor.cpp` @df0dc8ae: dy, x, scale, dx,
//! dscale, dbias required, mean and inverse variance both or neither).

use hipdnn_backend::abi::{attr, attr_type, data_type, descriptor_type, Descriptor};
use miopen_forwarding_core::batchnorm::uid;
use miopen_forwarding_core::batchnorm::{backward, training, GraphSpec};
use miopen_forwarding_core::graph_key::GraphKey;

use crate::forward::common::graph::{not_this_group, Builder, Failure};

/// The group's [`crate::forward::common::graph::Operations`].
pub fn operations(b: &mut Builder, key: &dyn GraphKey) -> Result<Vec<Descriptor>, Failure> {
    let Some(g) = key.downcast::<GraphSpec>() else {
        return Err(not_this_group("batchnorm operations"));
    };
    Ok(vec![inference(b, g)?.0])
}

/// The inference operation of `g`, and its y tensor's descriptor (a
/// fused graph's next operation reads it).
pub fn inference(b: &mut Builder, g: &GraphSpec) -> Result<(Descriptor, Descriptor), Failure> {
    let epsilon = g.epsilon().to_ne_bytes();
    let y = b.tensor(&g.y)?;
    let tensors = [
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, b.tensor(&g.x)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, b.tensor(&g.mean)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, b.tensor(&g.variance)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, b.tensor(&g.scale)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, b.tensor(&g.bias)?),
        (attr::OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, y),
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
    Ok((d, y))
}

/// Sets each tensor on `d`, then the compute type FLOAT, and finalizes.
fn finish(b: &mut Builder, d: Descriptor, tensors: &[(i32, Descriptor)], comp_attr: i32) -> Result<(), Failure> {
    for &(name, t) in tensors {
        b.set(d, name, attr_type::BACKEND_DESCRIPTOR, &[t], "batchnorm tensor")?;
    }
    b.set(d, comp_attr, attr_type::DATA_TYPE, &[data_type::FLOAT], "batchnorm compute type")?;
    b.finalize(d, "finalize batchnorm operation")
}

/// The training group key's operation ([`crate::forward::common::graph::Operations`]).
pub fn training_operations(b: &mut Builder, key: &dyn GraphKey) -> Result<Vec<Descriptor>, Failure> {
    let Some(g) = key.downcast::<training::GraphSpec>() else {
        return Err(not_this_group("batchnorm training operations"));
    };
    let epsilon = g.epsilon().to_ne_bytes();
    let mut tensors = vec![
        (attr::OPERATION_BATCHNORM_X_EXT, b.tensor(&g.x)?),
        (attr::OPERATION_BATCHNORM_SCALE_EXT, b.tensor(&g.scale)?),
        (attr::OPERATION_BATCHNORM_BIAS_EXT, b.tensor(&g.bias)?),
        (attr::OPERATION_BATCHNORM_EPSILON_EXT, b.value_tensor(uid::EPSILON, "epsilon", data_type::DOUBLE, &epsilon)?),
        (attr::OPERATION_BATCHNORM_Y_EXT, b.tensor(&g.y)?),
    ];
    if let Some(training::Saved { mean, inv_variance }) = &g.saved {
        tensors.push((attr::OPERATION_BATCHNORM_MEAN_EXT, b.tensor(mean)?));
        tensors.push((attr::OPERATION_BATCHNORM_INV_VARIANCE_EXT, b.tensor(inv_variance)?));
    }
    let d = b.create(descriptor_type::OPERATION_BATCHNORM_EXT, "create batchnorm training")?;
    finish(b, d, &tensors, attr::BATCHNORM_COMP_TYPE_EXT)?;
    Ok(vec![d])
}

/// The backward group key's operation.
pub fn backward_operations(b: &mut Builder, key: &dyn GraphKey) -> Result<Vec<Descriptor>, Failure> {
    let Some(g) = key.downcast::<backward::GraphSpec>() else {
        return Err(not_this_group("batchnorm backward operations"));
    };
    let mut tensors = vec![
        (attr::OPERATION_BATCHNORM_BACKWARD_DY_EXT, b.tensor(&g.dy)?),
        (attr::OPERATION_BATCHNORM_BACKWARD_X_EXT, b.tensor(&g.x)?),
        (attr::OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, b.tensor(&g.scale)?),
        (attr::OPERATION_BATCHNORM_BACKWARD_DX_EXT, b.tensor(&g.dx)?),
        (attr::OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, b.tensor(&g.dscale)?),
        (attr::OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, b.tensor(&g.dbias)?),
    ];
    if let Some(backward::Saved { mean, inv_variance }) = &g.saved {
        tensors.push((attr::OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, b.tensor(mean)?));
        tensors.push((attr::OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, b.tensor(inv_variance)?));
    }
    let d = b.create(descriptor_type::OPERATION_BATCHNORM_BACKWARD_EXT, "create batchnorm backward")?;
    finish(b, d, &tensors, attr::BATCHNORM_BACKWARD_COMP_TYPE_EXT)?;
    Ok(vec![d])
}
