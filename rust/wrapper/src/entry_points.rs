//! The generated table of every public entry point, indexed as the stubs
//! pass the index to the runtime: data only (`miopen-wrap generate` writes
//! it into the build tree from the header being built), so every module
//! may read it.

use miopen_forwarding_core::Family;

/// One row of the generated entry-point table.
pub struct EntryPoint {
    pub name: &'static str,
    /// `name` with a terminating NUL, for C callers (the last forwarded error).
    pub c_name: &'static str,
    /// The family shown in the trace (the forwarding table's, or the header's group).
    pub family: &'static str,
    /// The forwarding table's family, for entry points in the forwarding set.
    pub forward: Option<Family>,
}

#[cfg(miopen_wrap_stubs)]
include!(env!("MIOPEN_WRAP_ENTRY_POINTS"));

/// Every entry point (none when built without generated stubs).
pub fn all() -> &'static [EntryPoint] {
    #[cfg(miopen_wrap_stubs)]
    return &ENTRY_POINTS;
    #[cfg(not(miopen_wrap_stubs))]
    return &[];
}

pub fn get(index: usize) -> Option<&'static EntryPoint> {
    all().get(index)
}

/// The entry point's name, or a placeholder for an index no stub passes.
pub fn name(index: usize) -> &'static str {
    get(index).map_or("<unknown entry point>", |e| e.name)
}
