//! One function per forwarded Find 2.0 entry point, taking the entry
//! point's index, the configuration and its generated argument struct. The
//! generated routed body calls it and runs MIOpen Private on `None`. The
//! bookkeeping calls run MIOpen Private themselves (`args::…::private`) on
//! the caller's arguments (their only caller is that routed body, which
//! hands the C caller's arguments over).
#![allow(non_snake_case)]

use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::Config;

use super::handlers::Search;
use super::refusal::Miopen;
use super::solutions::{self, HipdnnSolution, Known, ObservedSolution};
use super::{handlers, queries, records};
use crate::forward::common::{run, Outcome, Workspace};
use crate::forward::miopen_sys::{self as sys, args};

type Cfg = &'static Config;
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
/// problem hipDNN cannot run, or loaded from MIOpen's blob; or no solution.
fn unknown(s: Solution) -> Outcome {
    if s.is_null() {
        return Outcome::Declined("solution is null (MIOpen decides)".into());
    }
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
    run(index, config, || {
        solutions::with_known(s as usize, |k| match k {
            Some(Known::Hipdnn(h)) => hipdnn(h),
            Some(Known::Observed(o)) => observed(o),
            None => unknown(s),
        })
    })
}

/// MIOpen Private's answer to a bookkeeping call, with the caller's arguments.
macro_rules! private {
    ($a:expr) => {
        // SAFETY: the C caller's arguments, handed over unchanged by the routed body.
        unsafe { $a.private() }
    };
}

pub fn miopenCreateConvProblem(index: usize, config: Cfg, a: &args::miopenCreateConvProblem) -> Option<u32> {
    let s = private!(a);
    // SAFETY: MIOpen succeeded, so it wrote the new problem.
    observed(index, config, "problem recorded", s, || {
        records::problem_created(unsafe { *a.problem } as usize, a.operatorDesc, a.direction)
    })
}

pub fn miopenDestroyProblem(index: usize, config: Cfg, a: &args::miopenDestroyProblem) -> Option<u32> {
    records::problem_destroyed(a.problem as usize);
    observed(index, config, "problem record dropped", private!(a), || {})
}

pub fn miopenSetProblemTensorDescriptor(
    index: usize,
    config: Cfg,
    a: &args::miopenSetProblemTensorDescriptor,
) -> Option<u32> {
    observed(index, config, "tensor recorded", private!(a), || {
        records::tensor_set(a.problem as usize, a.id, a.descriptor)
    })
}

pub fn miopenCreateFindOptions(index: usize, config: Cfg, a: &args::miopenCreateFindOptions) -> Option<u32> {
    let s = private!(a);
    // SAFETY: MIOpen succeeded, so it wrote the new options.
    observed(index, config, "options recorded", s, || records::options_created(unsafe { *a.options } as usize))
}

pub fn miopenDestroyFindOptions(index: usize, config: Cfg, a: &args::miopenDestroyFindOptions) -> Option<u32> {
    records::options_destroyed(a.options as usize);
    observed(index, config, "options record dropped", private!(a), || {})
}

pub fn miopenSetFindOptionTuning(index: usize, config: Cfg, a: &args::miopenSetFindOptionTuning) -> Option<u32> {
    observed(index, config, "option recorded", private!(a), || {
        records::options_set(a.options as usize, |o| o.tuning = a.value != 0)
    })
}

/// One hipDNN solution needs no order.
pub fn miopenSetFindOptionResultsOrder(
    index: usize,
    config: Cfg,
    a: &args::miopenSetFindOptionResultsOrder,
) -> Option<u32> {
    observed(index, config, "option recorded", private!(a), || {})
}

pub fn miopenSetFindOptionWorkspaceLimit(
    index: usize,
    config: Cfg,
    a: &args::miopenSetFindOptionWorkspaceLimit,
) -> Option<u32> {
    observed(index, config, "option recorded", private!(a), || {
        records::options_set(a.options as usize, |o| o.workspace_limit = a.value)
    })
}

pub fn miopenSetFindOptionPreallocatedWorkspace(
    index: usize,
    config: Cfg,
    a: &args::miopenSetFindOptionPreallocatedWorkspace,
) -> Option<u32> {
    observed(index, config, "option recorded", private!(a), || {
        records::options_set(a.options as usize, |o| o.workspace = Some((a.buffer as usize, a.size)))
    })
}

pub fn miopenSetFindOptionPreallocatedTensor(
    index: usize,
    config: Cfg,
    a: &args::miopenSetFindOptionPreallocatedTensor,
) -> Option<u32> {
    observed(index, config, "option recorded", private!(a), || {
        records::options_set(a.options as usize, |o| o.preallocate_tensor(a.id, a.buffer as usize))
    })
}

pub fn miopenFindSolutions(index: usize, config: Cfg, a: &args::miopenFindSolutions) -> Option<u32> {
    let search = Search {
        handle: a.handle,
        problem: a.problem,
        options: a.options,
        out: a.solutions,
        found: a.numSolutions,
        max: a.maxSolutions,
    };
    run(index, config, || handlers::find(config, &search))
}

pub fn miopenRunSolution(index: usize, config: Cfg, a: &args::miopenRunSolution) -> Option<u32> {
    let ws = || Workspace { ptr: a.workspace, size: a.workspaceSize };
    on_known(
        index,
        config,
        a.solution,
        |s| handlers::run(config, a.handle, s, a.nInputs, a.tensors, ws()),
        |o| handlers::run_observed(config, a.handle, a.solution, o, (a.nInputs, a.tensors), ws()),
    )
}

pub fn miopenDestroySolution(index: usize, config: Cfg, a: &args::miopenDestroySolution) -> Option<u32> {
    on_known(
        index,
        config,
        a.solution,
        |_| queries::destroy(a.solution as usize),
        |_| {
            // MIOpen frees its own solution; the wrapper forgets it first.
            solutions::forget(a.solution as usize);
            miopens_own()
        },
    )
}

pub fn miopenLoadSolution(index: usize, config: Cfg, a: &args::miopenLoadSolution) -> Option<u32> {
    run(index, config, || {
        if a.data.is_null() {
            return Outcome::Declined("data is null (MIOpen decides)".into());
        }
        queries::load(a.solution, a.data, a.size)
            .unwrap_or_else(|| Outcome::Declined("MIOpen's own solution blob".into()))
    })
}

pub fn miopenSaveSolution(index: usize, config: Cfg, a: &args::miopenSaveSolution) -> Option<u32> {
    on_solution(index, config, a.solution, |s| queries::save(s, a.data))
}

pub fn miopenGetSolutionSize(index: usize, config: Cfg, a: &args::miopenGetSolutionSize) -> Option<u32> {
    on_solution(index, config, a.solution, |s| queries::size(s, a.size))
}

pub fn miopenGetSolutionWorkspaceSize(
    index: usize,
    config: Cfg,
    a: &args::miopenGetSolutionWorkspaceSize,
) -> Option<u32> {
    on_known(
        index,
        config,
        a.solution,
        |s| queries::workspace(s, a.workspaceSize),
        |o| handlers::observed_workspace(a.solution, o, a.workspaceSize),
    )
}

pub fn miopenGetSolutionTime(index: usize, config: Cfg, a: &args::miopenGetSolutionTime) -> Option<u32> {
    on_solution(index, config, a.solution, |s| queries::write(a.time, s.solved.time_ms, "time", Miopen::Rejects))
}

pub fn miopenGetSolutionSolverId(index: usize, config: Cfg, a: &args::miopenGetSolutionSolverId) -> Option<u32> {
    on_solution(index, config, a.solution, |_| queries::write(a.solverId, 0, "solverId", Miopen::Rejects))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(o: Outcome) -> String {
        match o {
            Outcome::Declined(c) => c,
            _ => panic!("not a decline"),
        }
    }

    #[test]
    fn a_null_solution_is_named_as_null_and_any_other_unknown_one_as_miopens() {
        assert_eq!(cause(unknown(std::ptr::null_mut())), "solution is null (MIOpen decides)");
        let mut other = 0u8;
        let miopens = cause(unknown((&mut other as *mut u8).cast()));
        assert!(miopens.starts_with("MIOpen's own solution") && !miopens.contains("null"), "{miopens}");
    }
}
