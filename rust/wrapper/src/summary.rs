//! `MIOPEN_HIPDNN_EXIT_SUMMARY=1`: every call is counted by entry point and
//! decision, and one table (with the plan-cache counters) is written to
//! stderr when the process exits: by `exit()` from any thread, not by
//! `_exit()` (a forked child that `_exit`s prints nothing).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use miopen_forwarding_core::per_thread::{Lease, Tally};
use miopen_forwarding_core::{Config, Family, Reason};

use crate::diagnostics;
use crate::entry_points;

/// A call's fate, as counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    ForwardingDisabled,
    NotInForwardingSet,
    OptedOut,
    Forwarded,
    Declined,
    Failed,
    /// Run on MIOpen Private by a handler that recorded its result.
    Observed,
}

const KINDS: [(Kind, &str); 7] = [
    (Kind::ForwardingDisabled, "MIOpen Private (forwarding disabled)"),
    (Kind::NotInForwardingSet, "MIOpen Private (not in the forwarding set)"),
    (Kind::OptedOut, "MIOpen Private (opted out)"),
    (Kind::Forwarded, "hipDNN"),
    (Kind::Declined, "MIOpen Private (declined)"),
    (Kind::Failed, "error (hipDNN failed or unavailable)"),
    (Kind::Observed, "MIOpen Private (observed)"),
];

/// Calls by entry point and kind (`index * KINDS.len() + kind`), counted by
/// each thread on its own lines and summed for the table: counting writes
/// no line another thread writes.
static COUNTS: OnceLock<Tally> = OnceLock::new();

thread_local! {
    /// Taken on this thread's first count, which comes after `install`.
    static MY_COUNTS: Option<Lease> = COUNTS.get().map(Tally::lease);
}
static PRINTED: AtomicBool = AtomicBool::new(false);
/// The lines after the table (the plan caches' counters), from whoever
/// keeps them: the summary itself knows nothing of forwarding.
static FOOTER: OnceLock<fn() -> String> = OnceLock::new();

/// Declined calls by entry point and cause: (entry index, cause, calls).
/// Causes repeat for the same problem, so the list stays short; past
/// [`MAX_CAUSES`] distinct ones the rest are counted together. Locked by a
/// declined call only (one MIOpen Private runs), never by a forwarded one.
static CAUSES: Mutex<Vec<(usize, String, u64)>> = Mutex::new(Vec::new());
const MAX_CAUSES: usize = 64;
const OTHER_CAUSES: &str = "(other causes)";

/// Register the exit handler when the summary is asked for; `footer` gives
/// the lines printed after the table.
pub fn install(config: &Config, footer: fn() -> String) {
    if !config.exit_summary {
        return;
    }
    let _ = FOOTER.set(footer);
    COUNTS.get_or_init(|| Tally::new(entry_points::all().len() * KINDS.len()));
    // SAFETY: `print_at_exit` is an `extern "C" fn()` that never unwinds.
    unsafe { libc::atexit(print_at_exit) };
}

/// Count a call of `family` routed to MIOpen Private by the policy.
pub fn count_decision(index: usize, reason: Reason, family: Option<Family>, config: &Config) {
    let kind = match reason {
        Reason::ForwardingDisabled => Kind::ForwardingDisabled,
        Reason::NotInForwardingSet => Kind::NotInForwardingSet,
        Reason::OptedOut => Kind::OptedOut,
        Reason::MiopenVariable if COUNTS.get().is_some() => {
            let variable = family.and_then(|f| config.env.decline_reason(f.group()));
            return count_declined(index, variable.unwrap_or(reason.as_str()));
        }
        Reason::MiopenVariable | Reason::Forwardable => return,
    };
    count(index, kind);
}

/// Count a call a forwarding handler declined, with its cause.
pub fn count_declined(index: usize, cause: &str) {
    if COUNTS.get().is_none() {
        return;
    }
    count(index, Kind::Declined);
    let mut causes = CAUSES.lock().unwrap_or_else(|e| e.into_inner());
    let known = causes.iter().position(|(i, c, _)| *i == index && c == cause);
    let slot = known.or_else(|| causes.iter().position(|(i, c, _)| *i == index && c == OTHER_CAUSES));
    match slot {
        Some(k) => causes[k].2 += 1,
        None if causes.len() < MAX_CAUSES => causes.push((index, cause.to_string(), 1)),
        None => causes.push((index, OTHER_CAUSES.to_string(), 1)),
    }
}

/// Count a call (nothing is kept unless the summary was asked for).
pub fn count(index: usize, kind: Kind) {
    if COUNTS.get().is_some() {
        let _ = MY_COUNTS.try_with(|c| c.as_ref().map(|c| c.add(index * KINDS.len() + kind as usize, 1)));
    }
}

extern "C" fn print_at_exit() {
    diagnostics::boundary(
        || {
            if !PRINTED.swap(true, Ordering::AcqRel) {
                diagnostics::write_stderr(&table());
            }
        },
        || {},
    );
}

/// The summary: one row per entry point and decision with calls > 0.
pub fn table() -> String {
    let mut out = diagnostics::line(&format!("exit summary (pid {})", std::process::id()));
    out.push_str(&format!("  {:<58} {:<46} {:>10}\n", "entry point", "decision", "calls"));
    let counts = COUNTS.get().map(Tally::sum).unwrap_or_default();
    for (entry, row) in entry_points::all().iter().zip(counts.chunks(KINDS.len())) {
        for (kind, label) in KINDS {
            let n = row[kind as usize];
            if n > 0 {
                out.push_str(&format!("  {:<58} {:<46} {:>10}\n", entry.name, label, n));
            }
        }
    }
    let causes = CAUSES.lock().unwrap_or_else(|e| e.into_inner());
    if !causes.is_empty() {
        out.push_str("  declined, by cause:\n");
        for (index, cause, n) in causes.iter() {
            let name = entry_points::name(*index);
            out.push_str(&format!("    {name:<56} {n:>10}  {cause}\n"));
        }
    }
    drop(causes);
    if let Some(footer) = FOOTER.get() {
        out.push_str(&footer());
    }
    out
}
