//! `miopen-wrap generate`: everything the wrapper build needs, derived from
//! the public header and written into the build tree (never the source tree).
//!
//! Outputs (in `--out-dir`):
//! - `bindings.rs`: Rust types of the header (bindgen, enums as plain
//!   integers), `extern "C"` declarations of every `_impl`, and the
//!   forwarded entry points' argument structs (data; [`bindings`]);
//! - `entry_points.rs`: the entry-point table the runtime reads (data);
//! - `stubs.rs`: one `#[no_mangle]` stub per entry point and signature-free
//!   tail-jump stubs for survivors;
//! - `include/miopen/miopen_impl.h`: the API under `_impl` names;
//! - `libMIOpen.map`: the export map (version script) of the wrapper;
//! - `manifest.json`: entry point -> op family, for routing, docs and gates;
//! - `impl_typecheck.cpp`: compile-time check that `&miopenFoo` and
//!   `&miopenFoo_impl` have the same type, for every entry point;
//! - `include/miopen_wrap/survivor_calls_check.h`: the survivors the
//!   forwarding handlers call, as they assume MIOpen defines them (the build
//!   force-includes it into the defining sources: `forward_abi`).

mod args;
pub mod bindings;
mod export_map;
pub mod forward_abi;
mod impl_header;
mod manifest;
mod rust_stubs;
mod typecheck;

use std::path::{Path, PathBuf};

use clap::Args;
use miopen_forwarding_core::family::Group;
use proc_macro2::TokenStream;

use crate::exit::Exit;
use crate::header::{self, Api, ParseOptions};

pub use manifest::{Manifest, ManifestEntry};

#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Header(#[from] header::HeaderError),
    #[error("bindgen failed on {path}: {reason}")]
    Bindgen { path: PathBuf, reason: String },
    #[error("bindgen output could not be parsed: {0}")]
    Syn(#[from] syn::Error),
    #[error("{0}")]
    Mismatch(String),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: not a rename report with a `survivors` list: {reason}")]
    Report { path: PathBuf, reason: String },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> GenerateError + '_ {
    move |source| GenerateError::Io { path: path.to_path_buf(), source }
}

#[derive(Debug, Args)]
#[command(after_help = crate::exit::EXIT_STATUS_HELP)]
pub struct GenerateArgs {
    /// The public header (include/miopen/miopen.h).
    #[arg(long)]
    pub header: PathBuf,
    /// Include directory for parsing the header (generated config.h/export.h, HIP headers).
    #[arg(short = 'I', long = "include")]
    pub include_dirs: Vec<PathBuf>,
    /// Preprocessor definition for parsing the header.
    #[arg(short = 'D', long = "define")]
    pub defines: Vec<String>,
    /// Rename report (JSON from `miopen-wrap rename --report`) whose survivors get stubs too.
    #[arg(long)]
    pub rename_report: Option<PathBuf>,
    /// A survivor given by name (exported C function the header does not declare).
    #[arg(long = "survivor")]
    pub survivors: Vec<String>,
    /// Version node of the exported symbols; must equal the pre-wrapper library's.
    #[arg(long)]
    pub version_node: String,
    /// Output directory (in the build tree).
    #[arg(long)]
    pub out_dir: PathBuf,
    /// The family groups this build forwards, separated by `,` or `;`
    /// (`none`: none). Default: the groups whose rows are in the default set. A forwarding-table
    /// entry point of any other group is built as a pass-through.
    #[arg(long = "forward-groups", value_parser = parse_build_set)]
    pub forward_groups: Option<BuildSet>,
}

/// A build's forwarding set, parsed by clap (an unknown group is a usage error).
#[derive(Debug, Clone)]
pub struct BuildSet(pub Vec<Group>);

fn parse_build_set(text: &str) -> Result<BuildSet, String> {
    Group::parse_build_set(text).map(BuildSet)
}

pub fn cli(args: &GenerateArgs) -> Exit {
    match run(args) {
        Ok(m) => {
            println!(
                "miopen-wrap generate: {} entry points ({} beta), {} survivors -> {}",
                m.entry_points.len(),
                m.entry_points.iter().filter(|e| e.beta).count(),
                m.survivors.len(),
                args.out_dir.display()
            );
            Exit::Pass
        }
        Err(e) => {
            eprintln!("miopen-wrap generate: error: {e}");
            Exit::CouldNotRun
        }
    }
}

pub fn run(args: &GenerateArgs) -> Result<Manifest, GenerateError> {
    let opts = ParseOptions { include_dirs: args.include_dirs.clone(), defines: args.defines.clone() };
    let api = header::parse(&args.header, &opts)?;
    let mut survivors = args.survivors.clone();
    if let Some(report) = &args.rename_report {
        survivors.extend(survivors_from_report(report)?);
    }
    survivors.sort();
    survivors.dedup();
    if let Some(s) = survivors.iter().find(|s| api.names().contains(*s)) {
        return Err(GenerateError::Mismatch(format!("`{s}` is given as a survivor but the header declares it")));
    }
    let calls = if forward_abi::handlers_apply(&api) { forward_abi::survivor_calls() } else { Vec::new() };
    if !survivors.is_empty() {
        if let Some(c) = calls.iter().find(|c| !survivors.contains(&c.name)) {
            return Err(GenerateError::Mismatch(format!(
                "the forwarding handlers call `{}` (src_patches/survivor-calls.json), which this tree does not define",
                c.name
            )));
        }
    }
    let groups = args.forward_groups.as_ref().map_or_else(Group::default_build_set, |s| s.0.clone());
    let manifest = manifest::build(&api, &survivors, &args.version_node, &groups);
    let out = &args.out_dir;
    let rust = rust_stubs::generate(&api, &opts, &manifest)?;
    write_if_changed(&out.join("bindings.rs"), &rust.bindings)?;
    write_if_changed(&out.join("entry_points.rs"), &rust.entry_points)?;
    write_if_changed(&out.join("stubs.rs"), &rust.stubs)?;
    write_if_changed(&out.join("include/miopen/miopen_impl.h"), &impl_header::generate(&api, &survivors))?;
    write_if_changed(&out.join("libMIOpen.map"), &export_map::generate(&manifest))?;
    write_if_changed(&out.join("impl_typecheck.cpp"), &typecheck::generate(&api))?;
    write_if_changed(&out.join("include/miopen_wrap/survivor_calls_check.h"), &forward_abi::check_header(&calls))?;
    let json = serde_json::to_string_pretty(&manifest).expect("manifest serialises");
    write_if_changed(&out.join("manifest.json"), &(json + "\n"))?;
    Ok(manifest)
}

fn survivors_from_report(path: &Path) -> Result<Vec<String>, GenerateError> {
    let text = std::fs::read_to_string(path).map_err(io_err(path))?;
    let bad = |reason: String| GenerateError::Report { path: path.to_path_buf(), reason };
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let list = v.get("survivors").and_then(|s| s.as_array()).ok_or_else(|| bad("no array".into()))?;
    list.iter()
        .map(|s| {
            s.get("name")
                .and_then(|n| n.as_str())
                .or_else(|| s.as_str())
                .map(str::to_string)
                .ok_or_else(|| bad(format!("survivor entry without a name: {s}")))
        })
        .collect()
}

/// Write only when the content differs, so the build does not redo work
/// downstream of an unchanged output.
fn write_if_changed(path: &Path, content: &str) -> Result<(), GenerateError> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(content) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    std::fs::write(path, content).map_err(io_err(path))
}

/// A generated Rust file: its tokens, laid out, under a line naming the header.
pub(crate) fn unparse(api: &Api, file: TokenStream) -> Result<String, GenerateError> {
    let tree: syn::File = syn::parse2(file)?;
    Ok(format!(
        "// Generated by `miopen-wrap generate` from {}; do not edit.\n{}",
        api.header.display(),
        prettyplease::unparse(&tree)
    ))
}

/// The one `Api` -> generated-text helpers share: beta entries are guarded the
/// way the public header guards them.
pub(crate) fn beta_guarded(api: &Api, mut line: impl FnMut(&header::EntryPoint) -> String) -> String {
    let mut out = String::new();
    let mut in_beta = false;
    for e in &api.entry_points {
        if e.beta != in_beta {
            out.push_str(if e.beta { "#ifdef MIOPEN_BETA_API\n" } else { "#endif // MIOPEN_BETA_API\n" });
            in_beta = e.beta;
        }
        out.push_str(&line(e));
    }
    if in_beta {
        out.push_str("#endif // MIOPEN_BETA_API\n");
    }
    out
}

#[cfg(test)]
mod tests;
