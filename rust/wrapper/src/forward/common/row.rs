//! What a family group's folder tells the shared runtime about itself: its
//! runtime row. Each group defines one in `forward/<group>/group.rs`;
//! `forward/mod.rs` lists them (`GROUPS`) and hands the list to the shared
//! code once ([`super::install`]), so nothing here names a group.

use hipdnn_backend::probe::Probe;
use miopen_forwarding_core::row::GroupRow;

/// One group's runtime row.
pub struct RuntimeRow {
    /// Its data row (`miopen_forwarding_core::<group>::group::ROW`).
    pub group: &'static GroupRow,
    /// `miopenDestroy(h)` for the group's own state (its plans are the shared
    /// cache's, released by `common::release`).
    pub release: fn(usize),
    /// The hipDNN operation types its graphs use, each with an attribute
    /// only the pinned meaning of that type takes (`hipdnn_backend::probe`).
    pub probes: &'static [Probe],
    pub probed: Probed,
}

/// When a group's probes run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probed {
    /// When the backend loads: every forwarded call relies on these types
    /// (the forwarding set of the RFC, whose types other groups' graphs use
    /// too), so a difference makes the backend unavailable.
    AtLoad,
    /// At the group's first call that builds a plan: a difference makes only
    /// this group unavailable (its calls fail as with an absent backend).
    AtFirstPlan,
}

/// The `release` of a group that keeps no state of its own.
pub fn nothing_to_release(_handle: usize) {}
