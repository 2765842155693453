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
//! - [`handle_workspace`]: the workspace a MIOpen handle owns for hipDNN plans
//!   MIOpen's API passes none to, from the handle's allocator or
//!   `hip_runtime` (HIP's, as MIOpen Private loaded it);
//! - `backend`: the lazily loaded hipDNN backend.

mod backend;
pub mod generations;
pub mod graph;
pub mod handle_workspace;
mod hip_runtime;
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

/// The exit summary's lines about the plan caches (only what was used):
/// the counters over the run, then what is held at exit, said apart, so
/// that hits with no plan held (every handle destroyed) read as what they are.
pub fn summary_footer() -> String {
    let mut out = match state::cache_stats() {
        Some(s) => {
            let run =
                format!("  plan cache over the run: hits {}, misses {}, evictions {}\n", s.hits, s.misses, s.evictions);
            let held = format!(
                "  plan cache at exit: {} plan(s) held, capacity {} (destroying a MIOpen handle releases its plans)\n",
                s.entries, s.capacity
            );
            run + &held
        }
        None => "  plan cache: not used (no call built a hipDNN plan)\n".to_string(),
    };
    if let Some((problems, reused)) = state::no_engine_stats().filter(|&counts| counts != (0, 0)) {
        out.push_str(&format!(
            "  problems hipDNN has no engine for: {problems} remembered, answered from memory {reused} time(s)\n"
        ));
    }
    out.extend(handle_workspace::summary_line());
    out
}

/// Hands the groups' runtime rows to the shared runtime (before any call is
/// routed: the backend's load probes what they ask for).
pub fn install(groups: &'static [&'static RuntimeRow]) {
    backend::install(groups);
}

/// The path of the library this code is linked into (`libMIOpen.so`),
/// found by the address of one of its own functions.
fn own_library_path() -> Option<std::ffi::CString> {
    // SAFETY: a zeroed Dl_info is valid (pointers null); dladdr fills it.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let addr = own_library_path as *const () as *const libc::c_void;
    // SAFETY: dladdr only reads the address and fills `info`.
    if unsafe { libc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr returned a NUL-terminated path owned by the loader.
    Some(unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_owned())
}

/// `miopenDestroy(h)` for the shared state: the handle's plans, hipDNN
/// handle and workspace. Returns how many plans were released, whether a
/// hipDNN handle was, and how many bytes of workspace were freed.
pub fn release(h: usize) -> (usize, bool, usize) {
    let (plans, hipdnn) = state::release(backend::loaded(), h);
    (plans, hipdnn, handle_workspace::release(h))
}
