//! The handler of `miopenBatchNormalizationForwardTraining(_V2)`.
//!
//! Argument parity first, in MIOpen's order (`BatchNormForwardTraining`,
//! `src/ocl/batchnormocl.cpp`): a null x, y, scale or bias and alpha/beta
//! other than 1/0 are MIOpen's to reject. Running statistics are declined:
//! hipDNN's MIOpen provider's training computes batch statistics only (its
//! operation table). The saved mean and inverse variance are written when
//! both buffers are given, MIOpen's own condition, and are then graph outputs.

use std::ffi::c_void;
use std::rc::Rc;

use miopen_forwarding_core::batchnorm::{training, uid};
use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::Config;

use super::graph;
use super::handlers::{buffers_usable, no_driver_line, run_plan};
use super::read::{self, PassDescriptors};
use crate::forward::common::steps::{declined, flatten, Step};
use crate::forward::common::{read as common_read, Outcome};
use crate::forward::miopen_sys as sys;

/// One training call's arguments, in `_V2` naming.
pub struct Training {
    pub config: &'static Config,
    pub handle: sys::miopenHandle_t,
    pub mode: u32,
    pub alpha: *const c_void,
    pub beta: *const c_void,
    pub d: PassDescriptors,
    pub x: *const c_void,
    pub y: *mut c_void,
    pub scale: *const c_void,
    pub bias: *const c_void,
    pub running_mean: *const c_void,
    pub running_variance: *const c_void,
    pub epsilon: f64,
    pub saved_mean: *mut c_void,
    pub saved_inv_variance: *mut c_void,
}

impl Training {
    /// MIOpen saves the batch statistics only when both buffers are given.
    fn saves(&self) -> bool {
        !self.saved_mean.is_null() && !self.saved_inv_variance.is_null()
    }

    /// The graph's buffers, uids and names (for the trace), in variant-pack order.
    fn bindings(&self) -> (Vec<*mut c_void>, Vec<i64>, Vec<&'static str>) {
        let mut ptrs = vec![self.x as *mut c_void, self.y, self.scale as *mut c_void, self.bias as *mut c_void];
        let mut uids = vec![uid::X, uid::Y, uid::SCALE, uid::BIAS];
        let mut names = vec!["x", "y", "bnScale", "bnBias"];
        if self.saves() {
            ptrs.extend([self.saved_mean, self.saved_inv_variance]);
            uids.extend([uid::MEAN, uid::INV_VARIANCE]);
            names.extend(["resultSaveMean", "resultSaveInvVariance"]);
        }
        (ptrs, uids, names)
    }
}

fn parity(c: &Training) -> Step<()> {
    no_driver_line(c.config)?;
    if [c.x, c.y as *const c_void, c.scale, c.bias].iter().any(|p| p.is_null()) {
        return declined("x, y, bnScale or bnBias is null (MIOpen decides)");
    }
    let a = common_read::scale(c.alpha, "alpha").or_else(declined)?;
    let b = common_read::scale(c.beta, "beta").or_else(declined)?;
    if a != 1.0 || b != 0.0 {
        return declined(format!("alpha={a}, beta={b} (MIOpen's training takes only 1 and 0; MIOpen decides)"));
    }
    if !c.running_mean.is_null() || !c.running_variance.is_null() {
        return declined(
            "resultRunningMean or resultRunningVariance is given (running statistics: hipDNN's MIOpen provider's \
             training computes batch statistics only)",
        );
    }
    let (ptrs, _, names) = c.bindings();
    buffers_usable(&ptrs, &names)
}

fn plan_key(c: &Training) -> Step<Rc<PlanKey>> {
    let p = read::training(c.mode, &c.d, c.epsilon, c.saves()).or_else(declined)?;
    let spec = training::translate(&p).map_err(|d| Outcome::Declined(d.0))?;
    Ok(Rc::new(PlanKey::new(c.handle as usize, spec)))
}

/// `miopenBatchNormalizationForwardTraining(_V2)`.
pub fn training(c: &Training) -> Outcome {
    flatten((|| {
        parity(c)?;
        let key = plan_key(c)?;
        let (ptrs, uids, _) = c.bindings();
        run_plan(c.config, &key, graph::training_operations, &uids, &ptrs)
    })())
}
