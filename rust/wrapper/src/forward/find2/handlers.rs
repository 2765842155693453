//! The search and the run of Find 2.0 solutions.
//!
//! `miopenFindSolutions` answers for a problem hipDNN can run with one
//! hipDNN solution: the plan is built (or found in the plan cache, under
//! the key the legacy calls of the same problem use) and run once on the
//! caller's preallocated buffers and workspace to time it, as MIOpen's
//! search runs its candidates on them. Anything else is declined before
//! hipDNN runs anything, and MIOpen's search answers with MIOpen's
//! solutions. MIOpen's find-db is neither read nor written.
//!
//! A declined search runs on MIOpen Private here (not in the routed body),
//! so that the MIOpen solutions it returns for a problem hipDNN can run are
//! observed: their run goes to hipDNN too, with MIOpen's checks first.
//!
//! `miopenRunSolution` of a hipDNN solution cannot be declined (MIOpen
//! Private has no such solution): an argument MIOpen would reject gets
//! MIOpen's status from the wrapper.

use std::borrow::Cow;
use std::cell::RefCell;
use std::ffi::c_void;
use std::rc::Rc;
use std::time::Instant;

use miopen_forwarding_core::find2::{self, argument, SolvedProblem};
use miopen_forwarding_core::graph_key::{Knobs, PlanKey};
use miopen_forwarding_core::ops::conv::driver_line::CmdKind;
use miopen_forwarding_core::ops::conv::{translate, GraphSpec, Tensor};
use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::Config;

use super::records;
use super::refusal::{self, rejected, Miopen};
use super::solutions::{self, HipdnnSolution, ObservedSolution};
use crate::forward::common::steps::{declined, flatten, success, Ready, Step};
use crate::forward::common::{note, Outcome, Workspace};
use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::driver_line;
use crate::forward::ops::conv::execute::{execute, Buffers};
use crate::forward::ops::conv::graph::{knobs_note, plan_key, ready, ready_within};
use crate::forward::ops::conv::read;
use miopen_forwarding_core::print::Int;

fn plan(config: &Config, handle: sys::miopenHandle_t, graph: GraphSpec) -> Step<Ready> {
    ready(config, &Rc::new(plan_key(handle as usize, graph)))
}

thread_local! {
    /// This thread's last run: (solution serial, MIOpen handle, plan key).
    static LAST_RUN: RefCell<Option<(u64, usize, Rc<PlanKey>)>> = const { RefCell::new(None) };
}

/// The plan of a solution's run on `handle`: a repeat of this thread's last
/// run reuses its key (no graph cloned, no key hashed; the per-thread plan
/// slot then answers it by pointer).
fn run_plan(config: &Config, handle: sys::miopenHandle_t, serial: u64, graph: &GraphSpec, knobs: Knobs) -> Step<Ready> {
    let h = handle as usize;
    let key = LAST_RUN.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((s, lh, key)) if *s == serial && *lh == h => Rc::clone(key),
            _ => {
                let key = Rc::new(plan_key(h, graph.clone()).with_knobs(knobs));
                *last = Some((serial, h, Rc::clone(&key)));
                key
            }
        }
    });
    ready(config, &key)
}

/// The arguments of `miopenFindSolutions`.
pub struct Search {
    pub handle: sys::miopenHandle_t,
    pub problem: sys::miopenProblem_t,
    pub options: sys::miopenFindOptions_t,
    pub out: *mut sys::miopenSolution_t,
    pub found: *mut usize,
    pub max: usize,
}

/// `miopenFindSolutions`: hipDNN's answer, or MIOpen's with its solutions observed.
pub fn find(config: &'static Config, a: &Search) -> Outcome {
    match search(config, a.handle, a.problem, a.options, a.out, a.found, a.max) {
        Outcome::Declined(cause) => miopen_search(config, a, cause),
        other => other,
    }
}

/// MIOpen's search, run here; each solution it returns for a problem whose
/// hipDNN plan builds on the handle is observed.
fn miopen_search(config: &'static Config, a: &Search, cause: String) -> Outcome {
    // SAFETY: the caller's arguments, passed on unchanged.
    let status = unsafe { sys::miopenFindSolutions_impl(a.handle, a.problem, a.options, a.out, a.found, a.max) };
    if status != miopen::SUCCESS || a.found.is_null() {
        return Outcome::DeclinedRan { status, cause };
    }
    let Ok((p, _)) = records::problem(a.problem as usize) else { return Outcome::DeclinedRan { status, cause } };
    let Ok(spec) = translate(&p) else { return Outcome::DeclinedRan { status, cause } };
    if let Ok(r) = plan(config, a.handle, spec.clone()) {
        // SAFETY: MIOpen succeeded: `found` holds how many of `out` it wrote.
        let n = unsafe { *a.found }.min(a.max);
        for i in 0..n {
            // SAFETY: i < n solutions written by MIOpen.
            let s = unsafe { *a.out.add(i) } as usize;
            let serial = solutions::serial();
            let (problem, graph, plan_workspace) = (p.clone(), spec.clone(), r.plan.workspace);
            solutions::observe(s, ObservedSolution { problem, graph, plan_workspace, serial });
        }
    }
    Outcome::DeclinedRan { status, cause }
}

fn search(
    config: &'static Config,
    handle: sys::miopenHandle_t,
    problem: sys::miopenProblem_t,
    options: sys::miopenFindOptions_t,
    out: *mut sys::miopenSolution_t,
    found: *mut usize,
    max: usize,
) -> Outcome {
    flatten((|| {
        if handle.is_null() {
            return declined("handle is null (MIOpen decides)");
        }
        if out.is_null() {
            return declined("solutions is null (MIOpen decides)");
        }
        if max < 1 {
            return declined("maxSolutions is 0 (MIOpen decides)");
        }
        let (p, find_mode) = records::problem(problem as usize).or_else(declined)?;
        let opts = records::options(options as usize).or_else(declined)?;
        if let Some(why) = find2::search_decline(&opts) {
            return declined(why);
        }
        let spec = translate(&p).map_err(|d| d.0).or_else(declined)?;
        let data = Buffers::from(argument::ALL.map(|id| opts.tensor(id).unwrap_or(0) as *mut c_void));
        if data.any_null() {
            return declined("a preallocated buffer is null (MIOpen decides)");
        }
        if let Some(why) = data.misaligned(p.direction) {
            return declined(why);
        }
        let key = Rc::new(plan_key(handle as usize, spec.clone()));
        let knobs = find2::search_knobs(&opts, find_mode);
        let short = |need| find2::workspace_decline(&opts, need).unwrap_or_default();
        let (r, knobs) = ready_within(config, &key, knobs, find2::workspace_cap(&opts), short)?;
        if let Some(why) = find2::workspace_decline(&opts, r.plan.workspace) {
            return declined(why);
        }
        driver_line::write(config, &p, CmdKind::FindSolutions);
        let ws = opts.workspace.map_or(0, |(ptr, _)| ptr) as *mut c_void;
        let start = Instant::now();
        execute(&r, &data, None, ws)?;
        let time_ms = start.elapsed().as_secs_f32() * 1e3;
        let workspace = r.plan.workspace;
        let solved = SolvedProblem { problem: p, time_ms, knobs };
        let address = solutions::create(HipdnnSolution::searched(solved, spec, workspace));
        // SAFETY: checked non-null; maxSolutions >= 1, so one element is writable.
        unsafe {
            *out = address as sys::miopenSolution_t;
            if !found.is_null() {
                *found = 1;
            }
        }
        Ok(success(note(config, || {
            format!("1 hipDNN solution ({workspace} bytes, {time_ms:.3} ms{}); {}", knobs_note(knobs), r.note())
        })))
    })())
}

/// The buffers of x, w and y (each argument's first), when every argument
/// keeps the problem's descriptor: the steady state's run, in one pass with
/// nothing read or dropped; `None` sends the call to [`bound`]'s checks.
fn plain_buffers(args: &[sys::miopenTensorArgument_t]) -> Option<[*mut c_void; 3]> {
    let mut ptrs = [std::ptr::null_mut(); 3];
    let mut seen = [false; 3];
    for a in args {
        if !a.descriptor.is_null() {
            return None;
        }
        if let Some(i) = argument::ALL.iter().position(|&id| id == a.id).filter(|&i| !seen[i]) {
            (ptrs[i], seen[i]) = (a.buffer, true);
        }
    }
    (seen == [true; 3]).then_some(ptrs)
}

/// One run argument's buffer and, if given, the descriptor replacing the problem's.
fn bound(args: &[sys::miopenTensorArgument_t], id: u32) -> Step<(*mut c_void, Option<Tensor>)> {
    let Some(a) = args.iter().find(|a| a.id == id) else {
        let why = format!("no argument {} (the problem has it)", Int(id));
        return Err(rejected(miopen::INVALID_VALUE, why, refusal::missing_argument(id)));
    };
    if a.descriptor.is_null() {
        return Ok((a.buffer, None));
    }
    // SAFETY: the caller's pointer to a descriptor (MIOpen dereferences it too).
    let desc = unsafe { *a.descriptor };
    match read::tensor(desc, "argument") {
        Ok(t) => Ok((a.buffer, Some(t))),
        Err(why) => Err(rejected(miopen::BAD_PARM, why, Miopen::Rejects)),
    }
}

/// A step's decline (hipDNN has no engine for the problem), for a hipDNN
/// solution: MIOpen's BadParm, where MIOpen would run its own.
fn must<T>(s: Step<T>) -> Step<T> {
    s.map_err(|o| match o {
        Outcome::Declined(why) => rejected(miopen::BAD_PARM, why, Miopen::Runs),
        other => other,
    })
}

/// The caller's workspace against a hipDNN solution's need.
fn enough(ws: &Workspace, need: usize) -> Step<()> {
    if ws.size < need {
        let why = format!("workspace of {} bytes < the solution's {need}", ws.size);
        return Err(rejected(miopen::BAD_PARM, why, refusal::short_workspace(need, ws.size)));
    }
    Ok(())
}

/// `miopenRunSolution` of a hipDNN solution.
pub fn run(
    config: &'static Config,
    handle: sys::miopenHandle_t,
    s: &HipdnnSolution,
    n: usize,
    tensors: *const sys::miopenTensorArgument_t,
    ws: Workspace,
) -> Outcome {
    flatten((|| {
        if handle.is_null() {
            return Err(rejected(miopen::BAD_PARM, "handle is null", Miopen::Says(refusal::NULL_OBJECT.into())));
        }
        if n != 0 && tensors.is_null() {
            return Err(rejected(miopen::BAD_PARM, "tensors is null", Miopen::Rejects));
        }
        let args = if n == 0 {
            &[][..]
        } else {
            // SAFETY: the caller's array of n arguments (checked non-null).
            unsafe { std::slice::from_raw_parts(tensors, n) }
        };
        let [x, w, y] = match plain_buffers(args) {
            Some(ptrs) => ptrs.map(|p| (p, None)),
            None => [bound(args, argument::X)?, bound(args, argument::W)?, bound(args, argument::Y)?],
        };
        // A loaded solution's workspace is unknown until its plan is built (r.fits below).
        if let Some(need) = s.known_workspace() {
            enough(&ws, need)?;
        }
        let data = Buffers { x: x.0, w: w.0, y: y.0 };
        let replaced = x.1.is_some() || w.1.is_some() || y.1.is_some();
        let mut p = Cow::Borrowed(&s.solved.problem);
        let replacement = if replaced {
            let q = p.to_mut();
            for (slot, t) in [(&mut q.x, x.1), (&mut q.w, w.1), (&mut q.y, y.1)] {
                if let Some(t) = t {
                    *slot = t;
                }
            }
            Some(translate(q).map_err(|d| rejected(miopen::BAD_PARM, d.0, Miopen::Rejects))?)
        } else {
            None
        };
        if data.any_null() {
            return Err(rejected(miopen::BAD_PARM, "a data pointer is null", Miopen::Rejects));
        }
        if let Some(why) = data.misaligned(p.direction) {
            return Err(rejected(miopen::BAD_PARM, why, Miopen::Runs));
        }
        let r = must(match replacement {
            Some(spec) => plan(config, handle, spec),
            None => run_plan(config, handle, s.serial, &s.graph, s.solved.knobs),
        })?;
        enough(&ws, r.plan.workspace)?;
        driver_line::write(config, &p, CmdKind::Immediate);
        execute(&r, &data, None, ws.ptr)?;
        Ok(success(r.note()))
    })())
}

/// MIOpen Private's workspace need for one of its solutions, or a decline.
fn miopen_need(s: sys::miopenSolution_t) -> Step<usize> {
    let mut need = 0usize;
    // SAFETY: a live MIOpen solution (the caller's); `need` is a local.
    let status = unsafe { sys::miopenGetSolutionWorkspaceSize_impl(s, &mut need) };
    if status != miopen::SUCCESS {
        return declined(format!("MIOpen rejects the solution ({}; MIOpen decides)", miopen::name(status)));
    }
    Ok(need)
}

/// MIOpen's solver id of one of its solutions (0 if MIOpen cannot say).
fn miopen_solver_id(s: sys::miopenSolution_t) -> u64 {
    let mut id = 0u64;
    // SAFETY: a live MIOpen solution (the caller's); `id` is a local.
    unsafe { sys::miopenGetSolutionSolverId_impl(s, &mut id) };
    id
}

/// `miopenGetSolutionWorkspaceSize` of an observed MIOpen solution: enough
/// for its MIOpen solver and for the hipDNN plan, so a run is never short on
/// either path.
pub fn observed_workspace(s: sys::miopenSolution_t, o: &ObservedSolution, out: *mut usize) -> Outcome {
    flatten((|| {
        if out.is_null() {
            return declined("workspaceSize is null (MIOpen decides)");
        }
        let need = miopen_need(s)?.max(o.plan_workspace);
        // SAFETY: checked non-null; the caller's out-parameter.
        unsafe { *out = need };
        Ok(success("MIOpen's need, at least the plan's"))
    })())
}

/// `miopenRunSolution` of an observed MIOpen solution: MIOpen's checks of
/// the arguments first (anything it would reject, and any descriptor given
/// in place of the problem's, is declined, so MIOpen answers), then the plan.
pub fn run_observed(
    config: &'static Config,
    handle: sys::miopenHandle_t,
    s: sys::miopenSolution_t,
    o: &ObservedSolution,
    args: (usize, *const sys::miopenTensorArgument_t),
    ws: Workspace,
) -> Outcome {
    flatten((|| {
        let (n, tensors) = args;
        if handle.is_null() {
            return declined("handle is null (MIOpen decides)");
        }
        if n == 0 || tensors.is_null() {
            return declined("no tensors given (MIOpen decides)");
        }
        // SAFETY: the caller's array of n arguments (checked non-null).
        let args = unsafe { std::slice::from_raw_parts(tensors, n) };
        let mut ptrs = [std::ptr::null_mut(); 3];
        for (slot, id) in ptrs.iter_mut().zip(argument::ALL) {
            match args.iter().find(|a| a.id == id) {
                Some(a) if a.descriptor.is_null() => *slot = a.buffer,
                Some(_) => return declined("a run argument replaces the problem's descriptor (not translated)"),
                None => return declined(format!("no argument {} (MIOpen decides)", Int(id))),
            }
        }
        let need = miopen_need(s)?;
        if ws.size < need {
            return declined(format!(
                "workspace of {} bytes < the {need} MIOpen's solution needs (MIOpen decides)",
                ws.size
            ));
        }
        let data = Buffers::from(ptrs);
        if data.any_null() {
            return declined("a data pointer is null (MIOpen decides)");
        }
        if let Some(why) = data.misaligned(o.graph.direction) {
            return declined(why);
        }
        let r = run_plan(config, handle, o.serial, &o.graph, Knobs::NONE)?;
        r.fits(&ws)?;
        if config.env.log_driver_cmd {
            driver_line::write(config, &o.problem, CmdKind::RunSolution(miopen_solver_id(s)));
        }
        execute(&r, &data, None, ws.ptr)?;
        Ok(success(note(config, || format!("MIOpen's solution run by hipDNN; {}", r.note()))))
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(id: u32, buffer: usize, descriptor: usize) -> sys::miopenTensorArgument_t {
        sys::miopenTensorArgument_t { id, descriptor: descriptor as _, buffer: buffer as _ }
    }

    #[test]
    fn plain_buffers_only_when_every_argument_keeps_the_problems_descriptor() {
        let (x, w, y) = (argument::X, argument::W, argument::Y);
        let ptrs = |p: [usize; 3]| Some(p.map(|a| a as *mut c_void));
        // Any order; the first of a repeated id, as `bound` takes it.
        assert_eq!(plain_buffers(&[arg(y, 3, 0), arg(x, 1, 0), arg(w, 2, 0), arg(x, 9, 0)]), ptrs([1, 2, 3]));
        assert_eq!(plain_buffers(&[arg(x, 1, 0), arg(w, 2, 0)]), None, "y missing");
        assert_eq!(plain_buffers(&[arg(x, 1, 0), arg(w, 2, 0), arg(y, 3, 0x40)]), None, "y replaces the descriptor");
        assert_eq!(plain_buffers(&[arg(x, 1, 0), arg(w, 2, 0), arg(y, 3, 0), arg(77, 4, 0x40)]), None);
    }
}
