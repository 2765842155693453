//! `miopen-wrap adopt`: the whole adoption of a MIOpen source tree, one
//! report. On a copy of the tree (or in place):
//!
//! 1. `rename` over `src/` in place (public entry points -> `_impl`);
//! 2. `rename-check`: a second rename finds nothing due;
//! 3. `generate`: stubs, `miopen_impl.h`, export map, manifest, type check;
//! 4. `typecheck`: the C++ compiler on `miopen_impl.h` and the type check;
//! 5. `stubs`: the runtime crate built with the generated stubs, and the
//!    `miopen*` functions its staticlib defines counted;
//! 6. `cmake-edits`: MIOpen's CMake edited by anchors
//!    (`src_patches/cmake-edits.toml`), then `cmake-edits-check`: a second
//!    run changes nothing;
//! 7. `source-edits`: MIOpen's C++ sources edited by anchors
//!    (`src_patches/source-edits/*.json`: the logger names a renamed entry
//!    point `miopenFoo`), then `source-edits-check`: a second run changes
//!    nothing;
//! 8. `logger-compile`: the edited `logger.hpp` compiles in a renamed entry
//!    point using every logging macro that names its function.
//!
//! `--check` changes nothing: it runs the three idempotence checks on the
//! tree itself and fails when anything is still due.
mod cmake;
mod edits;
mod report;
mod source_edits;

/// The parsers of what `adopt` reads (the edit files, MIOpen's CMake text),
/// for the fuzz targets (`rust/fuzz-targets`).
pub mod inputs {
    pub use super::cmake::parse as parse_cmake;
    pub use super::edits::parse_edits;
    pub use super::source_edits::parse_source_edits;
}

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};

use crate::exit::Exit;
use crate::header::ParseOptions;
use crate::rename::{self, Mode};
pub use edits::{EditsReport, BUILTIN_EDITS};
use report::{AdoptReport, StepStatus};
pub use source_edits::{
    apply_source_edits, cli as source_edits_cli, load_source_edits, EditRoot, SourceEditsArgs, BUILTIN_SOURCE_EDITS,
};

/// The repository this tool was built from: the runtime crate, the
/// parse-only stand-ins and the CMake helpers live there.
const BUILT_FROM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The steps, in order; `--skip` takes their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Rename,
    RenameCheck,
    Generate,
    Typecheck,
    Stubs,
    CmakeEdits,
    CmakeEditsCheck,
    SourceEdits,
    SourceEditsCheck,
    LoggerCompile,
}

impl Step {
    pub const ALL: [Step; 10] = [
        Step::Rename,
        Step::RenameCheck,
        Step::Generate,
        Step::Typecheck,
        Step::Stubs,
        Step::CmakeEdits,
        Step::CmakeEditsCheck,
        Step::SourceEdits,
        Step::SourceEditsCheck,
        Step::LoggerCompile,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Rename => "rename",
            Step::RenameCheck => "rename-check",
            Step::Generate => "generate",
            Step::Typecheck => "typecheck",
            Step::Stubs => "stubs",
            Step::CmakeEdits => "cmake-edits",
            Step::CmakeEditsCheck => "cmake-edits-check",
            Step::SourceEdits => "source-edits",
            Step::SourceEditsCheck => "source-edits-check",
            Step::LoggerCompile => "logger-compile",
        }
    }

    /// Steps that need `include/miopen/miopen.h` and `src/` (the edits need
    /// only the files they anchor on).
    fn needs_sources(self) -> bool {
        !matches!(self, Step::CmakeEdits | Step::CmakeEditsCheck | Step::SourceEdits | Step::SourceEditsCheck)
    }
}

impl ValueEnum for Step {
    fn value_variants<'a>() -> &'a [Self] {
        &Step::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// What `adopt` prints on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
#[command(
    long_about = "The whole adoption of a MIOpen source tree: rename the public entry points to _impl in src/, \
check a second rename has nothing to do, generate the wrapper's files, compile miopen_impl.h and the type check, \
build the runtime crate with the generated stubs, edit MIOpen's CMake (src_patches/cmake-edits.toml) and C++ sources \
(src_patches/source-edits/*.json) by anchors, checking a second run changes nothing, and compile the edited logger. Works on a copy (<work-dir>/tree) unless --in-place. Writes \
<work-dir>/adopt-report.json and per-step logs under <work-dir>/logs.",
    after_help = crate::exit::EXIT_STATUS_HELP
)]
pub struct AdoptArgs {
    /// The MIOpen source tree (with src/ and include/miopen/miopen.h).
    pub tree: PathBuf,
    /// Edit the tree itself instead of a copy.
    #[arg(long, conflicts_with = "check")]
    pub in_place: bool,
    /// Change nothing: fail when a rename, a CMake edit or a source edit is still due in the tree.
    #[arg(long)]
    pub check: bool,
    /// Where the copy, generated files, reports, logs and cargo output go
    /// (default: a new directory /tmp/adopt-miopen.XXXXXX).
    #[arg(long, value_name = "DIR")]
    pub work_dir: Option<PathBuf>,
    /// What to print: the text report or the JSON one.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub report: ReportFormat,
    /// Steps to leave out (repeatable), e.g. --skip cmake-edits for a tree without MIOpen's CMake layout.
    #[arg(long, value_name = "STEP")]
    pub skip: Vec<Step>,
    /// Include directory for parsing miopen.h, searched before the stand-ins (e.g. a configured build's include/).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Cargo's target directory for the stub build (default: <work-dir>/cargo-target).
    #[arg(long, value_name = "DIR")]
    pub cargo_target_dir: Option<PathBuf>,
    /// This repository: the runtime crate, the stand-ins and the CMake helpers (default: where the tool was built).
    #[arg(long, value_name = "DIR", default_value = BUILT_FROM)]
    pub wrap_source_dir: PathBuf,
    /// Read the CMake edits from this file instead of the built-in src_patches/cmake-edits.toml.
    #[arg(long, value_name = "FILE")]
    pub cmake_edits: Option<PathBuf>,
    /// Read the source edits from the *.json files of this directory instead of the built-in src_patches/source-edits.
    #[arg(long, value_name = "DIR")]
    pub source_edits: Option<PathBuf>,
}

/// The edits data of one run.
struct EditsData {
    cmake: edits::EditsFile,
    source: Vec<source_edits::SourceEditsFile>,
}

/// Where everything of one run lives.
struct Layout {
    source: PathBuf,
    tree: PathBuf,
    work: PathBuf,
    logs: PathBuf,
    generated: PathBuf,
    cargo_target: PathBuf,
    wrap: PathBuf,
}

impl Layout {
    fn header(&self) -> PathBuf {
        self.tree.join("include/miopen/miopen.h")
    }
    fn rename_report(&self) -> PathBuf {
        self.work.join("rename-report.json")
    }
}

pub fn cli(args: &AdoptArgs) -> Exit {
    match run(args) {
        Ok(report) => {
            match args.report {
                ReportFormat::Text => print!("{}", report.render_text()),
                ReportFormat::Json => println!("{}", report.to_json()),
            }
            Exit::check(report.ok)
        }
        Err(e) => {
            eprintln!("miopen-wrap adopt: {e}");
            Exit::CouldNotRun
        }
    }
}

fn canonical(p: &Path, what: &str) -> Result<PathBuf, String> {
    p.canonicalize().map_err(|e| format!("{what} {}: {e}", p.display()))
}

fn layout(args: &AdoptArgs) -> Result<Layout, String> {
    let source = canonical(&args.tree, "tree")?;
    let needs_sources = Step::ALL.iter().any(|s| s.needs_sources() && !args.skip.contains(s));
    if needs_sources && !(source.join("src").is_dir() && source.join("include/miopen/miopen.h").is_file()) {
        return Err(format!("{} is not a MIOpen tree (needs src/ and include/miopen/miopen.h)", source.display()));
    }
    let work = match &args.work_dir {
        Some(w) => {
            std::fs::create_dir_all(w).map_err(|e| format!("--work-dir {}: {e}", w.display()))?;
            canonical(w, "--work-dir")?
        }
        None => tempfile::Builder::new()
            .prefix("adopt-miopen.")
            .tempdir()
            .map_err(|e| format!("cannot create a work dir: {e}"))?
            .keep(),
    };
    let tree = if args.in_place || args.check { source.clone() } else { work.join("tree") };
    if !args.in_place && !args.check && source.starts_with(&tree) {
        return Err(format!("the work dir {} holds the source tree; choose another --work-dir", work.display()));
    }
    let logs = work.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    Ok(Layout {
        generated: work.join("generated"),
        cargo_target: args.cargo_target_dir.clone().unwrap_or_else(|| work.join("cargo-target")),
        wrap: args.wrap_source_dir.clone(),
        source,
        tree,
        logs,
        work,
    })
}

fn parse_options(args: &AdoptArgs, l: &Layout) -> ParseOptions {
    let standin = l.wrap.join("src_patches/standin");
    let mut include_dirs = vec![l.tree.join("include")];
    include_dirs.extend(args.include_dirs.iter().cloned());
    include_dirs.push(standin.join("miopen-include"));
    include_dirs.push(standin.join("hip-include"));
    ParseOptions { include_dirs, defines: Vec::new() }
}

fn run(args: &AdoptArgs) -> Result<AdoptReport, String> {
    let edits_text = match &args.cmake_edits {
        Some(p) => std::fs::read_to_string(p).map_err(|e| format!("--cmake-edits {}: {e}", p.display()))?,
        None => BUILTIN_EDITS.to_string(),
    };
    let edits = EditsData {
        cmake: edits::parse_edits(&edits_text, "CMake edits").map_err(|e| e.to_string())?,
        source: load_source_edits(args.source_edits.as_deref()).map_err(|e| e.to_string())?,
    };
    let l = layout(args)?;
    let mut report = AdoptReport::new(&l.source, &l.tree, &l.work);
    if args.check {
        check_only(args, &l, &edits, &mut report);
    } else {
        adopt(args, &l, &edits, &mut report);
    }
    report.finish();
    let json_path = l.work.join("adopt-report.json");
    std::fs::write(&json_path, report.to_json() + "\n").map_err(|e| format!("{}: {e}", json_path.display()))?;
    Ok(report)
}

fn adopt(args: &AdoptArgs, l: &Layout, edits: &EditsData, report: &mut AdoptReport) {
    let runs = |s: Step| !args.skip.contains(&s);
    if args.in_place {
        report.step("tree", StepStatus::Ok, format!("in place: {}", l.tree.display()));
    } else {
        match copy_tree(&l.source, &l.tree) {
            Ok(()) => {
                report.step("tree", StepStatus::Ok, format!("copy of {} at {}", l.source.display(), l.tree.display()))
            }
            Err(e) => return report.step("tree", StepStatus::Fail, e),
        }
    }
    let parse = parse_options(args, l);
    for step in Step::ALL {
        if !runs(step) {
            report.step(step.name(), StepStatus::Skipped, "--skip");
            continue;
        }
        let (status, detail) = match step {
            Step::Rename => rename_step(l, &parse, report),
            Step::RenameCheck => rename_check_step(l, &parse, report),
            Step::Generate => generate_step(l, &parse, report),
            Step::Typecheck => typecheck_step(l, &parse),
            Step::Stubs => stubs_step(l, report),
            Step::CmakeEdits => cmake_edits_step(l, &edits.cmake, false, report),
            Step::CmakeEditsCheck => cmake_edits_step(l, &edits.cmake, true, report),
            Step::SourceEdits => source_edits_step(l, &edits.source, false, report),
            Step::SourceEditsCheck => source_edits_step(l, &edits.source, true, report),
            Step::LoggerCompile => logger_compile_step(l, &parse),
        };
        report.step(step.name(), status, detail);
    }
}

fn check_only(args: &AdoptArgs, l: &Layout, edits: &EditsData, report: &mut AdoptReport) {
    let parse = parse_options(args, l);
    for step in [Step::RenameCheck, Step::CmakeEditsCheck, Step::SourceEditsCheck] {
        if args.skip.contains(&step) {
            report.step(step.name(), StepStatus::Skipped, "--skip");
            continue;
        }
        let (status, detail) = match step {
            Step::RenameCheck => rename_check_step(l, &parse, report),
            Step::CmakeEditsCheck => cmake_edits_step(l, &edits.cmake, true, report),
            _ => source_edits_step(l, &edits.source, true, report),
        };
        report.step(step.name(), status, detail);
    }
}

fn rename_options(l: &Layout, parse: &ParseOptions, mode: Mode) -> rename::Options {
    rename::Options {
        header: l.header(),
        source: l.tree.join("src"),
        mode,
        parse: parse.clone(),
        excludes: Vec::new(),
        extensions: rename::DEFAULT_EXTENSIONS.iter().map(|s| s.to_string()).collect(),
        block_export_macro: None,
    }
}

fn rename_step(l: &Layout, parse: &ParseOptions, report: &mut AdoptReport) -> (StepStatus, String) {
    let r = match rename::run(&rename_options(l, parse, Mode::InPlace)) {
        Ok(r) => r,
        Err(e) => return (StepStatus::Fail, e.to_string()),
    };
    let _ = std::fs::write(l.logs.join("rename.log"), r.summary());
    if let Ok(json) = serde_json::to_string_pretty(&r) {
        let _ = std::fs::write(l.rename_report(), json + "\n");
    }
    let outcome = if r.collisions.is_empty() {
        (StepStatus::Ok, "src/ renamed in place".to_string())
    } else {
        (StepStatus::Fail, format!("{} collision(s); nothing written", r.collisions.len()))
    };
    report.rename = Some(r);
    outcome
}

fn rename_check_step(l: &Layout, parse: &ParseOptions, report: &mut AdoptReport) -> (StepStatus, String) {
    let r = match rename::run(&rename_options(l, parse, Mode::Check)) {
        Ok(r) => r,
        Err(e) => return (StepStatus::Fail, e.to_string()),
    };
    let _ = std::fs::write(l.logs.join("rename-check.log"), r.summary());
    let outcome = if r.files_touched == 0 && r.collisions.is_empty() {
        (StepStatus::Ok, "nothing due".to_string())
    } else {
        (StepStatus::Fail, format!("rename due in {} file(s): {}", r.files_touched, r.touched_files.join(", ")))
    };
    report.rename_files_due = Some(r.files_touched);
    outcome
}

fn generate_step(l: &Layout, parse: &ParseOptions, report: &mut AdoptReport) -> (StepStatus, String) {
    let _ = std::fs::remove_dir_all(&l.generated);
    let args = crate::generate::GenerateArgs {
        header: l.header(),
        include_dirs: parse.include_dirs.clone(),
        defines: parse.defines.clone(),
        rename_report: l.rename_report().is_file().then(|| l.rename_report()),
        survivors: Vec::new(),
        version_node: "MIOPEN_HIP_1".into(),
        out_dir: l.generated.clone(),
        // The check stubs of the adoption: the default forwarding set.
        forward_groups: None,
    };
    match crate::generate::run(&args) {
        Ok(m) => {
            let detail = format!(
                "{} entry points ({} beta), {} survivors -> {}",
                m.entry_points.len(),
                m.entry_points.iter().filter(|e| e.beta).count(),
                m.survivors.len(),
                l.generated.display()
            );
            report.manifest = Some(m);
            (StepStatus::Ok, detail)
        }
        Err(e) => (StepStatus::Fail, e.to_string()),
    }
}

/// Run `cmd`, its output to `logs/<log>.log`; Err names the log.
fn run_logged(l: &Layout, log: &str, cmd: &mut Command) -> Result<(), String> {
    let path = l.logs.join(format!("{log}.log"));
    let out = cmd.output().map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::write(&path, &text);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{:?} failed ({}); see {}", cmd.get_program(), out.status, path.display()))
    }
}

fn typecheck_step(l: &Layout, parse: &ParseOptions) -> (StepStatus, String) {
    let typecheck = l.generated.join("impl_typecheck.cpp");
    let Ok(tc_text) = std::fs::read_to_string(&typecheck) else {
        return (StepStatus::Fail, format!("{} is missing (generate did not run)", typecheck.display()));
    };
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let compile = || {
        let mut c = Command::new(&cxx);
        c.args(["-std=c++17", "-fsyntax-only", "-DMIOPEN_BETA_API=1", "-I"]).arg(l.generated.join("include"));
        for d in &parse.include_dirs {
            c.arg("-I").arg(d);
        }
        c
    };
    let header_alone = l.work.join("impl_header_alone.cpp");
    if let Err(e) = std::fs::write(&header_alone, "#include <miopen/miopen_impl.h>\n") {
        return (StepStatus::Fail, format!("{}: {e}", header_alone.display()));
    }
    let result = run_logged(l, "impl-header", compile().arg(&header_alone))
        .and_then(|()| run_logged(l, "typecheck", compile().arg(&typecheck)));
    match result {
        Ok(()) => (
            StepStatus::Ok,
            format!(
                "miopen_impl.h alone and impl_typecheck.cpp ({} static_asserts) compile with {cxx} -std=c++17 -DMIOPEN_BETA_API=1",
                tc_text.matches("static_assert").count()
            ),
        ),
        Err(e) => (StepStatus::Fail, e),
    }
}

fn stubs_step(l: &Layout, report: &mut AdoptReport) -> (StepStatus, String) {
    if !l.generated.join("stubs.rs").is_file() {
        return (StepStatus::Fail, "no generated stubs.rs (generate did not run)".into());
    }
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .args(["build", "-p", "miopen-abi-runtime", "--release", "--manifest-path"])
        .arg(l.wrap.join("Cargo.toml"))
        .env("MIOPEN_WRAP_GENERATED_DIR", &l.generated)
        .env("CARGO_TARGET_DIR", &l.cargo_target);
    if let Err(e) = run_logged(l, "stubs-build", &mut cargo) {
        return (StepStatus::Fail, e);
    }
    let lib = l.cargo_target.join("release/libmiopen_abi_runtime.a");
    match report::defined_miopen_functions(&lib) {
        Ok(n) => {
            report.stubs_compiled = Some(n);
            (
                StepStatus::Ok,
                format!(
                    "cargo build -p miopen-abi-runtime --release: {n} miopen* functions defined in {}",
                    lib.display()
                ),
            )
        }
        Err(e) => (StepStatus::Fail, e),
    }
}

fn cmake_edits_step(
    l: &Layout,
    edits: &edits::EditsFile,
    check_only: bool,
    report: &mut AdoptReport,
) -> (StepStatus, String) {
    let outcome = edits::apply(edits, &l.tree, &l.wrap, check_only);
    let (r, checked) = match outcome {
        Ok(x) => x,
        Err(e) => return (StepStatus::Fail, e.to_string()),
    };
    let _ = std::fs::write(
        l.logs.join(format!("cmake-edits{}.log", if check_only { "-check" } else { "" })),
        report::render_edits(&r),
    );
    let (status, detail) = if check_only {
        let due = r.changes;
        (
            StepStatus::check(due == 0),
            if due == 0 { "second run: nothing due".into() } else { format!("{due} change(s) still due") },
        )
    } else {
        // The adopted build reads the survivors from here (MIOpenWrapAdopt.cmake).
        if l.rename_report().is_file() && l.tree.join("cmake").is_dir() {
            let _ = std::fs::copy(l.rename_report(), l.tree.join("cmake/miopen-wrap-rename-report.json"));
        }
        let detail = if r.changes == 0 {
            "already applied; nothing changed".to_string()
        } else {
            format!(
                "applied {} change(s) to {} file(s); parse-checked: {}",
                r.changes,
                r.files_changed,
                checked.join(", ")
            )
        };
        (StepStatus::Ok, detail)
    };
    if check_only {
        report.cmake_edits_due = Some(r.changes);
    } else {
        report.cmake_edits = Some(r);
    }
    (status, detail)
}

fn source_edits_step(
    l: &Layout,
    specs: &[source_edits::SourceEditsFile],
    check_only: bool,
    report: &mut AdoptReport,
) -> (StepStatus, String) {
    let r = match apply_source_edits(specs, EditRoot::Tree(&l.tree), check_only) {
        Ok(r) => r,
        Err(e) => return (StepStatus::Fail, format!("{e}; nothing was changed")),
    };
    let _ = std::fs::write(
        l.logs.join(format!("source-edits{}.log", if check_only { "-check" } else { "" })),
        report::render_edits(&r),
    );
    let (status, detail) = match (check_only, r.changes) {
        (true, 0) => (StepStatus::Ok, "second run: nothing due".to_string()),
        (true, due) => (StepStatus::Fail, format!("{due} change(s) still due")),
        (false, 0) => (StepStatus::Ok, "already applied; nothing changed".to_string()),
        (false, n) => (StepStatus::Ok, format!("applied {n} change(s) to {} file(s)", r.files_changed)),
    };
    if check_only {
        report.source_edits_due = Some(r.changes);
    } else {
        report.source_edits = Some(r);
    }
    (status, detail)
}

/// The edited logger.hpp of the tree compiles in a renamed entry point that
/// uses every logging macro naming its function (`test/adopt/
/// logger_public_names.cpp`, which also asserts the public-name rule).
fn logger_compile_step(l: &Layout, parse: &ParseOptions) -> (StepStatus, String) {
    let logger = l.tree.join("src/include/miopen/logger.hpp");
    let edited = std::fs::read_to_string(&logger).is_ok_and(|t| t.contains("LoggingPublicName"));
    if !edited {
        return (StepStatus::Fail, format!("{} does not carry the logger edit (source-edits)", logger.display()));
    }
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let mut compile = Command::new(&cxx);
    compile
        .args(["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"])
        .args(["-DMIOPEN_INSTALLABLE=1", "-DMIOPEN_USE_ROCTRACER=0", "-I"])
        .arg(l.tree.join("src/include"));
    for d in &parse.include_dirs {
        compile.arg("-I").arg(d);
    }
    compile.arg(l.wrap.join("test/adopt/logger_public_names.cpp"));
    match run_logged(l, "logger-compile", &mut compile) {
        Ok(()) => (
            StepStatus::Ok,
            format!("src/include/miopen/logger.hpp with the logger edit: logger_public_names.cpp compiles ({cxx} -Wall -Wextra -Werror)"),
        ),
        Err(e) => (StepStatus::Fail, e),
    }
}

/// `cp -a` of a directory: files, directories and symlinks (not followed).
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    if to.exists() {
        std::fs::remove_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = crate::paths::walk_tree(from, |_| false).map_err(|(p, e)| format!("{}: {e}", p.display()))?;
    for e in entries {
        let dest = to.join(&e.rel);
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir).map_err(|err| format!("{}: {err}", dir.display()))?;
        }
        let copied = if e.file_type.is_symlink() {
            std::fs::read_link(&e.abs).and_then(|target| std::os::unix::fs::symlink(target, &dest))
        } else {
            std::fs::copy(&e.abs, &dest).map(drop)
        };
        copied.map_err(|err| format!("copy {} -> {}: {err}", e.abs.display(), dest.display()))?;
    }
    Ok(())
}
