//! Forwarding to hipDNN: the handlers behind the forwarding table.
//!
//! - [`common`]: what every family group shares: the handler steps and
//!   outcome ([`common::outcome`], [`common::steps`]), descriptor reads
//!   ([`common::read`]), the hipDNN graph builder ([`common::graph`]), the
//!   hipDNN handles and plan cache ([`common::state`]), the lazily loaded
//!   backend;
//! - one folder per family group, named in `miopen_forwarding_core::family`:
//!   [`conv`], [`fusion`], [`find2`], [`batchnorm`] (each `entry` module has one function per forwarded entry
//!   point, which the generated routed body calls);
//! - [`ops`]: op layers several groups share ([`ops::conv`]: the convolution
//!   behind `conv`, `fusion` and `find2`);
//! - [`hooks`]: entry points observed while forwarding is enabled;
//! - [`last_error`]: `miopenGetLastForwardedError` and the error-string prefix.
//!
//! This module only declares them: a group depends on `ops` and `common`,
//! `ops` on `common`, `common` on no group.

pub mod batchnorm;
pub(crate) mod common;
pub mod conv;
pub mod find2;
pub mod fusion;
pub mod hooks;
pub mod last_error;
pub(crate) mod ops;
// The handlers' MIOpen types and `_impl` declarations. In a wrapper build,
// the bindings of the header being built (generated next to the stubs): a
// header whose types or prototypes differ from what a handler assumes fails
// to compile here (and the enumerator checks in it fail), instead of
// corrupting memory at run time. Without generated stubs (a plain `cargo
// test`), the committed bindings of the test bed's header (prettyplease
// layout, drift-tested byte for byte by rust/miopen-wrap/tests/forward_bindings.rs).
#[cfg(miopen_wrap_stubs)]
pub(crate) mod miopen_sys {
    pub use crate::bindings::impls::*;
    pub use crate::bindings::types::*;
}
#[cfg(not(miopen_wrap_stubs))]
#[allow(unused_imports)]
#[rustfmt::skip]
pub(crate) mod miopen_sys;

pub(crate) use common::summary_footer;
