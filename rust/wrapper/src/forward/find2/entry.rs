//! One function per forwarded Find 2.0 entry point, with the entry point's
//! C arguments as the bindings type them, after its index and the
//! configuration. The generated routed body calls it and runs MIOpen
//! Private on `None`. The bookkeeping calls run MIOpen Private's `_impl`
//! themselves on the caller's pointers (their only caller is that routed
//! body, which passes the C caller's arguments), hence the allowance.
#![allow(non_snake_case, clippy::too_many_arguments, clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::{c_char, c_int, c_void};

use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::Config;

use super::handlers::Search;
use super::solutions::{self, HipdnnSolution, Known, ObservedSolution};
use super::{handlers, queries, records};
use crate::forward::common::{run, Outcome, Workspace};
use crate::forward::miopen_sys as sys;

type Cfg = &'static Config;
type Options = sys::miopenFindOptions_t;
type Solution = sys::miopenSolution_t;

/// A call that MIOpen Private answers and the wrapper records when it
/// succeeded (`record` runs only then).
fn observed(index: usize, config: Cfg, note: &'static str, private: u32, record: impl FnOnce()) -> Option<u32> {
    run(index, config, || {
        if private == miopen::SUCCESS {
            record();
        }
        Outcome::Observed { status: private, note }
    })
}

/// A call on a solution: `f` for a hipDNN one, MIOpen Private for its own.
fn on_solution(index: usize, config: Cfg, s: Solution, f: impl FnOnce(&HipdnnSolution) -> Outcome) -> Option<u32> {
    on_known(index, config, s, f, |_| miopens_own())
}

fn miopens_own() -> Outcome {
    Outcome::Declined("MIOpen's own solution".into())
}

/// A solution the wrapper knows nothing of: MIOpen's, from a search for a
/// problem hipDNN cannot run, or loaded from MIOpen's blob.
fn unknown() -> Outcome {
    Outcome::Declined("MIOpen's own solution, of no problem the wrapper saw hipDNN run".into())
}

/// A call on a solution, with `observed` for a MIOpen one the wrapper observed.
fn on_known(
    index: usize,
    config: Cfg,
    s: Solution,
    hipdnn: impl FnOnce(&HipdnnSolution) -> Outcome,
    observed: impl FnOnce(&ObservedSolution) -> Outcome,
) -> Option<u32> {
    run(index, config, || match solutions::get(s as usize) {
        Some(Known::Hipdnn(h)) => hipdnn(&h),
        Some(Known::Observed(o)) => observed(&o),
        None => unknown(),
    })
}

pub fn miopenCreateConvProblem(
    index: usize,
    config: Cfg,
    problem: *mut sys::miopenProblem_t,
    cd: sys::miopenConvolutionDescriptor_t,
    direction: sys::miopenProblemDirection_t,
) -> Option<u32> {
    // SAFETY: the caller's arguments, passed on unchanged.
    let s = unsafe { sys::miopenCreateConvProblem_impl(problem, cd, direction) };
    // SAFETY: MIOpen succeeded, so it wrote the new problem.
    observed(index, config, "problem recorded", s, || {
        records::problem_created(unsafe { *problem } as usize, cd, direction)
    })
}

pub fn miopenDestroyProblem(index: usize, config: Cfg, problem: sys::miopenProblem_t) -> Option<u32> {
    records::problem_destroyed(problem as usize);
    // SAFETY: the caller's argument.
    let s = unsafe { sys::miopenDestroyProblem_impl(problem) };
    observed(index, config, "problem record dropped", s, || {})
}

pub fn miopenSetProblemTensorDescriptor(
    index: usize,
    config: Cfg,
    problem: sys::miopenProblem_t,
    id: sys::miopenTensorArgumentId_t,
    desc: sys::miopenTensorDescriptor_t,
) -> Option<u32> {
    // SAFETY: the caller's arguments.
    let s = unsafe { sys::miopenSetProblemTensorDescriptor_impl(problem, id, desc) };
    observed(index, config, "tensor recorded", s, || records::tensor_set(problem as usize, id, desc))
}

pub fn miopenCreateFindOptions(index: usize, config: Cfg, options: *mut Options) -> Option<u32> {
    // SAFETY: the caller's argument.
    let s = unsafe { sys::miopenCreateFindOptions_impl(options) };
    // SAFETY: MIOpen succeeded, so it wrote the new options.
    observed(index, config, "options recorded", s, || records::options_created(unsafe { *options } as usize))
}

pub fn miopenDestroyFindOptions(index: usize, config: Cfg, options: Options) -> Option<u32> {
    records::options_destroyed(options as usize);
    // SAFETY: the caller's argument.
    let s = unsafe { sys::miopenDestroyFindOptions_impl(options) };
    observed(index, config, "options record dropped", s, || {})
}

pub fn miopenSetFindOptionTuning(index: usize, config: Cfg, options: Options, value: c_int) -> Option<u32> {
    // SAFETY: the caller's arguments.
    let s = unsafe { sys::miopenSetFindOptionTuning_impl(options, value) };
    observed(index, config, "option recorded", s, || records::options_set(options as usize, |o| o.tuning = value != 0))
}

pub fn miopenSetFindOptionResultsOrder(
    index: usize,
    config: Cfg,
    options: Options,
    value: sys::miopenFindResultsOrder_t,
) -> Option<u32> {
    // SAFETY: the caller's arguments. One hipDNN solution needs no order.
    let s = unsafe { sys::miopenSetFindOptionResultsOrder_impl(options, value) };
    observed(index, config, "option recorded", s, || {})
}

pub fn miopenSetFindOptionWorkspaceLimit(index: usize, config: Cfg, options: Options, value: usize) -> Option<u32> {
    // SAFETY: the caller's arguments.
    let s = unsafe { sys::miopenSetFindOptionWorkspaceLimit_impl(options, value) };
    observed(index, config, "option recorded", s, || {
        records::options_set(options as usize, |o| o.workspace_limit = value)
    })
}

pub fn miopenSetFindOptionPreallocatedWorkspace(
    index: usize,
    config: Cfg,
    options: Options,
    buffer: *mut c_void,
    size: usize,
) -> Option<u32> {
    // SAFETY: the caller's arguments.
    let s = unsafe { sys::miopenSetFindOptionPreallocatedWorkspace_impl(options, buffer, size) };
    observed(index, config, "option recorded", s, || {
        records::options_set(options as usize, |o| o.workspace = Some((buffer as usize, size)))
    })
}

pub fn miopenSetFindOptionPreallocatedTensor(
    index: usize,
    config: Cfg,
    options: Options,
    id: sys::miopenTensorArgumentId_t,
    buffer: *mut c_void,
) -> Option<u32> {
    // SAFETY: the caller's arguments.
    let s = unsafe { sys::miopenSetFindOptionPreallocatedTensor_impl(options, id, buffer) };
    observed(index, config, "option recorded", s, || {
        records::options_set(options as usize, |o| o.preallocate_tensor(id, buffer as usize))
    })
}

pub fn miopenFindSolutions(
    index: usize,
    config: Cfg,
    handle: sys::miopenHandle_t,
    problem: sys::miopenProblem_t,
    options: Options,
    solutions: *mut Solution,
    found: *mut usize,
    max: usize,
) -> Option<u32> {
    let search = Search { handle, problem, options, out: solutions, found, max };
    run(index, config, || handlers::find(config, &search))
}

pub fn miopenRunSolution(
    index: usize,
    config: Cfg,
    handle: sys::miopenHandle_t,
    solution: Solution,
    n: usize,
    tensors: *const sys::miopenTensorArgument_t,
    workspace: *mut c_void,
    size: usize,
) -> Option<u32> {
    let ws = || Workspace { ptr: workspace, size };
    on_known(
        index,
        config,
        solution,
        |s| handlers::run(config, handle, s, n, tensors, ws()),
        |o| handlers::run_observed(config, handle, solution, o, (n, tensors), ws()),
    )
}

pub fn miopenDestroySolution(index: usize, config: Cfg, solution: Solution) -> Option<u32> {
    on_known(
        index,
        config,
        solution,
        |_| queries::destroy(solution as usize),
        |_| {
            // MIOpen frees its own solution; the wrapper forgets it first.
            solutions::forget(solution as usize);
            miopens_own()
        },
    )
}

pub fn miopenLoadSolution(
    index: usize,
    config: Cfg,
    solution: *mut Solution,
    data: *const c_char,
    size: usize,
) -> Option<u32> {
    run(index, config, || {
        queries::load(solution, data, size).unwrap_or_else(|| Outcome::Declined("MIOpen's own solution blob".into()))
    })
}

pub fn miopenSaveSolution(index: usize, config: Cfg, solution: Solution, data: *mut c_char) -> Option<u32> {
    on_solution(index, config, solution, |s| queries::save(s, data))
}

pub fn miopenGetSolutionSize(index: usize, config: Cfg, solution: Solution, out: *mut usize) -> Option<u32> {
    on_solution(index, config, solution, |s| queries::size(s, out))
}

pub fn miopenGetSolutionWorkspaceSize(index: usize, config: Cfg, solution: Solution, out: *mut usize) -> Option<u32> {
    on_known(
        index,
        config,
        solution,
        |s| queries::workspace(s, out),
        |o| handlers::observed_workspace(solution, o, out),
    )
}

pub fn miopenGetSolutionTime(index: usize, config: Cfg, solution: Solution, out: *mut f32) -> Option<u32> {
    on_solution(index, config, solution, |s| queries::write(out, s.solved.time_ms, "time"))
}

pub fn miopenGetSolutionSolverId(index: usize, config: Cfg, solution: Solution, out: *mut u64) -> Option<u32> {
    on_solution(index, config, solution, |_| queries::write(out, 0, "solverId"))
}
