//! What every family group's handlers share.
//!
//! - [`outcome`]: a handler's [`Outcome`] and [`outcome::run`], which runs it
//!   under the panic boundary and records, counts and traces the outcome;
//! - [`steps`]: the steps handlers are written in (decline, fail, a ready
//!   plan, workspace and pointer checks);
//! - [`read`]: tensor descriptors and scaling factors through Private's getters;
//! - [`graph`]: hipDNN graph -> plan -> variant pack (a group adds its operations);
//! - [`state`]: the hipDNN handle of each MIOpen handle, the plan cache and
//!   the per-thread plan slot;
//! - [`generations`]: descriptor generations, advanced by every entry point
//!   that can change a watched descriptor;
//! - [`memo`]: a thread's memory of what unchanged descriptors translated to;
//! - [`revised`]: a thread's memory of answers from a locked book, valid while
//!   the book's revision stands;
//! - [`row`]: a group's runtime row (release, hipDNN probes);
//! - `backend`: the lazily loaded hipDNN backend.

mod backend;
pub mod generations;
pub mod graph;
pub mod memo;
pub mod outcome;
pub mod read;
pub mod revised;
pub mod row;
pub mod state;
pub mod steps;

pub use outcome::{note, run, Outcome};
pub use row::{nothing_to_release, Probed, RuntimeRow};
pub use steps::Workspace;

/// The exit summary's lines about the plan caches (only what was used).
pub fn summary_footer() -> String {
    let mut out = match state::cache_stats() {
        Some(s) => format!(
            "  plan cache: hits {}, misses {}, evictions {}, entries {} (capacity {})\n",
            s.hits, s.misses, s.evictions, s.entries, s.capacity
        ),
        None => "  plan cache: not used\n".to_string(),
    };
    if let Some((problems, reused)) = state::no_engine_stats() {
        out.push_str(&format!(
            "  problems hipDNN has no engine for: {problems} remembered, answered from memory {reused} time(s)\n"
        ));
    }
    out
}

/// Hands the groups' runtime rows to the shared runtime (before any call is
/// routed: the backend's load probes what they ask for).
pub fn install(groups: &'static [&'static RuntimeRow]) {
    backend::install(groups);
}

/// `miopenDestroy(h)` for the shared state: the handle's plans and hipDNN
/// handle. Returns how many plans were released and whether a hipDNN handle was.
pub fn release(h: usize) -> (usize, bool) {
    state::release(backend::loaded(), h)
}
