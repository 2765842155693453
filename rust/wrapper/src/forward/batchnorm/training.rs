//! The handler of `miopenBatchNormalizationForwardTraining(_V2)`.
//!
//! Argument parity first, in MIOpen's order (`BatchNormForwardTraining`,
//! `src/ocl/batchnormocl.cpp`): a null x, y, scale or bias and alpha/beta
//! other than 1/0 are MIOpen's to reject. Running statistics are declined:
//! hipDNN's MIOpen provider's training computes batch statistics only (its
//! operation table). The saved mean and inverse variance are written when
//! both buffers are given, MIOpen's own condition, and are then graph outputs.

use std::cell::RefCell;
use std::ffi::c_void;
use std::rc::Rc;

use miopen_forwarding_core::batchnorm::{training, uid};
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

/// A training call's arguments (the legacy call's are converted to `_V2`;
/// `expAvgFactor` only weighs running statistics, which are declined).
pub type Training = args::miopenBatchNormalizationForwardTraining_V2;

/// MIOpen saves the batch statistics only when both buffers are given.
fn saves(c: &Training) -> bool {
    !c.resultSaveMean.is_null() && !c.resultSaveInvVariance.is_null()
}

/// The graph's uids and names (for the trace), in variant-pack order: the
/// first four always, the saved statistics when MIOpen saves them.
const UIDS: [i64; 6] = [uid::X, uid::Y, uid::SCALE, uid::BIAS, uid::MEAN, uid::INV_VARIANCE];
const NAMES: [&str; 6] = ["x", "y", "bnScale", "bnBias", "resultSaveMean", "resultSaveInvVariance"];

/// The graph's buffers in [`UIDS`]' order, and how many it binds.
fn buffers(c: &Training) -> ([*mut c_void; 6], usize) {
    let all = [c.x as *mut c_void, c.y, c.bnScale, c.bnBias, c.resultSaveMean, c.resultSaveInvVariance];
    (all, if saves(c) { 6 } else { 4 })
}

fn parity(c: &Training) -> Step<()> {
    if [c.x, c.y as *const c_void, c.bnScale, c.bnBias].iter().any(|p| p.is_null()) {
        return declined("x, y, bnScale or bnBias is null (MIOpen decides)");
    }
    let a = common_read::scale(c.alpha, "alpha").or_else(declined)?;
    let b = common_read::scale(c.beta, "beta").or_else(declined)?;
    if a != 1.0 || b != 0.0 {
        return declined(format!(
            "alpha={}, beta={} (MIOpen's training takes only 1 and 0; MIOpen decides)",
            G(a.into()),
            G(b.into())
        ));
    }
    if !c.resultRunningMean.is_null() || !c.resultRunningVariance.is_null() {
        return declined(
            "resultRunningMean or resultRunningVariance is given (running statistics: hipDNN's MIOpen provider's \
             training computes batch statistics only)",
        );
    }
    let (ptrs, n) = buffers(c);
    buffers_usable(&ptrs[..n], &NAMES[..n])
}

thread_local! {
    /// This thread's memory of its training problems (`handlers::remembered`).
    static KNOWN: RefCell<DescriptorMemo<6, EpsilonAnswer>> = RefCell::new(DescriptorMemo::default());
}

fn plan_key(c: &Training) -> Step<Rc<PlanKey>> {
    let descriptors =
        [c.xDesc, c.yDesc, c.scaleDesc, c.biasVarDesc, c.savedMeanDesc, c.savedVarDesc].map(|d| d as usize);
    let seen = Seen::now(c.handle as usize, c.bn_mode | u32::from(saves(c)) << 16, descriptors);
    remembered(&KNOWN, seen, c.epsilon, || {
        let p = read::training(c, saves(c))?;
        let spec = training::translate(&p).map_err(|d| d.0)?;
        Ok(Rc::new(PlanKey::new(c.handle as usize, spec)))
    })
}

/// `miopenBatchNormalizationForwardTraining(_V2)`.
pub fn training(config: &Config, c: &Training) -> Outcome {
    flatten((|| {
        parity(c)?;
        let key = plan_key(c)?;
        let (ptrs, n) = buffers(c);
        run_plan(config, &key, graph::training_operations, &UIDS[..n], &ptrs[..n])
    })())
}
