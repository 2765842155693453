//! The batchnorm descriptors through Private's getters, into the problem.
//! A getter that fails is a decline "... (MIOpen decides)", so MIOpen
//! returns its own status for it.

use miopen_forwarding_core::batchnorm::{backward, training, Problem};

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

/// The descriptors of one training or backward call (`_V2` naming). In a
/// training call `io` is `yDesc`; in a backward call `dyDesc`, and `dx` is
/// `dxDesc`.
pub struct PassDescriptors {
    pub x: sys::miopenTensorDescriptor_t,
    pub io: sys::miopenTensorDescriptor_t,
    pub dx: sys::miopenTensorDescriptor_t,
    pub scale: sys::miopenTensorDescriptor_t,
    pub bias: sys::miopenTensorDescriptor_t,
    pub saved_mean: sys::miopenTensorDescriptor_t,
    pub saved_variance: sys::miopenTensorDescriptor_t,
}

pub fn training(mode: u32, d: &PassDescriptors, epsilon: f64, save: bool) -> Result<training::Problem, String> {
    Ok(training::Problem {
        mode,
        x: read::tensor(d.x, "x")?,
        y: read::tensor(d.io, "y")?,
        scale: read::tensor(d.scale, "scale")?,
        bias: read::tensor(d.bias, "bias")?,
        saved_mean: read::tensor(d.saved_mean, "savedMean")?,
        saved_inv_variance: read::tensor(d.saved_variance, "savedVar")?,
        epsilon,
        save,
    })
}

pub fn backward(mode: u32, d: &PassDescriptors, epsilon: f64, use_saved: bool) -> Result<backward::Problem, String> {
    Ok(backward::Problem {
        mode,
        x: read::tensor(d.x, "x")?,
        dy: read::tensor(d.io, "dy")?,
        dx: read::tensor(d.dx, "dx")?,
        scale: read::tensor(d.scale, "scale")?,
        bias: read::tensor(d.bias, "bias")?,
        saved_mean: read::tensor(d.saved_mean, "savedMean")?,
        saved_inv_variance: read::tensor(d.saved_variance, "savedVar")?,
        epsilon,
        use_saved,
    })
}
