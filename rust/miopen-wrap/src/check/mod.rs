//! `miopen-wrap check`: release gates on the built or installed
//! libMIOpen.so (wrapper) / libMIOpen_private.so pair (RFC 0001 §4.3.1,
//! §4.6, §4.7, §4.9, §6). See docs/release-gates.md for what each gate
//! proves and its inputs.
//!
//! Every gate prints what it found and ends with one verdict line,
//! `PASS <gate>: ...` or `FAIL <gate>: ...`. Exit status: 0 all gates
//! passed, 1 at least one gate failed, 2 usage error or a gate could not be
//! evaluated (unreadable file, not ELF, abidiff missing or erroring).
pub mod abi;
pub mod contract;
pub mod coversion;
pub mod elf;
pub mod error;
pub mod headers;
pub mod report;
pub mod symbols;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use error::{CheckError, Result};
pub use report::GateReport;

/// Exit status when every gate passed.
pub const EXIT_PASS: i32 = 0;
/// Exit status when at least one gate failed.
pub const EXIT_FAIL: i32 = 1;
/// Exit status for usage errors and gates that could not be evaluated.
pub const EXIT_ERROR: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "miopen-wrap check",
    about = "Release gates for the libMIOpen.so wrapper / libMIOpen_private.so pair",
    after_help = "Exit status: 0 all gates passed, 1 a gate failed, 2 usage error or a gate could not run.\n\
                  Documentation: docs/release-gates.md"
)]
struct Cli {
    #[command(subcommand)]
    gate: GateCmd,
}

#[derive(Subcommand, Debug)]
enum GateCmd {
    /// No `_impl` identifier in the public include tree (outside the private
    /// subtree); no implementation source includes miopen_impl.h.
    Headers(HeadersArgs),
    /// The wrapper's DT_NEEDED: the private library and the C runtime only.
    Needed {
        #[arg(long)]
        wrapper: PathBuf,
        #[arg(long)]
        private: PathBuf,
        /// A further DT_NEEDED name to allow (glob; repeatable).
        #[arg(long = "allow-needed", value_name = "GLOB")]
        allow: Vec<String>,
    },
    /// libMIOpen.so exports no `*_impl` symbol.
    NoImplExports {
        /// The public wrapper library (libMIOpen.so.<X>).
        #[arg(long)]
        wrapper: PathBuf,
    },
    /// Every `miopenX_impl` exported by the private library has `miopenX`
    /// exported by the wrapper.
    Superset {
        #[arg(long)]
        wrapper: PathBuf,
        /// The private implementation library (libMIOpen_private.so.<X>).
        #[arg(long)]
        private: PathBuf,
    },
    /// Every C symbol the pre-wrapper baseline exports is exported by the
    /// wrapper with the same version node.
    NoDropped {
        #[arg(long)]
        wrapper: PathBuf,
        /// The pre-wrapper libMIOpen.so.<X>.
        #[arg(long)]
        baseline: PathBuf,
        /// The private library: must still export the baseline's internal
        /// (unversioned) exports.
        #[arg(long)]
        private: Option<PathBuf>,
        #[command(flatten)]
        ignore: IgnoreArgs,
    },
    /// `.miopen_version` stamps agree; the wrapper's DT_NEEDED names the
    /// private library's DT_SONAME at the wrapper's SOVERSION.
    Coversion {
        #[arg(long)]
        wrapper: PathBuf,
        #[arg(long)]
        private: PathBuf,
        #[command(flatten)]
        sonames: SonameArgs,
    },
    /// The hipDNN MIOpen provider references only `_impl` symbols that the
    /// private library exports, and does not need libMIOpen.so.
    Provider {
        #[arg(long)]
        private: PathBuf,
        /// Provider plugin .so or object files (repeatable).
        #[arg(long = "provider", required = true, num_args = 1..)]
        providers: Vec<PathBuf>,
        /// The wrapper, to recognise a DT_NEEDED on it by SONAME (optional;
        /// `libMIOpen.so*` / `libMIOpen-<hash>.so*` are recognised anyway).
        #[arg(long)]
        wrapper: Option<PathBuf>,
    },
    /// libMIOpen.so has no DT_NEEDED on hipDNN and no undefined hipDNN symbol.
    HipdnnIndependence {
        #[arg(long)]
        wrapper: PathBuf,
    },
    /// abidiff baseline vs wrapper: no removed or changed function/variable.
    Abi {
        #[arg(long)]
        baseline: PathBuf,
        #[arg(long)]
        wrapper: PathBuf,
        #[command(flatten)]
        tools: AbiToolArgs,
    },
    /// Run every gate whose inputs are given, then print `N passed, M failed`.
    All(Box<AllArgs>),
}

#[derive(Args, Debug, Clone, Default)]
struct HeadersArgs {
    /// Root of the staged/installed public include tree (e.g. <prefix>/include).
    #[arg(long)]
    public_include: Option<PathBuf>,
    /// Private include subtree holding miopen/miopen_impl.h, relative to
    /// --public-include or absolute (e.g. miopen_private).
    #[arg(long)]
    private_include_subdir: Option<PathBuf>,
    /// Implementation source tree(s) that must not include miopen_impl.h (repeatable).
    #[arg(long)]
    impl_sources: Vec<PathBuf>,
}

#[derive(Args, Debug, Clone, Default)]
struct IgnoreArgs {
    /// Baseline symbols (glob, `*` and `?`) no-dropped does not require (repeatable).
    #[arg(long = "ignore", value_name = "GLOB")]
    ignore: Vec<String>,
}

#[derive(Args, Debug, Clone, Default)]
struct SonameArgs {
    /// Required DT_SONAME of the wrapper (e.g. libMIOpen.so.1).
    #[arg(long)]
    expect_soname: Option<String>,
    /// Required DT_SONAME of the private library (e.g. libMIOpen_private.so.1).
    #[arg(long)]
    expect_private_soname: Option<String>,
}

#[derive(Args, Debug, Clone)]
struct AbiToolArgs {
    /// abidiff executable.
    #[arg(long, default_value = "abidiff")]
    abidiff: String,
    /// abidw executable (classifies which debug info describes the stubs).
    #[arg(long, default_value = "abidw")]
    abidw: String,
    /// Extra argument for abidiff, one per flag, e.g.
    /// `--abidiff-arg=--suppressions --abidiff-arg=FILE` (repeatable).
    #[arg(long = "abidiff-arg", value_name = "ARG", allow_hyphen_values = true)]
    abidiff_args: Vec<String>,
    /// abi: also compare C++ (`_Z`) symbols, which are internals of MIOpen.
    #[arg(long)]
    include_cxx: bool,
}

#[derive(Args, Debug)]
struct AllArgs {
    #[arg(long)]
    wrapper: PathBuf,
    #[arg(long)]
    private: PathBuf,
    /// Pre-wrapper libMIOpen.so: enables no-dropped and abi.
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Provider plugin .so/.o files: enables provider (repeatable).
    #[arg(long = "provider", num_args = 1..)]
    providers: Vec<PathBuf>,
    #[command(flatten)]
    headers: HeadersArgs,
    #[command(flatten)]
    sonames: SonameArgs,
    #[command(flatten)]
    ignore: IgnoreArgs,
    #[command(flatten)]
    tools: AbiToolArgs,
    /// A further DT_NEEDED name the wrapper may have (glob; repeatable).
    #[arg(long = "allow-needed", value_name = "GLOB")]
    allow_needed: Vec<String>,
    /// Gates to leave out (repeatable), e.g. --skip abi.
    #[arg(long, value_name = "GATE")]
    skip: Vec<String>,
}

/// Every gate name, in the order `all` runs them.
pub const GATES: &[&str] = &[
    "headers",
    "no-impl-exports",
    "superset",
    "no-dropped",
    "coversion",
    "needed",
    "provider",
    "hipdnn-independence",
    "abi",
];

fn abi_options(t: &AbiToolArgs) -> abi::AbiOptions {
    abi::AbiOptions {
        abidiff: t.abidiff.clone(),
        abidw: t.abidw.clone(),
        extra_args: t.abidiff_args.clone(),
        include_cxx: t.include_cxx,
    }
}

fn headers_options(h: &HeadersArgs) -> headers::HeadersOptions {
    headers::HeadersOptions {
        public_include: h.public_include.clone(),
        private_subdir: h.private_include_subdir.clone(),
        impl_sources: h.impl_sources.clone(),
    }
}

fn coversion_options(s: &SonameArgs) -> coversion::CoversionOptions {
    coversion::CoversionOptions {
        expect_soname: s.expect_soname.clone(),
        expect_private_soname: s.expect_private_soname.clone(),
    }
}

/// Print a gate's outcome; returns its exit status.
fn emit(gate: &str, outcome: Result<GateReport>) -> i32 {
    match outcome {
        Ok(r) => {
            print!("{}", r.render());
            if r.passed() {
                EXIT_PASS
            } else {
                EXIT_FAIL
            }
        }
        Err(e) => {
            println!("== {gate}");
            println!("  error: {e}");
            println!("FAIL {gate}: could not be evaluated: {e}");
            EXIT_ERROR
        }
    }
}

fn run_all(a: &AllArgs) -> i32 {
    let mut passed = 0usize;
    let mut failed: Vec<&str> = Vec::new();
    let mut not_run: Vec<String> = Vec::new();
    let mut worst = EXIT_PASS;
    for &gate in GATES {
        if a.skip.iter().any(|s| s == gate) {
            not_run.push(format!("{gate} (--skip)"));
            continue;
        }
        let outcome: Option<Result<GateReport>> = match gate {
            "headers" => (a.headers.public_include.is_some() || !a.headers.impl_sources.is_empty())
                .then(|| headers::headers(&headers_options(&a.headers))),
            "no-impl-exports" => Some(symbols::no_impl_exports(&a.wrapper)),
            "superset" => Some(symbols::superset(&a.wrapper, &a.private)),
            "no-dropped" => {
                a.baseline.as_ref().map(|b| symbols::no_dropped(&a.wrapper, b, Some(&a.private), &a.ignore.ignore))
            }
            "needed" => Some(contract::needed(&a.wrapper, &a.private, &a.allow_needed)),
            "coversion" => Some(coversion::coversion(&a.wrapper, &a.private, &coversion_options(&a.sonames))),
            "provider" => {
                (!a.providers.is_empty()).then(|| symbols::provider(&a.private, &a.providers, Some(&a.wrapper)))
            }
            "hipdnn-independence" => Some(symbols::hipdnn_independence(&a.wrapper)),
            "abi" => a.baseline.as_ref().map(|b| abi::abi(b, &a.wrapper, &abi_options(&a.tools))),
            _ => None,
        };
        match outcome {
            None => not_run.push(format!("{gate} (inputs not given)")),
            Some(o) => {
                let code = emit(gate, o);
                println!();
                if code == EXIT_PASS {
                    passed += 1;
                } else {
                    failed.push(gate);
                    worst = worst.max(code);
                }
            }
        }
    }
    if !not_run.is_empty() {
        println!("not run: {}", not_run.join(", "));
    }
    if failed.is_empty() {
        println!("{passed} passed, 0 failed");
    } else {
        println!("{passed} passed, {} failed (failed: {})", failed.len(), failed.join(", "));
    }
    worst
}

/// Entry point for `miopen-wrap check ...`; `args[0]` is the program name.
pub fn cli_main(args: &[String]) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_ERROR } else { EXIT_PASS };
        }
    };
    match &cli.gate {
        GateCmd::Headers(h) => {
            if h.public_include.is_none() && h.impl_sources.is_empty() {
                eprintln!("miopen-wrap check headers: give --public-include and/or --impl-sources");
                return EXIT_ERROR;
            }
            emit("headers", headers::headers(&headers_options(h)))
        }
        GateCmd::NoImplExports { wrapper } => emit("no-impl-exports", symbols::no_impl_exports(wrapper)),
        GateCmd::Superset { wrapper, private } => emit("superset", symbols::superset(wrapper, private)),
        GateCmd::NoDropped { wrapper, baseline, private, ignore } => {
            emit("no-dropped", symbols::no_dropped(wrapper, baseline, private.as_deref(), &ignore.ignore))
        }
        GateCmd::Needed { wrapper, private, allow } => emit("needed", contract::needed(wrapper, private, allow)),
        GateCmd::Coversion { wrapper, private, sonames } => {
            emit("coversion", coversion::coversion(wrapper, private, &coversion_options(sonames)))
        }
        GateCmd::Provider { private, providers, wrapper } => {
            emit("provider", symbols::provider(private, providers, wrapper.as_deref()))
        }
        GateCmd::HipdnnIndependence { wrapper } => emit("hipdnn-independence", symbols::hipdnn_independence(wrapper)),
        GateCmd::Abi { baseline, wrapper, tools } => emit("abi", abi::abi(baseline, wrapper, &abi_options(tools))),
        GateCmd::All(a) => run_all(a),
    }
}
