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
pub mod co_versioning;
pub mod contract;
pub mod elf;
pub mod error;
pub mod headers;
pub mod report;
pub mod symbols;

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Subcommand, ValueEnum};

pub use error::{CheckError, Result};
pub use report::GateReport;

use crate::exit::Exit;

/// Every release gate, in the order `check all` runs them; the names are the
/// subcommand names and the values `--skip` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    Headers,
    NoImplExports,
    Superset,
    NoDropped,
    CoVersioning,
    Needed,
    Provider,
    HipdnnIndependence,
    Abi,
}

impl Gate {
    pub const ALL: [Gate; 9] = [
        Gate::Headers,
        Gate::NoImplExports,
        Gate::Superset,
        Gate::NoDropped,
        Gate::CoVersioning,
        Gate::Needed,
        Gate::Provider,
        Gate::HipdnnIndependence,
        Gate::Abi,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Gate::Headers => "headers",
            Gate::NoImplExports => "no-impl-exports",
            Gate::Superset => "superset",
            Gate::NoDropped => "no-dropped",
            Gate::CoVersioning => "co-versioning",
            Gate::Needed => "needed",
            Gate::Provider => "provider",
            Gate::HipdnnIndependence => "hipdnn-independence",
            Gate::Abi => "abi",
        }
    }
}

impl ValueEnum for Gate {
    fn value_variants<'a>() -> &'a [Self] {
        &Gate::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// `miopen-wrap check <gate>`: one gate, or `all`.
#[derive(Subcommand, Debug)]
#[command(after_help = "Exit status: 0 all gates passed; 1 a gate failed; 2 usage error, or a gate could not \
run (unreadable file, not ELF, abidiff missing or erroring).\nDocumentation: docs/release-gates.md")]
pub enum GateCommand {
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
    CoVersioning {
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
pub struct HeadersArgs {
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
pub struct IgnoreArgs {
    /// Baseline symbols (glob, `*` and `?`) no-dropped does not require (repeatable).
    #[arg(long = "ignore", value_name = "GLOB")]
    ignore: Vec<String>,
}

#[derive(Args, Debug, Clone, Default)]
pub struct SonameArgs {
    /// Required DT_SONAME of the wrapper (e.g. libMIOpen.so.1).
    #[arg(long)]
    expect_soname: Option<String>,
    /// Required DT_SONAME of the private library (e.g. libMIOpen_private.so.1).
    #[arg(long)]
    expect_private_soname: Option<String>,
}

#[derive(Args, Debug, Clone)]
pub struct AbiToolArgs {
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
pub struct AllArgs {
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
    skip: Vec<Gate>,
}

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

fn co_versioning_options(s: &SonameArgs) -> co_versioning::CoVersioningOptions {
    co_versioning::CoVersioningOptions {
        expect_soname: s.expect_soname.clone(),
        expect_private_soname: s.expect_private_soname.clone(),
    }
}

/// Print a gate's outcome; returns its exit status.
fn emit(gate: Gate, outcome: Result<GateReport>) -> Exit {
    match outcome {
        Ok(r) => {
            print!("{}", r.render());
            Exit::check(r.passed())
        }
        Err(e) => {
            let gate = gate.name();
            println!("== {gate}");
            println!("  error: {e}");
            println!("FAIL {gate}: could not be evaluated: {e}");
            Exit::CouldNotRun
        }
    }
}

/// The gate run with `all`'s inputs, or None when they lack what it needs.
fn run_with(gate: Gate, a: &AllArgs) -> Option<Result<GateReport>> {
    match gate {
        Gate::Headers => (a.headers.public_include.is_some() || !a.headers.impl_sources.is_empty())
            .then(|| headers::headers(&headers_options(&a.headers))),
        Gate::NoImplExports => Some(symbols::no_impl_exports(&a.wrapper)),
        Gate::Superset => Some(symbols::superset(&a.wrapper, &a.private)),
        Gate::NoDropped => {
            a.baseline.as_ref().map(|b| symbols::no_dropped(&a.wrapper, b, Some(&a.private), &a.ignore.ignore))
        }
        Gate::CoVersioning => {
            Some(co_versioning::co_versioning(&a.wrapper, &a.private, &co_versioning_options(&a.sonames)))
        }
        Gate::Needed => Some(contract::needed(&a.wrapper, &a.private, &a.allow_needed)),
        Gate::Provider => {
            (!a.providers.is_empty()).then(|| symbols::provider(&a.private, &a.providers, Some(&a.wrapper)))
        }
        Gate::HipdnnIndependence => Some(symbols::hipdnn_independence(&a.wrapper)),
        Gate::Abi => a.baseline.as_ref().map(|b| abi::abi(b, &a.wrapper, &abi_options(&a.tools))),
    }
}

fn run_all(a: &AllArgs) -> Exit {
    let mut passed = 0usize;
    let mut failed: Vec<&str> = Vec::new();
    let mut not_run: Vec<String> = Vec::new();
    let mut worst = Exit::Pass;
    for gate in Gate::ALL {
        if a.skip.contains(&gate) {
            not_run.push(format!("{} (--skip)", gate.name()));
            continue;
        }
        let Some(outcome) = run_with(gate, a) else {
            not_run.push(format!("{} (inputs not given)", gate.name()));
            continue;
        };
        let exit = emit(gate, outcome);
        println!();
        if exit == Exit::Pass {
            passed += 1;
        } else {
            failed.push(gate.name());
            worst = worst.max(exit);
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

/// Run `miopen-wrap check <gate>`.
pub fn cli(command: &GateCommand) -> Exit {
    match command {
        GateCommand::Headers(h) => {
            if h.public_include.is_none() && h.impl_sources.is_empty() {
                eprintln!("miopen-wrap check headers: give --public-include and/or --impl-sources");
                return Exit::CouldNotRun;
            }
            emit(Gate::Headers, headers::headers(&headers_options(h)))
        }
        GateCommand::NoImplExports { wrapper } => emit(Gate::NoImplExports, symbols::no_impl_exports(wrapper)),
        GateCommand::Superset { wrapper, private } => emit(Gate::Superset, symbols::superset(wrapper, private)),
        GateCommand::NoDropped { wrapper, baseline, private, ignore } => {
            emit(Gate::NoDropped, symbols::no_dropped(wrapper, baseline, private.as_deref(), &ignore.ignore))
        }
        GateCommand::Needed { wrapper, private, allow } => {
            emit(Gate::Needed, contract::needed(wrapper, private, allow))
        }
        GateCommand::CoVersioning { wrapper, private, sonames } => {
            emit(Gate::CoVersioning, co_versioning::co_versioning(wrapper, private, &co_versioning_options(sonames)))
        }
        GateCommand::Provider { private, providers, wrapper } => {
            emit(Gate::Provider, symbols::provider(private, providers, wrapper.as_deref()))
        }
        GateCommand::HipdnnIndependence { wrapper } => {
            emit(Gate::HipdnnIndependence, symbols::hipdnn_independence(wrapper))
        }
        GateCommand::Abi { baseline, wrapper, tools } => {
            emit(Gate::Abi, abi::abi(baseline, wrapper, &abi_options(tools)))
        }
        GateCommand::All(a) => run_all(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each gate's subcommand and `--skip` value is its name.
    #[test]
    fn gate_names_are_the_subcommand_names() {
        let cmd = GateCommand::augment_subcommands(clap::Command::new("check"));
        for gate in Gate::ALL {
            assert!(cmd.find_subcommand(gate.name()).is_some(), "no subcommand `{}`", gate.name());
            assert_eq!(Gate::from_str(gate.name(), false), Ok(gate));
        }
        assert!(Gate::from_str("abbi", false).is_err());
    }
}
