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
use super::read::{self, PassDescriptors};
use crate::forward::common::steps::{declined, flatten, Step};
use crate::forward::common::{read as common_read, Outcome};
use crate::forward::miopen_sys as sys;

/// One backward call's arguments, in `_V2` naming.
pub struct Backward {
    pub config: &'static Config,
    pub handle: sys::miopenHandle_t,
    pub mode: u32,
    pub scales: [*const c_void; 4],
    pub d: PassDescriptors,
    pub x: *const c_void,
    pub dy: *const c_void,
    pub dx: *mut c_void,
    pub scale: *const c_void,
    pub dscale: *mut c_void,
    pub dbias: *mut c_void,
    pub epsilon: f64,
    pub saved_mean: *const c_void,
    pub saved_inv_variance: *const c_void,
}

const SCALE_NAMES: [&str; 4] = ["alphaDataDiff", "betaDataDiff", "alphaParamDiff", "betaParamDiff"];

impl Backward {
    /// MIOpen uses the saved statistics only when both are given.
    fn uses_saved(&self) -> bool {
        !self.saved_mean.is_null() && !self.saved_inv_variance.is_null()
    }

    /// The graph's buffers, uids and names, in variant-pack order.
    fn bindings(&self) -> (Vec<*mut c_void>, Vec<i64>, Vec<&'static str>) {
        let mut ptrs = vec![self.x, self.dy, self.dx as *const c_void, self.scale, self.dscale, self.dbias];
        let mut uids = vec![uid::X, uid::DY, uid::DX, uid::SCALE, uid::DSCALE, uid::DBIAS];
        let mut names = vec!["x", "dy", "dx", "bnScale", "resultBnScaleDiff", "resultBnBiasDiff"];
        if self.uses_saved() {
            ptrs.extend([self.saved_mean, self.saved_inv_variance]);
            uids.extend([uid::MEAN, uid::INV_VARIANCE]);
            names.extend(["savedMean", "savedInvVariance"]);
        }
        (ptrs.into_iter().map(|p| p as *mut c_void).collect(), uids, names)
    }
}

fn parity(c: &Backward) -> Step<()> {
    no_driver_line(c.config)?;
    if [c.x, c.dy, c.scale, c.dx as *const c_void].iter().any(|p| p.is_null()) {
        return declined("x, dy, bnScale or dx is null (MIOpen decides)");
    }
    for (p, name) in c.scales.iter().zip(SCALE_NAMES) {
        let v = common_read::scale(*p, name).or_else(declined)?;
        let want = if name.starts_with("alpha") { 1.0 } else { 0.0 };
        if v != want {
            return declined(format!("{name}={v} (MIOpen's backward takes only alpha 1 and beta 0; MIOpen decides)"));
        }
    }
    let (ptrs, _, names) = c.bindings();
    buffers_usable(&ptrs, &names)
}

fn plan_key(c: &Backward) -> Step<Rc<PlanKey>> {
    let p = read::backward(c.mode, &c.d, c.epsilon, c.uses_saved()).or_else(declined)?;
    let spec = backward::translate(&p).map_err(|d| Outcome::Declined(d.0))?;
    Ok(Rc::new(PlanKey::new(c.handle as usize, spec)))
}

/// `miopenBatchNormalizationBackward(_V2)`.
pub fn backward(c: &Backward) -> Outcome {
    flatten((|| {
        parity(c)?;
        let key = plan_key(c)?;
        let (ptrs, uids, _) = c.bindings();
        run_plan(c.config, &key, graph::backward_operations, &uids, &ptrs)
    })())
}
