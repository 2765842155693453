//! Gate `abi`: `abidiff <baseline> <wrapper>` (libabigail).
//!
//! Fails on any symbol-level difference: removed functions or variables
//! (with or without debug info), changed functions or variables described by
//! C/C++ debug info on both sides, SONAME or architecture changes. Added
//! symbols are allowed (wrapper-only additions).
//!
//! The wrapper's stubs are Rust. With line-table debug info (`debug = 1`)
//! or full Rust DWARF, libabigail sees the stubs as `void f()` or with Rust
//! type names and reports them "changed" against the C declarations in the
//! baseline. Those reports are about the debug info, not the ABI, so the gate
//! finds which exported symbols are described only by non-C DWARF (via
//! `abidw`) and re-runs abidiff with them dropped; only what remains fails.
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use super::contract;
use super::elf::ElfInfo;
use super::error::{CheckError, Result};
use super::report::{file_name, GateReport};
use super::Gate;

const ABIDIFF_ERROR: i32 = 1;
const ABIDIFF_USAGE_ERROR: i32 = 2;

#[derive(Debug, Clone)]
pub struct AbiOptions {
    /// abidiff executable (default `abidiff`).
    pub abidiff: String,
    /// abidw executable (default `abidw`), used to classify debug info.
    pub abidw: String,
    /// Extra arguments passed to abidiff (e.g. `--suppressions FILE`).
    pub extra_args: Vec<String>,
    /// Also compare C++ (`_Z`) symbols. Off by default: the baseline's
    /// internal C++ exports move to libMIOpen_private and are not part of the
    /// public C API the wrapper re-exports (RFC 0001 §6, leakage rows).
    pub include_cxx: bool,
}

impl Default for AbiOptions {
    fn default() -> Self {
        AbiOptions { abidiff: "abidiff".into(), abidw: "abidw".into(), extra_args: Vec::new(), include_cxx: false }
    }
}

/// Counts from one abidiff run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AbidiffSummary {
    pub removed_functions: u64,
    pub changed_functions: u64,
    pub added_functions: u64,
    pub removed_variables: u64,
    pub changed_variables: u64,
    pub added_variables: u64,
    pub removed_function_symbols: u64,
    pub removed_variable_symbols: u64,
    pub added_function_symbols: u64,
    pub added_variable_symbols: u64,
    /// ELF-level changes (SONAME, architecture).
    pub elf_changes: Vec<String>,
    /// The summary lines as abidiff printed them.
    pub summary_lines: Vec<String>,
}

impl AbidiffSummary {
    pub fn removed(&self) -> u64 {
        self.removed_functions + self.removed_variables + self.removed_function_symbols + self.removed_variable_symbols
    }
    pub fn changed(&self) -> u64 {
        self.changed_functions + self.changed_variables
    }
}

/// The number immediately before `word` in `line` (`"1 Removed"` -> 1).
fn count_before(line: &str, word: &str) -> u64 {
    let Some(idx) = line.find(word) else { return 0 };
    line[..idx].split(|c: char| !c.is_ascii_digit()).rfind(|s| !s.is_empty()).and_then(|s| s.parse().ok()).unwrap_or(0)
}

pub fn parse_abidiff(output: &str) -> AbidiffSummary {
    let mut s = AbidiffSummary::default();
    // "ELF SONAME changed" is a heading; the detail line says from/to.
    let mut headers: Vec<String> = Vec::new();
    let mut details: Vec<String> = Vec::new();
    for line in output.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("Functions changes summary:") {
            s.removed_functions += count_before(rest, "Removed");
            s.changed_functions += count_before(rest, "Changed");
            s.added_functions += count_before(rest, "Added");
            s.summary_lines.push(t.to_string());
        } else if let Some(rest) = t.strip_prefix("Variables changes summary:") {
            s.removed_variables += count_before(rest, "Removed");
            s.changed_variables += count_before(rest, "Changed");
            s.added_variables += count_before(rest, "Added");
            s.summary_lines.push(t.to_string());
        } else if let Some(rest) = t.strip_prefix("Function symbols changes summary:") {
            s.removed_function_symbols += count_before(rest, "Removed");
            s.added_function_symbols += count_before(rest, "Added");
            s.summary_lines.push(t.to_string());
        } else if let Some(rest) = t.strip_prefix("Variable symbols changes summary:") {
            s.removed_variable_symbols += count_before(rest, "Removed");
            s.added_variable_symbols += count_before(rest, "Added");
            s.summary_lines.push(t.to_string());
        } else if t.starts_with("SONAME changed from") || t.starts_with("architecture changed from") {
            details.push(t.to_string());
        } else if t == "ELF SONAME changed" || t == "ELF architecture changed" {
            headers.push(t.to_string());
        }
    }
    s.elf_changes = if details.is_empty() { headers } else { details };
    s.summary_lines.extend(s.elf_changes.iter().cloned());
    s
}

/// A tool's exit status, its standard output, and both streams together
/// (for messages).
struct ToolRun {
    code: i32,
    stdout: String,
    all: String,
}

fn run_tool(program: &str, args: &[String]) -> Result<ToolRun> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|source| CheckError::Spawn { program: program.to_string(), source })?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let all = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    match out.status.code() {
        Some(code) => Ok(ToolRun { code, stdout, all }),
        None => Err(tool_failed(program, out.status.to_string(), &all)),
    }
}

fn tool_failed(program: &str, status: String, output: &str) -> CheckError {
    CheckError::ToolFailed {
        program: program.to_string(),
        status,
        detail: output.lines().take(5).collect::<Vec<_>>().join(" | "),
    }
}

/// Run abidiff with a generated suppression specification for `suppress`
/// (symbol-name regexes; `_Z` ones too unless `include_cxx`) and for the
/// exact symbol names `names` (thousands on a real MIOpen: one short
/// section each rather than one huge regex).
fn abidiff(
    opts: &AbiOptions,
    baseline: &Path,
    wrapper: &Path,
    suppress: &[String],
    names: &[String],
) -> Result<(i32, String)> {
    let mut regexes: Vec<String> = suppress.to_vec();
    if !opts.include_cxx {
        regexes.push("^_Z".to_string());
    }
    let mut args: Vec<String> = opts.extra_args.clone();
    // Kept alive until abidiff has run; removed when dropped.
    let mut suppressions = None;
    if !regexes.is_empty() || !names.is_empty() {
        let file = write_suppressions(&regexes, names)?;
        // abidiff wants `--suppressions FILE` as two arguments.
        args.push("--suppressions".to_string());
        args.push(file.path().display().to_string());
        suppressions = Some(file);
    }
    args.push(baseline.display().to_string());
    args.push(wrapper.display().to_string());
    let result = run_tool(&opts.abidiff, &args);
    drop(suppressions);
    let run = result?;
    if run.code & (ABIDIFF_ERROR | ABIDIFF_USAGE_ERROR) != 0 {
        return Err(tool_failed(&opts.abidiff, run.code.to_string(), &run.all));
    }
    Ok((run.code, run.all))
}

/// A libabigail suppression specification hiding every function and
/// variable whose symbol name matches one of `regexes` or is one of `names`.
fn write_suppressions(regexes: &[String], names: &[String]) -> Result<tempfile::NamedTempFile> {
    use std::io::Write as _;
    let io = |source| CheckError::Io { path: std::env::temp_dir(), source };
    let mut file = tempfile::Builder::new().prefix("miopen-wrap-abi-").suffix(".suppr").tempfile().map_err(io)?;
    for re in regexes {
        write!(
            file,
            "[suppress_function]\n  symbol_name_regexp = {re}\n[suppress_variable]\n  symbol_name_regexp = {re}\n"
        )
        .map_err(io)?;
    }
    for name in names {
        write!(file, "[suppress_function]\n  symbol_name = {name}\n[suppress_variable]\n  symbol_name = {name}\n")
            .map_err(io)?;
    }
    file.flush().map_err(io)?;
    Ok(file)
}

/// Exported symbols of `lib` by the language of the DWARF that describes
/// them: (described by C/C++ debug info, described only by other debug info).
fn classify_debug_info(opts: &AbiOptions, lib: &Path) -> Result<(BTreeSet<String>, BTreeSet<String>)> {
    let run = run_tool(&opts.abidw, &[lib.display().to_string()])?;
    if run.code != 0 {
        return Err(tool_failed(&opts.abidw, run.code.to_string(), &run.all));
    }
    symbols_by_debug_language(&run.stdout)
        .map_err(|e| tool_failed(&opts.abidw, "0".into(), &format!("output is not abidw XML: {e}")))
}

/// From an abidw corpus: (symbols declared in a C/C++ translation unit,
/// symbols declared only in translation units of other languages).
fn symbols_by_debug_language(xml: &str) -> std::result::Result<(BTreeSet<String>, BTreeSet<String>), String> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| e.to_string())?;
    let mut c = BTreeSet::new();
    let mut other = BTreeSet::new();
    for unit in doc.descendants().filter(|n| n.has_tag_name("abi-instr")) {
        let is_c = is_c_family(unit.attribute("language").unwrap_or(""));
        let decls = unit.descendants().filter(|n| n.has_tag_name("function-decl") || n.has_tag_name("var-decl"));
        for id in decls.filter_map(|d| d.attribute("elf-symbol-id")) {
            let name = id.split('@').next().unwrap_or(id).to_string();
            if is_c {
                c.insert(name);
            } else {
                other.insert(name);
            }
        }
    }
    let other = other.difference(&c).cloned().collect();
    Ok((c, other))
}

/// libabigail's language names of C and C++ (`LANG_C`, `LANG_C11`,
/// `LANG_C_plus_plus_14`), not `LANG_Cobol` and the like.
fn is_c_family(lang: &str) -> bool {
    lang.strip_prefix("LANG_C")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('_') || rest.starts_with(|c: char| c.is_ascii_digit()))
}

fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if "\\.+*?()|[]{}^$".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

fn interesting_lines(text: &str, max: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out: Vec<String> = lines.iter().take(max).map(|l| format!("  | {l}")).collect();
    if lines.len() > max {
        out.push(format!("  | ... ({} more lines)", lines.len() - max));
    }
    out
}

pub fn abi(baseline: &Path, wrapper: &Path, opts: &AbiOptions) -> Result<GateReport> {
    // Both must be readable shared libraries before abidiff gets them.
    let b = ElfInfo::read_shared(baseline)?;
    let w = ElfInfo::read_shared(wrapper)?;
    let mut r = GateReport::new(Gate::Abi);
    r.note(format!("baseline: {}", baseline.display()));
    r.note(format!("wrapper:  {}", wrapper.display()));
    note_scope(&b, &w, opts, &mut r);
    // The export contract (contract.rs), as no-dropped applies it: the
    // baseline's internal exports are not API, so their absence from the
    // wrapper is no removal.
    let internal = contract::internal_exports(&b);
    if !internal.is_empty() {
        r.note(format!(
            "{} internal export(s) of the baseline (unversioned in a versioned library; not API) not compared",
            internal.len()
        ));
    }
    let (code, text) = abidiff(opts, baseline, wrapper, &[], &internal)?;
    let full = parse_abidiff(&text);
    r.note(format!("abidiff exit status {code}"));
    if full.summary_lines.is_empty() {
        r.note("abidiff summary: no ABI difference");
    }
    for l in &full.summary_lines {
        r.note(format!("abidiff summary: {l}"));
    }
    report_removals(&full, &text, &mut r);
    let pair = Pair { baseline, wrapper, b: &b, internal: &internal };
    let changes = if full.changed() > 0 { real_changes(opts, &pair, &full, &mut r)? } else { Changes::default() };

    r.summary = if r.passed() {
        format!(
            "no symbol-level ABI difference between {} and {} ({} added function(s), {} added variable(s){})",
            file_name(baseline),
            file_name(wrapper),
            full.added_functions + full.added_function_symbols,
            full.added_variables + full.added_variable_symbols,
            match changes.artifacts {
                0 => String::new(),
                n => format!(", {n} type-level artifact(s) of Rust debug info ignored"),
            }
        )
    } else {
        if !changes.printed_detail {
            for l in interesting_lines(&text, 60) {
                r.note(l);
            }
        }
        format!("{} ABI problem(s): {}", r.problems.len(), r.problems[0])
    };
    Ok(r)
}

/// Notes on what the comparison can see: debug info on each side, and the
/// C++ exports it leaves out.
fn note_scope(b: &ElfInfo, w: &ElfInfo, opts: &AbiOptions, r: &mut GateReport) {
    if !w.has_debug_info || !b.has_debug_info {
        r.note(format!(
            "debug info: baseline {}, wrapper {}; without DWARF on both sides libabigail compares ELF symbols only (no type comparison)",
            if b.has_debug_info { "yes" } else { "no" },
            if w.has_debug_info { "yes" } else { "no" }
        ));
    }
    if !opts.include_cxx {
        let cxx_gone = b.exports().filter(|s| s.name.starts_with("_Z") && !w.exports_name(&s.name)).count();
        r.note(format!(
            "C++ (_Z) symbols not compared (--include-cxx compares them); {cxx_gone} of the baseline's are not exported by the wrapper (MIOpen internals, which stay in libMIOpen_private)"
        ));
    }
}

/// Removed symbols and ELF-level changes (SONAME, architecture) fail.
fn report_removals(full: &AbidiffSummary, text: &str, r: &mut GateReport) {
    if full.removed() > 0 {
        for l in text.lines().filter(|l| l.trim_start().starts_with("[D]")) {
            r.problem(format!("removed: {}", l.trim()));
        }
        if r.problems.is_empty() {
            r.problem(format!("abidiff reports {} removed symbol(s)", full.removed()));
        }
    }
    for e in &full.elf_changes {
        r.problem(e.clone());
    }
}

/// The two libraries compared, and the baseline's internal exports.
struct Pair<'a> {
    baseline: &'a Path,
    wrapper: &'a Path,
    b: &'a ElfInfo,
    internal: &'a [String],
}

/// Change reports that were only Rust debug info, and whether the real ones
/// were already printed.
#[derive(Default)]
struct Changes {
    artifacts: u64,
    printed_detail: bool,
}

/// abidiff reported changed functions or variables: re-run it with the
/// stubs that only Rust DWARF describes suppressed, and fail on what remains.
fn real_changes(opts: &AbiOptions, pair: &Pair<'_>, full: &AbidiffSummary, r: &mut GateReport) -> Result<Changes> {
    let (c_described, other_described) = classify_debug_info(opts, pair.wrapper)?;
    let candidates: Vec<&String> = other_described.iter().filter(|n| pair.b.exports_name(n)).collect();
    let (real, real_text) = if candidates.is_empty() {
        (full.clone(), String::new())
    } else {
        r.note(format!(
            "{} exported symbol(s) of the wrapper are described by non-C (Rust) debug info only; {} by C/C++ debug info",
            candidates.len(),
            c_described.len()
        ));
        let re = format!("^({})$", candidates.iter().map(|n| regex_escape(n)).collect::<Vec<_>>().join("|"));
        // A suppression specification (not --drop, which does not filter
        // change reports) hides the Rust-described stubs.
        let (_, t2) = abidiff(opts, pair.baseline, pair.wrapper, &[re], pair.internal)?;
        (parse_abidiff(&t2), t2)
    };
    let mut changes = Changes { artifacts: full.changed().saturating_sub(real.changed()), printed_detail: false };
    if changes.artifacts > 0 {
        r.note(format!(
            "{} change report(s) are type-level artifacts: the wrapper's stubs are Rust and carry no C debug info, so libabigail compares the baseline's C declarations with Rust DWARF; not failing on those (symbol presence and versions are still compared)",
            changes.artifacts
        ));
    }
    if real.changed() > 0 {
        r.problem(format!(
            "{} function(s) and {} variable(s) changed (described by C/C++ debug info):",
            real.changed_functions, real.changed_variables
        ));
        // With no Rust-described candidates the first run's text is the
        // real one; the caller prints it.
        if !real_text.is_empty() {
            for l in interesting_lines(&real_text, 60) {
                r.note(l);
            }
            changes.printed_detail = true;
        }
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_summary() {
        let s = parse_abidiff(
            "Functions changes summary: 1 Removed, 2 Changed (3 filtered out), 4 Added functions\n\
             Variables changes summary: 0 Removed, 1 Changed, 0 Added variable\n\
             Function symbols changes summary: 5 Removed, 0 Added function symbols not referenced by debug info\n",
        );
        assert_eq!(s.removed_functions, 1);
        assert_eq!(s.changed_functions, 2);
        assert_eq!(s.added_functions, 4);
        assert_eq!(s.changed_variables, 1);
        assert_eq!(s.removed_function_symbols, 5);
        assert_eq!(s.removed(), 6);
        assert_eq!(s.changed(), 3);
    }

    #[test]
    fn debug_language_of_symbols() {
        let xml = "<abi-corpus><elf-function-symbols/>\
            <abi-instr address-size='64' path='a.c' language='LANG_C11'>\
              <function-decl name='f' elf-symbol-id='f@@V_1'/>\
              <namespace-decl name='n'><var-decl name='v' elf-symbol-id='v'/></namespace-decl>\
            </abi-instr>\
            <abi-instr path='lib.rs' language='LANG_Rust'>\
              <function-decl name='f' elf-symbol-id='f'/><function-decl name='g' elf-symbol-id='g'/>\
            </abi-instr></abi-corpus>";
        let (c, other) = symbols_by_debug_language(xml).expect("parses");
        assert_eq!(c.into_iter().collect::<Vec<_>>(), ["f", "v"]);
        assert_eq!(other.into_iter().collect::<Vec<_>>(), ["g"]);
        assert!(symbols_by_debug_language("<abi-corpus>").is_err());
        assert!(is_c_family("LANG_C_plus_plus_14") && is_c_family("LANG_C") && !is_c_family("LANG_Cobol"));
    }
}
