//! `MIOPEN_HIPDNN_EXIT_SUMMARY=1`: every call is counted by entry point and
//! decision, and one table (with the plan-cache counters) is written to
//! stderr when the process exits: by `exit()` from any thread, not by
//! `_exit()` (a forked child that `_exit`s prints nothing).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use miopen_forwarding_core::sync::Mutex;

use miopen_forwarding_core::per_thread::{Lease, Tally};
use miopen_forwarding_core::{table, Config, Family, Reason};

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
    /// Answered by the wrapper with MIOpen's status, before hipDNN ran anything.
    Refused,
}

/// The summary's one vocabulary, in the order rows are printed: what
/// happened to the calls, then who ran them. A hook's calls (the wrapper
/// records what it needs of a call MIOpen Private runs, as a handler's
/// observed calls) are "recorded" too, though the routing counts them as
/// not in the forwarding set.
const KINDS: [(Kind, &str); 8] = [
    (Kind::Forwarded, "forwarded (hipDNN)"),
    (Kind::Failed, "failed (hipDNN's error returned)"),
    (Kind::Refused, "refused (the wrapper, with MIOpen's status)"),
    (Kind::Declined, "declined (MIOpen Private)"),
    (Kind::Observed, "recorded (MIOpen Private)"),
    (Kind::NotInForwardingSet, "not in the set (MIOpen Private)"),
    (Kind::OptedOut, "opted out (MIOpen Private)"),
    (Kind::ForwardingDisabled, "forwarding disabled (MIOpen Private)"),
];

/// The outcome column's width: the longest label.
const OUTCOME: usize = 43;

/// The heading of the declined calls' causes.
const CAUSES_HEADING: &str = "  declined, by entry point and cause (most first):\n";

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

/// The summary: one row per entry point and outcome with calls > 0, the
/// declined calls' causes, and the footer.
pub fn table() -> String {
    let counts = COUNTS.get().map(Tally::sum).unwrap_or_default();
    let rows: Vec<Row> = entry_points::all()
        .iter()
        .zip(counts.chunks(KINDS.len()))
        .map(|(entry, row)| Row {
            entry: entry.name,
            hooked: table::hook(entry.name).is_some(),
            calls: std::array::from_fn(|k| row[k]),
        })
        .collect();
    let causes: Vec<Cause> = {
        let causes = CAUSES.lock().unwrap_or_else(|e| e.into_inner());
        causes.iter().map(|(i, c, n)| (entry_points::name(*i), c.clone(), *n)).collect()
    };
    let footer = FOOTER.get().map(|f| f()).unwrap_or_default();
    render(std::process::id(), &rows, causes, &footer)
}

/// One entry point's counts, indexed by [`Kind`].
struct Row {
    entry: &'static str,
    /// The entry point has a hook: its calls not in the set are recorded.
    hooked: bool,
    calls: [u64; KINDS.len()],
}

impl Row {
    /// The calls under each label, as printed.
    fn labelled(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        KINDS.iter().filter_map(|&(kind, label)| {
            let n = match kind {
                Kind::NotInForwardingSet if self.hooked => 0,
                Kind::Observed if self.hooked => {
                    self.calls[kind as usize] + self.calls[Kind::NotInForwardingSet as usize]
                }
                _ => self.calls[kind as usize],
            };
            (n > 0).then_some((label, n))
        })
    }
}

/// One line of the causes: entry point, cause, calls.
type Cause = (&'static str, String, u64);

fn render(pid: u32, rows: &[Row], mut causes: Vec<Cause>, footer: &str) -> String {
    let mut out = diagnostics::line(&format!("exit summary (pid {pid})"));
    out.push_str(&format!("  {:<58} {:<OUTCOME$} {:>10}\n", "entry point", "outcome", "calls"));
    for row in rows {
        for (label, n) in row.labelled() {
            out.push_str(&format!("  {:<58} {:<OUTCOME$} {:>10}\n", row.entry, label, n));
        }
    }
    if !causes.is_empty() {
        out.push_str(CAUSES_HEADING);
        sort_causes(&mut causes);
        for (entry, cause, n) in &causes {
            out.push_str(&format!("    {entry:<56} {n:>10}  {cause}\n"));
        }
    }
    out.push_str(footer);
    out
}

/// The causes grouped by entry point, the entry point with the most
/// declined calls first, and within one the most frequent cause first (ties
/// by name and text, so the order is the same in every run).
fn sort_causes(causes: &mut [Cause]) {
    let mut totals: HashMap<&str, u64> = HashMap::new();
    for &(entry, _, n) in causes.iter() {
        *totals.entry(entry).or_default() += n;
    }
    causes.sort_by(|(ea, ca, na), (eb, cb, nb)| {
        (totals[eb].cmp(&totals[ea])).then_with(|| ea.cmp(eb)).then_with(|| nb.cmp(na)).then_with(|| ca.cmp(cb))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(entry: &'static str, hooked: bool, counted: &[(Kind, u64)]) -> Row {
        let mut calls = [0; KINDS.len()];
        for &(k, n) in counted {
            calls[k as usize] = n;
        }
        Row { entry, hooked, calls }
    }

    fn body(text: &str) -> Vec<&str> {
        text.lines().skip(2).collect()
    }

    #[test]
    fn the_outcome_column_holds_the_longest_label() {
        assert_eq!(KINDS.iter().map(|(_, l)| l.len()).max(), Some(OUTCOME));
    }

    #[test]
    fn one_vocabulary_and_a_hooks_calls_are_recorded_like_a_handlers() {
        let rows = [
            row("miopenConvolutionForward", false, &[(Kind::Forwarded, 3), (Kind::Declined, 2)]),
            row("miopenCreateConvProblem", false, &[(Kind::Observed, 4)]),
            row("miopenCreateFusionPlan", true, &[(Kind::NotInForwardingSet, 5)]),
            row("miopenCreate", false, &[(Kind::NotInForwardingSet, 1)]),
        ];
        let text = render(7, &rows, Vec::new(), "");
        let lines = body(&text);
        let outcome = |entry: &str| -> Vec<String> {
            lines
                .iter()
                .filter(|l| l.split_whitespace().next() == Some(entry))
                .map(|l| l[2 + 59..2 + 59 + OUTCOME].trim_end().to_string())
                .collect()
        };
        assert_eq!(outcome("miopenConvolutionForward"), ["forwarded (hipDNN)", "declined (MIOpen Private)"]);
        assert_eq!(outcome("miopenCreateConvProblem"), ["recorded (MIOpen Private)"]);
        assert_eq!(outcome("miopenCreateFusionPlan"), ["recorded (MIOpen Private)"]);
        assert_eq!(outcome("miopenCreate"), ["not in the set (MIOpen Private)"]);
        assert!(text.starts_with("MIOpen(hipDNN wrapper): exit summary (pid 7)\n"), "{text}");
        // The calls are not lost or counted twice by the relabelling.
        let hooked = row("miopenDestroyFusionPlan", true, &[(Kind::NotInForwardingSet, 2), (Kind::Observed, 1)]);
        assert_eq!(hooked.labelled().collect::<Vec<_>>(), [("recorded (MIOpen Private)", 3)]);
        // Without the hook the same counts read "not in the set" (the check above can fail).
        let plain = row("miopenDestroyFusionPlan", false, &[(Kind::NotInForwardingSet, 2)]);
        assert_eq!(plain.labelled().collect::<Vec<_>>(), [("not in the set (MIOpen Private)", 2)]);
    }

    #[test]
    fn causes_are_grouped_by_entry_point_and_sorted_by_count() {
        let scattered = vec![
            ("miopenB", "b rare".to_string(), 1),
            ("miopenA", "a one".to_string(), 2),
            ("miopenB", "b often".to_string(), 5),
            ("miopenA", "a two".to_string(), 3),
            ("miopenC", "c".to_string(), 1),
        ];
        let text = render(1, &[], scattered.clone(), "");
        let got: Vec<&str> = body(&text).into_iter().skip_while(|l| !l.starts_with("  declined, by")).collect();
        let want = ["miopenB 5 b often", "miopenB 1 b rare", "miopenA 3 a two", "miopenA 2 a one", "miopenC 1 c"];
        assert_eq!(got[0], CAUSES_HEADING.trim_end());
        let squeezed: Vec<String> =
            got[1..].iter().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
        assert_eq!(squeezed, want);
        // The input order is not the printed one (the sort did something).
        let unsorted: Vec<String> = scattered.iter().map(|(e, c, n)| format!("{e} {n} {c}")).collect();
        assert_ne!(unsorted, want);
    }
}
