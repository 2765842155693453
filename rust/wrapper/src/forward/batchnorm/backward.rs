//! The handler of `miopenBatchNormalizationBackward(_V2)`.
//!
//! Argument parity first, as MIOpen's `BatchNormBackward`
//! (`src/ocl/batchnormocl.cpp`): a null x, dy, scale or dx and any of the
//! four scaling factors other than 1/0 are MIOpen's to reject; a null
//! dscale or dbias buffer is left to MIOpen too (hipDNN's operation writes
//! both). The saved mean and inverse variance are used when both are
//! given, MIOpen's own condition; otherwise the statistics are recomputed,
//! which hipDNN can express only for its fixed epsilon (`backward::translate`).

use std::ffi::c_void;
use std::rc::Rc;

use miopen_forwarding_core::batchnorm::{backward, uid};
use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::Config;

use super::graph;
use super::handlers::{buffers_usable, no_driver_line, run_plan};
use super::read;
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

/// The graph's buffers, uids and names, in variant-pack order.
fn bindings(c: &Backward) -> (Vec<*mut c_void>, Vec<i64>, Vec<&'static str>) {
    let mut ptrs = vec![c.x, c.dy, c.dx as *const c_void, c.bnScale, c.resultBnScaleDiff, c.resultBnBiasDiff];
    let mut uids = vec![uid::X, uid::DY, uid::DX, uid::SCALE, uid::DSCALE, uid::DBIAS];
    let mut names = vec!["x", "dy", "dx", "bnScale", "resultBnScaleDiff", "resultBnBiasDiff"];
    if uses_saved(c) {
        ptrs.extend([c.savedMean, c.savedInvVariance]);
        uids.extend([uid::MEAN, uid::INV_VARIANCE]);
        names.extend(["savedMean", "savedInvVariance"]);
    }
    (ptrs.into_iter().map(|p| p as *mut c_void).collect(), uids, names)
}

fn parity(config: &Config, c: &Backward) -> Step<()> {
    no_driver_line(config)?;
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
    let (ptrs, _, names) = bindings(c);
    buffers_usable(&ptrs, &names)
}

fn plan_key(c: &Backward) -> Step<Rc<PlanKey>> {
    let p = read::backward(c, uses_saved(c)).or_else(declined)?;
    let spec = backward::translate(&p).map_err(|d| Outcome::Declined(d.0))?;
    Ok(Rc::new(PlanKey::new(c.handle as usize, spec)))
}

/// `miopenBatchNormalizationBackward(_V2)`.
pub fn backward(config: &Config, c: &Backward) -> Outcome {
    flatten((|| {
        parity(config, c)?;
        let key = plan_key(c)?;
        let (ptrs, uids, _) = bindings(c);
        run_plan(config, &key, graph::backward_operations, &uids, &ptrs)
    })())
}
