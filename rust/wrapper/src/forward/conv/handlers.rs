//! The handler of each kind of forwarded convolution entry point, written
//! once for all three directions.
//!
//! Every handler first decides from the arguments whether hipDNN can run
//! the call exactly (a decline leaves it to MIOpen Private, which returns
//! its own status for anything invalid), then builds or reuses the plan and
//! runs it with the caller's buffers and workspace. Size queries, Find
//! results and solutions of a forwarded problem report what both the plan
//! and MIOpen Private need, so a caller that sizes its workspace from them
//! is never short on either path, and every solution id handed out is one
//! MIOpen Private accepts.

use std::cell::RefCell;
use std::ffi::c_void;
use std::rc::Rc;
use std::time::Instant;

use miopen_forwarding_core::conv::one_call_activation;
use miopen_forwarding_core::graph_key::{Knobs, PlanKey};
use miopen_forwarding_core::ops::conv::{translate, translate_fused, Direction, Epilogue, Problem};
use miopen_forwarding_core::status::miopen;

pub use super::call::Conv;
use super::{parity, private};
use crate::forward::common::memo::{DescriptorMemo, Seen};
use crate::forward::common::steps::{declined, flatten, misaligned, private_ok, success, Ready, Step};
use crate::forward::common::{note, Outcome, Workspace};
use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::execute::execute;
pub use crate::forward::ops::conv::execute::Buffers;
use crate::forward::ops::conv::graph::{knobs_note, plan_key, ready, ready_within};
use crate::forward::ops::conv::read;
use miopen_forwarding_core::print::G;

/// What a call's descriptors translated to: the plan key, or the decline.
type Answer = Result<Rc<PlanKey>, String>;

/// This thread's memory of its problems. `known` answers a call whose
/// descriptors are unchanged since they were read (their generations,
/// `common::generations`) without reading them. Otherwise they are read
/// again into `scratch` (no allocation once warm); when they read as the
/// last translated problem did on the same handle, its plan key is reused
/// (a caller that recreates equal descriptors for every call, as PyTorch
/// does): no translation, no new key to hash and drop.
#[derive(Default)]
struct Memo {
    known: DescriptorMemo<4, Answer>,
    fused: DescriptorMemo<6, Answer>,
    scratch: Option<Problem>,
    last: Option<(Problem, Rc<PlanKey>)>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// The plan key of the call's problem (MIOpen handle, hipDNN graph), or why not.
/// Inlined into its handler, as `parity`'s look-up is: the thread-locals of
/// one function share one `__tls_get_addr` (instructions: `docs/performance.md`).
#[inline(always)]
fn spec_of(c: &Conv) -> Step<Rc<PlanKey>> {
    let descriptors = [c.t.x as usize, c.t.w as usize, c.t.y as usize, c.cd as usize];
    let seen = Seen::now(c.handle as usize, c.dir as u32, descriptors);
    let known = MEMO.with(|m| m.borrow().known.get(&seen).cloned());
    known.unwrap_or_else(|| read_and_remember(c, seen)).or_else(declined)
}

/// A call whose descriptors changed (or were never seen): read, translated
/// and remembered. Out of line, so that the repeat's path stays short.
#[cold]
#[inline(never)]
fn read_and_remember(c: &Conv, seen: Seen<4>) -> Answer {
    let taken = seen.take();
    MEMO.with(|m| {
        let m = &mut *m.borrow_mut();
        let a = read_and_translate(c, m);
        m.known.put(taken, a.clone());
        a
    })
}

fn read_and_translate(c: &Conv, m: &mut Memo) -> Answer {
    let Memo { scratch, last, .. } = m;
    let p = scratch.get_or_insert_with(|| read::blank_problem(c.dir));
    read::problem_into(c.dir, &c.t, c.cd, p)?;
    let h = c.handle as usize;
    if let Some((seen, key)) = last {
        if key.handle == h && seen == p {
            return Ok(Rc::clone(key));
        }
    }
    let key = Rc::new(plan_key(h, translate(p).map_err(|d| d.0)?));
    *last = Some((p.clone(), Rc::clone(&key)));
    Ok(key)
}

/// The plan key of a fused call's problem, or why not (remembered like
/// [`spec_of`]'s, with the bias and activation descriptors).
fn fused_spec_of(c: &Conv, f: &Fused) -> Step<Rc<PlanKey>> {
    let (has_bias, has_z) = (!f.bias.is_null(), !f.z.is_null());
    let tag = u32::from(has_bias) | u32::from(has_z) << 1;
    let descriptors =
        [c.t.x as usize, c.t.w as usize, c.t.y as usize, c.cd as usize, f.bias_desc as usize, f.activation as usize];
    let seen = Seen::now(c.handle as usize, tag, descriptors);
    let answer = MEMO.with(|m| m.borrow().fused.get(&seen).cloned());
    let answer = answer.unwrap_or_else(|| {
        let taken = seen.take();
        let a = read_fused(c, f, has_bias, has_z);
        MEMO.with(|m| m.borrow_mut().fused.put(taken, a.clone()));
        a
    });
    answer.or_else(declined)
}

fn read_fused(c: &Conv, f: &Fused, has_bias: bool, has_z: bool) -> Answer {
    let p = read::problem(c.dir, &c.t, c.cd)?;
    let bias = if has_bias { Some(read::tensor(f.bias_desc, "bias")?) } else { None };
    let activation = read::activation(f.activation)?;
    one_call_activation(&activation).map_err(|d| d.0)?;
    let spec = translate_fused(&p, &Epilogue { bias, has_z, activation }).map_err(|d| d.0)?;
    Ok(Rc::new(plan_key(c.handle as usize, spec)))
}

fn unit_scales(alpha: *const c_void, beta: *const c_void) -> Step<()> {
    let a = read::scale(alpha, "alpha").or_else(declined)?;
    let b = read::scale(beta, "beta").or_else(declined)?;
    if a != 1.0 || b != 0.0 {
        return not_unit_scales(a, b);
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn not_unit_scales(a: f32, b: f32) -> Step<()> {
    if a != 1.0 {
        return declined(format!("alpha={} (hipDNN has no output scaling)", G(a.into())));
    }
    declined(format!("beta={} (hipDNN has no output blending)", G(b.into())))
}

/// The plan of a plain call, checked against the caller's buffers and workspace.
/// Inlined: one call less on the steady path.
#[inline(always)]
fn plain_ready(c: &Conv, spec: Rc<PlanKey>, b: &Buffers, ws: &Workspace) -> Step<Ready> {
    if b.any_null() {
        return declined("a data pointer is null (MIOpen decides)");
    }
    if let Some(why) = b.misaligned(c.dir) {
        return declined(why);
    }
    let r = ready(c.config, &spec)?;
    r.fits(ws)?;
    Ok(r)
}

/// A Find's plan: `plain_ready`'s checks, the plan under the Find's knobs
/// and within its workspace (`ready_within`: a workspace short of the
/// default plan's need asks hipDNN for a plan under that limit).
fn find_ready(c: &Conv, spec: &Rc<PlanKey>, knobs: Knobs, b: &Buffers, ws: &Workspace) -> Step<(Ready, Knobs)> {
    if b.any_null() {
        return declined("a data pointer is null (MIOpen decides)");
    }
    if let Some(why) = b.misaligned(c.dir) {
        return declined(why);
    }
    let cap = if ws.ptr.is_null() { 0 } else { ws.size };
    let short = |need| format!("workspace of {cap} bytes < the {need} the hipDNN plan needs");
    let (r, knobs) = ready_within(c.config, spec, knobs, cap, short)?;
    r.fits(ws)?;
    Ok((r, knobs))
}

/// `miopenConvolution{Forward,BackwardData,BackwardWeights}`.
pub fn compute(c: &Conv, algo: u32, alpha: *const c_void, beta: *const c_void, b: &Buffers, ws: &Workspace) -> Outcome {
    flatten((|| {
        let spec = spec_of(c)?;
        unit_scales(alpha, beta)?;
        parity::algorithm(c, &spec, algo, ws).or_else(declined)?;
        let r = plain_ready(c, spec, b, ws)?;
        execute(&r, b, None, ws.ptr)?;
        Ok(success(r.note()))
    })())
}

/// `miopenConvolution*Immediate`: any solution id MIOpen accepts for the
/// problem runs the hipDNN plan.
pub fn immediate(c: &Conv, b: &Buffers, ws: &Workspace, id: u64) -> Outcome {
    flatten((|| {
        let spec = spec_of(c)?;
        parity::solution(c, &spec, id, ws).or_else(declined)?;
        let r = plain_ready(c, spec, b, ws)?;
        execute(&r, b, None, ws.ptr)?;
        Ok(success(r.note()))
    })())
}

fn valid_solution(c: &Conv, id: u64) -> Step<usize> {
    let mut need = 0usize;
    let s = private::solution_workspace(c.dir, c.handle, c.t.query_order(c.dir), c.cd, id, &mut need);
    if s != miopen::SUCCESS {
        return declined(format!("solution id {id} is not one MIOpen accepts ({}; MIOpen decides)", miopen::name(s)));
    }
    Ok(need)
}

fn private_workspace(c: &Conv) -> Step<usize> {
    let mut need = 0usize;
    private_ok(private::workspace_size(c.dir, c.handle, c.t.query_order(c.dir), c.cd, &mut need))?;
    Ok(need)
}

/// `miopenConvolution*GetWorkSpaceSize`: enough for the plan and for every
/// MIOpen algorithm, so a later declined call is never short.
pub fn workspace_size(c: &Conv, out: *mut usize) -> Outcome {
    flatten((|| {
        if out.is_null() {
            return declined("workSpaceSize is null (MIOpen decides)");
        }
        let spec = spec_of(c)?;
        let private = private_workspace(c)?;
        let r = ready(c.config, &spec)?;
        let fused = fused_workspace(c);
        let size = private.max(r.plan.workspace).max(fused);
        // SAFETY: checked non-null; the caller's out-parameter.
        unsafe { *out = size };
        Ok(success(note(c.config, || {
            format!("{size} bytes (plan {}, fused plan {fused}, MIOpen {private}); {}", r.plan.workspace, r.note())
        })))
    })())
}

/// What the fused conv -> bias -> ReLU plan of a forward problem needs: MIOpen
/// documents `miopenConvolutionForwardGetWorkSpaceSize` as the size for
/// `miopenConvolutionBiasActivationForward`, whose hipDNN plan may need more
/// than the plain convolution's (its intermediates). Bias and ReLU are the
/// largest form the wrapper builds. 0 when the problem has no fused form or
/// its plan cannot be built (such a fused call is declined or fails anyway).
fn fused_workspace(c: &Conv) -> usize {
    if c.dir != Direction::Forward {
        return 0;
    }
    let Ok(p) = read::problem(c.dir, &c.t, c.cd) else { return 0 };
    match translate_fused(&p, &Epilogue::largest(&p)) {
        Ok(spec) => ready(c.config, &Rc::new(plan_key(c.handle as usize, spec))).map_or(0, |r| r.plan.workspace),
        Err(_) => 0,
    }
}

/// `miopenFindConvolution*Algorithm`: runs the plan once on the caller's
/// buffers (as MIOpen's Find runs its candidates) and reports one result:
/// MIOpen's Direct algorithm family, which MIOpen has for every problem,
/// with the time measured and a memory size that covers the plan and every
/// MIOpen algorithm. Nothing is read from or written to MIOpen's find-db.
pub fn find(
    c: &Conv,
    b: &Buffers,
    knobs: Knobs,
    request: i32,
    returned: *mut i32,
    perf: *mut sys::miopenConvAlgoPerf_t,
    ws: &Workspace,
) -> Outcome {
    flatten((|| {
        if returned.is_null() || perf.is_null() || request < 1 {
            return declined("returnedAlgoCount, perfResults or requestAlgoCount is invalid (MIOpen decides)");
        }
        let spec = spec_of(c)?;
        let private = private_workspace(c)?;
        let (r, knobs) = find_ready(c, &spec, knobs, b, ws)?;
        // Only Find reports a time: a plain call does not read the clock.
        let start = Instant::now();
        execute(&r, b, None, ws.ptr)?;
        let ms = start.elapsed().as_secs_f32() * 1e3;
        let memory = private.max(r.plan.workspace);
        let result = sys::miopenConvAlgoPerf_t {
            __bindgen_anon_1: sys::miopenConvAlgoPerf_t__bindgen_ty_1 { fwd_algo: direct_algorithm(c.dir) },
            time: ms,
            memory,
        };
        // SAFETY: checked non-null; request >= 1 so one element is writable.
        unsafe {
            perf.write(result);
            *returned = 1;
        }
        Ok(success(note(c.config, || {
            format!("1 result (Direct, {memory} bytes, {ms:.3} ms{}); {}", knobs_note(knobs), r.note())
        })))
    })())
}

/// MIOpen's Direct family in each direction's algorithm enum (the three
/// enums share the union slot and the value).
fn direct_algorithm(d: Direction) -> u32 {
    match d {
        Direction::Forward => sys::miopenConvolutionFwdAlgoDirect,
        Direction::BackwardData => sys::miopenConvolutionBwdDataAlgoDirect,
        Direction::BackwardWeights => sys::miopenConvolutionBwdWeightsAlgoDirect,
    }
}

/// `miopenConvolution*GetSolutionCount`: the solutions are MIOpen's (so
/// their ids are ones MIOpen accepts); the count is MIOpen's.
pub fn solution_count(c: &Conv, out: *mut usize) -> Outcome {
    flatten((|| {
        spec_of(c)?;
        private_ok(private::solution_count(c.dir, c.handle, c.t.query_order(c.dir), c.cd, out))?;
        Ok(success("count of MIOpen's solution ids"))
    })())
}

/// `miopenConvolution*GetSolution`: MIOpen's solutions, each workspace
/// raised to what the hipDNN plan needs.
pub fn solutions(c: &Conv, max: usize, count: *mut usize, out: *mut sys::miopenConvSolution_t) -> Outcome {
    flatten((|| {
        let spec = spec_of(c)?;
        private_ok(private::solutions(c.dir, c.handle, c.t.query_order(c.dir), c.cd, max, count, out))?;
        let r = ready(c.config, &spec)?;
        // SAFETY: MIOpen succeeded, so `count` is valid and `out` holds that many.
        let n = unsafe { *count }.min(max);
        for i in 0..n {
            // SAFETY: i < n elements written by MIOpen.
            let s = unsafe { &mut *out.add(i) };
            s.workspace_size = s.workspace_size.max(r.plan.workspace);
        }
        Ok(success(note(c.config, || {
            format!("{n} MIOpen solution ids, workspace >= plan {}; {}", r.plan.workspace, r.note())
        })))
    })())
}

/// `miopenConvolution*GetSolutionWorkspaceSize`.
pub fn solution_workspace(c: &Conv, id: u64, out: *mut usize) -> Outcome {
    flatten((|| {
        if out.is_null() {
            return declined("workSpaceSize is null (MIOpen decides)");
        }
        let spec = spec_of(c)?;
        let private = valid_solution(c, id)?;
        let r = ready(c.config, &spec)?;
        let size = private.max(r.plan.workspace);
        // SAFETY: checked non-null.
        unsafe { *out = size };
        Ok(success(note(c.config, || format!("{size} bytes; {}", r.note()))))
    })())
}

/// `miopenConvolution*CompileSolution`: builds the hipDNN plan (MIOpen's
/// own kernels are not compiled, so nothing reaches its kernel cache).
pub fn compile(c: &Conv, id: u64) -> Outcome {
    flatten((|| {
        let spec = spec_of(c)?;
        valid_solution(c, id)?;
        let r = ready(c.config, &spec)?;
        Ok(success(note(c.config, || format!("plan ready; {}", r.note()))))
    })())
}

/// The extra arguments of `miopenConvolutionBiasActivationForward`.
pub struct Fused {
    pub alpha1: *const c_void,
    pub alpha2: *const c_void,
    pub z_desc: sys::miopenTensorDescriptor_t,
    pub z: *const c_void,
    pub bias_desc: sys::miopenTensorDescriptor_t,
    pub bias: *const c_void,
    pub activation: sys::miopenActivationDescriptor_t,
}

/// `miopenConvolutionBiasActivationForward`: y = act(conv(x, w) + bias) as
/// hipDNN's conv -> add -> ReLU graph.
pub fn bias_activation(c: &Conv, algo: u32, f: &Fused, b: &Buffers, ws: &Workspace) -> Outcome {
    flatten((|| {
        for (desc, what) in [(f.z_desc, "zDesc"), (f.bias_desc, "biasDesc")] {
            if desc.is_null() {
                return declined(format!(
                    "{what} is null (MIOpen dereferences every descriptor of the call; MIOpen decides)"
                ));
            }
        }
        let key = fused_spec_of(c, f)?;
        for (ptr, what) in [(f.alpha1, "alpha1"), (f.alpha2, "alpha2")] {
            let v = read::scale(ptr, what).or_else(declined)?;
            if v != 1.0 {
                return declined(format!("{what}={} (forwardable: 1 only)", G(v.into())));
            }
        }
        if b.any_null() {
            return declined("a data pointer is null (MIOpen decides)");
        }
        let bias_misaligned = if f.bias.is_null() { None } else { misaligned(f.bias, "bias") };
        if let Some(why) = b.misaligned(c.dir).or(bias_misaligned) {
            return declined(why);
        }
        parity::algorithm(c, &key, algo, ws).or_else(declined)?;
        let r = ready(c.config, &key)?;
        r.fits(ws)?;
        let bias = (!f.bias.is_null()).then_some(f.bias as *mut c_void);
        execute(&r, b, bias, ws.ptr)?;
        Ok(success(r.note()))
    })())
}
