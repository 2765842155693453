//! Forwarding to hipDNN: the handlers behind the forwarding table.
//!
//! - [`entry`]: one function per forwarded entry point, called by the
//!   generated routed body; it maps the C arguments onto a handler in
//!   [`calls`] and returns `Some(status)` (ran on hipDNN, or failed there)
//!   or `None` (declined: the routed body calls MIOpen Private);
//! - [`find_mode`]: the Find mode set on a descriptor (declines a Normal Find);
//! - [`hooks`]: entry points observed while forwarding is enabled;
//! - [`read`]: MIOpen descriptors through Private's `_impl` getters;
//! - [`parity`]: the arguments MIOpen checks against its solvers (algo, solution id, workspace);
//! - [`graph`]: the hipDNN graph / plan / variant pack;
//! - [`state`]: the hipDNN handle of each MIOpen handle and the plan cache;
//! - [`backend`]: the lazily loaded hipDNN backend.

mod backend;
mod calls;
pub mod entry;
mod find_mode;
mod graph;
pub mod hooks;
pub mod last_error;
// The handlers' MIOpen types and `_impl` declarations. In a wrapper build,
// the stubs' own bindings of the header being built: a header whose types
// or prototypes differ from what a handler assumes fails to compile here
// (and the enumerator checks in it fail), instead of corrupting memory at
// run time. Without generated stubs (a plain `cargo test`), the committed
// bindings of the test bed's header (prettyplease layout, drift-tested
// byte for byte by rust/miopen-wrap/tests/forward_bindings.rs).
#[cfg(miopen_wrap_stubs)]
pub(crate) mod miopen_sys {
    pub use crate::stubs::impls::*;
    pub use crate::stubs::types::*;
}
#[cfg(not(miopen_wrap_stubs))]
#[allow(unused_imports)]
#[rustfmt::skip]
pub(crate) mod miopen_sys;
mod parity;
mod private;
mod read;
mod state;

use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use miopen_forwarding_core::driver_cmd::{self, CmdKind};
use miopen_forwarding_core::routing;
use miopen_forwarding_core::status::miopen;

/// The plan cache's counters, if any forwarded call used it.
pub fn cache_stats() -> Option<miopen_forwarding_core::plan_cache::Stats> {
    state::cache_stats()
}

/// Problems remembered as having no hipDNN engine, and the calls that
/// answer served, if any problem had none.
pub fn no_engine_stats() -> Option<(u64, u64)> {
    state::no_engine_stats()
}

/// What a handler did with a call.
pub enum Outcome {
    /// Ran on hipDNN (or answered for a forwarded problem); `note` goes to
    /// the trace (built only when the trace is on: see [`note`]).
    Forwarded { status: u32, note: Cow<'static, str> },
    /// Left to MIOpen Private, decided from the arguments before hipDNN ran.
    Declined(String),
    /// hipDNN failed (or is unavailable); the status is returned to the caller.
    /// `hipdnn` is the failing hipDNN call's status, or
    /// [`last_error::NO_HIPDNN_STATUS`] when no hipDNN call failed.
    Failed { status: u32, hipdnn: i32, why: String },
}

/// A trace note that needs formatting: formatted only when the routing
/// trace is on, so a forwarded call formats nothing by default.
pub fn note(text: impl FnOnce() -> String) -> Cow<'static, str> {
    if crate::runtime::config().verbose {
        Cow::Owned(text())
    } else {
        Cow::Borrowed("")
    }
}

/// [`run`] for a convolution entry point that MIOpen logs under
/// `MIOPEN_ENABLE_LOGGING_CMD`: a call MIOpen Private does not see (forwarded,
/// or failed on hipDNN) writes the MIOpenDriver line MIOpen would have.
pub fn run_logging_cmd(index: usize, c: &calls::Conv, kind: CmdKind, handler: impl FnOnce() -> Outcome) -> Option<u32> {
    run(index, || {
        let outcome = handler();
        if !matches!(outcome, Outcome::Declined(_)) && crate::runtime::config().env.log_driver_cmd {
            if let Ok(p) = read::problem(c.dir, &c.t, c.cd) {
                crate::runtime::write_stderr(&driver_cmd::line(&p, kind));
            }
        }
        outcome
    })
}

/// Run a handler under the panic boundary, trace the outcome, and turn it
/// into what the routed body needs.
pub fn run(index: usize, handler: impl FnOnce() -> Outcome) -> Option<u32> {
    let outcome = catch_unwind(AssertUnwindSafe(handler)).unwrap_or_else(|_| {
        // A bug here must not cross the C ABI, and hipDNN may already have
        // run: report it rather than silently running the call again.
        crate::runtime::write_stderr(
            "MIOpen(hipDNN wrapper): internal error: panic in the forwarding layer; the call returns miopenStatusInternalError\n",
        );
        Outcome::Failed {
            status: miopen::INTERNAL_ERROR,
            hipdnn: last_error::NO_HIPDNN_STATUS,
            why: "panic in the forwarding layer".into(),
        }
    });
    let config = crate::runtime::config();
    match outcome {
        Outcome::Forwarded { status, note } => {
            last_error::record(index, last_error::OUTCOME_SUCCEEDED, 0, status, "");
            crate::summary::count(index, crate::summary::Kind::Forwarded);
            if config.verbose {
                crate::runtime::trace(index, "hipDNN", &format!("forwarded; {note}"));
            }
            Some(status)
        }
        Outcome::Declined(cause) => {
            last_error::record_not_forwarded(index);
            crate::summary::count_declined(index, &cause);
            if config.verbose {
                crate::runtime::trace(index, "MIOpen Private", &routing::decline_text(&cause));
            }
            None
        }
        Outcome::Failed { status, hipdnn, why } => {
            last_error::record(index, last_error::OUTCOME_FAILED, hipdnn, status, &why);
            crate::summary::count(index, crate::summary::Kind::Failed);
            let target = format!("error {}", miopen::name(status));
            if config.verbose {
                crate::runtime::trace(index, &target, &why);
            } else if config.errors {
                // As MIOpen prints a failing call's error at its default level.
                let name = crate::entry_points().get(index).map_or("?", |e| e.name);
                crate::runtime::write_stderr(&format!("MIOpen(hipDNN wrapper): error: {name} -> {target}: {why}\n"));
            }
            Some(status)
        }
    }
}
