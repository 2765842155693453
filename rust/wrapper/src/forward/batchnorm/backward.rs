//! The handler of `miopenBatchNormalizationBackward(_V2)`.
//!
//! Argument parity first, as MIOpen's `BatchNormBackward`
//! (`src/ocl/batchnormocl.cpp`): a null x, dy, scale or dx and any of the
//! four scaling factors other than 1/0 are MIOpen's to reject; a null
//! dscale or dbias buffer is left to MIOpen too (hipDNN's operation writes
//! both). The saved mean and inverse variance are used when both are
//! given, MIOpen's own condition; otherwise the statistics are recomputed,
//! which hipDNN can express only for its fixed epsilon (`backward::translate`).

use std::cell::RefCell;
use std::ffi::c_void;
use std::rc::Rc;

use miopen_forwarding_core::batchnorm::{backward, uid};
use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::Config;

use super::graph;
use super::handlers::{buffers_usable, remembered, run_plan, EpsilonAnswer};
use super::read;
use crate::forward::common::memo::{DescriptorMemo, Seen};
use crate::forward::common::steps::{declined, flatten, Step};
use crate::forward::common::{read as common_read, Outcome};
use crate::forward::miopen_sys::args;
use miopen_forwarding_core::print::G;

/// A backward call's arguments (the legacy call's are converted to `_V2`).
pub type Backward = args::miopenBatchNormalizationBackward_V2;

const SCALE_NAMES: [&str; 4] = ["alphaDataDiff", "betaDataDiff", "alphaParamDiff", "betaParamDiff"];

/// MIOpen uses the saved statistics only when both are given.
fn uses_saved(c: &Backward) -> bool {
    !c.savedMean.is_null() && !c.savedInvVariance.is_null()
}

/// The graph's uids and names, in variant-pack order: the first six
/// always, the saved statistics when MIOpen uses them.
const UIDS: [i64; 8] = [uid::X, uid::DY, uid::DX, uid::SCALE, uid::DSCALE, uid::DBIAS, uid::MEAN, uid::INV_VARIANCE];
const NAMES: [&str; 8] =
    ["x", "dy", "dx", "bnScale", "resultBnScaleDiff", "resultBnBiasDiff", "savedMean", "savedInvVariance"];

/// The graph's buffers in [`UIDS`]' order, and how many it binds.
fn buffers(c: &Backward) -> ([*mut c_void; 8], usize) {
    let all = [
        c.x,
        c.dy,
        c.dx as *const c_void,
        c.bnScale,
        c.resultBnScaleDiff,
        c.resultBnBiasDiff,
        c.savedMean,
        c.savedInvVariance,
    ]
    .map(|p| p as *mut c_void);
    (all, if uses_saved(c) { 8 } else { 6 })
}

fn parity(c: &Backward) -> Step<()> {
    if [c.x, c.dy, c.bnScale, c.dx as *const c_void].iter().any(|p| p.is_null()) {
        return declined("x, dy, bnScale or dx is null (MIOpen decides)");
    }
    let scales = [c.alphaDataDiff, c.betaDataDiff, c.alphaParamDiff, c.betaParamDiff];
    for (p, name) in scales.iter().zip(SCALE_NAMES) {
        let v = common_read::scale(*p, name).or_else(declined)?;
        let want = if name.starts_with("alpha") { 1.0 } else { 0.0 };
        if v != want {
            return declined(format!(
                "{name}={} (MIOpen's backward takes only alpha 1 and beta 0; MIOpen decides)",
                G(v.into())
            ));
        }
    }
    let (ptrs, n) = buffers(c);
    buffers_usable(&ptrs[..n], &NAMES[..n])
}

thread_local! {
    /// This thread's memory of its backward problems (`handlers::remembered`).
    static KNOWN: RefCell<DescriptorMemo<7, EpsilonAnswer>> = RefCell::new(DescriptorMemo::default());
}

fn plan_key(c: &Backward) -> Step<Rc<PlanKey>> {
    let descriptors =
        [c.xDesc, c.dyDesc, c.dxDesc, c.scaleDesc, c.biasDesc, c.savedMeanDesc, c.savedVarDesc].map(|d| d as usize);
    let seen = Seen::now(c.handle as usize, c.bn_mode | u32::from(uses_saved(c)) << 16, descriptors);
    remembered(&KNOWN, seen, c.epsilon, || {
        let p = read::backward(c, uses_saved(c))?;
        let spec = backward::translate(&p).map_err(|d| d.0)?;
        Ok(Rc::new(PlanKey::new(c.handle as usize, spec)))
    })
}

/// `miopenBatchNormalizationBackward(_V2)`.
pub fn backward(config: &Config, c: &Backward) -> Outcome {
    flatten((|| {
        parity(c)?;
        let key = plan_key(c)?;
        let (ptrs, n) = buffers(c);
        run_plan(config, &key, graph::backward_operations, &UIDS[..n], &ptrs[..n])
    })())
}
