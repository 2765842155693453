//! MIOpen's Find 2.0 problem API for convolution problems, FFI-free: what
//! the wrapper records of a problem and of find options (both are opaque
//! MIOpen objects without getters), when a search is left to MIOpen, and
//! the bytes a hipDNN solution is saved as ([`blob`]).
//!
//! A search the wrapper answers returns its own solution objects, which
//! hold a [`SolvedProblem`]: the problem of the shared convolution op layer
//! ([`crate::ops::conv::Problem`]), so its plan key is the one the legacy
//! calls of the same problem use.

pub mod blob;
pub mod group;
#[cfg(test)]
mod tests;

use crate::graph_key::Knobs;
use crate::ops::conv::Problem;

/// MIOpen's tensor argument ids of a convolution problem
/// (`miopenTensorArgumentId_t`; checked against the header by the wrapper's
/// bindings, `rust/wrapper/src/forward/find2/records.rs`).
pub mod argument {
    pub const X: u32 = 1;
    pub const W: u32 = 2;
    pub const Y: u32 = 3;
    /// Every convolution argument, in forward naming (x, w, y).
    pub const ALL: [u32; 3] = [X, W, Y];
}

/// What a `miopenFindOptions_t` holds, as recorded from its setters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindOptions {
    pub tuning: bool,
    pub workspace_limit: usize,
    /// (buffer, size) of `miopenSetFindOptionPreallocatedWorkspace` (the last one set).
    pub workspace: Option<(usize, usize)>,
    /// (argument id, buffer) of `miopenSetFindOptionPreallocatedTensor`; the
    /// first buffer given for an id stays, as in MIOpen.
    pub tensors: Vec<(u32, usize)>,
}

impl Default for FindOptions {
    /// `miopenCreateFindOptions`' defaults (and a null options argument's).
    fn default() -> Self {
        FindOptions { tuning: false, workspace_limit: usize::MAX, workspace: None, tensors: Vec::new() }
    }
}

impl FindOptions {
    pub fn preallocate_tensor(&mut self, id: u32, buffer: usize) {
        if !self.tensors.iter().any(|&(i, _)| i == id) {
            self.tensors.push((id, buffer));
        }
    }

    pub fn tensor(&self, id: u32) -> Option<usize> {
        self.tensors.iter().find(|&&(i, _)| i == id).map(|&(_, b)| b)
    }
}

/// Why a search is left to MIOpen before anything about the problem is
/// translated: no buffers to time the plan on (the wrapper allocates no
/// device memory). MIOpen's exhaustive search (the options' tuning, or the
/// Normal find mode the problem's convolution descriptor carried when the
/// problem was created) is no longer a reason: it is hipDNN's benchmarking
/// ([`search_knobs`]).
pub fn search_decline(options: &FindOptions) -> Option<String> {
    if argument::ALL.iter().any(|&id| options.tensor(id).is_none()) {
        return Some(
            "no preallocated x, w and y buffers to time the plan on (miopenSetFindOptionPreallocatedTensor; \
             the wrapper allocates no buffers for a search)"
                .into(),
        );
    }
    None
}

/// The hipDNN knobs of a search: MIOpen's exhaustive search
/// (`miopenSetFindOptionTuning`, or the descriptor's Normal find mode: the
/// legacy Find's rule, [`crate::conv::group::asks_exhaustive_search`]) is
/// `global.benchmarking`. The workspace limit is applied by the search
/// against [`workspace_cap`], only where the default plan needs more.
pub fn search_knobs(options: &FindOptions, find_mode: i32) -> Knobs {
    let benchmarking = options.tuning || crate::conv::group::asks_exhaustive_search(find_mode);
    Knobs { benchmarking, workspace_limit: None }
}

/// The most workspace bytes the search can give a plan: the preallocated
/// workspace (none, or a null one: 0), within the options' limit.
pub fn workspace_cap(options: &FindOptions) -> usize {
    let have = match options.workspace {
        Some((ptr, size)) if ptr != 0 => size,
        _ => 0,
    };
    have.min(options.workspace_limit)
}

/// Why a plan needing `need` workspace bytes cannot be the search's
/// answer: more than the options' limit, or than the preallocated
/// workspace (MIOpen's search keeps to both; so does this one).
pub fn workspace_decline(options: &FindOptions, need: usize) -> Option<String> {
    if need == 0 {
        return None;
    }
    match options.workspace {
        Some((ptr, size)) if ptr == 0 || size < need => {
            let have = if ptr == 0 { 0 } else { size };
            Some(format!("preallocated workspace of {have} bytes < the {need} the hipDNN plan needs"))
        }
        _ if need > options.workspace_limit => {
            Some(format!("workspace limit of {} bytes < the {need} the hipDNN plan needs", options.workspace_limit))
        }
        Some(_) => None,
        None => Some(format!(
            "no preallocated workspace for the {need} bytes the hipDNN plan needs (the wrapper allocates no buffers for a search)"
        )),
    }
}

/// A hipDNN solution as it is saved: the problem it solves, the time the
/// search measured and the hipDNN knobs its plan was built with (a loaded
/// solution runs the same plan, as MIOpen's runs the same solver; its
/// workspace is its plan's, never saved).
#[derive(Debug, Clone, PartialEq)]
pub struct SolvedProblem {
    pub problem: Problem,
    /// Milliseconds of the one timed run of the plan.
    pub time_ms: f32,
    pub knobs: Knobs,
}
