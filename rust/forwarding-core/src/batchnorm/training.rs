//! `miopenBatchNormalizationForwardTraining(_V2)` as hipDNN's batchnorm
//! training (type 27): x, scale, bias, epsilon in; y and, when the caller
//! asks MIOpen to save them, the batch mean and inverse variance out.
//!
//! Running statistics are not part of this model: the provider's table
//! says its training has none, so the handler declines a call that passes
//! running buffers before it gets here.

use super::{check_param, io_type, layout, more_than_one_per_channel, spatial, spec, uid};
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

/// The saved batch statistics: both or neither (hipDNN's finalize rule).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Saved {
    pub mean: TensorSpec,
    pub inv_variance: TensorSpec,
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
    let saved = if p.save {
        check_param("savedMean", &p.saved_mean, &p.x)?;
        check_param("savedInvVariance", &p.saved_inv_variance, &p.x)?;
        Some(Saved {
            mean: spec(uid::MEAN, "saved_mean", &p.saved_mean, ElemType::F32),
            inv_variance: spec(uid::INV_VARIANCE, "saved_inv_variance", &p.saved_inv_variance, ElemType::F32),
        })
    } else {
        None
    };
    Ok(GraphSpec {
        x: spec(uid::X, "x", &p.x, io),
        y: spec(uid::Y, "y", &p.y, io),
        scale: spec(uid::SCALE, "scale", &p.scale, ElemType::F32),
        bias: spec(uid::BIAS, "bias", &p.bias, ElemType::F32),
        saved,
        epsilon_bits: p.epsilon.to_bits(),
    })
}
