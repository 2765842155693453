//! libMIOpen.so's C ABI: one generated stub per public entry point, plus the
//! small runtime those stubs consult. Built as a staticlib and linked whole
//! into the CMake-produced shared library, which owns SONAME and the export
//! map.
//!
//! API conventions (see docs/architecture.md):
//! - every export has the exact C signature of its `miopen.h` prototype;
//!   enums are plain integers, so any value a C caller passes is defined;
//! - arguments are never inspected on the pass-through path; invalid
//!   arguments reach MIOpen Private and get its status, unchanged;
//! - no panic crosses the C ABI: routing runs under `catch_unwind` (a panic
//!   routes the call to MIOpen Private) and so does every forwarding
//!   handler (a panic there returns `miopenStatusInternalError`, since
//!   hipDNN may already have run).
pub mod forward;
pub mod runtime;
pub mod summary;
pub mod trace;

#[cfg(miopen_wrap_stubs)]
mod stubs {
    include!(env!("MIOPEN_WRAP_STUBS"));
}

/// The entry-point table (empty when built without generated stubs).
#[cfg(miopen_wrap_stubs)]
pub(crate) fn entry_points() -> &'static [runtime::EntryPoint] {
    &stubs::ENTRY_POINTS
}
#[cfg(not(miopen_wrap_stubs))]
pub(crate) fn entry_points() -> &'static [runtime::EntryPoint] {
    &[]
}
