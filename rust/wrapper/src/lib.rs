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
//! - no panic crosses the C ABI: routing runs under
//!   `diagnostics::boundary` (a panic routes the call to MIOpen Private) and
//!   so does every forwarding handler (a panic there returns
//!   `miopenStatusInternalError`, since hipDNN may already have run).
//!
//! Modules, each depending only on those listed before it (no cycle;
//! rust/miopen-wrap/tests/module_graph.rs checks it):
//! - [`diagnostics`]: stderr lines, the prefix, the panic boundary;
//! - [`entry_points`]: the generated table of entry points (data);
//! - `bindings` (generated): the header's types, the `_impl` declarations and
//!   the forwarded entry points' argument structs;
//! - [`trace`]: the routing trace as `tracing` events;
//! - [`summary`]: the exit summary's counters;
//! - [`forward`]: forwarding to hipDNN, per family group;
//! - [`runtime`]: the state byte, first-call initialisation, routing;
//! - `stubs` (generated): the exported functions, which call all of the above.
pub mod diagnostics;
pub mod entry_points;
pub mod forward;
pub mod runtime;
pub mod summary;
pub mod trace;

/// The header's types, MIOpen Private's declarations and the forwarded
/// entry points' argument structs, from the header being built (the test
/// bed's without a wrapper build: build.rs).
mod bindings {
    include!(env!("MIOPEN_WRAP_BINDINGS"));
}

#[cfg(miopen_wrap_stubs)]
mod stubs {
    include!(env!("MIOPEN_WRAP_STUBS"));
}
