//! Compile, size and execute a fusion plan on hipDNN.
//!
//! A plan whose operators translate (`miopen_forwarding_core::fusion`) is
//! compiled to a hipDNN plan at `miopenCompileFusionPlan` instead of
//! MIOpen's kernels; any other plan is declined there and MIOpen Private
//! compiles it. An execute that is declined after a hipDNN compile (an
//! argument MIOpen checks, a workspace the hipDNN plan lacks) first
//! compiles the plan on MIOpen Private, once, so MIOpen runs it as it would
//! have; if MIOpen cannot compile it, the call fails with MIOpen's status.

use std::cell::RefCell;
use std::ffi::c_void;
use std::rc::Rc;

use miopen_forwarding_core::batchnorm::fused::EPSILON_AT_COMPILE;
use miopen_forwarding_core::fusion::{self, ActivationArgs, Graph};
use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::Config;

use super::record::{self, Arg, BatchNormArgs, Compiled, ExecuteView, OpKind, Recorded};
use crate::forward::batchnorm::fused as bn_fused;
use crate::forward::common::graph::DATA_ALIGNMENT;
use crate::forward::common::memo::{DescriptorMemo, Seen};
use crate::forward::common::steps::{declined, flatten, misaligned, private_ok, success, Ready, Step};
use crate::forward::common::{handle_workspace, note, read, Outcome, Workspace};
use crate::forward::last_error;
use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::execute::{execute as execute_conv, Buffers};
use crate::forward::ops::conv::graph::{plan_key, ready as ready_conv};

/// A call on one plan.
pub struct Call {
    pub config: &'static Config,
    pub handle: sys::miopenHandle_t,
    pub plan: usize,
}

/// An execute's data and arguments.
pub struct Io {
    pub input_desc: sys::miopenTensorDescriptor_t,
    pub input: *const c_void,
    pub output_desc: sys::miopenTensorDescriptor_t,
    pub output: *mut c_void,
    pub args: usize,
}

fn recorded(c: &Call) -> Step<Recorded> {
    if c.handle.is_null() {
        return declined("handle is null (MIOpen decides)");
    }
    record::plan(c.plan).map_or_else(|| not_recorded(c.plan), Ok)
}

/// The decline of a plan the wrapper has no record of: none, or one it did
/// not see created.
fn not_recorded<T>(plan: usize) -> Step<T> {
    if plan == 0 {
        return declined("fusePlanDesc is null (MIOpen decides)");
    }
    declined("fusePlanDesc is not a plan the wrapper saw created (MIOpen decides)")
}

/// The plan key of a plan's graph on the call's handle.
fn key_of(c: &Call, spec: Graph) -> Rc<PlanKey> {
    let handle = c.handle as usize;
    Rc::new(match spec {
        Graph::Conv(g) => plan_key(handle, g),
        Graph::BatchNormActivation(g) => bn_fused::plan_key(handle, g),
        Graph::BatchNormBackwardActivation(g) => bn_fused::backward_plan_key(handle, *g),
    })
}

/// The plan of `key`, with its graph's operations.
fn ready_key(config: &Config, key: &Rc<PlanKey>) -> Step<Ready> {
    if bn_fused::is_key(key) {
        bn_fused::ready(config, key)
    } else {
        ready_conv(config, key)
    }
}

fn ready(c: &Call, spec: Graph) -> Step<Ready> {
    ready_key(c.config, &key_of(c, spec))
}

fn translated(c: &Call, r: &Recorded, args: ActivationArgs, epsilon: f64) -> Step<fusion::Translated> {
    let t = fusion::translate_with(&r.plan, args, epsilon).or_else(|d| declined(d.0))?;
    if matches!(t.spec, Graph::BatchNormActivation(_)) {
        bn_fused::forwarded(c.config)?;
    }
    if matches!(t.spec, Graph::BatchNormBackwardActivation(_)) {
        bn_fused::backward_forwarded(c.config)?;
    }
    Ok(t)
}

/// `miopenCompileFusionPlan`: the hipDNN plan of the plan's graph (built
/// with placeholder clips for CLIPPEDRELU / CLAMP, whose values are
/// execute-time arguments: the execute builds, or finds, the plan of its own).
///
/// A hipDNN plan that needs workspace runs under `miopenExecuteFusionPlan`,
/// which has no workspace argument, with the handle's own
/// (`common::handle_workspace`); when that cannot be had (over the cap, a
/// failed allocation) the execute is MIOpen's. So such a plan is compiled
/// on MIOpen Private too, and MIOpen's answer is the call's: a plan MIOpen
/// has no fused kernel for fails to compile as it did before (a framework
/// then falls back to unfused calls, as it would), and an execute declined
/// later finds MIOpen's compile done.
pub fn compile(c: &Call) -> Outcome {
    flatten((|| {
        let r = recorded(c)?;
        let built = translated(c, &r, ActivationArgs::AT_COMPILE, EPSILON_AT_COMPILE)
            .and_then(|t| Ok((ready(c, t.spec.clone())?, t.spec)));
        let (ready, spec) = match built {
            Ok(b) => b,
            Err(Outcome::Declined(why)) => {
                record::set_compiled(c.plan, Compiled::Private(why.clone()));
                return declined(why);
            }
            Err(other) => {
                record::set_compiled(c.plan, Compiled::No);
                return Err(other);
            }
        };
        let need = ready.plan.workspace;
        if need > 0 {
            // SAFETY: the caller's handle (checked non-null) and plan, which MIOpen validates.
            let s = unsafe { sys::miopenCompileFusionPlan_impl(c.handle, c.plan as _) };
            if s != miopen::SUCCESS {
                let why = format!(
                    "the hipDNN plan needs {need} bytes of workspace, which miopenExecuteFusionPlan does not pass \
                     (the handle's own may not be had), and MIOpen cannot compile the plan ({}; MIOpen decides)",
                    miopen::name(s)
                );
                record::set_compiled(c.plan, Compiled::Private(why.clone()));
                return declined(why);
            }
        }
        record::compiled_for_hipdnn(c.plan, spec, need > 0);
        Ok(success(note(c.config, || {
            let private = if need > 0 { "; compiled on MIOpen Private too (the plan needs workspace)" } else { "" };
            format!("hipDNN plan ready, {need} bytes of workspace{private}; {}", ready.note())
        })))
    })())
}

/// MIOpen Private's workspace for the plan (the algorithm is MIOpen's argument).
fn private_workspace(c: &Call, algo: sys::miopenConvFwdAlgorithm_t) -> Step<usize> {
    let mut need = 0usize;
    // SAFETY: MIOpen validates the handle and plan; the out-parameter is a local.
    let s = unsafe { sys::miopenFusionPlanGetWorkSpaceSize_impl(c.handle, c.plan as _, &mut need, algo) };
    private_ok(s)?;
    Ok(need)
}

/// `miopenFusionPlanGetWorkSpaceSize` of a plan compiled for hipDNN: enough
/// for the hipDNN plan and for MIOpen's, so a caller that sizes its
/// workspace here is short on neither path. Any other plan is MIOpen's to answer.
pub fn workspace_size(c: &Call, out: *mut usize, algo: sys::miopenConvFwdAlgorithm_t) -> Outcome {
    flatten((|| {
        if out.is_null() {
            return declined("workSpaceSize is null (MIOpen decides)");
        }
        let r = recorded(c)?;
        let spec = match &r.compiled {
            Compiled::Hipdnn(spec) => (**spec).clone(),
            Compiled::Private(why) => return declined(format!("the plan was compiled on MIOpen Private ({why})")),
            // MIOpen answers for a plan it has not compiled (its conv's own workspace).
            Compiled::No => return declined("the plan is not compiled (MIOpen decides)"),
        };
        let private = private_workspace(c, algo)?;
        let ready = ready(c, spec)?;
        let size = private.max(ready.plan.workspace);
        // SAFETY: checked non-null; the caller's out-parameter.
        unsafe { *out = size };
        Ok(success(note(c.config, || {
            format!("{size} bytes (hipDNN plan {}, MIOpen {private}); {}", ready.plan.workspace, ready.note())
        })))
    })())
}

/// The execute's data pointers, by the graph's uids.
struct Data<'a> {
    w: usize,
    bias: Option<usize>,
    activation: ActivationArgs,
    bn: Option<&'a BatchNormArgs>,
}

/// Every operator's arguments, as MIOpen requires them at execute.
fn data_of(args: &[(OpKind, Option<Arg>)]) -> Step<Data<'_>> {
    let mut d = Data { w: 0, bias: None, activation: ActivationArgs::AT_COMPILE, bn: None };
    for (i, arg) in args.iter().enumerate() {
        match arg {
            (OpKind::Conv, Some(Arg::Conv { w })) => d.w = *w,
            (OpKind::Bias, Some(Arg::Bias { bias })) => d.bias = Some(*bias),
            (OpKind::Activation, Some(Arg::Activation(a))) => d.activation = *a,
            (OpKind::BatchNorm, Some(Arg::BatchNorm(a))) => d.bn = Some(a),
            _ => return declined(format!("no arguments of its kind set for operator {i} (MIOpen decides)")),
        }
    }
    Ok(d)
}

/// What an execute derives from its plan's record, its descriptors and its
/// activation arguments: the hipDNN plan's key and MIOpen's workspace for the
/// plan. Valid while the record's revision, the activation arguments and
/// the descriptors' generations are the ones it was derived with.
struct Prepared {
    revision: u64,
    activation: ActivationArgs,
    epsilon_bits: u64,
    key: Rc<PlanKey>,
    private_workspace: usize,
}

thread_local! {
    /// Keyed by the handle and [plan, inputDesc, outputDesc].
    static PREPARED: RefCell<DescriptorMemo<3, Rc<Prepared>>> = RefCell::new(DescriptorMemo::default());
}

/// The execute's [`Prepared`]: remembered, or derived (the descriptors
/// checked against the plan's, the graph translated, MIOpen asked for its
/// workspace) and remembered.
///
/// One instance per plan kind (`BATCHNORM`): each has one caller, so a
/// convolution plan's execute inlines its own as it did before a second
/// kind called it (`bench_steady_instructions`).
fn prepared<const BATCHNORM: bool>(
    c: &Call,
    io: &Io,
    view: &ExecuteView,
    activation: ActivationArgs,
    epsilon: f64,
) -> Step<Rc<Prepared>> {
    let seen = Seen::now(c.handle as usize, 0, [c.plan, io.input_desc as usize, io.output_desc as usize]);
    let epsilon_bits = epsilon.to_bits();
    let hit = PREPARED.with(|m| {
        m.borrow()
            .get(&seen)
            .filter(|p| {
                p.revision == view.revision
                    && p.activation == activation
                    && (!BATCHNORM || p.epsilon_bits == epsilon_bits)
            })
            .cloned()
    });
    if let Some(p) = hit {
        return Ok(p);
    }
    let taken = seen.take();
    let r = recorded(c)?;
    same_descriptor(io.input_desc, "input", &r.plan.input)?;
    let t = translated(c, &r, activation, epsilon)?;
    same_descriptor(io.output_desc, "output", &t.output)?;
    let private_workspace = private_workspace(c, sys::miopenConvolutionFwdAlgoDirect)?;
    let key = key_of(c, t.spec);
    let p = Rc::new(Prepared { revision: r.revision, activation, epsilon_bits, key, private_workspace });
    PREPARED.with(|m| m.borrow_mut().put(taken, Rc::clone(&p)));
    Ok(p)
}

fn same_descriptor(desc: sys::miopenTensorDescriptor_t, what: &str, want: &fusion::Tensor) -> Step<()> {
    let t = read::tensor(desc, what).or_else(declined)?;
    if &t != want {
        return declined(format!("{what}Desc differs from the plan's {what} descriptor (MIOpen decides)"));
    }
    Ok(())
}

/// Every pointer the plan binds is non-null and aligned, or the decline.
/// The common case (all usable) in one test; the named decline out of line.
fn pointers(io: &Io, d: &Data) -> Step<()> {
    let (x, y, w, bias) = (io.input as usize, io.output as usize, d.w, d.bias.unwrap_or(0));
    let null = x == 0 || y == 0 || w == 0 || (d.bias.is_some() && bias == 0);
    if !null && (x | y | w | bias).is_multiple_of(DATA_ALIGNMENT) {
        return Ok(());
    }
    unusable_pointers(io, d)
}

/// [`pointers`]' decline, naming the first pointer at fault.
#[cold]
#[inline(never)]
fn unusable_pointers(io: &Io, d: &Data) -> Step<()> {
    // A fixed array: an execute allocates nothing for its checks.
    let bias = d.bias.map_or(std::ptr::null(), |b| b as *const c_void);
    let all =
        [(io.input, "input"), (io.output as *const c_void, "output"), (d.w as *const c_void, "w"), (bias, "bias")];
    let named = &all[..if d.bias.is_some() { 4 } else { 3 }];
    if named.iter().any(|(p, _)| p.is_null()) {
        return declined("a data pointer is null (MIOpen decides)");
    }
    match named.iter().find_map(|&(p, name)| misaligned(p, name)) {
        Some(why) => declined(why),
        None => Ok(()),
    }
}

/// `miopenExecuteFusionPlan` (`ws` None: the call has no workspace) and
/// `miopenExecuteFusionPlan_v2`.
pub fn execute(c: &Call, io: &Io, ws: Option<&Workspace>) -> Outcome {
    let outcome = flatten(run_plan(c, io, ws));
    match outcome {
        Outcome::Declined(why) if !c.handle.is_null() && record::take_private_compile(c.plan) => {
            // SAFETY: the caller's handle and plan, which MIOpen validates.
            let s = unsafe { sys::miopenCompileFusionPlan_impl(c.handle, c.plan as _) };
            if s == miopen::SUCCESS {
                Outcome::Declined(why)
            } else {
                Outcome::Failed {
                    status: s,
                    hipdnn: last_error::NO_HIPDNN_STATUS,
                    why: format!(
                        "declined ({why}) after the plan was compiled for hipDNN, and MIOpen Private cannot compile it ({})",
                        miopen::name(s)
                    ),
                }
            }
        }
        other => other,
    }
}

fn run_plan(c: &Call, io: &Io, ws: Option<&Workspace>) -> Step<Outcome> {
    if c.handle.is_null() {
        return declined("handle is null (MIOpen decides)");
    }
    let view = record::execute_view(c.plan, io.args).map_or_else(|| not_recorded(c.plan), Ok)?;
    view.compiled.clone().or_else(declined)?;
    let d = data_of(&view.args)?;
    if let Some(bn) = d.bn {
        return run_batchnorm_plan(c, io, ws, &view, d.activation, bn);
    }
    let p = prepared::<false>(c, io, &view, d.activation, EPSILON_AT_COMPILE)?;
    pointers(io, &d)?;
    let none = Workspace { ptr: std::ptr::null_mut(), size: 0 };
    let given = ws.unwrap_or(&none);
    if given.ptr.is_null() && given.size != 0 {
        return declined(format!("workspace is null with a size of {} (MIOpen decides)", given.size));
    }
    let private = p.private_workspace;
    if given.size < private {
        return declined(format!("workspace of {} bytes < the {private} MIOpen requires (MIOpen decides)", given.size));
    }
    let ready = ready_conv(c.config, &p.key)?;
    let data = Buffers { x: io.input as *mut c_void, w: d.w as *mut c_void, y: io.output };
    match ws {
        // miopenExecuteFusionPlan passes none: the handle's own.
        None if ready.plan.workspace > 0 => run_with_handle_workspace(c, &ready, &data, d.bias),
        _ => run_with(&ready, &data, d.bias, given),
    }
}

/// [`run_plan`] for a batchnorm inference -> activation plan. Out of line,
/// and sharing no out-of-line step with a convolution plan's execute (its
/// own [`prepared`] instance, its own workspace step, the batchnorm group's
/// pointer checks): that execute, the steady path `bench_steady_instructions`
/// measures, compiles as it did before this graph.
#[inline(never)]
fn run_batchnorm_plan(
    c: &Call,
    io: &Io,
    ws: Option<&Workspace>,
    view: &ExecuteView,
    activation: ActivationArgs,
    b: &BatchNormArgs,
) -> Step<Outcome> {
    let p = prepared::<true>(c, io, view, activation, bn_fused::epsilon_of(b))?;
    let none = Workspace { ptr: std::ptr::null_mut(), size: 0 };
    let given = ws.unwrap_or(&none);
    if given.ptr.is_null() && given.size != 0 {
        return declined(format!("workspace is null with a size of {} (MIOpen decides)", given.size));
    }
    let private = p.private_workspace;
    if given.size < private {
        return declined(format!("workspace of {} bytes < the {private} MIOpen requires (MIOpen decides)", given.size));
    }
    let ready = bn_fused::ready(c.config, &p.key)?;
    let owned;
    let ws = match ws {
        // miopenExecuteFusionPlan passes none: the handle's own.
        None if ready.plan.workspace > 0 => {
            owned = handle_workspace::at_least(c.handle as usize, ready.plan.workspace, c.config.workspace_limit)
                .or_else(declined)?;
            &owned
        }
        _ => given,
    };
    bn_fused::run_args(&ready, io.input, io.output, b, ws)
}

/// [`run_plan`]'s last step with the handle's own workspace. Out of line, as
/// [`run_with`] is: each step's decline stays in its own function, so that
/// the compiler does not merge the declines of both into the steady path.
#[inline(never)]
fn run_with_handle_workspace(c: &Call, ready: &Ready, data: &Buffers, bias: Option<usize>) -> Step<Outcome> {
    let owned = handle_workspace::at_least(c.handle as usize, ready.plan.workspace, c.config.workspace_limit)
        .or_else(declined)?;
    run_with(ready, data, bias, &owned)
}

/// The plan run on `ws` (the caller's, or the handle's own).
#[inline(never)]
fn run_with(ready: &Ready, data: &Buffers, bias: Option<usize>, ws: &Workspace) -> Step<Outcome> {
    ready.fits(ws)?;
    execute_conv(ready, data, bias.map(|b| b as *mut c_void), ws.ptr)?;
    Ok(success(ready.note()))
}
