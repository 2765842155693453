//! The handler of `miopenBatchNormalizationForwardInference(_V2)`.
//!
//! Argument parity first: what MIOpen rejects or computes another way
//! (alpha/beta other than 1/0, a null buffer, a null estimate, which makes
//! MIOpen compute the batch's own statistics) is declined, so MIOpen
//! Private answers it. Then the descriptors are translated and the plan
//! built or reused and run on the caller's buffers; the provider's plan
//! needs no workspace, and MIOpen's inference takes none, so a plan that
//! needs one is declined.

use std::cell::RefCell;
use std::ffi::c_void;
use std::rc::Rc;
use std::thread::LocalKey;

use miopen_forwarding_core::batchnorm::{self, uid};
use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::Config;

use super::graph;
use super::read;
use crate::forward::common::graph::{self as common_graph, Operations, DATA_ALIGNMENT};
use crate::forward::common::memo::{DescriptorMemo, Seen};
use crate::forward::common::steps::{self, declined, failed, flatten, misaligned, success, Step};
use crate::forward::common::{read as common_read, Outcome, Workspace};
use crate::forward::miopen_sys::args;
use miopen_forwarding_core::print::G;

/// An inference call's arguments (the legacy call's are converted to `_V2`).
pub type Inference = args::miopenBatchNormalizationForwardInference_V2;

/// The buffers in variant-pack order (the graph's uids, [`UIDS`]).
fn buffers(c: &Inference) -> [*mut c_void; 6] {
    [c.x, c.estimatedMean, c.estimatedVariance, c.bnScale, c.bnBias, c.y].map(|p| p as *mut c_void)
}

const UIDS: [i64; 6] = [uid::X, uid::MEAN, uid::VARIANCE, uid::SCALE, uid::BIAS, uid::Y];
const NAMES: [&str; 6] = ["x", "estimatedMean", "estimatedVariance", "bnScale", "bnBias", "y"];

/// What MIOpen checks of the arguments that hipDNN does not, or computes
/// differently: each is left to MIOpen Private.
fn parity(c: &Inference, buffers: &[*mut c_void; 6]) -> Step<()> {
    let a = common_read::scale(c.alpha, "alpha").or_else(declined)?;
    let b = common_read::scale(c.beta, "beta").or_else(declined)?;
    if a != 1.0 || b != 0.0 {
        return declined(format!(
            "alpha={}, beta={} (MIOpen's inference takes only 1 and 0; MIOpen decides)",
            G(a.into()),
            G(b.into())
        ));
    }
    if c.estimatedMean.is_null() || c.estimatedVariance.is_null() {
        return declined(
            "estimatedMean or estimatedVariance is null (MIOpen computes the batch's statistics: a training pass)",
        );
    }
    buffers_usable(buffers, &NAMES)
}

/// Every buffer the graph binds is non-null (else MIOpen decides) and
/// 16-byte aligned (hipDNN's tensors require it).
pub(super) fn buffers_usable(ptrs: &[*mut c_void], names: &[&str]) -> Step<()> {
    // One pass for the common case: none null, all aligned.
    let (null, bits) = ptrs.iter().fold((false, 0usize), |(n, b), &p| (n | p.is_null(), b | p as usize));
    if null {
        return declined("a data pointer is null (MIOpen decides)");
    }
    if bits.is_multiple_of(DATA_ALIGNMENT) {
        return Ok(());
    }
    match ptrs.iter().zip(names).find_map(|(&p, name)| misaligned(p, name)) {
        Some(why) => declined(why),
        None => Ok(()),
    }
}

/// The plan of `key` (built or reused), run on `ptrs` with no workspace:
/// the provider's batchnorm plans need none and MIOpen's batchnorm takes
/// none, so a plan that needs one is declined.
pub(super) fn run_plan(
    config: &Config,
    key: &Rc<PlanKey>,
    ops: Operations,
    uids: &[i64],
    ptrs: &[*mut c_void],
) -> Step<Outcome> {
    let r = steps::ready(config, key, ops)?;
    let none = Workspace { ptr: std::ptr::null_mut(), size: 0 };
    r.fits(&none)?;
    common_graph::execute(&r.plan, r.hd, uids, ptrs, none.ptr).map_err(failed)?;
    Ok(success(r.note()))
}

/// What a call's descriptors translated to: the plan key, or the decline.
pub(super) type Answer = Result<Rc<PlanKey>, String>;

thread_local! {
    /// This thread's memory of its problems (`common::memo`): a call whose
    /// six descriptors are unchanged since they were read, on the same
    /// handle and mode, gets its answer without reading them.
    static KNOWN: RefCell<DescriptorMemo<6, Answer>> = RefCell::new(DescriptorMemo::default());
}

/// The plan key of the call's problem (MIOpen handle, hipDNN graph), or why not.
fn plan_key(c: &Inference) -> Step<Rc<PlanKey>> {
    let descriptors = [c.xDesc, c.yDesc, c.scaleDesc, c.biasDesc, c.estMeanDesc, c.estVarianceDesc].map(|p| p as usize);
    let seen = Seen::now(c.handle as usize, c.bn_mode, descriptors);
    let known = KNOWN.with(|m| m.borrow().get(&seen).cloned()).filter(|a| same_epsilon(a, c.epsilon));
    let answer = known.unwrap_or_else(|| {
        let taken = seen.take();
        let a = read_and_translate(c);
        KNOWN.with(|m| m.borrow_mut().put(taken, a.clone()));
        a
    });
    answer.or_else(declined)
}

/// Epsilon is an argument, not a descriptor: a remembered key serves only
/// the same double; a decline never depends on it.
fn same_epsilon(a: &Answer, epsilon: f64) -> bool {
    match a {
        Ok(key) => key.graph::<batchnorm::GraphSpec>().is_some_and(|g| g.epsilon_bits == epsilon.to_bits()),
        Err(_) => true,
    }
}

fn read_and_translate(c: &Inference) -> Answer {
    let p = read::problem(c)?;
    let spec = batchnorm::translate(&p).map_err(|d| d.0)?;
    Ok(Rc::new(PlanKey::new(c.handle as usize, spec)))
}

/// What a training or backward call's descriptors translated to, with the
/// epsilon it was translated with: the plan key, or the decline.
pub(super) type EpsilonAnswer = (u64, Answer);

/// A thread's memory of one pass's problems (`common::memo`).
pub(super) type EpsilonMemo<const N: usize> = LocalKey<RefCell<DescriptorMemo<N, EpsilonAnswer>>>;

/// The plan key of a call whose descriptors are `seen`: remembered when
/// none of them changed and the epsilon is the same double (an argument,
/// not a descriptor: the key has its bits, and a decline may depend on it),
/// else `read_and_translate`'s, remembered.
pub(super) fn remembered<const N: usize>(
    memo: &'static EpsilonMemo<N>,
    seen: Seen<N>,
    epsilon: f64,
    read_and_translate: impl FnOnce() -> Answer,
) -> Step<Rc<PlanKey>> {
    let bits = epsilon.to_bits();
    let known = memo.with(|m| m.borrow().get(&seen).filter(|(b, _)| *b == bits).map(|(_, a)| a.clone()));
    let answer = known.unwrap_or_else(|| {
        let taken = seen.take();
        let a = read_and_translate();
        memo.with(|m| m.borrow_mut().put(taken, (bits, a.clone())));
        a
    });
    answer.or_else(declined)
}

/// `miopenBatchNormalizationForwardInference(_V2)`.
pub fn inference(config: &Config, c: &Inference) -> Outcome {
    flatten((|| {
        let buffers = buffers(c);
        parity(c, &buffers)?;
        let key = plan_key(c)?;
        run_plan(config, &key, graph::operations, &UIDS, &buffers)
    })())
}

#[cfg(test)]
mod tests {
    use super::*;
    use miopen_forwarding_core::batchnorm::{miopen_bn_mode, miopen_type, Problem, Tensor};

    fn key(epsilon: f64) -> Answer {
        let t = |dims: Vec<i64>, strides| Tensor { dtype: miopen_type::FLOAT, dims, strides };
        let x = t(vec![1, 2, 2, 2], vec![8, 4, 2, 1]);
        let p = t(vec![1, 2, 1, 1], vec![2, 1, 1, 1]);
        let problem = Problem {
            mode: miopen_bn_mode::SPATIAL,
            x: x.clone(),
            y: x,
            scale: p.clone(),
            bias: p.clone(),
            mean: p.clone(),
            variance: p,
            epsilon,
        };
        let spec = batchnorm::translate(&problem).unwrap();
        Ok(Rc::new(PlanKey::new(1, spec)))
    }

    #[test]
    fn a_remembered_key_serves_only_its_own_epsilon() {
        assert!(same_epsilon(&key(1e-5), 1e-5));
        assert!(!same_epsilon(&key(1e-5), 1e-3));
        // The next double up is another epsilon (its bits are the key).
        assert!(!same_epsilon(&key(1e-5), f64::from_bits(1e-5f64.to_bits() + 1)));
        assert!(same_epsilon(&Err("a decline".into()), 0.5));
    }
}
