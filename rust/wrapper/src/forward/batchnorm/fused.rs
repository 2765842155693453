//! The fusion group's batchnorm plans on hipDNN
//! (`miopen_forwarding_core::batchnorm::fused`).
//!
//! Inference -> activation: this group's inference
//! operation with its y virtual, then a pointwise RELU_FWD (math precision
//! FLOAT, the clips when the activation has them) from that y to the plan's
//! output, the two nodes of the MIOpen provider's fused graph
//! (`MiopenBatchnormPlanBuilder.cpp` @86387662). The fusion group's handlers
//! record the plan and call these; the buffers are the plan's input and
//! output and the batchnorm operator's arguments.
//!
//! Backward -> activation backward: batchnorm inference with mean and
//! inverse variance (type 17), pointwise RELU_BWD (in_0 the plan's input dy,
//! in_1 the inference's virtual y: the gradient first, as in the newest
//! provider, `MiopenBatchnormPlanBuilder.cpp` @92e478c6 of a rocm-libraries
//! fork; @ec383f43 had them the other way round), batchnorm backward
//! (type 20) on the pointwise's virtual output, writing the plan's output dx
//! and the operator's dscale and dbias (`docs/hipdnn-compatibility.md`).

use std::ffi::c_void;
use std::rc::Rc;
use std::sync::OnceLock;

use hipdnn_backend::abi::{attr, attr_type, data_type, descriptor_type, pointwise_mode, Descriptor};
use miopen_forwarding_core::batchnorm::fused::{
    GraphSpecActivation, GraphSpecBackward, BACKWARD_ACTIVATION_PLAN, INFERENCE_ACTIVATION_PLAN, OUT,
};
use miopen_forwarding_core::batchnorm::uid;
use miopen_forwarding_core::graph_key::{GraphKey, PlanKey};
use miopen_forwarding_core::routing::{self, Route};
use miopen_forwarding_core::{Config, Family};

use super::graph::inference;
use super::handlers;
use crate::entry_points;
use crate::forward::common::graph::{self as common_graph, not_this_group, Builder, Failure};
use crate::forward::common::steps::{self, declined, failed, success, Ready, Step};
use crate::forward::common::{Outcome, Workspace};

/// The graph's operations ([`crate::forward::common::graph::Operations`]).
pub fn operations(b: &mut Builder, key: &dyn GraphKey) -> Result<Vec<Descriptor>, Failure> {
    if let Some(g) = key.downcast::<GraphSpecBackward>() {
        return backward_operations(b, g);
    }
    let Some(g) = key.downcast::<GraphSpecActivation>() else {
        return Err(not_this_group("batchnorm fused operations"));
    };
    let (bn, y) = inference(b, &g.bn)?;
    let out = b.tensor(&g.out)?;
    let d = b.create(descriptor_type::OPERATION_POINTWISE, "create pointwise")?;
    let bd = attr_type::BACKEND_DESCRIPTOR;
    b.set(d, attr::POINTWISE_MODE, attr_type::POINTWISE_MODE, &[pointwise_mode::RELU_FWD], "pointwise mode")?;
    b.set(d, attr::POINTWISE_MATH_PREC, attr_type::DATA_TYPE, &[data_type::FLOAT], "pointwise precision")?;
    if let Some(lower) = g.lower_clip {
        b.set(d, attr::POINTWISE_RELU_LOWER_CLIP, attr_type::FLOAT, &[f32::from_bits(lower)], "relu lower clip")?;
    }
    if let Some(upper) = g.upper_clip {
        b.set(d, attr::POINTWISE_RELU_UPPER_CLIP, attr_type::FLOAT, &[f32::from_bits(upper)], "relu upper clip")?;
    }
    b.set(d, attr::OPERATION_POINTWISE_IN_0_EXT, bd, &[y], "pointwise in0")?;
    b.set(d, attr::OPERATION_POINTWISE_OUT_0_EXT, bd, &[out], "pointwise out")?;
    b.finalize(d, "finalize pointwise")?;
    Ok(vec![bn, d])
}

/// A fused plan of `kind` reaches hipDNN only where a call of `family`
/// would: the build forwards the family and the configuration routes it to
/// hipDNN (not opted out). And not while MIOpen's switch for the plan's fused
/// solver is off: MIOpen compiles no such plan then, so the plan stays on
/// MIOpen Private and fails as it does there. `built` memoizes the build's
/// answer.
fn plan_forwarded(config: &Config, family: Family, kind: &str, built: &OnceLock<bool>) -> Step<()> {
    if !*built.get_or_init(|| entry_points::all().iter().any(|e| e.forward == Some(family))) {
        return declined(format!("operators {kind} (the build does not forward the batchnorm group)"));
    }
    if routing::decide(config, Some(family)).route != Route::Hipdnn {
        return declined(format!(
            "operators {kind} (family {} routes to MIOpen Private in this process)",
            family.name()
        ));
    }
    if let Some(why) = config.env.plan_decline_reason(kind) {
        return declined(why);
    }
    Ok(())
}

/// [`plan_forwarded`] for a batchnorm inference -> activation plan.
pub fn forwarded(config: &Config) -> Step<()> {
    static BUILT: OnceLock<bool> = OnceLock::new();
    plan_forwarded(config, Family::named("bn_fwd_inference"), INFERENCE_ACTIVATION_PLAN, &BUILT)
}

/// The plan key of the graph on MIOpen handle `handle`.
pub fn plan_key(handle: usize, g: GraphSpecActivation) -> PlanKey {
    PlanKey::new(handle, g)
}

/// The plan key of the backward graph on MIOpen handle `handle`.
pub fn backward_plan_key(handle: usize, g: GraphSpecBackward) -> PlanKey {
    PlanKey::new(handle, g)
}

/// Whether a plan key is one of the batchnorm fused graphs'.
pub fn is_key(key: &PlanKey) -> bool {
    key.is::<GraphSpecActivation>() || key.is::<GraphSpecBackward>()
}

/// The plan of `key`: from the thread's slot, the plan cache, or built.
pub fn ready(config: &Config, key: &Rc<PlanKey>) -> Step<Ready> {
    steps::ready(config, key, operations)
}

/// The plan's buffers: the plan's input and output, the operator's four.
pub struct Buffers {
    pub x: *mut c_void,
    pub out: *mut c_void,
    pub scale: *mut c_void,
    pub bias: *mut c_void,
    pub mean: *mut c_void,
    pub variance: *mut c_void,
}

const UIDS: [i64; 6] = [uid::X, OUT, uid::SCALE, uid::BIAS, uid::MEAN, uid::VARIANCE];

const NAMES: [&str; 6] = ["input", "output", "bnScale", "bnBias", "estimatedMean", "estimatedVariance"];

/// Runs the plan on `b` with `ws` (the caller's or the handle's: the
/// reference engine's plan needs one for its virtual y, the provider's
/// none), after the batchnorm group's pointer checks (non-null, aligned).
pub fn run(r: &Ready, b: &Buffers, ws: &Workspace) -> Step<Outcome> {
    let ptrs = [b.x, b.out, b.scale, b.bias, b.mean, b.variance];
    handlers::buffers_usable(&ptrs, &NAMES)?;
    r.fits(ws)?;
    common_graph::execute(&r.plan, r.hd, &UIDS, &ptrs, ws.ptr).map_err(failed)?;
    Ok(success(r.note()))
}

/// The backward graph's three operations: batchnorm inference (type 17) with
/// its y virtual, pointwise RELU_BWD, batchnorm backward (type 20). The
/// tensors both batchnorm operations read are one descriptor each (one uid
/// in the graph).
fn backward_operations(b: &mut Builder, g: &GraphSpecBackward) -> Result<Vec<Descriptor>, Failure> {
    let bd = attr_type::BACKEND_DESCRIPTOR;
    let [x, mean, inv_variance, scale, bias, y, dy, dy_activated, dx, dscale, dbias] =
        [&g.x, &g.mean, &g.inv_variance, &g.scale, &g.bias, &g.y, &g.dy, &g.dy_activated, &g.dx, &g.dscale, &g.dbias]
            .map(|t| b.tensor(t));
    let (x, mean, inv_variance, scale, y, dy_activated) = (x?, mean?, inv_variance?, scale?, y?, dy_activated?);
    let inference = [
        (attr::OPERATION_BATCHNORM_INFERENCE_X_EXT, x),
        (attr::OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, mean),
        (attr::OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, inv_variance),
        (attr::OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, scale),
        (attr::OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, bias?),
        (attr::OPERATION_BATCHNORM_INFERENCE_Y_EXT, y),
    ];
    let bn = b.create(descriptor_type::OPERATION_BATCHNORM_INFERENCE_EXT, "create batchnorm inference")?;
    for (name, t) in inference {
        b.set(bn, name, bd, &[t], "batchnorm tensor")?;
    }
    b.set(bn, attr::BATCHNORM_INF_COMP_TYPE_EXT, attr_type::DATA_TYPE, &[data_type::FLOAT], "batchnorm compute type")?;
    b.finalize(bn, "finalize batchnorm inference")?;
    let act = b.create(descriptor_type::OPERATION_POINTWISE, "create pointwise")?;
    b.set(act, attr::POINTWISE_MODE, attr_type::POINTWISE_MODE, &[pointwise_mode::RELU_BWD], "pointwise mode")?;
    b.set(act, attr::POINTWISE_MATH_PREC, attr_type::DATA_TYPE, &[data_type::FLOAT], "pointwise precision")?;
    b.set(act, attr::OPERATION_POINTWISE_IN_0_EXT, bd, &[dy?], "pointwise in0")?;
    b.set(act, attr::OPERATION_POINTWISE_IN_1_EXT, bd, &[y], "pointwise in1")?;
    b.set(act, attr::OPERATION_POINTWISE_OUT_0_EXT, bd, &[dy_activated], "pointwise out")?;
    b.finalize(act, "finalize pointwise")?;
    let backward = [
        (attr::OPERATION_BATCHNORM_BACKWARD_DY_EXT, dy_activated),
        (attr::OPERATION_BATCHNORM_BACKWARD_X_EXT, x),
        (attr::OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, scale),
        (attr::OPERATION_BATCHNORM_BACKWARD_DX_EXT, dx?),
        (attr::OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, dscale?),
        (attr::OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, dbias?),
        (attr::OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, mean),
        (attr::OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, inv_variance),
    ];
    let bwd = b.create(descriptor_type::OPERATION_BATCHNORM_BACKWARD_EXT, "create batchnorm backward")?;
    for (name, t) in backward {
        b.set(bwd, name, bd, &[t], "batchnorm tensor")?;
    }
    let comp = [data_type::FLOAT];
    b.set(bwd, attr::BATCHNORM_BACKWARD_COMP_TYPE_EXT, attr_type::DATA_TYPE, &comp, "batchnorm compute type")?;
    b.finalize(bwd, "finalize batchnorm backward")?;
    Ok(vec![bn, act, bwd])
}

/// A batchnorm fusion operator's arguments, as the fusion group records them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Args {
    /// `miopenSetOpArgsBatchNormInference`: the four per-channel buffers and epsilon.
    Inference { scale: usize, bias: usize, mean: usize, variance: usize, epsilon: f64 },
    /// `miopenSetOpArgsBatchNormBackward`: x, the scale and bias, the
    /// parameter gradients and the saved statistics (the plan's input is dy,
    /// its output dx).
    Backward { x: usize, scale: usize, bias: usize, dscale: usize, dbias: usize, mean: usize, inv_variance: usize },
}

const BACKWARD_UIDS: [i64; 9] =
    [uid::DY, uid::DX, uid::X, uid::SCALE, uid::BIAS, uid::DSCALE, uid::DBIAS, uid::MEAN, uid::INV_VARIANCE];

const BACKWARD_NAMES: [&str; 9] = [
    "input",
    "output",
    "x",
    "bnScale",
    "bnBias",
    "resultBnScaleDiff",
    "resultBnBiasDiff",
    "savedMean",
    "savedInvVariance",
];

/// The epsilon an execute's plan key carries: the inference operator's
/// (the backward graph has none; its key ignores it).
pub fn epsilon_of(a: &Args) -> f64 {
    match a {
        Args::Inference { epsilon, .. } => *epsilon,
        Args::Backward { .. } => miopen_forwarding_core::batchnorm::fused::EPSILON_AT_COMPILE,
    }
}

/// Runs a batchnorm fused plan on the plan's input and output and the
/// operator's arguments `a`, with `ws`.
pub fn run_args(r: &Ready, input: *const c_void, output: *mut c_void, a: &Args, ws: &Workspace) -> Step<Outcome> {
    let input = input as *mut c_void;
    match *a {
        Args::Inference { scale, bias, mean, variance, .. } => {
            let [scale, bias, mean, variance] = [scale, bias, mean, variance].map(|p| p as *mut c_void);
            run(r, &Buffers { x: input, out: output, scale, bias, mean, variance }, ws)
        }
        Args::Backward { x, scale, bias, dscale, dbias, mean, inv_variance } => {
            let rest = [x, scale, bias, dscale, dbias, mean, inv_variance].map(|p| p as *mut c_void);
            let ptrs = [input, output, rest[0], rest[1], rest[2], rest[3], rest[4], rest[5], rest[6]];
            handlers::buffers_usable(&ptrs, &BACKWARD_NAMES)?;
            r.fits(ws)?;
            common_graph::execute(&r.plan, r.hd, &BACKWARD_UIDS, &ptrs, ws.ptr).map_err(failed)?;
            Ok(success(r.note()))
        }
    }
}

/// [`plan_forwarded`] for a batchnorm backward -> activation backward plan,
/// and not while MIOpen's driver line is asked for: MIOpen has no fusion
/// mode for this plan (it logs an error instead of a line), which the
/// wrapper does not write.
pub fn backward_forwarded(config: &Config) -> Step<()> {
    static BUILT: OnceLock<bool> = OnceLock::new();
    plan_forwarded(config, Family::named("bn_bwd"), BACKWARD_ACTIVATION_PLAN, &BUILT)?;
    if config.env.log_driver_cmd {
        return declined(
            "MIOPEN_ENABLE_LOGGING_CMD is set (MIOpen logs an error, not a driver line, for a batchnorm backward fusion plan; the wrapper does not write it)",
        );
    }
    Ok(())
}
