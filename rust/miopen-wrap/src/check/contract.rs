//! The export contract of libMIOpen.so: what a consumer may bind, shared by
//! the `no-dropped` and `abi` gates so that they never disagree, and the
//! `needed` gate (what the wrapper itself may load). docs/release-gates.md,
//! "The export contract", says why.
//!
//! A C export of the pre-wrapper library is
//! * **API** when the library names its exports in version nodes and the
//!   export carries one (MIOpen's `lib.def`: `global: miopen*;` at
//!   `MIOPEN_<backend>_1`), or when the library has no version node at all.
//!   The wrapper must export it at the same version: a consumer may bind it
//!   at link time and at run time.
//! * **internal** when the library is versioned but the export carries no
//!   version: a default-visibility object the version script never named
//!   (MIOpen's has no `local: *;`), e.g. `MIOPEN_KERNEL_*_SIZE` or the
//!   `MIOPEN_DEBUG_*` environment objects. Not API: the wrapper does not
//!   re-export it. The private library must still export it, so that a binary
//!   linked against the pre-wrapper library, which may hold an unversioned
//!   reference to it, still resolves it at run time through the wrapper's
//!   DT_NEEDED on the private library.
use std::path::Path;

use super::elf::{ElfInfo, Symbol};
use super::error::{CheckError, Result};
use super::report::{file_name, short_list, GateReport};
use super::Gate;
use crate::paths::SymbolGlobs;

/// How the contract classifies one C export of the pre-wrapper library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaselineExport {
    /// Named by the library's version script (or the library has none).
    Api,
    /// Unversioned export of a versioned library: not API.
    Internal,
}

/// The class of `s`, a C export of `baseline`.
pub fn classify(baseline: &ElfInfo, s: &Symbol) -> BaselineExport {
    if baseline.version_defs.is_empty() || s.version.is_some() {
        BaselineExport::Api
    } else {
        BaselineExport::Internal
    }
}

/// Names of the baseline's internal C exports, sorted.
pub fn internal_exports(baseline: &ElfInfo) -> Vec<String> {
    let mut names: Vec<String> = baseline
        .exports()
        .filter(|s| !s.name.starts_with("_Z") && classify(baseline, s) == BaselineExport::Internal)
        .map(|s| s.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The C runtime (glibc and the compiler's unwinder) a wrapper may need
/// besides its private library: the Rust stubs' standard library needs no
/// more.
pub const C_RUNTIME: &[&str] = &[
    "libc.so.6",
    "libm.so.6",
    "libgcc_s.so.1",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "libutil.so.1",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
];

/// Gate `needed`: the wrapper's DT_NEEDED entries are the private library
/// (by its DT_SONAME) and the C runtime, plus the names given with
/// `allow` (globs). A link dependency of MIOpen's own target that leaks onto
/// the wrapper (Boost, librt, ...) fails it.
pub fn needed(wrapper: &Path, private: &Path, allow: &[String]) -> Result<GateReport> {
    let allow = SymbolGlobs::new(allow).map_err(CheckError::Pattern)?;
    let w = ElfInfo::read_shared(wrapper)?;
    let p = ElfInfo::read_shared(private)?;
    let mut r = GateReport::new(Gate::Needed);
    r.note(format!("wrapper DT_NEEDED: {}", w.needed.join(", ")));
    let private_soname = p.soname.clone().unwrap_or_default();
    let mut extra = Vec::new();
    for n in &w.needed {
        let ok = *n == private_soname || C_RUNTIME.contains(&n.as_str()) || allow.matches(n);
        if !ok {
            r.problem(format!(
                "{} has DT_NEEDED `{n}`: neither the private library ({}) nor the C runtime; \
                 a link dependency of the implementation leaked onto the wrapper",
                file_name(wrapper),
                if private_soname.is_empty() { "no DT_SONAME" } else { &private_soname }
            ));
            extra.push(n.clone());
        }
    }
    if private_soname.is_empty() || !w.needed.contains(&private_soname) {
        r.problem(format!(
            "{} has no DT_NEEDED on the private library's SONAME `{private_soname}`",
            file_name(wrapper)
        ));
    }
    r.summary = if r.passed() {
        format!("{} needs only {} and the C runtime", file_name(wrapper), private_soname)
    } else if extra.is_empty() {
        r.problems[0].clone()
    } else {
        format!("{} unexpected DT_NEEDED: {}", extra.len(), short_list(&extra, 8))
    };
    Ok(r)
}
