//! The pinned subset of hipDNN's backend C ABI and the loader that finds it.
//!
//! The wrapper never links against hipDNN: `libMIOpen.so` must load and run
//! without it (no `DT_NEEDED`, no undefined `hipdnn*` symbol). So the ABI the
//! wrapper relies on is written down here once — numbers in [`abi`], one
//! function table in [`api`] — and [`loader`] opens `libhipdnn_backend.so`
//! at runtime, resolves exactly that table and checks the major version.
//! Nothing else lives here: graph building and policy belong to the wrapper
//! and to `miopen-forwarding-core`.

pub mod abi;
pub mod api;
pub mod knob;
pub mod loader;
pub mod probe;
pub mod version;
