//! The fusion group's batchnorm inference -> activation plan on hipDNN
//! (`miopen_forwarding_core::batchnorm::fused`): this group's inference
//! operation with its y virtual, then a pointwise RELU_FWD (math precision
//! FLOAT, the clips when the activation has them) from that y to the plan's
//! output, the two nodes of the MIOpen provider's fused graph
//! (`MiopenBatchnormPlanBuilder.cpp` @86387662). The fusion group's handlers
//! record the plan and call these; the buffers are the plan's input and
//! output and the batchnorm operator's arguments.

use std::ffi::c_void;
use std::rc::Rc;

use hipdnn_backend::abi::{attr, attr_type, data_type, descriptor_type, pointwise_mode, Descriptor};
use miopen_forwarding_core::batchnorm::fused::{GraphSpecActivation, INFERENCE_ACTIVATION_PLAN as PLAN, OUT};
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
    let Some(g) = key.downcast::<GraphSpecActivation>() else {
        return Err(not_this_group("batchnorm inference + activation operations"));
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

/// A plan of this graph reaches hipDNN only where a batchnorm inference
/// call would: the build forwards the batchnorm group's inference and the
/// configuration routes it to hipDNN (not opted out). And not while
/// MIOpen's switch for its fused solver is off: MIOpen compiles no such
/// plan then, so the plan stays on MIOpen Private and fails as it does there.
pub fn forwarded(config: &Config) -> Step<()> {
    const INFERENCE: Family = Family::named("bn_fwd_inference");
    static BUILT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let built = *BUILT.get_or_init(|| entry_points::all().iter().any(|e| e.forward == Some(INFERENCE)));
    if !built {
        return declined(
            "operators batchnorm inference -> activation (the build does not forward the batchnorm group)",
        );
    }
    if routing::decide(config, Some(INFERENCE)).route != Route::Hipdnn {
        return declined(
            "operators batchnorm inference -> activation (family bn_fwd_inference routes to MIOpen Private in this process)",
        );
    }
    if let Some(why) = config.env.plan_decline_reason(PLAN) {
        return declined(why);
    }
    Ok(())
}

/// The plan key of the graph on MIOpen handle `handle`.
pub fn plan_key(handle: usize, g: GraphSpecActivation) -> PlanKey {
    PlanKey::new(handle, g)
}

/// Whether a plan key is this graph's.
pub fn is_key(key: &PlanKey) -> bool {
    key.is::<GraphSpecActivation>()
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
