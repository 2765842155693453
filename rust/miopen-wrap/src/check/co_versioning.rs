//! Gate `co-versioning` (RFC 0001 §4.3.1, §4.7): the wrapper and the private
//! library come from the same release and are bound to each other.
//!
//! Everything is keyed on what the files say about themselves (DT_SONAME,
//! DT_NEEDED, `.miopen_version`), never on file names, so a pair renamed by a
//! wheel bundler (`patchelf --set-soname` on both, `--replace-needed` on the
//! wrapper) is checked the same way as `libMIOpen.so.1`/`libMIOpen_private.so.1`.
use std::path::Path;

use super::elf::{soversion_of, ElfInfo, VersionStamp, VERSION_SECTION};
use super::error::Result;
use super::report::{file_name, GateReport};
use super::Gate;

#[derive(Debug, Clone, Default)]
pub struct CoVersioningOptions {
    /// Required DT_SONAME of the wrapper (e.g. `libMIOpen.so.1`).
    pub expect_soname: Option<String>,
    /// Required DT_SONAME of the private library (e.g. `libMIOpen_private.so.1`).
    pub expect_private_soname: Option<String>,
}

fn stamp_of(r: &mut GateReport, role: &str, info: &ElfInfo) -> Option<String> {
    let name = file_name(&info.path);
    match info.version_stamp() {
        VersionStamp::Version(v) => {
            r.note(format!("{role} {name}: {VERSION_SECTION} = {v}"));
            Some(v)
        }
        VersionStamp::Missing => {
            r.problem(format!("{role} {name} has no {VERSION_SECTION} section"));
            None
        }
        VersionStamp::Malformed(s) => {
            r.problem(format!("{role} {name}: {VERSION_SECTION} does not hold `miopen-version:X.Y.Z` (found {s:?})"));
            None
        }
        VersionStamp::Conflicting(vs) => {
            r.problem(format!("{role} {name}: {VERSION_SECTION} holds conflicting versions {}", vs.join(", ")));
            None
        }
    }
}

pub fn co_versioning(wrapper: &Path, private: &Path, opts: &CoVersioningOptions) -> Result<GateReport> {
    let w = ElfInfo::read_shared(wrapper)?;
    let p = ElfInfo::read_shared(private)?;
    let mut r = GateReport::new(Gate::CoVersioning);
    let (wname, pname) = (file_name(wrapper), file_name(private));

    // 1. Version metadata agrees.
    let wv = stamp_of(&mut r, "wrapper", &w);
    let pv = stamp_of(&mut r, "private", &p);
    if let (Some(wv), Some(pv)) = (&wv, &pv) {
        if wv != pv {
            r.problem(format!("version metadata disagree: {wname} is {wv}, {pname} is {pv}"));
        }
    }
    // 2. SONAMEs.
    check_sonames(&w, &p, opts, &mut r);
    // 3. The wrapper's DT_NEEDED names this private library, at the wrapper's SOVERSION.
    match &p.soname {
        None => r.problem(format!("{pname} has no DT_SONAME, so the wrapper's DT_NEEDED cannot be matched to it")),
        Some(psoname) => check_binding(&w, psoname, &pname, &mut r),
    }

    r.summary = if r.passed() {
        format!(
            "{wname} and {pname} are release {} and bound by DT_NEEDED `{}`",
            wv.as_deref().unwrap_or("?"),
            p.soname.as_deref().unwrap_or("?")
        )
    } else {
        format!("{} problem(s): {}", r.problems.len(), r.problems[0])
    };
    Ok(r)
}

/// Both libraries have the DT_SONAMEs asked for (and the wrapper one at all).
fn check_sonames(w: &ElfInfo, p: &ElfInfo, opts: &CoVersioningOptions, r: &mut GateReport) {
    let (wname, pname) = (file_name(&w.path), file_name(&p.path));
    r.note(format!("wrapper DT_SONAME: {}", w.soname.as_deref().unwrap_or("(none)")));
    r.note(format!("private DT_SONAME: {}", p.soname.as_deref().unwrap_or("(none)")));
    r.note(format!("wrapper DT_NEEDED: {:?}", w.needed));
    if w.soname.is_none() {
        r.problem(format!("{wname} has no DT_SONAME"));
    }
    for (name, info, expected) in [(&wname, w, &opts.expect_soname), (&pname, p, &opts.expect_private_soname)] {
        if let Some(exp) = expected {
            if info.soname.as_deref() != Some(exp.as_str()) {
                r.problem(format!(
                    "{name} has DT_SONAME {:?}, expected `{exp}`",
                    info.soname.as_deref().unwrap_or("(none)")
                ));
            }
        }
    }
}

/// The wrapper `w` has DT_NEEDED `psoname` (the private library's DT_SONAME)
/// at its own SOVERSION.
fn check_binding(w: &ElfInfo, psoname: &str, pname: &str, r: &mut GateReport) {
    let wname = file_name(&w.path);
    if !w.needed.iter().any(|n| n == psoname) {
        let similar: Vec<String> =
            w.needed.iter().filter(|n| n.contains("MIOpen_private")).map(|s| format!("`{s}`")).collect();
        let needs = if similar.is_empty() { String::new() } else { format!("; it needs {}", similar.join(", ")) };
        r.problem(format!("{wname} has no DT_NEEDED `{psoname}` (the DT_SONAME of {pname}){needs}"));
        return;
    }
    let wx = w.soversion();
    let px = soversion_of(psoname);
    match (&wx, &px) {
        (Some(a), Some(b)) if a == b => r.note(format!("wrapper SOVERSION {a} = SOVERSION of DT_NEEDED `{psoname}`")),
        (None, None) => r.note(format!(
            "neither SONAME carries a .so.<X> suffix (renamed pair); DT_NEEDED `{psoname}` matches the private library's DT_SONAME"
        )),
        _ => r.problem(format!(
            "SOVERSION mismatch: wrapper {} is at {}, its DT_NEEDED `{psoname}` is at {}",
            w.soname.as_deref().unwrap_or("(none)"),
            wx.as_deref().unwrap_or("(none)"),
            px.as_deref().unwrap_or("(none)")
        )),
    }
}
