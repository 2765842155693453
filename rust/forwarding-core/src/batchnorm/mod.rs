//! The batchnorm problem model: MIOpen descriptor fields in, a hipDNN graph
//! spec or a decline reason out (the `batchnorm` group).
//!
//! `miopenBatchNormalizationForwardInference(_V2)` becomes hipDNN's
//! batchnorm inference *with variance* (the form the MIOpen provider runs,
//! with spatial mode, alpha 1 and beta 0 fixed). Anything the provider's
//! applicability checks would refuse, or that MIOpen would compute
//! differently, is declined with a cause; MIOpen Private then runs the call
//! and returns its own status for an invalid one.

pub mod driver_cmd;

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

/// Translate an inference problem, or say why not.
pub fn translate(p: &Problem) -> Result<GraphSpec, Decline> {
    match p.mode {
        miopen_bn_mode::SPATIAL => {}
        miopen_bn_mode::PER_ACTIVATION => {
            return decline("per-activation batchnorm (hipDNN's MIOpen provider runs spatial only)")
        }
        m => return decline(format!("batchnorm mode {m} (invalid: MIOpen decides)")),
    }
    let io = io_type(p)?;
    layout(p)?;
    let params = [("scale", &p.scale), ("bias", &p.bias), ("mean", &p.mean), ("variance", &p.variance)];
    for (name, t) in params {
        check_param(name, t, &p.x)?;
    }
    let spec = |uid, name, t: &Tensor, dtype| TensorSpec {
        uid,
        name,
        dtype,
        dims: t.dims.clone(),
        strides: t.strides.clone(),
        is_virtual: false,
    };
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

/// x and y: 4-D or 5-D, one shape, one forwarded type.
fn io_type(p: &Problem) -> Result<ElemType, Decline> {
    let rank = p.x.dims.len();
    if !(4..=5).contains(&rank) {
        return decline(format!("x has {rank} dimensions (forwarded: 4 or 5; MIOpen decides)"));
    }
    if p.y.dims != p.x.dims || p.y.strides.len() != rank || p.x.strides.len() != rank {
        return decline("y's lengths differ from x's (invalid problem: MIOpen decides)");
    }
    if p.x.dims.iter().chain(&p.x.strides).chain(&p.y.strides).any(|&v| v <= 0) {
        return decline("x or y has a non-positive length or stride (invalid problem: MIOpen decides)");
    }
    if p.y.dtype != p.x.dtype {
        return decline(format!(
            "x is {} but y is {} (invalid problem: MIOpen decides)",
            miopen_type::name(p.x.dtype),
            miopen_type::name(p.y.dtype)
        ));
    }
    ElemType::from_miopen(p.x.dtype)
        .ok_or_else(|| Decline(format!("type {} (not forwarded)", miopen_type::name(p.x.dtype))))
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
    let mut expect = 1;
    for d in layout_order(t.dims.len(), channels_last).into_iter().rev() {
        if t.dims[d] != 1 && t.strides[d] != expect {
            return false;
        }
        expect *= t.dims[d];
    }
    true
}

/// x and y packed in one of NCHW / NHWC (NCDHW / NDHWC), the layouts the
/// provider takes (the strides say which; the graph carries them as they are).
fn layout(p: &Problem) -> Result<(), Decline> {
    if [false, true].into_iter().any(|last| packed_as(&p.x, last) && packed_as(&p.y, last)) {
        return Ok(());
    }
    decline(
        "x and y are not both packed NCHW/NHWC (NCDHW/NDHWC) in one layout (hipDNN's MIOpen provider takes only those)",
    )
}

/// A per-channel tensor: x's rank, (1, C, 1, ...), fp32 (the provider's
/// type table; MIOpen also takes x's own type for fp16 and bf16).
fn check_param(name: &str, t: &Tensor, x: &Tensor) -> Result<(), Decline> {
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

#[cfg(test)]
mod tests;
