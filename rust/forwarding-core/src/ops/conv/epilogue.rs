//! The fused epilogue of a convolution: y = act(conv(x, w) + bias), as
//! hipDNN's conv -> [ADD bias] -> RELU_FWD graph. Both fused APIs build it:
//! `miopenConvolutionBiasActivationForward` and a fusion plan of
//! conv -> [bias] -> activation, so equal problems share a plan.

use super::problem::Problem;
use super::spec::{uid, FusedSpec, GraphSpec};
use super::translate::translate;
use crate::print::{Int, G};
use crate::tensor::{decline, miopen_type, Decline, ElemType, Tensor, TensorSpec};

/// MIOpen's `miopenActivationMode_t` values the fused path maps.
pub mod miopen_activation {
    pub const PASTHRU: u32 = 0;
    pub const RELU: u32 = 3;
    pub const CLIPPEDRELU: u32 = 7;
    pub const CLAMP: u32 = 10;
}

/// The activation of a fused call, as MIOpen's descriptor holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Activation {
    pub mode: u32,
    pub alpha: f64,
    pub beta: f64,
}

/// What follows the convolution in a fused call.
#[derive(Debug, Clone, PartialEq)]
pub struct Epilogue {
    /// The bias descriptor; None when the call passes no bias.
    pub bias: Option<Tensor>,
    /// The call passes a `z` (residual) pointer.
    pub has_z: bool,
    pub activation: Activation,
}

/// Translate a convolution with its epilogue, or say why not.
pub fn translate_fused(p: &Problem, e: &Epilogue) -> Result<GraphSpec, Decline> {
    if e.has_z {
        return decline("z is given (hipDNN's fused conv graph has no residual input)");
    }
    let (lower, upper) = activation_clips(&e.activation)?;
    if p.conv.pads.len() == 1 {
        return decline("1-D fused convolution (the bias would need the 2-D lift too; not translated)");
    }
    let mut spec = translate(p)?;
    let conv_out =
        TensorSpec { uid: uid::CONV_OUT, name: "conv_out", dtype: ElemType::F32, is_virtual: true, ..spec.y.clone() };
    let bias = match &e.bias {
        None => None,
        Some(b) => Some(bias_tensors(b, &spec, &conv_out)?),
    };
    spec.fused =
        Some(FusedSpec { conv_out, bias, lower_clip: lower.map(f32::to_bits), upper_clip: upper.map(f32::to_bits) });
    Ok(spec)
}

/// MIOpen's activation as hipDNN's RELU_FWD clips (lower, upper); also the
/// batchnorm inference -> activation fusion plan's (`batchnorm::fused`).
pub fn activation_clips(a: &Activation) -> Result<(Option<f32>, Option<f32>), Decline> {
    let exact = |v: f64, what: &str| -> Result<f32, Decline> {
        let f = v as f32;
        if f64::from(f) == v {
            Ok(f)
        } else {
            decline(format!("activation {what}={} is not exact in fp32", G(v)))
        }
    };
    match a.mode {
        miopen_activation::RELU => Ok((None, None)),
        miopen_activation::CLIPPEDRELU => Ok((Some(0.0), Some(exact(a.alpha, "alpha")?))),
        miopen_activation::CLAMP => Ok((Some(exact(a.alpha, "alpha")?), Some(exact(a.beta, "beta")?))),
        miopen_activation::PASTHRU => decline("activation PASTHRU (hipDNN's fused conv graph ends in a ReLU)"),
        m => decline(format!("activation mode {} (no hipDNN pointwise equivalent in the pinned set)", Int(m))),
    }
}

/// The bias must be MIOpen's (1, K, 1, ...) bias in y's type; its strides
/// are the caller's, since the bias buffer is laid out by its descriptor.
fn bias_tensors(b: &Tensor, spec: &GraphSpec, conv_out: &TensorSpec) -> Result<(TensorSpec, TensorSpec), Decline> {
    let k = spec.y.dims[1];
    let rank = spec.y.dims.len();
    let shape_ok = b.dims.len() == rank && b.dims[0] == 1 && b.dims[1] == k && b.dims[2..].iter().all(|&d| d == 1);
    if !shape_ok || b.strides.len() != rank || b.strides.iter().any(|&s| s <= 0) {
        return decline(format!("bias is not a (1, {k}, 1, ...) tensor of y's rank (MIOpen decides)"));
    }
    let dtype = ElemType::from_miopen(b.dtype).filter(|t| *t == spec.y.dtype);
    let Some(dtype) = dtype else {
        return decline(format!("bias type {} differs from y's", miopen_type::name(b.dtype)));
    };
    let bias = TensorSpec {
        uid: uid::BIAS,
        name: "bias",
        dtype,
        dims: b.dims.clone(),
        strides: b.strides.clone(),
        is_virtual: false,
    };
    let add_out = TensorSpec { uid: uid::ADD_OUT, name: "add_out", ..conv_out.clone() };
    Ok((bias, add_out))
}

impl Epilogue {
    /// The largest epilogue the wrapper builds for a problem: a
    /// (1, K, 1, ...) bias in y's type, then a ReLU (what the workspace of
    /// a problem's fused form is sized for).
    pub fn largest(p: &Problem) -> Epilogue {
        let mut dims = vec![1; p.y.dims.len()];
        dims[1] = p.y.dims[1];
        let mut strides = vec![1; dims.len()];
        strides[0] = dims[1];
        let bias = Tensor { dtype: p.y.dtype, dims, strides };
        let relu = Activation { mode: miopen_activation::RELU, alpha: 0.0, beta: 0.0 };
        Epilogue { bias: Some(bias), has_z: false, activation: relu }
    }
}
