//! `miopenBatchNormalizationBackward(_V2)` as hipDNN's batchnorm backward
//! (type 20): x, dy, scale and optionally the saved mean and inverse
//! variance in; dx, dscale and dbias out.
//!
//! hipDNN's backward operation has no epsilon. With both saved statistics
//! MIOpen does not use its epsilon either; without them MIOpen recomputes
//! the statistics with the caller's epsilon while the provider recomputes
//! them with its fixed default, so only that exact epsilon is forwarded.

pub use super::Saved;
use super::{check_param, io_type, layout, more_than_one_per_channel, saved, spatial, spec, uid};
use super::{decline, Decline, ElemType, Tensor, TensorSpec};
use crate::print::G;

/// The epsilon hipDNN's MIOpen provider passes to MIOpen's backward
/// (`hipdnn_data_sdk::utilities::BATCHNORM_DEFAULT_EPSILON`).
pub const PROVIDER_EPSILON: f64 = 1e-5;

/// A backward call's descriptors and epsilon (`_V2` naming). `use_saved`
/// is MIOpen's condition: both saved buffers non-null.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub mode: u32,
    pub x: Tensor,
    pub dy: Tensor,
    pub dx: Tensor,
    pub scale: Tensor,
    pub bias: Tensor,
    pub saved_mean: Tensor,
    pub saved_inv_variance: Tensor,
    pub epsilon: f64,
    pub use_saved: bool,
}

/// The hipDNN graph of one backward pass (no epsilon: see the module).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GraphSpec {
    pub x: TensorSpec,
    pub dy: TensorSpec,
    pub dx: TensorSpec,
    pub scale: TensorSpec,
    pub dscale: TensorSpec,
    pub dbias: TensorSpec,
    pub saved: Option<Saved>,
}

/// Translate a backward problem, or say why not.
pub fn translate(p: &Problem) -> Result<GraphSpec, Decline> {
    spatial(p.mode)?;
    let io = io_type(&p.x, &p.dy)?;
    if io_type(&p.x, &p.dx)? != io {
        return decline("dx's type differs from dy's (invalid problem: MIOpen decides)");
    }
    layout(&p.x, &p.dy)?;
    layout(&p.x, &p.dx)?;
    more_than_one_per_channel(&p.x)?;
    check_param("scale", &p.scale, &p.x)?;
    check_param("bias", &p.bias, &p.x)?;
    let saved = saved(p.use_saved, &p.saved_mean, &p.saved_inv_variance, &p.x)?;
    if saved.is_none() && p.epsilon.to_bits() != PROVIDER_EPSILON.to_bits() {
        return decline(format!(
            "savedMean or savedInvVariance is null and epsilon is {}: MIOpen recomputes the statistics with it, \
             hipDNN's backward has no epsilon and its MIOpen provider recomputes with {}",
            G(p.epsilon),
            G(PROVIDER_EPSILON)
        ));
    }
    Ok(GraphSpec {
        x: spec(uid::X, "x", &p.x, io),
        dy: spec(uid::DY, "dy", &p.dy, io),
        dx: spec(uid::DX, "dx", &p.dx, io),
        scale: spec(uid::SCALE, "scale", &p.scale, ElemType::F32),
        dscale: spec(uid::DSCALE, "dscale", &p.scale, ElemType::F32),
        dbias: spec(uid::DBIAS, "dbias", &p.bias, ElemType::F32),
        saved,
    })
}
