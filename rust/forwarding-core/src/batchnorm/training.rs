//! `miopenBatchNormalizationForwardTraining(_V2)` as hipDNN's batchnorm
//! training (type 27): x, scale, bias, epsilon in; y and, when the caller
//! asks MIOpen to save them, the batch mean and inverse variance out.
//!
//! Running statistics are not part of this model: the provider's table
//! says its training has none, so the handler declines a call that passes
//! running buffers before it gets here.

pub use super::Saved;
use super::{check_param, io_type, layout, more_than_one_per_channel, saved, spatial, spec, uid};
use super::{Decline, ElemType, Tensor, TensorSpec};

/// A training call's descriptors and epsilon, as MIOpen reports them
/// (`_V2` naming: the legacy form passes one per-channel descriptor four
/// times). `save` is whether both saved-statistics buffers are non-null,
/// MIOpen's own condition for writing them.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub mode: u32,
    pub x: Tensor,
    pub y: Tensor,
    pub scale: Tensor,
    pub bias: Tensor,
    pub saved_mean: Tensor,
    pub saved_inv_variance: Tensor,
    pub epsilon: f64,
    pub save: bool,
}

/// The hipDNN graph of one training pass; epsilon as its bit pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GraphSpec {
    pub x: TensorSpec,
    pub y: TensorSpec,
    pub scale: TensorSpec,
    pub bias: TensorSpec,
    pub saved: Option<Saved>,
    pub epsilon_bits: u64,
}

impl GraphSpec {
    pub fn epsilon(&self) -> f64 {
        f64::from_bits(self.epsilon_bits)
    }
}

/// Translate a training problem, or say why not.
pub fn translate(p: &Problem) -> Result<GraphSpec, Decline> {
    spatial(p.mode)?;
    let io = io_type(&p.x, &p.y)?;
    layout(&p.x, &p.y)?;
    more_than_one_per_channel(&p.x)?;
    check_param("scale", &p.scale, &p.x)?;
    check_param("bias", &p.bias, &p.x)?;
    let saved = saved(p.save, &p.saved_mean, &p.saved_inv_variance, &p.x)?;
    Ok(GraphSpec {
        x: spec(uid::X, "x", &p.x, io),
        y: spec(uid::Y, "y", &p.y, io),
        scale: spec(uid::SCALE, "scale", &p.scale, ElemType::F32),
        bias: spec(uid::BIAS, "bias", &p.bias, ElemType::F32),
        saved,
        epsilon_bits: p.epsilon.to_bits(),
    })
}
