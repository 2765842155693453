//! A convolution's operations in a hipDNN graph: one convolution (forward,
//! backward data or backward filter) or conv -> [ADD bias] -> RELU_FWD,
//! with the attributes hipDNN's frontend sets; its plan key and its plan.

use std::rc::Rc;

use hipdnn_backend::abi::{attr, attr_type, conv_mode, data_type, descriptor_type, pointwise_mode, Descriptor};
use miopen_forwarding_core::graph_key::{GraphKey, Knobs, PlanKey};
use miopen_forwarding_core::ops::conv::{FusedSpec, GraphSpec};
use miopen_forwarding_core::Config;

use crate::forward::common::graph::{hipdnn_type, not_this_group, Builder, Failure};
use crate::forward::common::steps::{self, declined, Ready, Step};
use crate::forward::common::Outcome;

/// The plan key of a convolution graph on a MIOpen handle (the only place
/// a convolution's key is made: the legacy calls, fusion plans and Find 2.0
/// share plans).
pub fn plan_key(handle: usize, spec: GraphSpec) -> PlanKey {
    PlanKey::new(handle, spec)
}

/// The plan of a convolution graph (its operations built by [`operations`]).
pub fn ready(config: &Config, key: &Rc<PlanKey>) -> Step<Ready> {
    steps::ready(config, key, operations)
}

/// A Find's plan: the graph under `knobs`, needing at most `cap` workspace
/// bytes. The engine's default plan when it fits; otherwise the plan built
/// with hipDNN's `global.workspace_size_limit` at `cap` (MIOpen's Find keeps
/// to the caller's workspace the same way: it runs no solver needing more).
/// An engine that cannot keep to the limit refuses the configuration and
/// the next one is tried, as for any plan; when none fits the Find is
/// declined with `short(need)`, the caller's words for a workspace short of
/// the default plan's need, and what the limited build said. Returns the
/// plan and the knobs it was built with (what a solution must run with).
pub fn ready_within(
    config: &Config,
    key: &Rc<PlanKey>,
    knobs: Knobs,
    cap: usize,
    short: impl Fn(usize) -> String,
) -> Step<(Ready, Knobs)> {
    // Without knobs the caller's key itself (its per-thread plan slot answers it by pointer).
    let first = if knobs == key.knobs { Rc::clone(key) } else { Rc::new(key.with_knobs(knobs)) };
    let r = ready(config, &first)?;
    if r.plan.workspace <= cap {
        return Ok((r, knobs));
    }
    let need = r.plan.workspace;
    let limited = Knobs { workspace_limit: Some(cap as u64), ..knobs };
    match ready(config, &Rc::new(key.with_knobs(limited))) {
        Ok(r) if r.plan.workspace <= cap => Ok((r, limited)),
        Ok(r) => declined(format!(
            "{}; under global.workspace_size_limit={cap} the plan still needs {}",
            short(need),
            r.plan.workspace
        )),
        Err(Outcome::Failed { why, .. }) => {
            declined(format!("{}; hipDNN refuses global.workspace_size_limit={cap}: {why}", short(need)))
        }
        Err(other) => Err(other),
    }
}

/// The knobs of a Find's plan, as its trace note names them (", knob=value" each).
pub fn knobs_note(k: Knobs) -> String {
    let mut s = String::new();
    if k.benchmarking {
        s.push_str(", global.benchmarking=1");
    }
    if let Some(l) = k.workspace_limit {
        s.push_str(&format!(", global.workspace_size_limit={l}"));
    }
    s
}

/// hipDNN's operation of each direction (in `Direction`'s order) and its
/// x, w, y attributes.
const DIRECTIONS: [(i32, [i32; 3]); 3] = [
    (
        descriptor_type::OPERATION_CONVOLUTION_FORWARD,
        [
            attr::OPERATION_CONVOLUTION_FORWARD_X,
            attr::OPERATION_CONVOLUTION_FORWARD_W,
            attr::OPERATION_CONVOLUTION_FORWARD_Y,
        ],
    ),
    (
        descriptor_type::OPERATION_CONVOLUTION_BACKWARD_DATA,
        [
            attr::OPERATION_CONVOLUTION_BWD_DATA_DX,
            attr::OPERATION_CONVOLUTION_BWD_DATA_W,
            attr::OPERATION_CONVOLUTION_BWD_DATA_DY,
        ],
    ),
    (
        descriptor_type::OPERATION_CONVOLUTION_BACKWARD_FILTER,
        [
            attr::OPERATION_CONVOLUTION_BWD_FILTER_X,
            attr::OPERATION_CONVOLUTION_BWD_FILTER_DW,
            attr::OPERATION_CONVOLUTION_BWD_FILTER_DY,
        ],
    ),
];

/// The convolution's [`crate::forward::common::graph::Operations`].
pub fn operations(b: &mut Builder, key: &dyn GraphKey) -> Result<Vec<Descriptor>, Failure> {
    let Some(g) = key.downcast::<GraphSpec>() else {
        return Err(not_this_group("convolution operations"));
    };
    let x = b.tensor(&g.x)?;
    let w = b.tensor(&g.w)?;
    let y = b.tensor(&g.y)?;
    match &g.fused {
        None => Ok(vec![conv(b, g, x, w, y)?]),
        Some(f) => fused_ops(b, g, f, x, w, y),
    }
}

/// The convolution operation; `y` is the conv output tensor (virtual in
/// a fused graph).
fn conv(b: &mut Builder, g: &GraphSpec, x: Descriptor, w: Descriptor, y: Descriptor) -> Result<Descriptor, Failure> {
    let (ty, names) = DIRECTIONS[g.direction as usize];
    let d = b.create(ty, "create convolution")?;
    let bd = attr_type::BACKEND_DESCRIPTOR;
    b.set(d, attr::CONVOLUTION_COMP_TYPE, attr_type::DATA_TYPE, &[data_type::FLOAT], "conv compute type")?;
    b.set(d, attr::CONVOLUTION_CONV_MODE, attr_type::CONVOLUTION_MODE, &[conv_mode::CROSS_CORRELATION], "conv mode")?;
    b.set(d, attr::CONVOLUTION_DILATIONS, attr_type::INT64, &g.dilations, "conv dilations")?;
    b.set(d, attr::CONVOLUTION_FILTER_STRIDES, attr_type::INT64, &g.filter_strides, "conv strides")?;
    b.set(d, attr::CONVOLUTION_POST_PADDINGS, attr_type::INT64, &g.post_padding, "conv post-padding")?;
    b.set(d, attr::CONVOLUTION_PRE_PADDINGS, attr_type::INT64, &g.pre_padding, "conv pre-padding")?;
    b.set(d, names[0], bd, &[x], "conv x")?;
    b.set(d, names[1], bd, &[w], "conv w")?;
    b.set(d, names[2], bd, &[y], "conv y")?;
    b.finalize(d, "finalize convolution")?;
    Ok(d)
}

fn pointwise(
    b: &mut Builder,
    mode: i32,
    prec: i32,
    inputs: (Descriptor, Option<Descriptor>),
    out: Descriptor,
    clips: (Option<u32>, Option<u32>),
) -> Result<Descriptor, Failure> {
    let d = b.create(descriptor_type::OPERATION_POINTWISE, "create pointwise")?;
    let bd = attr_type::BACKEND_DESCRIPTOR;
    b.set(d, attr::POINTWISE_MODE, attr_type::POINTWISE_MODE, &[mode], "pointwise mode")?;
    b.set(d, attr::POINTWISE_MATH_PREC, attr_type::DATA_TYPE, &[prec], "pointwise precision")?;
    if let Some(lower) = clips.0 {
        b.set(d, attr::POINTWISE_RELU_LOWER_CLIP, attr_type::FLOAT, &[f32::from_bits(lower)], "relu lower clip")?;
    }
    if let Some(upper) = clips.1 {
        b.set(d, attr::POINTWISE_RELU_UPPER_CLIP, attr_type::FLOAT, &[f32::from_bits(upper)], "relu upper clip")?;
    }
    b.set(d, attr::OPERATION_POINTWISE_IN_0_EXT, bd, &[inputs.0], "pointwise in0")?;
    if let Some(in1) = inputs.1 {
        b.set(d, attr::OPERATION_POINTWISE_IN_1_EXT, bd, &[in1], "pointwise in1")?;
    }
    b.set(d, attr::OPERATION_POINTWISE_OUT_0_EXT, bd, &[out], "pointwise out")?;
    b.finalize(d, "finalize pointwise")?;
    Ok(d)
}

/// conv -> [ADD bias] -> RELU_FWD, the graph hipDNN's fused conv engines take.
fn fused_ops(
    b: &mut Builder,
    g: &GraphSpec,
    f: &FusedSpec,
    x: Descriptor,
    w: Descriptor,
    y: Descriptor,
) -> Result<Vec<Descriptor>, Failure> {
    let conv_out = b.tensor(&f.conv_out)?;
    let mut ops = vec![conv(b, g, x, w, conv_out)?];
    let mut relu_in = conv_out;
    if let Some((bias, add_out)) = &f.bias {
        let bias_t = b.tensor(bias)?;
        let a = b.tensor(add_out)?;
        ops.push(pointwise(
            b,
            pointwise_mode::ADD,
            hipdnn_type(bias.dtype),
            (conv_out, Some(bias_t)),
            a,
            (None, None),
        )?);
        relu_in = a;
    }
    let clips = (f.lower_clip, f.upper_clip);
    ops.push(pointwise(b, pointwise_mode::RELU_FWD, data_type::FLOAT, (relu_in, None), y, clips)?);
    Ok(ops)
}
