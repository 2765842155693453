//! The batchnorm descriptors through Private's getters, into the problem,
//! read from a call's arguments (`_V2`: the legacy calls are converted to
//! it, their one per-channel descriptor for the four). A getter that fails
//! is a decline "... (MIOpen decides)", so MIOpen returns its own status for it.

use miopen_forwarding_core::batchnorm::{backward, training, Problem};

use crate::forward::common::read;
use crate::forward::miopen_sys::args;

pub fn problem(a: &args::miopenBatchNormalizationForwardInference_V2) -> Result<Problem, String> {
    Ok(Problem {
        mode: a.bn_mode,
        x: read::tensor(a.xDesc, "x")?,
        y: read::tensor(a.yDesc, "y")?,
        scale: read::tensor(a.scaleDesc, "scale")?,
        bias: read::tensor(a.biasDesc, "bias")?,
        mean: read::tensor(a.estMeanDesc, "estMean")?,
        variance: read::tensor(a.estVarianceDesc, "estVariance")?,
        epsilon: a.epsilon,
    })
}

pub fn training(a: &args::miopenBatchNormalizationForwardTraining_V2, save: bool) -> Result<training::Problem, String> {
    Ok(training::Problem {
        mode: a.bn_mode,
        x: read::tensor(a.xDesc, "x")?,
        y: read::tensor(a.yDesc, "y")?,
        scale: read::tensor(a.scaleDesc, "scale")?,
        bias: read::tensor(a.biasVarDesc, "bias")?,
        saved_mean: read::tensor(a.savedMeanDesc, "savedMean")?,
        saved_inv_variance: read::tensor(a.savedVarDesc, "savedVar")?,
        epsilon: a.epsilon,
        save,
    })
}

pub fn backward(a: &args::miopenBatchNormalizationBackward_V2, use_saved: bool) -> Result<backward::Problem, String> {
    Ok(backward::Problem {
        mode: a.bn_mode,
        x: read::tensor(a.xDesc, "x")?,
        dy: read::tensor(a.dyDesc, "dy")?,
        dx: read::tensor(a.dxDesc, "dx")?,
        scale: read::tensor(a.scaleDesc, "scale")?,
        bias: read::tensor(a.biasDesc, "bias")?,
        saved_mean: read::tensor(a.savedMeanDesc, "savedMean")?,
        saved_inv_variance: read::tensor(a.savedVarDesc, "savedVar")?,
        epsilon: a.epsilon,
        use_saved,
    })
}
