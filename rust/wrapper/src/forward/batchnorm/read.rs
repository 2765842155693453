//! The batchnorm descriptors through Private's getters, into the problem.
//! A getter that fails is a decline "... (MIOpen decides)", so MIOpen
//! returns its own status for it.

use miopen_forwarding_core::batchnorm::Problem;

use crate::forward::common::read;
use crate::forward::miopen_sys as sys;

/// The descriptors of one inference call (`_V2` naming; the legacy entry
/// point passes its one per-channel descriptor four times).
pub struct Descriptors {
    pub x: sys::miopenTensorDescriptor_t,
    pub y: sys::miopenTensorDescriptor_t,
    pub scale: sys::miopenTensorDescriptor_t,
    pub bias: sys::miopenTensorDescriptor_t,
    pub mean: sys::miopenTensorDescriptor_t,
    pub variance: sys::miopenTensorDescriptor_t,
}

pub fn problem(mode: u32, d: &Descriptors, epsilon: f64) -> Result<Problem, String> {
    Ok(Problem {
        mode,
        x: read::tensor(d.x, "x")?,
        y: read::tensor(d.y, "y")?,
        scale: read::tensor(d.scale, "scale")?,
        bias: read::tensor(d.bias, "bias")?,
        mean: read::tensor(d.mean, "estMean")?,
        variance: read::tensor(d.variance, "estVariance")?,
        epsilon,
    })
}
