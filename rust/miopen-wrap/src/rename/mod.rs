//! `miopen-wrap rename`: rename every public entry point `miopenFoo` to
//! `miopenFoo_impl` in a MIOpen source tree (RFC §4.2, §4.6).
//!
//! How it works:
//! - the public names come from the header (`crate::header::parse`);
//! - every implementation file whose text mentions `miopen` is tokenized with
//!   libclang ([`lex`]); only identifier tokens spelled exactly like a name are
//!   candidates, so strings, comments and longer identifiers never change;
//! - a brace/paren-aware walk ([`scan`]) classifies each occurrence as a
//!   definition, a declaration or a call/reference, and finds C-linkage
//!   definitions the header does not declare (survivors, renamed as well);
//! - each file that mentions a renamed public name gets one generated block of
//!   `extern "C" decltype(miopenFoo) miopenFoo_impl;` declarations after its
//!   last top-level `#include` before the first occurrence; the block is
//!   regenerated on every run, so a second run changes nothing.

mod lex;
mod plan;
pub mod report;
mod scan;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{ArgGroup, Args};

use crate::exit::Exit;
use crate::header::{self, ParseOptions};

pub use report::Report;

pub const DEFAULT_EXTENSIONS: &[&str] = &["cpp", "hpp", "h", "cc", "cxx", "hip", "inl"];

#[derive(Debug, thiserror::Error)]
pub enum RenameError {
    #[error(transparent)]
    Header(#[from] header::HeaderError),
    #[error("libclang could not be loaded: {0}")]
    Libclang(String),
    #[error("{path}: libclang could not parse the file: {reason}")]
    Parse { path: PathBuf, reason: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}:{line}: generated block begins here but has no end marker")]
    UnterminatedBlock { path: PathBuf, line: u32 },
    #[error("{path}:{line}: the private declaration block would go at brace depth {depth}, not at namespace scope (unbalanced braces before it?)")]
    BlockPlacement { path: PathBuf, line: u32, depth: u32 },
    #[error("{path}:{line}: token `{token}` does not match the file text at its offset")]
    TokenMismatch { path: PathBuf, line: u32, token: String },
    #[error("{0}")]
    Usage(String),
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> RenameError + '_ {
    move |source| RenameError::Io { path: path.to_path_buf(), source }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Write the whole tree, renamed, to this directory.
    Copy(PathBuf),
    InPlace,
    /// Change nothing; report what is due.
    Check,
}

#[derive(Debug, Clone)]
pub struct Options {
    pub header: PathBuf,
    pub source: PathBuf,
    pub mode: Mode,
    pub parse: ParseOptions,
    /// Globs or path prefixes (relative to the source tree) not to rename.
    pub excludes: Vec<String>,
    /// File extensions (without dot) of implementation files.
    pub extensions: Vec<String>,
    /// Macro put in each block line (`extern "C" MIOPEN_EXPORT decltype(..) .._impl;`),
    /// so the `_impl` stays exported under `-fvisibility=hidden`.
    pub block_export_macro: Option<String>,
}

#[derive(Debug, Args)]
#[command(
    long_about = "Rename every public entry point of the header (miopenFoo) to miopenFoo_impl in the \
implementation sources: definitions, internal declarations and call sites, using libclang tokens \
(never strings, comments or the header itself). Each file that uses a renamed public name gets one \
generated block `extern \"C\" decltype(miopenFoo) miopenFoo_impl;`. Exported C functions the header \
does not declare (survivors) are renamed too and reported. A collision (an existing miopenFoo_impl \
identifier) writes nothing and fails the command.",
    after_help = crate::exit::EXIT_STATUS_HELP,
    group(ArgGroup::new("mode").required(true).args(["output", "in_place", "check"]))
)]
pub struct RenameArgs {
    /// The public header (include/miopen/miopen.h); never modified, nor is a byte-identical
    /// copy of it inside the tree.
    #[arg(long)]
    pub header: PathBuf,
    /// The source tree to rename (e.g. MIOpen's src/).
    #[arg(long)]
    pub source: PathBuf,
    /// Copy mode: write the renamed tree here (every file; unchanged outputs are not rewritten).
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Rename the source tree in place.
    #[arg(long)]
    pub in_place: bool,
    /// Change nothing; exit 1 and list the files when a rename or block is still due.
    #[arg(long)]
    pub check: bool,
    /// Write a JSON report here.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Include directory for parsing the header (generated config.h/export.h, HIP headers).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Preprocessor definition for parsing the header, NAME or NAME=VALUE.
    #[arg(short = 'D', long = "define", value_name = "NAME[=V]")]
    pub defines: Vec<String>,
    /// Skip files under this path prefix or glob (relative to --source; `*`, `?`, `**`;
    /// a pattern without `/` matches any path component). Copy mode still copies them unchanged.
    #[arg(long, value_name = "GLOB|PREFIX")]
    pub exclude: Vec<String>,
    /// Extensions of implementation files (comma-separated); `NAME.EXT.in` configure
    /// templates count too.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_EXTENSIONS.iter().map(|s| s.to_string()).collect::<Vec<_>>())]
    pub extensions: Vec<String>,
    /// Put this macro in every generated declaration (`extern "C" MIOPEN_EXPORT decltype(miopenFoo)
    /// miopenFoo_impl;`). Needed when the private library is built with -fvisibility=hidden: the
    /// header's MIOPEN_EXPORT applies to miopenFoo only, and `MIOPEN_EXPORT extern "C" ...` on a
    /// definition is ignored by GCC.
    #[arg(long, value_name = "MACRO")]
    pub block_export_macro: Option<String>,
    /// Print only errors and the files due (--check).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn cli(cli: &RenameArgs) -> Exit {
    let mode = if let Some(o) = &cli.output {
        Mode::Copy(o.clone())
    } else if cli.in_place {
        Mode::InPlace
    } else {
        Mode::Check
    };
    let opts = Options {
        header: cli.header.clone(),
        source: cli.source.clone(),
        mode,
        parse: ParseOptions { include_dirs: cli.include_dirs.clone(), defines: cli.defines.clone() },
        excludes: cli.exclude.clone(),
        extensions: cli.extensions.iter().map(|e| e.trim_start_matches('.').to_string()).collect(),
        block_export_macro: cli.block_export_macro.clone(),
    };
    let report = match run(&opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("miopen-wrap rename: error: {e}");
            return Exit::CouldNotRun;
        }
    };
    if let Some(path) = &cli.report {
        let text = match serde_json::to_string_pretty(&report) {
            Ok(t) => t + "\n",
            Err(e) => {
                eprintln!("miopen-wrap rename: error: cannot serialise the report: {e}");
                return Exit::CouldNotRun;
            }
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("miopen-wrap rename: error: {}: {e}", path.display());
            return Exit::CouldNotRun;
        }
    }
    if !cli.quiet {
        print!("{}", report.summary());
    }
    exit_status(&opts.mode, &report, cli.quiet)
}

fn exit_status(mode: &Mode, report: &Report, quiet: bool) -> Exit {
    if !report.collisions.is_empty() {
        eprintln!(
            "miopen-wrap rename: {} collision(s): {}; nothing was written",
            report.collisions.len(),
            report
                .collisions
                .iter()
                .map(|c| format!("{} ({}:{})", c.impl_name, c.file, c.line))
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Exit::CheckFailed;
    }
    if *mode == Mode::Check && report.files_touched > 0 {
        println!("miopen-wrap rename --check: rename due in {} file(s):", report.files_touched);
        for f in &report.touched_files {
            println!("  {f}");
        }
        return Exit::CheckFailed;
    }
    if *mode == Mode::Check && !quiet {
        println!("miopen-wrap rename --check: nothing due");
    }
    Exit::Pass
}

/// Run the rename. Collisions are returned in the report (nothing is written
/// then); errors are I/O, parse and structural problems.
pub fn run(opts: &Options) -> Result<Report, RenameError> {
    let t0 = Instant::now();
    if !opts.source.is_dir() {
        return Err(RenameError::Usage(format!("--source {}: not a directory", opts.source.display())));
    }
    if !opts.header.is_file() {
        return Err(RenameError::Usage(format!("--header {}: not a file", opts.header.display())));
    }
    if let Mode::Copy(out) = &opts.mode {
        if crate::paths::same_path(out, &opts.source) {
            return Err(RenameError::Usage("--output is the source tree; use --in-place".into()));
        }
    }
    if let Some(m) = &opts.block_export_macro {
        let ok = m.chars().next().map(|c| c.is_ascii_alphabetic() || c == '_').unwrap_or(false)
            && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            return Err(RenameError::Usage(format!("--block-export-macro `{m}`: not an identifier")));
        }
    }
    let api = header::parse(&opts.header, &opts.parse)?;
    let public: BTreeMap<String, bool> = api.entry_points.iter().map(|e| (e.name.clone(), e.beta)).collect();

    let mut tree = plan::walk(opts)?;
    let mut report = plan::plan(opts, &public, &mut tree)?;
    report.header = opts.header.display().to_string();
    report.source = opts.source.display().to_string();
    report.output = match &opts.mode {
        Mode::Copy(o) => Some(o.display().to_string()),
        _ => None,
    };
    report.mode = match opts.mode {
        Mode::Copy(_) => "copy",
        Mode::InPlace => "in-place",
        Mode::Check => "check",
    };
    report.public_names.total = public.len();
    report.public_names.beta = public.values().filter(|b| **b).count();
    report.public_names.non_beta = report.public_names.total - report.public_names.beta;
    if report.collisions.is_empty() {
        report.files_written = plan::write(opts, &tree)?;
    }
    report.elapsed_ms = t0.elapsed().as_millis() as u64;
    Ok(report)
}
