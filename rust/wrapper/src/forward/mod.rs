//! Forwarding to hipDNN: the handlers behind the forwarding table.
//!
//! - [`common`]: what every family group shares: the handler steps and
//!   outcome ([`common::outcome`], [`common::steps`]), descriptor reads
//!   ([`common::read`]), the hipDNN graph builder ([`common::graph`]), the
//!   hipDNN handles and plan cache ([`common::state`]), the lazily loaded
//!   backend;
//! - one folder per family group (its data row is
//!   `miopen_forwarding_core::<group>::group::ROW`): [`conv`], [`fusion`],
//!   [`find2`], [`batchnorm`]; each `entry` module has one function per
//!   forwarded entry point, which the generated routed body calls, and each
//!   `group` module the group's runtime row, listed in [`GROUPS`];
//! - [`ops`]: op layers several groups share ([`ops::conv`]: the convolution
//!   behind `conv`, `fusion` and `find2`);
//! - [`hooks`]: entry points observed while forwarding is enabled;
//! - [`last_error`]: `miopenGetLastForwardedError` and the error-string prefix.
//!
//! This module declares them and lists the groups' runtime rows: a group
//! depends on `ops` and `common`, `ops` on `common`, `common` on no group (it is handed [`GROUPS`] at
//! initialisation).

pub mod batchnorm;
pub(crate) mod common;
pub mod conv;
pub mod find2;
pub mod fusion;
pub mod hooks;
pub mod last_error;
pub(crate) mod ops;
// The handlers' MIOpen types, `_impl` declarations and argument structs:
// the bindings of the header being built (generated next to the stubs; the
// test bed's header's without them, build.rs). A header whose types or
// prototypes differ from what a handler assumes fails to compile here (and
// the enumerator checks in it fail), instead of corrupting memory at run time.
pub(crate) mod miopen_sys {
    pub use crate::bindings::args;
    pub use crate::bindings::impls::*;
    pub use crate::bindings::types::*;
}

pub(crate) use common::summary_footer;

/// Every group's runtime row, in the order of `miopen_forwarding_core::groups::GROUPS`.
pub(crate) static GROUPS: [&common::RuntimeRow; miopen_forwarding_core::family::Group::COUNT] =
    [&conv::group::RUNTIME, &fusion::group::RUNTIME, &find2::group::RUNTIME, &batchnorm::group::RUNTIME];

#[cfg(test)]
mod tests {
    use miopen_forwarding_core::family::Group;

    #[test]
    fn every_group_has_its_runtime_row_in_registry_order() {
        let names: Vec<&str> = super::GROUPS.iter().map(|r| r.group.name).collect();
        assert_eq!(names, Group::all().map(Group::name).collect::<Vec<_>>());
    }
}
