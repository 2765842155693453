//! The routing policy: per entry point and call, Private or hipDNN.
//!
//! Phase 1: the compile-time forwarding set is empty, so every call is routed
//! to MIOpen Private; the reason says why, for the routing trace.

use crate::config::{Config, Mode};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Private,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// MIOPEN_HIPDNN_FORWARDING is not `enabled`.
    ForwardingDisabled,
    /// The entry point is not in the compile-time forwarding set.
    NotInForwardingSet,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::ForwardingDisabled => "forwarding disabled",
            Reason::NotInForwardingSet => "not in the forwarding set",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub route: Route,
    pub reason: Reason,
}

/// The compile-time forwarding set: entry points that go to hipDNN when
/// forwarding is enabled. Empty in Phase 1.
pub const FORWARDING_SET: &[&str] = &[];

pub fn decide(config: &Config, entry_point: &str) -> Decision {
    if config.mode != Mode::Enabled {
        return Decision { route: Route::Private, reason: Reason::ForwardingDisabled };
    }
    debug_assert!(!FORWARDING_SET.contains(&entry_point), "Phase 1 forwards nothing");
    Decision { route: Route::Private, reason: Reason::NotInForwardingSet }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_one_routes_everything_to_private() {
        let off = Config::resolve(None, None);
        let on = Config::resolve(Some("enabled"), None);
        for ep in ["miopenConvolutionForward", "miopenCreate"] {
            assert_eq!(decide(&off, ep), Decision { route: Route::Private, reason: Reason::ForwardingDisabled });
            assert_eq!(decide(&on, ep), Decision { route: Route::Private, reason: Reason::NotInForwardingSet });
        }
    }
}
