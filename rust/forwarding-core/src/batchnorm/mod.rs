//! The batchnorm problem model: MIOpen descriptor fields in, a hipDNN graph
//! spec or a decline reason out (the `batchnorm` group).
//!
//! Three operations, one module each for the two added by the training
//! pass: [`training`] (`…ForwardTraining(_V2)`, hipDNN's batchnorm training,
//! type 27) and [`backward`] (`…Backward(_V2)`, type 20); this file is the
//! inference and the rules the three share.
//!
//! `miopenBatchNormalizationForwardInference(_V2)` becomes hipDNN's
//! batchnorm inference *with variance* (the form the MIOpen provider runs,
//! with spatial mode, alpha 1 and beta 0 fixed). Anything the provider's
//! applicability checks would refuse, or that MIOpen would compute
//! differently, is declined with a cause; MIOpen Private then runs the call
//! and returns its own status for an invalid one.

pub mod driver_cmd;
pub mod group;

use crate::print::Int;
pub use crate::tensor::{decline, miopen_type, Decline, ElemType, Tensor, TensorSpec};

/// MIOpen's `miopenBatchNormMode_t`.
pub mod miopen_bn_mode {
    pub const PER_ACTIVATION: u32 = 0;
    pub const SPATIAL: u32 = 1;
}

/// A batchnorm inference call's descriptors and epsilon, as MIOpen reports
/// them. The legacy entry point passes one descriptor for the four
/// per-channel tensors; the model has them separately, as `_V2` does.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub mode: u32,
    pub x: Tensor,
    pub y: Tensor,
    pub scale: Tensor,
    pub bias: Tensor,
    pub mean: Tensor,
    pub variance: Tensor,
    pub epsilon: f64,
}

/// Unique ids of the graph's tensors (also the variant-pack keys).
pub mod uid {
    pub const X: i64 = 1;
    pub const MEAN: i64 = 2;
    pub const VARIANCE: i64 = 3;
    pub const SCALE: i64 = 4;
    pub const BIAS: i64 = 5;
    pub const Y: i64 = 6;
    pub const EPSILON: i64 = 7;
    pub const INV_VARIANCE: i64 = 8;
    pub const DY: i64 = 9;
    pub const DX: i64 = 10;
    pub const DSCALE: i64 = 11;
    pub const DBIAS: i64 = 12;
}

/// The hipDNN graph of one inference; epsilon as its bit pattern, so the
/// spec is a cache key and two epsilons are one plan only when they are the
/// same double.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GraphSpec {
    pub x: TensorSpec,
    pub y: TensorSpec,
    pub scale: TensorSpec,
    pub bias: TensorSpec,
    pub mean: TensorSpec,
    pub variance: TensorSpec,
    pub epsilon_bits: u64,
}

impl GraphSpec {
    pub fn epsilon(&self) -> f64 {
        f64::from_bits(self.epsilon_bits)
    }
}

/// The saved batch statistics of training (outputs) and backward (inputs):
/// both or neither (hipDNN's finalize rule for both operations).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Saved {
    pub mean: TensorSpec,
    pub inv_variance: TensorSpec,
}

/// The saved statistics' graph tensors when MIOpen uses them (`both`).
pub(crate) fn saved(both: bool, mean: &Tensor, inv_variance: &Tensor, x: &Tensor) -> Result<Option<Saved>, Decline> {
    if !both {
        return Ok(None);
    }
    check_param("savedMean", mean, x)?;
    check_param("savedInvVariance", inv_variance, x)?;
    Ok(Some(Saved {
        mean: spec(uid::MEAN, "saved_mean", mean, ElemType::F32),
        inv_variance: spec(uid::INV_VARIANCE, "saved_inv_variance", inv_variance, ElemType::F32),
    }))
}

/// The mode: spatial is forwarded, per-activation declined with its reason.
pub(crate) fn spatial(mode: u32) -> Result<(), Decline> {
    match mode {
        miopen_bn_mode::SPATIAL => Ok(()),
        miopen_bn_mode::PER_ACTIVATION => {
            decline("per-activation batchnorm (hipDNN's MIOpen provider runs spatial only)")
        }
        m => decline(format!("batchnorm mode {} (invalid: MIOpen decides)", Int(m))),
    }
}

/// A graph tensor of the caller's lengths and strides.
pub(crate) fn spec(uid: i64, name: &'static str, t: &Tensor, dtype: ElemType) -> TensorSpec {
    TensorSpec { uid, name, dtype, dims: t.dims.clone(), strides: t.strides.clone(), is_virtual: false }
}

/// Translate an inference problem, or say why not.
pub fn translate(p: &Problem) -> Result<GraphSpec, Decline> {
    spatial(p.mode)?;
    let io = io_type(&p.x, &p.y)?;
    layout(&p.x, &p.y)?;
    let params = [("scale", &p.scale), ("bias", &p.bias), ("mean", &p.mean), ("variance", &p.variance)];
    for (name, t) in params {
        check_param(name, t, &p.x)?;
    }
    Ok(GraphSpec {
        x: spec(uid::X, "x", &p.x, io),
        y: spec(uid::Y, "y", &p.y, io),
        scale: spec(uid::SCALE, "scale", &p.scale, ElemType::F32),
        bias: spec(uid::BIAS, "bias", &p.bias, ElemType::F32),
        mean: spec(uid::MEAN, "mean", &p.mean, ElemType::F32),
        variance: spec(uid::VARIANCE, "variance", &p.variance, ElemType::F32),
        epsilon_bits: p.epsilon.to_bits(),
    })
}

/// x and y (or dy, dx): 4-D or 5-D, one shape, one forwarded type.
pub(crate) fn io_type(x: &Tensor, y: &Tensor) -> Result<ElemType, Decline> {
    let rank = x.dims.len();
    if !(4..=5).contains(&rank) {
        return decline(format!("x has {rank} dimensions (forwardable: 4 or 5; MIOpen decides)"));
    }
    if y.dims != x.dims || y.strides.len() != rank || x.strides.len() != rank {
        return decline("y's lengths differ from x's (invalid problem: MIOpen decides)");
    }
    if x.dims.iter().chain(&x.strides).chain(&y.strides).any(|&v| v <= 0) {
        return decline("x or y has a non-positive length or stride (invalid problem: MIOpen decides)");
    }
    if y.dtype != x.dtype {
        return decline(format!(
            "x is {} but y is {} (invalid problem: MIOpen decides)",
            miopen_type::name(x.dtype),
            miopen_type::name(y.dtype)
        ));
    }
    ElemType::from_miopen(x.dtype).ok_or_else(|| {
        Decline(format!("type {} (forwardable: {})", miopen_type::name(x.dtype), ElemType::forwardable()))
    })
}

/// The dimensions from outermost to innermost of a channel-first
/// (N, C, spatial...) or channel-last (N, spatial..., C) layout.
pub fn layout_order(rank: usize, channels_last: bool) -> Vec<usize> {
    let mut order = vec![0];
    if !channels_last {
        order.push(1);
    }
    order.extend(2..rank);
    if channels_last {
        order.push(1);
    }
    order
}

/// Whether `t` is packed in the layout; a dimension of extent 1 may have
/// any stride.
fn packed_as(t: &Tensor, channels_last: bool) -> bool {
    let mut expect = 1i64;
    for d in layout_order(t.dims.len(), channels_last).into_iter().rev() {
        if t.dims[d] != 1 && t.strides[d] != expect {
            return false;
        }
        // Untrusted dims whose product overflows are no packed tensor.
        let Some(next) = expect.checked_mul(t.dims[d]) else { return false };
        expect = next;
    }
    true
}

/// x and y packed in one of NCHW / NHWC (NCDHW / NDHWC), the layouts the
/// provider takes (the strides say which; the graph carries them as they are).
pub(crate) fn layout(x: &Tensor, y: &Tensor) -> Result<(), Decline> {
    if [false, true].into_iter().any(|last| packed_as(x, last) && packed_as(y, last)) {
        return Ok(());
    }
    decline(
        "x and y are not both packed NCHW/NHWC (NCDHW/NDHWC) in one layout (hipDNN's MIOpen provider takes only those)",
    )
}

/// A per-channel tensor: x's rank, (1, C, 1, ...), fp32 (the provider's
/// type table; MIOpen also takes x's own type for fp16 and bf16).
pub(crate) fn check_param(name: &str, t: &Tensor, x: &Tensor) -> Result<(), Decline> {
    let c = x.dims[1];
    let shape_ok =
        t.dims.len() == x.dims.len() && t.dims.iter().enumerate().all(|(i, &d)| d == if i == 1 { c } else { 1 });
    if !shape_ok || t.strides.len() != t.dims.len() {
        return decline(format!(
            "{name} is not the (1, {c}, 1, ...) tensor of x's rank (invalid problem: MIOpen decides)"
        ));
    }
    if c != 1 && t.strides[1] != 1 {
        return decline(format!(
            "{name} is not packed (stride {} along C; hipDNN's MIOpen provider takes packed tensors only)",
            t.strides[1]
        ));
    }
    match ElemType::from_miopen(t.dtype) {
        Some(ElemType::F32) => Ok(()),
        Some(_) => decline(format!(
            "{name} is {} (hipDNN's MIOpen provider takes fp32 scale, bias, mean and variance only)",
            miopen_type::name(t.dtype)
        )),
        None => decline(format!("{name} is {} (MIOpen decides)", miopen_type::name(t.dtype))),
    }
}

/// Training and backward: the provider computes batch statistics and wants
/// more than one value per channel (its `validateSpatialDimensions`).
pub(crate) fn more_than_one_per_channel(x: &Tensor) -> Result<(), Decline> {
    let per_channel: i64 = x.dims[0] * x.dims[2..].iter().product::<i64>();
    if per_channel > 1 {
        return Ok(());
    }
    decline("one value per channel (N × spatial = 1; hipDNN's MIOpen provider requires more for batch statistics)")
}

pub mod backward;
pub mod fused;
pub mod training;

#[cfg(test)]
mod tests;
