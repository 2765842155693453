//! MIOpen's batchnorm inference -> activation fusion plan (its
//! `BnFwdInferActivationFused`, ROCm/MIOpen @2d1fd997
//! `src/solver/batchnorm/forward_inference_fused.cpp`) as the MIOpen
//! provider's two-node graph: batchnorm inference with variance (type 21,
//! its y virtual and FLOAT) -> pointwise `RELU_FWD` writing the plan's output
//! (rocm-libraries `MiopenBatchnormPlanBuilder.cpp` @86387662, its two-node
//! case; `docs/forwarding.md`, "Fused batchnorm plans").
//!
//! The fusion group records the plan and calls [`translate`]; the graph's
//! batchnorm node is this group's inference spec ([`super::GraphSpec`]), so the
//! rules it shares with `miopenBatchNormalizationForwardInference` are the
//! same functions. What the fused kernel adds: it reads the plan's input as
//! packed 4-D NCHW (`tien<4>` of its lengths, NCHW indexing) and runs fp32
//! and fp16 only.

use super::{
    check_param, io_type, miopen_type, packed_as, spatial, spec, uid, Decline, ElemType, GraphSpec, Tensor, TensorSpec,
};
use crate::ops::conv::{activation_clips, Activation};
use crate::tensor::decline;

/// The kind of plan this graph computes, as the routing trace and
/// [`crate::environment::EnvPolicy::plan_decline_reason`] name it.
pub const INFERENCE_ACTIVATION_PLAN: &str = "batchnorm inference -> activation";

/// The kind of the backward plan ([`GraphSpecBackward`]), as the routing
/// trace and the plan switches name it.
pub const BACKWARD_ACTIVATION_PLAN: &str = "batchnorm backward -> activation backward";

/// The line MIOpen logs under `MIOPEN_ENABLE_LOGGING_CMD` for an execute of
/// the plan ([`super::driver_cmd::fusion_line`], its mode 2), or `None`.
pub fn driver_line(x: &Tensor, mode: u32) -> Option<String> {
    super::driver_cmd::fusion_line(x, mode)
}

/// The uid of the fused graph's output (the activation's out_0); the
/// batchnorm's y keeps [`uid::Y`], virtual.
pub const OUT: i64 = 13;

/// The placeholder epsilon a plan is compiled with before its arguments
/// exist (the graph's shape, not its value, decides which engine runs it).
pub const EPSILON_AT_COMPILE: f64 = 1e-5;

/// A batchnorm inference -> activation plan: the plan's input, the
/// batchnorm operator's mode and parameter descriptor (one for scale, bias,
/// mean and variance, as `miopenCreateOpBatchNormInference` takes it), the
/// operator arguments' epsilon and the activation.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem<'a> {
    pub x: &'a Tensor,
    pub mode: u32,
    pub params: &'a Tensor,
    pub epsilon: f64,
    pub activation: Activation,
}

/// The two-node graph: the batchnorm (y virtual FLOAT), then RELU_FWD with
/// its clips (f32 bit patterns) writing `out`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GraphSpecActivation {
    pub bn: GraphSpec,
    pub out: TensorSpec,
    pub lower_clip: Option<u32>,
    pub upper_clip: Option<u32>,
}

/// Translate the plan, or say why not.
pub fn translate(p: &Problem) -> Result<GraphSpecActivation, Decline> {
    spatial(p.mode)?;
    let x = p.x;
    if x.dims.len() != 4 {
        return decline(format!(
            "x has {} dimensions (MIOpen's fused batchnorm kernel reads 4-D NCHW; forwardable: 4)",
            x.dims.len()
        ));
    }
    let io = io_type(x, x)?;
    if !matches!(io, ElemType::F32 | ElemType::F16) {
        return decline(format!(
            "x is {} (MIOpen's fused batchnorm kernels run fp32 and fp16 only; MIOpen decides)",
            miopen_type::name(x.dtype)
        ));
    }
    if !packed_as(x, false) {
        return decline("x is not packed NCHW (MIOpen's fused batchnorm kernel reads its input as packed NCHW)");
    }
    check_param("bnScaleBiasMeanVarDesc", p.params, x)?;
    let (lower, upper) = activation_clips(&p.activation)?;
    let mut y = spec(uid::Y, "y", x, ElemType::F32);
    y.is_virtual = true;
    let param = |id, name| spec(id, name, p.params, ElemType::F32);
    let bn = GraphSpec {
        x: spec(uid::X, "x", x, io),
        y,
        scale: param(uid::SCALE, "scale"),
        bias: param(uid::BIAS, "bias"),
        mean: param(uid::MEAN, "mean"),
        variance: param(uid::VARIANCE, "variance"),
        epsilon_bits: p.epsilon.to_bits(),
    };
    Ok(GraphSpecActivation {
        bn,
        out: spec(OUT, "out", x, io),
        lower_clip: lower.map(f32::to_bits),
        upper_clip: upper.map(f32::to_bits),
    })
}

/// The uid of the backward graph's activation gradient (the pointwise's
/// out_0, the batchnorm backward's dy; virtual FLOAT).
pub const DY_ACTIVATED: i64 = 14;

/// A batchnorm backward -> activation backward plan (MIOpen's
/// `BnBwdTrgActivationFused`, ROCm/MIOpen @2d1fd997
/// `src/solver/batchnorm/backward_per_activation_fused.cpp`, kernel
/// `MIOpenBatchNormActivBwdSpatial.cl`): the plan's input descriptor (x, dy
/// and dx all have it: `miopenExecuteFusionPlan`'s input is dy, its output
/// dx), the batchnorm operator's mode and the activation backward's mode.
/// MIOpen derives the per-channel tensors' descriptor from x (fp32, (1, C,
/// 1, 1)); the kernel always uses the saved statistics (`MIO_BN_USESAVED`
/// 1), so no epsilon enters.
#[derive(Debug, Clone, PartialEq)]
pub struct BackwardProblem<'a> {
    pub x: &'a Tensor,
    pub mode: u32,
    pub activation: u32,
}

/// The provider's three-node graph (rocm-libraries
/// `dnn-providers/miopen-provider/engines/plans/MiopenBatchnormPlanBuilder.cpp`,
/// `batchnormBwdFusionCheckTensors`, newest stored: @92e478c6 of the
/// zpengmei/rocm-libraries fork; run through
/// `miopenBatchNormBackwardActivation`):
/// batchnorm inference with mean and inverse variance (type 17; x, mean,
/// inv_variance, scale, bias non-virtual, `y` virtual FLOAT) -> pointwise
/// RELU_BWD (in_0 = `dy` non-virtual, in_1 = that y, out_0 = `dy_activated`
/// virtual FLOAT; @ec383f43 and @86387662 had in_0 and in_1 swapped) ->
/// batchnorm backward (type 20; dy = `dy_activated`, the same x, scale, mean
/// and inv_variance; dx, dscale, dbias non-virtual).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GraphSpecBackward {
    pub x: TensorSpec,
    pub mean: TensorSpec,
    pub inv_variance: TensorSpec,
    pub scale: TensorSpec,
    pub bias: TensorSpec,
    pub y: TensorSpec,
    pub dy: TensorSpec,
    pub dy_activated: TensorSpec,
    pub dx: TensorSpec,
    pub dscale: TensorSpec,
    pub dbias: TensorSpec,
}

/// MIOpen's activation mode names (`miopenActivationMode_t`).
fn activation_name(mode: u32) -> String {
    const NAMES: [&str; 11] =
        ["PASTHRU", "LOGISTIC", "TANH", "RELU", "SOFTRELU", "ABS", "POWER", "CLIPPEDRELU", "LEAKYRELU", "ELU", "CLAMP"];
    NAMES.get(mode as usize).map_or_else(|| format!("{}", crate::print::Int(mode)), |n| (*n).to_string())
}

/// Translate a batchnorm backward -> activation backward plan, or say why not.
pub fn translate_backward(p: &BackwardProblem) -> Result<GraphSpecBackward, Decline> {
    spatial(p.mode)?;
    if p.activation != crate::ops::conv::miopen_activation::RELU {
        return decline(format!(
            "activation backward mode {} (hipDNN's fused batchnorm backward graph is RELU_BWD only; forwardable: RELU)",
            activation_name(p.activation)
        ));
    }
    let x = p.x;
    if x.dims.len() != 4 {
        return decline(format!(
            "x has {} dimensions (MIOpen's fused batchnorm kernel reads 4-D NCHW; forwardable: 4)",
            x.dims.len()
        ));
    }
    let io = io_type(x, x)?;
    if !matches!(io, ElemType::F32 | ElemType::F16) {
        return decline(format!(
            "x is {} (MIOpen's fused batchnorm kernels run fp32 and fp16 only; MIOpen decides)",
            miopen_type::name(x.dtype)
        ));
    }
    if !packed_as(x, false) {
        return decline("x is not packed NCHW (MIOpen's fused batchnorm kernel reads its input as packed NCHW)");
    }
    super::more_than_one_per_channel(x)?;
    // MIOpen derives the per-channel descriptor: fp32 (1, C, 1, 1), packed.
    let params =
        Tensor { dtype: miopen_type::FLOAT, dims: vec![1, x.dims[1], 1, 1], strides: vec![x.dims[1], 1, 1, 1] };
    let param = |id, name| spec(id, name, &params, ElemType::F32);
    let intermediate = |id, name| TensorSpec { is_virtual: true, ..spec(id, name, x, ElemType::F32) };
    Ok(GraphSpecBackward {
        x: spec(uid::X, "x", x, io),
        mean: param(uid::MEAN, "saved_mean"),
        inv_variance: param(uid::INV_VARIANCE, "saved_inv_variance"),
        scale: param(uid::SCALE, "scale"),
        bias: param(uid::BIAS, "bias"),
        y: intermediate(uid::Y, "y"),
        dy: spec(uid::DY, "dy", x, io),
        dy_activated: intermediate(DY_ACTIVATED, "dy_activated"),
        dx: spec(uid::DX, "dx", x, io),
        dscale: param(uid::DSCALE, "dscale"),
        dbias: param(uid::DBIAS, "dbias"),
    })
}
