//! A handler's outcome and the one place that turns it into what the
//! routed body returns, the last-error record, the exit summary's counts
//! and the routing trace.

use std::borrow::Cow;

use miopen_forwarding_core::routing::{self, Route};
use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::Config;

use crate::diagnostics;
use crate::entry_points;
use crate::forward::last_error;
use crate::summary::{self, Kind};

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
    /// The handler ran the call on MIOpen Private itself and recorded what
    /// it needs of the result (the contents of an opaque object MIOpen has
    /// no getter for); `status` is Private's, `note` goes to the trace.
    Observed { status: u32, note: &'static str },
    /// [`Outcome::Declined`], where the handler has already run the call on
    /// MIOpen Private itself to record what it returned; `status` is
    /// Private's (the call is not run again).
    DeclinedRan { status: u32, cause: String },
    /// A call the wrapper answers itself (there is no MIOpen object to
    /// leave it to) and refuses with MIOpen's status before hipDNN runs
    /// anything; `why` says what was wrong and what MIOpen says of the same
    /// call on an object of its own.
    Refused { status: u32, why: String },
}

/// A trace note that needs formatting: formatted only when the routing
/// trace is on, so a forwarded call formats nothing by default.
pub fn note(config: &Config, text: impl FnOnce() -> String) -> Cow<'static, str> {
    if config.verbose {
        Cow::Owned(text())
    } else {
        Cow::Borrowed("")
    }
}

/// The outcome of a panic in a handler: hipDNN may already have run, so
/// the call is not run again on MIOpen; it fails, and says so.
fn panicked() -> Outcome {
    diagnostics::write_stderr(&diagnostics::line(
        "internal error: panic in the forwarding layer; the call returns miopenStatusInternalError",
    ));
    Outcome::Failed {
        status: miopen::INTERNAL_ERROR,
        hipdnn: last_error::NO_HIPDNN_STATUS,
        why: "panic in the forwarding layer".into(),
    }
}

/// Run a handler of entry point `index` under the panic boundary, record,
/// count and trace the outcome, and turn it into what the routed body
/// needs: `Some(status)` to return, `None` to run MIOpen Private.
pub fn run(index: usize, config: &Config, handler: impl FnOnce() -> Outcome) -> Option<u32> {
    match diagnostics::boundary(handler, panicked) {
        Outcome::Forwarded { status, note } => {
            last_error::record(index, last_error::OUTCOME_SUCCEEDED, 0, status, "");
            summary::count(index, Kind::Forwarded);
            if config.verbose {
                crate::trace::call(index, Route::Hipdnn.target(), &format!("forwarded; {note}"));
            }
            Some(status)
        }
        Outcome::Declined(cause) => declined(index, config, &cause, None),
        Outcome::Failed { status, hipdnn, why } => {
            last_error::record(index, last_error::OUTCOME_FAILED, hipdnn, status, &why);
            summary::count(index, Kind::Failed);
            let target = format!("error {}", miopen::name(status));
            if config.verbose {
                crate::trace::call(index, &target, &why);
            } else if config.errors {
                // As MIOpen prints a failing call's error at its default level.
                diagnostics::error(&format!("{} -> {target}: {why}", entry_points::name(index)));
            }
            Some(status)
        }
        Outcome::DeclinedRan { status, cause } => declined(index, config, &cause, Some(status)),
        Outcome::Refused { status, why } => {
            last_error::record(index, last_error::OUTCOME_SUCCEEDED, 0, status, "");
            summary::count(index, Kind::Refused);
            let refused = refusal(status, &why);
            if config.verbose {
                crate::trace::call(index, Route::Hipdnn.target(), &format!("forwarded; {refused}"));
            } else if config.errors {
                // MIOpen reports a call it refuses at its error level (its
                // `try_` writes the exception's text to stderr,
                // src/include/miopen/errors.hpp @ ROCm/MIOpen 2d1fd997; its
                // logger at Error level too, `MIOpenThrow` in rocm-libraries
                // projects/miopen/src/include/miopen/errors.hpp @ 192ec0f5).
                diagnostics::error(&format!("{} -> {refused}", entry_points::name(index)));
            }
            Some(status)
        }
        Outcome::Observed { status, note } => {
            last_error::record_not_forwarded(index);
            summary::count(index, Kind::Observed);
            if config.verbose {
                crate::trace::call(index, Route::Private.target(), &format!("observed: {note}"));
            }
            Some(status)
        }
    }
}

/// The one text of a refusal, for the trace and the error line.
fn refusal(status: u32, why: &str) -> String {
    format!("refused with {}: {why}", miopen::name(status))
}

/// A declined call: recorded, counted and traced as left to MIOpen Private;
/// `ran` is Private's status when the handler already ran it (returned as
/// the call's), `None` to run it now.
fn declined(index: usize, config: &Config, cause: &str, ran: Option<u32>) -> Option<u32> {
    last_error::record_not_forwarded(index);
    summary::count_declined(index, cause);
    if config.verbose {
        crate::trace::call(index, Route::Private.target(), &routing::decline_text(cause));
    }
    ran
}
