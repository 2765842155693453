//! The adoption report: one text page for people, the same facts as JSON
//! (`<work-dir>/adopt-report.json`, or `--report json` on stdout).
use std::fmt::Write as _;
use std::path::Path;

use object::{Object, ObjectSymbol};
use serde_json::{json, Value};

use super::edits::EditsReport;
use crate::generate::Manifest;
use crate::rename::Report as RenameReport;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepStatus {
    Ok,
    Fail,
    Skipped,
}

impl StepStatus {
    pub fn check(passed: bool) -> StepStatus {
        if passed {
            StepStatus::Ok
        } else {
            StepStatus::Fail
        }
    }

    fn word(self) -> &'static str {
        match self {
            StepStatus::Ok => "ok",
            StepStatus::Fail => "FAIL",
            StepStatus::Skipped => "skipped",
        }
    }
}

pub struct StepLine {
    pub name: &'static str,
    pub status: StepStatus,
    pub detail: String,
}

pub struct AdoptReport {
    source: String,
    tree: String,
    work_dir: String,
    pub ok: bool,
    steps: Vec<StepLine>,
    pub rename: Option<RenameReport>,
    pub rename_files_due: Option<usize>,
    pub manifest: Option<Manifest>,
    pub stubs_compiled: Option<usize>,
    pub cmake_edits: Option<EditsReport>,
    pub cmake_edits_due: Option<usize>,
    pub source_edits: Option<EditsReport>,
    pub source_edits_due: Option<usize>,
}

impl AdoptReport {
    pub fn new(source: &Path, tree: &Path, work: &Path) -> AdoptReport {
        AdoptReport {
            source: source.display().to_string(),
            tree: tree.display().to_string(),
            work_dir: work.display().to_string(),
            ok: false,
            steps: Vec::new(),
            rename: None,
            rename_files_due: None,
            manifest: None,
            stubs_compiled: None,
            cmake_edits: None,
            cmake_edits_due: None,
            source_edits: None,
            source_edits_due: None,
        }
    }

    /// Record a step; its line is printed on stderr as it finishes.
    pub fn step(&mut self, name: &'static str, status: StepStatus, detail: impl Into<String>) {
        let detail = detail.into();
        eprintln!(
            "adopt: [{}] {name}{}",
            status.word(),
            if detail.is_empty() { String::new() } else { format!(" -- {detail}") }
        );
        self.steps.push(StepLine { name, status, detail });
    }

    pub fn finish(&mut self) {
        self.ok = !self.steps.is_empty() && self.steps.iter().all(|s| s.status != StepStatus::Fail);
    }

    fn status_of(&self, name: &str) -> &'static str {
        self.steps.iter().find(|s| s.name == name).map_or("not run", |s| s.status.word())
    }

    pub fn render_text(&self) -> String {
        let mut t = String::new();
        let rule = "=".repeat(78);
        let _ = writeln!(
            t,
            "{rule}\nMIOpen adoption report: {}\n  tree: {}\n  work dir: {}",
            self.source, self.tree, self.work_dir
        );
        match &self.rename {
            Some(r) => rename_lines(&mut t, r, self.status_of("logger-compile") == "ok"),
            None => t.push_str("  rename: no report (rename did not run to completion)\n"),
        }
        if let Some(m) = &self.manifest {
            let beta = m.entry_points.iter().filter(|e| e.beta).count();
            let compiled = self
                .stubs_compiled
                .map_or("not compiled".to_string(), |n| format!("{n} defined in the compiled staticlib"));
            let _ = writeln!(
                t,
                "  stubs generated:               {} entry points ({beta} beta) + {} survivors; {}: {compiled}",
                m.entry_points.len(),
                m.survivors.len(),
                self.status_of("stubs")
            );
        }
        let _ = writeln!(t, "  impl header / type check:      {}", self.status_of("typecheck"));
        if let Some(e) = &self.cmake_edits {
            let _ = writeln!(t, "  CMake edits:                   {}", edits_summary(e));
            t.push_str(&render_edits(e));
        }
        if let Some(e) = &self.source_edits {
            let _ = writeln!(t, "  source edits:                  {}", edits_summary(e));
            t.push_str(&render_edits(e));
        }
        let _ = writeln!(t, "  logger edit compiles:          {}", self.status_of("logger-compile"));
        let mut second = Vec::new();
        if let Some(n) = self.rename_files_due {
            second.push(format!("rename {n} file(s) due"));
        }
        if let Some(n) = self.cmake_edits_due {
            second.push(format!("CMake edits {n} change(s) due"));
        }
        if let Some(n) = self.source_edits_due {
            second.push(format!("source edits {n} change(s) due"));
        }
        let second = if second.is_empty() { "not run".to_string() } else { second.join("; ") };
        let _ = writeln!(t, "  second run:                    {second}");
        let steps: Vec<String> = self.steps.iter().map(|s| format!("{}={}", s.name, s.status.word())).collect();
        let _ = writeln!(t, "  steps: {}\nRESULT: {}\n{rule}", steps.join(", "), if self.ok { "PASS" } else { "FAIL" });
        t
    }

    pub fn to_json(&self) -> String {
        let steps: serde_json::Map<String, Value> = self
            .steps
            .iter()
            .map(|s| (s.name.to_string(), json!({"status": s.status.word(), "detail": s.detail})))
            .collect();
        let mut out = json!({
            "source": self.source, "tree": self.tree, "work_dir": self.work_dir, "ok": self.ok, "steps": steps,
            "second_run": {
                "rename_files_due": self.rename_files_due,
                "cmake_edits_changes_due": self.cmake_edits_due,
                "source_edits_changes_due": self.source_edits_due,
            },
        });
        if let Some(r) = &self.rename {
            out["rename"] = json!({
                "public_names": r.public_names, "definitions_renamed": r.definitions_renamed,
                "call_sites_renamed": r.call_sites_renamed, "declarations_renamed": r.declarations_renamed,
                "files_touched": r.files_touched, "files_scanned": r.files_scanned,
                "left_alone_in_strings_comments": r.left_alone_in_strings_comments, "collisions": r.collisions,
                "survivors": r.survivors.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            });
        }
        if let Some(m) = &self.manifest {
            out["stubs_generated"] = json!(m.entry_points.len());
            out["stubs_compiled"] = json!(self.stubs_compiled);
        }
        if let Some(e) = &self.cmake_edits {
            out["cmake_edits"] = json!(e);
        }
        if let Some(e) = &self.source_edits {
            out["source_edits"] = json!(e);
        }
        serde_json::to_string_pretty(&out).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

fn rename_lines(t: &mut String, r: &RenameReport, logger_edited: bool) {
    let (pn, d, la) = (&r.public_names, &r.definitions_renamed, &r.left_alone_in_strings_comments);
    let names = |v: Vec<&str>| if v.is_empty() { String::new() } else { format!(": {}", v.join(", ")) };
    let _ = writeln!(
        t,
        "  public names in miopen.h:      {} ({} without beta, {} beta); {} without a definition in src/",
        pn.total,
        pn.non_beta,
        pn.beta,
        r.public_names_without_definition.len()
    );
    let _ = writeln!(
        t,
        "  definitions renamed to _impl:  {} (extern \"C\" {}, extern \"C\" block {}, bare {}; {} with MIOPEN_EXPORT; incl. {} survivors)",
        d.total, d.extern_c, d.extern_c_block, d.bare, d.with_miopen_export, d.survivors
    );
    let _ = writeln!(
        t,
        "  internal call sites renamed:   {} (+ {} declarations, {} private declaration blocks) in {} of {} files",
        r.call_sites_renamed, r.declarations_renamed, r.blocks.blocks_written, r.files_touched, r.files_scanned
    );
    if r.already_renamed_occurrences > 0 {
        let _ = writeln!(
            t,
            "  already in _impl form:         {} occurrences (tree adopted before)",
            r.already_renamed_occurrences
        );
    }
    let _ = writeln!(
        t,
        "  strings/comments left alone:   {} occurrences in {} tokens ({} strings, {} comments)",
        la.occurrences, la.tokens, la.string_tokens, la.comment_tokens
    );
    let survivors = names(r.survivors.iter().map(|s| s.name.as_str()).collect());
    let _ = writeln!(t, "  survivors (exported C, not in header): {}{survivors}", r.survivors.len());
    let collisions = names(r.collisions.iter().map(|c| c.impl_name.as_str()).collect());
    let _ = writeln!(t, "  collisions:                    {}{collisions}", r.collisions.len());
    if !r.func_name_warnings.is_empty() {
        let _ = writeln!(
            t,
            "  note: {} renamed functions log their own name via __func__ & co.; {}",
            r.func_name_warnings.len(),
            if logger_edited {
                "the logger edit logs them without _impl"
            } else {
                "without the logger edit they log the _impl name"
            }
        );
    }
}

fn edits_summary(e: &EditsReport) -> String {
    if e.changes > 0 {
        format!("applied ({} change(s) in {} file(s))", e.changes, e.files_changed)
    } else {
        "already applied (0 changes)".into()
    }
}

/// One line per edit outcome (CMake or source).
pub fn render_edits(e: &EditsReport) -> String {
    let mut t = String::new();
    for s in &e.steps {
        let changes = if s.changes > 0 { format!(" ({})", s.changes) } else { String::new() };
        let _ = writeln!(t, "      {:<20} {:<8} {}{changes}", s.id, s.status, s.file);
    }
    t
}

/// Global `miopen*` functions the static library defines (every member object).
pub fn defined_miopen_functions(lib: &Path) -> Result<usize, String> {
    let data = std::fs::read(lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    let archive = object::read::archive::ArchiveFile::parse(&*data).map_err(|e| format!("{}: {e}", lib.display()))?;
    let mut names = std::collections::BTreeSet::new();
    for member in archive.members() {
        let member = member.map_err(|e| format!("{}: {e}", lib.display()))?;
        let Ok(bytes) = member.data(&*data) else { continue };
        let Ok(obj) = object::File::parse(bytes) else { continue };
        for sym in obj.symbols() {
            let defined_function = sym.is_definition() && sym.is_global() && sym.kind() == object::SymbolKind::Text;
            if let (true, Ok(name)) = (defined_function, sym.name()) {
                if name.starts_with("miopen") {
                    names.insert(name.to_string());
                }
            }
        }
    }
    Ok(names.len())
}
