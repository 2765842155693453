//! Symbol-table gates: no-impl-exports, superset, no-dropped, provider,
//! hipdnn-independence.
use miopen_forwarding_core::table::WRAPPER_ADDITIONS;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::contract::{self, BaselineExport};
use super::elf::{ElfInfo, ElfKind, Symbol};
use super::error::{CheckError, Result};
use super::report::{file_name, short_list, GateReport};
use super::Gate;
use crate::paths::SymbolGlobs;

const IMPL_SUFFIX: &str = "_impl";

/// Symbols the static linker defines on its own in many shared libraries;
/// whether they are exported depends on the link (version script or not),
/// not on the library's API, so no-dropped does not require them.
pub const LINKER_SYMBOLS: &[&str] = &[
    "_init",
    "_fini",
    "_edata",
    "_end",
    "__bss_start",
    "__end__",
    "_DYNAMIC",
    "_GLOBAL_OFFSET_TABLE_",
    "_PROCEDURE_LINKAGE_TABLE_",
    "__init_array_start",
    "__init_array_end",
    "__fini_array_start",
    "__fini_array_end",
];

fn is_impl(name: &str) -> bool {
    name.ends_with(IMPL_SUFFIX)
}

/// Gate `no-impl-exports`: the wrapper exports no `*_impl` symbol.
pub fn no_impl_exports(wrapper: &Path) -> Result<GateReport> {
    let w = ElfInfo::read_shared(wrapper)?;
    let mut r = GateReport::new(Gate::NoImplExports);
    r.note(format!("wrapper: {}", wrapper.display()));
    let exports: Vec<_> = w.exports().collect();
    r.note(format!("wrapper exports {} dynamic symbols", exports.len()));
    let leaked: Vec<String> = exports.iter().filter(|s| is_impl(&s.name)).map(|s| s.display()).collect();
    for l in &leaked {
        r.problem(format!("{} exports `{l}`", wrapper.display()));
    }
    r.summary = if leaked.is_empty() {
        format!("{} exports no *_impl symbol", file_name(wrapper))
    } else {
        format!("{} exports {} *_impl symbol(s): {}", file_name(wrapper), leaked.len(), short_list(&leaked, 8))
    };
    Ok(r)
}

/// Gate `superset`: each `miopenX_impl` exported by Private has `miopenX`
/// exported by the wrapper. Wrapper-only additions are listed, not failed.
pub fn superset(wrapper: &Path, private: &Path) -> Result<GateReport> {
    let w = ElfInfo::read_shared(wrapper)?;
    let p = ElfInfo::read_shared(private)?;
    let mut r = GateReport::new(Gate::Superset);
    r.note(format!("wrapper: {}", wrapper.display()));
    r.note(format!("private: {}", private.display()));

    let impls: BTreeSet<&str> =
        p.exports().map(|s| s.name.as_str()).filter(|n| n.starts_with("miopen") && is_impl(n)).collect();
    let public: BTreeSet<&str> = w.exports().map(|s| s.name.as_str()).filter(|n| !is_impl(n)).collect();
    r.note(format!("private exports {} miopen*_impl entry points", impls.len()));
    r.note(format!("wrapper exports {} non-_impl symbols", public.len()));

    let mut missing = Vec::new();
    for imp in &impls {
        let base = &imp[..imp.len() - IMPL_SUFFIX.len()];
        if !public.contains(base) {
            missing.push(base.to_string());
            r.problem(format!("`{base}` is not exported by {} (private exports `{imp}`)", file_name(wrapper)));
        }
    }
    let additions: Vec<&str> =
        public.iter().copied().filter(|n| !impls.contains(format!("{n}{IMPL_SUFFIX}").as_str())).collect();
    if additions.is_empty() {
        r.note("wrapper-only additions: none");
    } else {
        r.note(format!("wrapper-only additions ({}, allowed): {}", additions.len(), additions.join(", ")));
    }
    if impls.is_empty() {
        r.problem(format!("{} exports no miopen*_impl symbol: is it the private library?", file_name(private)));
    }
    r.summary = if missing.is_empty() && !impls.is_empty() {
        format!(
            "all {} _impl entry points have a public export ({} wrapper-only addition(s))",
            impls.len(),
            additions.len()
        )
    } else if impls.is_empty() {
        format!("no _impl entry points in {}", file_name(private))
    } else {
        format!(
            "{} of {} entry points missing from {}: {}",
            missing.len(),
            impls.len(),
            file_name(wrapper),
            short_list(&missing, 8)
        )
    };
    Ok(r)
}

/// Gate `no-dropped`: every C (non-`_Z`) API symbol the baseline exports
/// (see `contract`) is exported by the wrapper, with the same version node
/// (and the same default/non-default binding) when the baseline's is
/// versioned; every internal one is still exported by the private library
/// (when `private` is given); and the wrapper exports no C symbol beyond the
/// baseline's except its own API (`WRAPPER_ADDITIONS`).
pub fn no_dropped(wrapper: &Path, baseline: &Path, private: Option<&Path>, ignore: &[String]) -> Result<GateReport> {
    let ignore = SymbolGlobs::new(ignore).map_err(CheckError::Pattern)?;
    let w = ElfInfo::read_shared(wrapper)?;
    let b = ElfInfo::read_shared(baseline)?;
    let p = private.map(ElfInfo::read_shared).transpose()?;
    let mut r = GateReport::new(Gate::NoDropped);
    r.note(format!("baseline: {}", baseline.display()));
    r.note(format!("wrapper:  {}", wrapper.display()));

    let libs = Libraries { wrapper, private };
    let scan = scan_baseline(&b, &w, p.as_ref(), &ignore, libs, &mut r);
    r.note(format!(
        "baseline C API exports checked: {} (C++ `_Z` symbols skipped: {})",
        scan.considered, scan.skipped_cxx
    ));
    if scan.internal > 0 {
        r.note(internal_note(&scan, private));
    }
    let unexpected = unexpected_additions(&w, &b, &ignore);
    for name in &unexpected {
        r.problem(format!(
            "`{name}` is exported by {} but not by the baseline, and is not a wrapper addition ({})",
            file_name(wrapper),
            WRAPPER_ADDITIONS.join(", ")
        ));
    }
    if !scan.ignored.is_empty() {
        r.note(format!("ignored (linker-defined or --ignore): {}", scan.ignored.join(", ")));
    }
    r.summary = no_dropped_summary(&scan, &unexpected, baseline, wrapper);
    Ok(r)
}

/// The wrapper and private library paths, for messages.
#[derive(Clone, Copy)]
struct Libraries<'a> {
    wrapper: &'a Path,
    private: Option<&'a Path>,
}

/// What `no-dropped` found walking the baseline's exports.
#[derive(Default)]
struct BaselineScan {
    /// C API exports checked against the wrapper.
    considered: usize,
    skipped_cxx: usize,
    /// Internal exports (see `contract`) and those neither library exports.
    internal: usize,
    internal_lost: Vec<String>,
    ignored: Vec<String>,
    /// API exports missing from the wrapper or at another version node.
    dropped: Vec<String>,
}

/// Walks the baseline's exports: C API ones must be in the wrapper at the
/// same version node, internal ones in the private library (when given).
fn scan_baseline(
    b: &ElfInfo,
    w: &ElfInfo,
    p: Option<&ElfInfo>,
    ignore: &SymbolGlobs,
    libs: Libraries<'_>,
    r: &mut GateReport,
) -> BaselineScan {
    let private_exports: BTreeSet<&str> = p.iter().flat_map(|p| p.exports().map(|s| s.name.as_str())).collect();
    // name -> the (version, default) pairs the wrapper exports it at.
    let mut wmap: BTreeMap<&str, Vec<(Option<&str>, bool)>> = BTreeMap::new();
    for s in w.exports() {
        wmap.entry(s.name.as_str()).or_default().push((s.version.as_deref(), s.default_version));
    }
    let mut scan = BaselineScan::default();
    for s in b.exports() {
        if s.name.starts_with("_Z") {
            scan.skipped_cxx += 1;
        } else if LINKER_SYMBOLS.contains(&s.name.as_str()) || ignore.matches(&s.name) {
            scan.ignored.push(s.display());
        } else if contract::classify(b, s) == BaselineExport::Internal {
            scan.internal += 1;
            if p.is_some() && !private_exports.contains(s.name.as_str()) {
                scan.internal_lost.push(s.name.clone());
                r.problem(format!(
                    "`{}` (unversioned, internal) is exported by the baseline but by neither {} nor {}: \
                     binaries linked against the baseline can no longer resolve it",
                    s.name,
                    file_name(libs.wrapper),
                    libs.private.map(file_name).unwrap_or_default()
                ));
            }
        } else {
            scan.considered += 1;
            if let Some(problem) = wrapper_mismatch(s, wmap.get(s.name.as_str()), libs.wrapper) {
                scan.dropped.push(s.name.clone());
                r.problem(problem);
            }
        }
    }
    scan
}

/// Why the wrapper's exports `have` of the baseline's API symbol `s` do not
/// keep it: missing, or not at its version node; None when they do.
fn wrapper_mismatch(s: &Symbol, have: Option<&Vec<(Option<&str>, bool)>>, wrapper: &Path) -> Option<String> {
    let Some(have) = have else {
        return Some(format!("`{}` is exported by the baseline but not by {}", s.display(), file_name(wrapper)));
    };
    let bv = s.version.as_deref()?;
    if have.iter().any(|(v, d)| *v == Some(bv) && *d == s.default_version) {
        return None;
    }
    let shown: Vec<String> = have
        .iter()
        .map(|(v, d)| match v {
            Some(v) if *d => format!("{}@@{v}", s.name),
            Some(v) => format!("{}@{v}", s.name),
            None => format!("{} (unversioned)", s.name),
        })
        .collect();
    Some(format!("`{}` has a different version node in {}: {}", s.display(), file_name(wrapper), shown.join(", ")))
}

fn internal_note(scan: &BaselineScan, private: Option<&Path>) -> String {
    match private {
        Some(pp) => format!(
            "baseline internal exports (unversioned in a versioned library; not API, not re-exported): {}, \
             {} of them still exported by {}",
            scan.internal,
            scan.internal - scan.internal_lost.len(),
            file_name(pp)
        ),
        None => format!(
            "baseline internal exports (unversioned in a versioned library; not API): {}, \
             not checked (--private checks that the private library still exports them)",
            scan.internal
        ),
    }
}

fn no_dropped_summary(scan: &BaselineScan, unexpected: &[String], baseline: &Path, wrapper: &Path) -> String {
    if !unexpected.is_empty() {
        format!("{} unexpected export(s): {}", unexpected.len(), short_list(unexpected, 8))
    } else if !scan.internal_lost.is_empty() && scan.dropped.is_empty() {
        format!(
            "{} internal baseline export(s) exported by neither library: {}",
            scan.internal_lost.len(),
            short_list(&scan.internal_lost, 8)
        )
    } else if scan.dropped.is_empty() {
        let internal = match scan.internal {
            0 => String::new(),
            n => format!("; {n} internal export(s) left to the private library"),
        };
        format!(
            "all {} C API symbols of {} are exported by {} with the same version node; \
             no export beyond them but the wrapper's own ({}){internal}",
            scan.considered,
            file_name(baseline),
            file_name(wrapper),
            WRAPPER_ADDITIONS.join(", "),
        )
    } else {
        format!("{} baseline symbol(s) dropped or re-versioned: {}", scan.dropped.len(), short_list(&scan.dropped, 8))
    }
}

/// C exports of the wrapper that the baseline does not have, other than the
/// wrapper's own API: an export nobody decided to add.
fn unexpected_additions(w: &ElfInfo, b: &ElfInfo, ignore: &SymbolGlobs) -> Vec<String> {
    let base: BTreeSet<&str> = b.exports().map(|s| s.name.as_str()).collect();
    let mut extra: Vec<String> = w
        .exports()
        .map(|s| s.name.as_str())
        .filter(|n| !n.starts_with("_Z") && !base.contains(n) && !WRAPPER_ADDITIONS.contains(n))
        .filter(|n| !LINKER_SYMBOLS.contains(n) && !ignore.matches(n))
        .map(str::to_string)
        .collect();
    extra.sort();
    extra.dedup();
    extra
}

/// Is this DT_NEEDED entry the public wrapper (`libMIOpen.so*` or a bundler
/// renamed `libMIOpen-<hash>.so*`), as opposed to `libMIOpen_private*`?
pub fn looks_like_wrapper_name(needed: &str) -> bool {
    match needed.strip_prefix("libMIOpen") {
        Some(rest) => rest.starts_with(".so") || rest.starts_with('-'),
        None => false,
    }
}

/// Gate `provider`: every undefined `miopen*` symbol of the provider plugin
/// is an `_impl` symbol exported by Private; no undefined internal
/// `miopen::` C++ symbol; no DT_NEEDED on the wrapper.
pub fn provider(private: &Path, providers: &[PathBuf], wrapper: Option<&Path>) -> Result<GateReport> {
    let p = ElfInfo::read_shared(private)?;
    let wrapper_soname = match wrapper {
        Some(w) => ElfInfo::read_shared(w)?.soname,
        None => None,
    };
    let mut r = GateReport::new(Gate::Provider);
    r.note(format!("private: {}", private.display()));
    let mut files = Vec::with_capacity(providers.len());
    for path in providers {
        let f = ElfInfo::read(path)?;
        if !matches!(f.kind, ElfKind::SharedObject | ElfKind::Relocatable) {
            return Err(super::error::CheckError::NotLinkable { path: path.clone() });
        }
        files.push(f);
    }
    let mut check = ProviderCheck {
        private,
        private_soname: p.soname.as_deref(),
        private_exports: p.exports().map(|s| s.name.as_str()).collect(),
        // Symbols one provider file defines for another (object files of one
        // plugin) are internal to the plugin, whatever their name.
        provider_defs: files.iter().flat_map(|f| f.exports().map(|s| s.name.clone())).collect(),
        wrapper_soname: wrapper_soname.as_deref(),
        bad: Vec::new(),
        impl_refs: BTreeSet::new(),
    };
    for (path, f) in providers.iter().zip(&files) {
        check.undefined_symbols(path, f, &mut r);
        check.needed(path, f, &mut r);
    }
    r.note(format!("_impl symbols referenced and resolved by private: {}", check.impl_refs.len()));
    r.summary = if check.bad.is_empty() {
        format!(
            "{} provider file(s) reference only _impl symbols exported by {} ({} distinct)",
            providers.len(),
            file_name(private),
            check.impl_refs.len()
        )
    } else {
        format!("{} violation(s): {}", check.bad.len(), short_list(&check.bad, 8))
    };
    Ok(r)
}

/// The `provider` gate's view of the private library and what it found.
struct ProviderCheck<'a> {
    private: &'a Path,
    private_soname: Option<&'a str>,
    private_exports: BTreeSet<&'a str>,
    provider_defs: BTreeSet<String>,
    wrapper_soname: Option<&'a str>,
    bad: Vec<String>,
    impl_refs: BTreeSet<String>,
}

impl ProviderCheck<'_> {
    /// The undefined MIOpen symbols of one provider file: `_impl` names the
    /// private library exports, nothing else.
    fn undefined_symbols(&mut self, path: &Path, f: &ElfInfo, r: &mut GateReport) {
        let shown = path.display();
        let mut count = 0usize;
        for s in f.undefined() {
            let n = s.name.as_str();
            if self.provider_defs.contains(n) {
                continue;
            }
            if n.starts_with("miopen") {
                count += 1;
                if !is_impl(n) {
                    self.bad.push(n.to_string());
                    r.problem(format!(
                        "{shown} references public symbol `{n}` (must call `{n}{IMPL_SUFFIX}` from the private library)"
                    ));
                } else if !self.private_exports.contains(n) {
                    self.bad.push(n.to_string());
                    r.problem(format!("{shown} references `{n}`, which {} does not export", file_name(self.private)));
                } else {
                    self.impl_refs.insert(n.to_string());
                }
            } else if n.starts_with("_Z") && (n.contains("6miopen") || n.contains("6MIOpen")) {
                count += 1;
                self.bad.push(n.to_string());
                r.problem(format!(
                    "{shown} references MIOpen internal C++ symbol `{n}` (only the _impl C API is supported)"
                ));
            }
        }
        let kind = if f.kind == ElfKind::Relocatable { "object" } else { "shared library" };
        r.note(format!("{shown} ({kind}): {count} undefined MIOpen symbol(s)"));
    }

    /// One provider file's DT_NEEDED: never the public wrapper.
    fn needed(&mut self, path: &Path, f: &ElfInfo, r: &mut GateReport) {
        let shown = path.display();
        for needed in &f.needed {
            if self.wrapper_soname == Some(needed.as_str()) || looks_like_wrapper_name(needed) {
                self.bad.push(needed.clone());
                r.problem(format!(
                    "{shown} has DT_NEEDED `{needed}` (the public wrapper); link libMIOpen_private only"
                ));
            }
        }
        if f.kind == ElfKind::SharedObject {
            let private_needed = self.private_soname.map(|so| f.needed.iter().any(|n| n == so)).unwrap_or(false);
            r.note(format!(
                "{shown}: DT_NEEDED {:?}{}",
                f.needed,
                if private_needed { "" } else { " (no DT_NEEDED on the private library's SONAME)" }
            ));
        }
    }
}

/// Gate `hipdnn-independence`: the wrapper has no DT_NEEDED on a hipDNN
/// library and references no hipDNN symbol.
pub fn hipdnn_independence(wrapper: &Path) -> Result<GateReport> {
    let w = ElfInfo::read_shared(wrapper)?;
    let mut r = GateReport::new(Gate::HipdnnIndependence);
    r.note(format!("wrapper: {}", wrapper.display()));
    r.note(format!("DT_NEEDED: {:?}", w.needed));
    let mut bad = Vec::new();
    for n in &w.needed {
        if n.to_ascii_lowercase().contains("hipdnn") {
            bad.push(n.clone());
            r.problem(format!("{} has DT_NEEDED `{n}`", file_name(wrapper)));
        }
    }
    for s in w.undefined() {
        if s.name.to_ascii_lowercase().contains("hipdnn") {
            bad.push(s.name.clone());
            r.problem(format!(
                "{} references undefined {}symbol `{}`",
                file_name(wrapper),
                if s.weak { "weak " } else { "" },
                s.display()
            ));
        }
    }
    r.summary = if bad.is_empty() {
        format!("{} neither needs nor references hipDNN", file_name(wrapper))
    } else {
        format!("{} hipDNN dependency(ies): {}", bad.len(), short_list(&bad, 8))
    };
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapper_names() {
        assert!(looks_like_wrapper_name("libMIOpen.so.1"));
        assert!(looks_like_wrapper_name("libMIOpen.so"));
        assert!(looks_like_wrapper_name("libMIOpen-1a2b3c4d.so"));
        assert!(!looks_like_wrapper_name("libMIOpen_private.so.1"));
        assert!(!looks_like_wrapper_name("libMIOpen_private-1a2b.so"));
        assert!(!looks_like_wrapper_name("libhipdnn_backend.so"));
    }
}
