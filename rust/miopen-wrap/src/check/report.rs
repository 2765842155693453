//! Outcome of one gate: what it looked at (notes), what is wrong (problems)
//! and a one-line verdict.
use std::fmt::Write as _;
use std::path::Path;

use super::Gate;

#[derive(Debug, Clone)]
pub struct GateReport {
    pub gate: Gate,
    /// Informational lines: inputs, counts, allowed differences.
    pub notes: Vec<String>,
    /// One line per violation, naming the offending symbol or file.
    pub problems: Vec<String>,
    /// Short summary used in the verdict line.
    pub summary: String,
}

impl GateReport {
    pub fn new(gate: Gate) -> Self {
        GateReport { gate, notes: Vec::new(), problems: Vec::new(), summary: String::new() }
    }

    pub fn note(&mut self, line: impl Into<String>) {
        self.notes.push(line.into());
    }

    pub fn problem(&mut self, line: impl Into<String>) {
        self.problems.push(line.into());
    }

    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }

    /// `PASS <gate>: ...` or `FAIL <gate>: ...`.
    pub fn verdict(&self) -> String {
        let word = if self.passed() { "PASS" } else { "FAIL" };
        format!("{word} {}: {}", self.gate.name(), self.summary)
    }

    /// Full text: header, notes, problems, verdict line last.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "== {}", self.gate.name());
        for n in &self.notes {
            let _ = writeln!(out, "  {n}");
        }
        for p in &self.problems {
            let _ = writeln!(out, "  error: {p}");
        }
        let _ = writeln!(out, "{}", self.verdict());
        out
    }
}

/// Join a list for a verdict line, eliding after `max` entries.
/// A file's name as a report shows it (its path when it has none).
pub(crate) fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| p.display().to_string())
}

pub fn short_list<S: AsRef<str>>(items: &[S], max: usize) -> String {
    let mut s = items.iter().take(max).map(|x| x.as_ref()).collect::<Vec<_>>().join(", ");
    if items.len() > max {
        let _ = write!(s, ", ... ({} more)", items.len() - max);
    }
    s
}
