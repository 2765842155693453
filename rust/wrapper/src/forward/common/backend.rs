//! The hipDNN backend, loaded lazily at the first call that would forward
//! (never at load time: `libMIOpen.so` has no `DT_NEEDED` on hipDNN and no
//! undefined `hipdnn*` symbol). The outcome, failure included, is kept for
//! the life of the process, so racing first calls load once and print one
//! diagnostic.

use std::path::PathBuf;
use std::sync::OnceLock;

use hipdnn_backend::api::Api;
use hipdnn_backend::loader::{self, Backend, SearchInputs};
use hipdnn_backend::probe::{self, Probe};
use miopen_forwarding_core::family::Group;
use miopen_forwarding_core::row::GroupRow;

use super::row::{Probed, RuntimeRow};
use crate::diagnostics;

static BACKEND: OnceLock<Result<&'static Backend, String>> = OnceLock::new();

/// The groups' runtime rows (`forward::GROUPS`), installed before any call
/// is routed ([`install`]).
static GROUPS: OnceLock<&'static [&'static RuntimeRow]> = OnceLock::new();

/// Hands the groups' runtime rows to the backend's load and probes (every
/// racing first caller does, with the same list).
pub fn install(groups: &'static [&'static RuntimeRow]) {
    let _ = GROUPS.set(groups);
}

fn runtime_row(group: &GroupRow) -> Option<&'static RuntimeRow> {
    GROUPS.get()?.iter().copied().find(|r| r.group.name == group.name)
}

/// The probes every group's rows ask for at load.
fn probes_at_load() -> Vec<&'static Probe> {
    let rows = GROUPS.get().copied().unwrap_or(&[]);
    rows.iter().filter(|r| r.probed == Probed::AtLoad).flat_map(|r| r.probes).collect()
}

/// The loaded backend's function table, or the reason it is unavailable.
pub fn api() -> Result<&'static Api, &'static str> {
    match BACKEND.get_or_init(load) {
        Ok(b) => Ok(&b.api),
        Err(e) => Err(e.as_str()),
    }
}

/// One outcome per group of its own probes, kept for the process like the
/// load's: one diagnostic per group.
static GROUP_PROBES: [OnceLock<Result<(), String>>; Group::COUNT] = [const { OnceLock::new() }; Group::COUNT];

/// Whether the loaded backend serves the operation types of `group`'s
/// graphs: probes of [`Probed::AtFirstPlan`] run at the group's first call
/// that would build a plan. A failure makes only that group unavailable
/// (its calls fail as with an absent backend).
pub fn group_ready(api: &Api, group: &'static GroupRow) -> Result<(), &'static str> {
    let Some(row) = runtime_row(group).filter(|r| r.probed == Probed::AtFirstPlan && !r.probes.is_empty()) else {
        return Ok(());
    };
    let group = Group::of(group);
    match GROUP_PROBES[group.index()].get_or_init(|| probe_group(api, group, row.probes)) {
        Ok(()) => Ok(()),
        Err(e) => Err(e.as_str()),
    }
}

fn probe_group(api: &Api, group: Group, probes: &[Probe]) -> Result<(), String> {
    probe::probe(api, probes).map_err(|why| {
        let status = miopen_forwarding_core::status::UNAVAILABLE;
        diagnostics::error(&format!(
            "MIOPEN_HIPDNN_FORWARDING=enabled but the hipDNN backend cannot run the {name} group: {why}. Every \
             {name} call that would be forwarded fails with {}; the other groups still forward. To run {name} on \
             MIOpen instead set MIOPEN_DISABLE_HIPDNN_FOR={name}, or use a hipDNN built from a revision the wrapper \
             pins (docs/hipdnn-compatibility.md).",
            miopen_forwarding_core::status::miopen::name(status),
            name = group.name(),
        ));
        format!("the {} group's operation types: {why}", group.name())
    })
}

/// The backend if it was already loaded (never triggers a load).
pub fn loaded() -> Option<&'static Api> {
    match BACKEND.get() {
        Some(Ok(b)) => Some(&b.api),
        _ => None,
    }
}

fn load() -> Result<&'static Backend, String> {
    let inputs = SearchInputs::from_process(module_dir());
    let plan = loader::search_plan(&inputs);
    for w in &plan.warnings {
        diagnostics::warning(w);
    }
    match loader::open(&plan, &probes_at_load()) {
        Ok(b) => {
            crate::trace::info(format_args!("hipDNN backend {} (version {}) loaded", b.path.display(), b.version));
            // The backend stays loaded for the process: plans hold its code.
            Ok(Box::leak(Box::new(b)))
        }
        Err(e) => {
            let status = miopen_forwarding_core::status::UNAVAILABLE;
            diagnostics::error(&format!(
                "MIOPEN_HIPDNN_FORWARDING=enabled but the hipDNN backend is unavailable: {e}. Every call that \
                 would be forwarded fails with {}; to run everything on MIOpen instead set \
                 MIOPEN_DISABLE_HIPDNN_FOR=* or MIOPEN_HIPDNN_FORWARDING=disabled.",
                miopen_forwarding_core::status::miopen::name(status)
            ));
            Err(e.to_string())
        }
    }
}

/// The directory of the library this code is linked into (libMIOpen.so).
fn module_dir() -> Option<PathBuf> {
    let name = super::own_library_path()?;
    let path = PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name.to_bytes()));
    path.parent().map(PathBuf::from)
}
