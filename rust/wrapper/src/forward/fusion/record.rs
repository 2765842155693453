//! The fusion plans the wrapper saw built, and the operator arguments set
//! for them: MIOpen has no getter for a plan's operators, so every
//! construction call is observed after MIOpen Private accepted it (the
//! forwarding table's `FusionRecord` hooks) and its descriptors are read
//! then, as MIOpen copies them then. Nothing is recorded while the family
//! cannot be forwarded, or for a call MIOpen rejected.
#![allow(non_snake_case)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use miopen_forwarding_core::sync::Mutex;

use miopen_forwarding_core::fusion::{group, ActivationArgs, Graph, Op, Plan};
use miopen_forwarding_core::routing::{self, Route};
use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::{Config, Family};

use crate::diagnostics;
use crate::entry_points;
use crate::forward::common::read;
use crate::forward::common::revised::{self, RevisedMemo, Revision};
use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::read::conv as conv_params;

/// What a plan was compiled to.
#[derive(Debug, Clone, PartialEq)]
pub enum Compiled {
    /// Not compiled (or changed since).
    No,
    /// `miopenCompileFusionPlan` was declined (the cause): MIOpen Private compiled it.
    Private(String),
    /// Compiled for hipDNN, with the graph it was compiled with.
    Hipdnn(Box<Graph>),
}

/// One recorded plan.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub plan: Plan,
    /// The operators' handles, in plan order.
    pub ops: Vec<usize>,
    pub compiled: Compiled,
    /// MIOpen Private compiled the plan too (after a decline at execute).
    pub private_compiled: bool,
    /// Changes with every change of this record (and is never reused by
    /// another plan at the same address): what an execute derived from the
    /// record holds while this does ([`execute_view`]).
    pub revision: u64,
}

/// What an execute needs of a plan's record on every call, without a copy
/// of the plan: its revision, whether it was compiled for hipDNN (else the
/// decline), and each operator's kind with the arguments set for it.
pub struct ExecuteView {
    pub revision: u64,
    pub compiled: Result<(), String>,
    pub args: Vec<(OpKind, Option<Arg>)>,
}

/// An operator's kind, as far as an execute's arguments go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OpKind {
    Conv,
    Bias,
    Activation,
    BatchNorm,
    Other,
}

static REVISIONS: AtomicU64 = AtomicU64::new(1);

fn next_revision() -> u64 {
    REVISIONS.fetch_add(1, Ordering::Relaxed)
}

/// One operator's arguments (`miopenSetOpArgs*`). Small: an execute's view
/// holds one per operator, and a convolution plan's steady execute pays for
/// every byte of it (`bench_steady_instructions`), so a larger operator's
/// arguments are boxed.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Conv {
        w: usize,
    },
    Bias {
        bias: usize,
    },
    Activation(ActivationArgs),
    /// `miopenSetOpArgsBatchNormInference` or `…Backward`: the operator's
    /// buffers (its alpha and beta are ignored by MIOpen's fused kernels).
    BatchNorm(Box<BatchNormArgs>),
}

/// A batchnorm operator's arguments (the batchnorm group's, which runs them).
pub use crate::forward::batchnorm::fused::Args as BatchNormArgs;

#[derive(Default)]
struct Book {
    plans: HashMap<usize, Recorded>,
    /// Operator-arguments handle -> operator handle -> arguments.
    args: HashMap<usize, HashMap<usize, Arg>>,
}

static BOOK: Mutex<Option<Book>> = Mutex::new(None);
/// Advanced by every change to the book: an execute whose view the thread
/// already took takes no lock ([`execute_view`]).
static CHANGES: Revision = Revision::new();

thread_local! {
    /// Keyed by [plan, operator arguments].
    static VIEWS: RefCell<RevisedMemo<2, Option<Rc<ExecuteView>>>> = RefCell::new(RevisedMemo::default());
}

fn with<R>(f: impl FnOnce(&mut Book) -> R) -> R {
    let mut guard = BOOK.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Book::default))
}

/// A change to the book: the revision moves under the lock.
fn change<R>(f: impl FnOnce(&mut Book) -> R) -> R {
    with(|b| {
        CHANGES.advance();
        f(b)
    })
}

/// A recorded plan, as it is now.
pub fn plan(p: usize) -> Option<Recorded> {
    with(|b| b.plans.get(&p).cloned())
}

pub fn set_compiled(p: usize, c: Compiled) {
    change(|b| {
        if let Some(r) = b.plans.get_mut(&p) {
            r.compiled = c;
            r.revision = next_revision();
        }
    });
}

/// A plan's [`ExecuteView`] with the arguments set on `args`; None for a
/// plan the wrapper did not see created. Remembered by the thread while the
/// book is unchanged.
pub fn execute_view(p: usize, args: usize) -> Option<Rc<ExecuteView>> {
    revised::answer(&VIEWS, &CHANGES, [p, args], || look_up_view(p, args).map(Rc::new), Option::clone)
}

fn look_up_view(p: usize, args: usize) -> Option<ExecuteView> {
    with(|b| {
        let r = b.plans.get(&p)?;
        let compiled = match &r.compiled {
            Compiled::Hipdnn(_) => Ok(()),
            Compiled::Private(why) => Err(format!("the plan was compiled on MIOpen Private ({why})")),
            Compiled::No => Err("the plan is not compiled (MIOpen decides)".to_string()),
        };
        let set = b.args.get(&args);
        let kinds = r.plan.ops.iter().map(|o| match o {
            Op::Conv { .. } => OpKind::Conv,
            Op::Bias { .. } => OpKind::Bias,
            Op::Activation { .. } | Op::ActivationBackward { .. } => OpKind::Activation,
            Op::BatchNormInference { .. } | Op::BatchNormBackward { .. } => OpKind::BatchNorm,
            _ => OpKind::Other,
        });
        let args = kinds.zip(&r.ops).map(|(k, op)| (k, set.and_then(|s| s.get(op)).cloned())).collect();
        Some(ExecuteView { revision: r.revision, compiled, args })
    })
}

/// A plan compiled for hipDNN (and on MIOpen Private too, or not yet).
pub fn compiled_for_hipdnn(p: usize, spec: Graph, private_compiled: bool) {
    change(|b| {
        if let Some(r) = b.plans.get_mut(&p) {
            r.compiled = Compiled::Hipdnn(Box::new(spec));
            r.private_compiled = private_compiled;
            r.revision = next_revision();
        }
    });
}

/// Whether MIOpen Private still has to compile a plan compiled for hipDNN
/// before it runs it (answered true once).
pub fn take_private_compile(p: usize) -> bool {
    with(|b| match b.plans.get_mut(&p) {
        Some(r) if matches!(r.compiled, Compiled::Hipdnn(_)) && !r.private_compiled => {
            r.private_compiled = true;
            r.revision = next_revision();
            CHANGES.advance();
            true
        }
        _ => false,
    })
}

/// Whether a fusion plan's calls can reach hipDNN in this process: the build
/// forwards the group and the configuration routes the family there
/// (enabled, not opted out, no MIOpen variable declining it). Otherwise
/// nothing is recorded, and MIOpen's own log shows no getter call of ours.
fn recording(config: &Config) -> bool {
    const FUSION_PLAN: Family = Family::named(group::FUSION_PLAN);
    static BUILT: OnceLock<bool> = OnceLock::new();
    let built = *BUILT.get_or_init(|| entry_points::all().iter().any(|e| e.forward == Some(FUSION_PLAN)));
    built && routing::decide(config, Some(FUSION_PLAN)).route == Route::Hipdnn
}

/// The hooks' common shape: only while the family can be forwarded, only
/// after a successful call, never a panic across the C ABI; MIOpen's status
/// is the call's.
fn observe(config: &Config, result: sys::miopenStatus_t, f: impl FnOnce()) -> sys::miopenStatus_t {
    if result == miopen::SUCCESS && recording(config) {
        diagnostics::boundary(f, || ());
    }
    result
}

fn handle_at<T>(out: *mut *mut T) -> usize {
    // SAFETY: MIOpen Private succeeded, so it wrote the handle through `out`.
    if out.is_null() {
        0
    } else {
        unsafe { *out as usize }
    }
}

fn add_op(plan: usize, op: usize, o: Op) {
    change(|b| {
        let Some(r) = b.plans.get_mut(&plan) else { return };
        r.plan.ops.push(o);
        r.ops.push(op);
        // A plan that changed after it was compiled is not what was compiled.
        r.compiled = Compiled::No;
        r.private_compiled = false;
        r.revision = next_revision();
    });
}

fn unreadable(e: String) -> Op {
    Op::Unreadable(e)
}

pub fn miopenCreateFusionPlan(
    config: &Config,
    fusePlanDesc: *mut sys::miopenFusionPlanDescriptor_t,
    fuseDirection: sys::miopenFusionDirection_t,
    inputDesc: sys::miopenTensorDescriptor_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || {
        let p = handle_at(fusePlanDesc);
        // MIOpen accepted the descriptor, so it reads; an empty one is declined at compile.
        let input = read::tensor(inputDesc, "input").unwrap_or_else(|_| read::blank_tensor());
        let plan = Plan { direction: fuseDirection, input, ops: Vec::new() };
        let r = Recorded {
            plan,
            ops: Vec::new(),
            compiled: Compiled::No,
            private_compiled: false,
            revision: next_revision(),
        };
        change(|b| {
            forget_plan(b, p);
            b.plans.insert(p, r);
        });
    })
}

pub fn miopenCreateOpConvForward(
    config: &Config,
    fusePlanDesc: sys::miopenFusionPlanDescriptor_t,
    convOp: *mut sys::miopenFusionOpDescriptor_t,
    convDesc: sys::miopenConvolutionDescriptor_t,
    wDesc: sys::miopenTensorDescriptor_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || {
        let op = match (conv_params(convDesc), read::tensor(wDesc, "w")) {
            (Ok(conv), Ok(w)) => Op::Conv { conv, w },
            (Err(e), _) | (_, Err(e)) => unreadable(e),
        };
        add_op(fusePlanDesc as usize, handle_at(convOp), op);
    })
}

pub fn miopenCreateOpBiasForward(
    config: &Config,
    fusePlanDesc: sys::miopenFusionPlanDescriptor_t,
    biasOp: *mut sys::miopenFusionOpDescriptor_t,
    bDesc: sys::miopenTensorDescriptor_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || {
        let op = read::tensor(bDesc, "bias").map_or_else(unreadable, |bias| Op::Bias { bias });
        add_op(fusePlanDesc as usize, handle_at(biasOp), op);
    })
}

pub fn miopenCreateOpActivationForward(
    config: &Config,
    fusePlanDesc: sys::miopenFusionPlanDescriptor_t,
    activFwdOp: *mut sys::miopenFusionOpDescriptor_t,
    mode: sys::miopenActivationMode_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || add_op(fusePlanDesc as usize, handle_at(activFwdOp), Op::Activation { mode }))
}

pub fn miopenCreateOpBatchNormInference(
    config: &Config,
    fusePlanDesc: sys::miopenFusionPlanDescriptor_t,
    bnOp: *mut sys::miopenFusionOpDescriptor_t,
    bn_mode: sys::miopenBatchNormMode_t,
    bnScaleBiasMeanVarDesc: sys::miopenTensorDescriptor_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || {
        let op = read::tensor(bnScaleBiasMeanVarDesc, "bnScaleBiasMeanVar")
            .map_or_else(unreadable, |params| Op::BatchNormInference { mode: bn_mode, params });
        add_op(fusePlanDesc as usize, handle_at(bnOp), op)
    })
}

pub fn miopenCreateOpBatchNormBackward(
    config: &Config,
    fusePlanDesc: sys::miopenFusionPlanDescriptor_t,
    bnOp: *mut sys::miopenFusionOpDescriptor_t,
    bn_mode: sys::miopenBatchNormMode_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || add_op(fusePlanDesc as usize, handle_at(bnOp), Op::BatchNormBackward { mode: bn_mode }))
}

pub fn miopenCreateOpActivationBackward(
    config: &Config,
    fusePlanDesc: sys::miopenFusionPlanDescriptor_t,
    activBwdOp: *mut sys::miopenFusionOpDescriptor_t,
    mode: sys::miopenActivationMode_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || add_op(fusePlanDesc as usize, handle_at(activBwdOp), Op::ActivationBackward { mode }))
}

fn set_arg(args: sys::miopenOperatorArgs_t, op: sys::miopenFusionOpDescriptor_t, a: Arg) {
    change(|b| {
        b.args.entry(args as usize).or_default().insert(op as usize, a);
    });
}

pub fn miopenSetOpArgsConvForward(
    config: &Config,
    args: sys::miopenOperatorArgs_t,
    convOp: sys::miopenFusionOpDescriptor_t,
    _alpha: *const c_void,
    _beta: *const c_void,
    w: *const c_void,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    // MIOpen's fused kernels ignore the operator's alpha and beta.
    observe(config, result, || set_arg(args, convOp, Arg::Conv { w: w as usize }))
}

pub fn miopenSetOpArgsBiasForward(
    config: &Config,
    args: sys::miopenOperatorArgs_t,
    biasOp: sys::miopenFusionOpDescriptor_t,
    _alpha: *const c_void,
    _beta: *const c_void,
    bias: *const c_void,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || set_arg(args, biasOp, Arg::Bias { bias: bias as usize }))
}

#[allow(clippy::too_many_arguments)]
pub fn miopenSetOpArgsActivForward(
    config: &Config,
    args: sys::miopenOperatorArgs_t,
    activFwdOp: sys::miopenFusionOpDescriptor_t,
    _alpha: *const c_void,
    _beta: *const c_void,
    activAlpha: f64,
    activBeta: f64,
    _activGamma: f64,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    let a = ActivationArgs { alpha: activAlpha, beta: activBeta };
    observe(config, result, || set_arg(args, activFwdOp, Arg::Activation(a)))
}

#[allow(clippy::too_many_arguments)]
pub fn miopenSetOpArgsBatchNormInference(
    config: &Config,
    args: sys::miopenOperatorArgs_t,
    bnOp: sys::miopenFusionOpDescriptor_t,
    _alpha: *const c_void,
    _beta: *const c_void,
    bnScale: *const c_void,
    bnBias: *const c_void,
    estimatedMean: *const c_void,
    estimatedVariance: *const c_void,
    epsilon: f64,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    let a = BatchNormArgs::Inference {
        scale: bnScale as usize,
        bias: bnBias as usize,
        mean: estimatedMean as usize,
        variance: estimatedVariance as usize,
        epsilon,
    };
    observe(config, result, || set_arg(args, bnOp, Arg::BatchNorm(Box::new(a))))
}

#[allow(clippy::too_many_arguments)]
pub fn miopenSetOpArgsBatchNormBackward(
    config: &Config,
    args: sys::miopenOperatorArgs_t,
    bnBwdOp: sys::miopenFusionOpDescriptor_t,
    _alpha: *const c_void,
    _beta: *const c_void,
    x: *const c_void,
    bnScale: *const c_void,
    bnBias: *const c_void,
    resultBnScaleDiff: *mut c_void,
    resultBnBiasDiff: *mut c_void,
    savedMean: *const c_void,
    savedInvVariance: *const c_void,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    let a = BatchNormArgs::Backward {
        x: x as usize,
        scale: bnScale as usize,
        bias: bnBias as usize,
        dscale: resultBnScaleDiff as usize,
        dbias: resultBnBiasDiff as usize,
        mean: savedMean as usize,
        inv_variance: savedInvVariance as usize,
    };
    observe(config, result, || set_arg(args, bnBwdOp, Arg::BatchNorm(Box::new(a))))
}

/// `miopenSetOpArgsActivBackward`: recorded as the activation's arguments
/// (RELU's derivative, the one forwarded, reads neither y nor them).
#[allow(clippy::too_many_arguments)]
pub fn miopenSetOpArgsActivBackward(
    config: &Config,
    args: sys::miopenOperatorArgs_t,
    activBwdOp: sys::miopenFusionOpDescriptor_t,
    _alpha: *const c_void,
    _beta: *const c_void,
    _y: *const c_void,
    _reserved: *const c_void,
    activAlpha: f64,
    activBeta: f64,
    _activGamma: f64,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    let a = ActivationArgs { alpha: activAlpha, beta: activBeta };
    observe(config, result, || set_arg(args, activBwdOp, Arg::Activation(a)))
}

fn forget_plan(b: &mut Book, p: usize) {
    b.plans.remove(&p);
}

pub fn miopenDestroyFusionPlan(
    config: &Config,
    fusePlanDesc: sys::miopenFusionPlanDescriptor_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || change(|b| forget_plan(b, fusePlanDesc as usize)))
}

pub fn miopenDestroyOperatorArgs(
    config: &Config,
    args: sys::miopenOperatorArgs_t,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    observe(config, result, || {
        change(|b| b.args.remove(&(args as usize)));
    })
}
