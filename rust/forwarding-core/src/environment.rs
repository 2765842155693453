//! MIOpen's own environment variables under forwarding (RFC Phase 3;
//! `docs/environment.md` has the audit and the reasons).
//!
//! Read once at initialisation from the process environment as it is (the
//! wrapper never calls `setenv`). A variable that selects MIOpen solvers or
//! Find behaviour would silently lose its meaning for a forwarded call, so
//! while it is set the families it is about are declined (MIOpen Private
//! honours it) and the routing trace names it: each audited variable says
//! which group of families it concerns, or every family. A variable whose
//! meaning is only partly kept gets one warning naming hipDNN's
//! counterpart, if any.

use crate::family::Group;

/// What forwarding does about one set variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Treatment {
    /// The families of its scope stay on MIOpen Private while it is set.
    Decline,
    /// Forwarding goes on; one warning at initialisation says what changes.
    Warn,
}

/// One audited MIOpen variable (or a family of them, by prefix).
#[derive(Debug, Clone, Copy)]
pub struct Audited {
    /// The name, or a prefix when it ends in `_`.
    pub name: &'static str,
    /// Whether a value takes this treatment (others: nothing to do).
    pub applies: fn(&str) -> bool,
    pub treatment: Treatment,
    /// The families it is about: one group, or every family (`None`).
    pub scope: Option<Group>,
    /// Why, as the trace or the warning says it.
    pub why: &'static str,
}

const CONV: Option<Group> = Some(Group::Convolution);
const EVERY: Option<Group> = None;

fn any(_: &str) -> bool {
    true
}

/// MIOpen's Find modes: `1`/`NORMAL` asks for the exhaustive search.
fn find_mode_normal(v: &str) -> bool {
    matches!(v.trim().to_ascii_uppercase().as_str(), "1" | "NORMAL")
}

/// MIOpen's Find enforcement: anything but `1`/`NONE` asks for tuning or db work.
fn find_enforce_active(v: &str) -> bool {
    !matches!(v.trim().to_ascii_uppercase().as_str(), "" | "1" | "NONE")
}

/// A boolean in MIOpen's spelling that is on.
fn switched_on(v: &str) -> bool {
    matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "yes" | "true" | "on" | "enable" | "enabled")
}

/// The audited variables that change what forwarding does (the others of the
/// audit are honoured as before; see `docs/environment.md`).
pub const AUDITED: &[Audited] = &[
    Audited {
        name: "MIOPEN_FIND_MODE",
        applies: find_mode_normal,
        treatment: Treatment::Decline,
        scope: CONV,
        why: "MIOpen's exhaustive Find; hipDNN picks its engine by heuristic",
    },
    Audited {
        name: "MIOPEN_FIND_ENFORCE",
        applies: find_enforce_active,
        treatment: Treatment::Decline,
        scope: CONV,
        why: "MIOpen's tuning / find-db enforcement has no hipDNN equivalent",
    },
    Audited {
        name: "MIOPEN_DEBUG_CONV_",
        applies: any,
        treatment: Treatment::Decline,
        scope: CONV,
        why: "selects MIOpen convolution solvers; hipDNN engines cannot honour it",
    },
    Audited {
        name: "MIOPEN_DEBUG_FIND_ONLY_SOLVER",
        applies: any,
        treatment: Treatment::Decline,
        scope: CONV,
        why: "selects one MIOpen solver; hipDNN engines cannot honour it",
    },
    Audited {
        name: "MIOPEN_CHECK_NUMERICS",
        applies: switched_on,
        treatment: Treatment::Decline,
        scope: EVERY,
        why: "MIOpen checks the outputs of its own kernels only",
    },
    Audited {
        name: "MIOPEN_ENABLE_LOGGING",
        applies: switched_on,
        treatment: Treatment::Warn,
        scope: EVERY,
        why: "a forwarded call is not in MIOpen's API log; the routing trace (MIOPEN_HIPDNN_LOG_ROUTING=1) lists it",
    },
    Audited {
        name: "MIOPEN_ENABLE_LOGGING_CMD",
        applies: switched_on,
        treatment: Treatment::Warn,
        scope: CONV,
        why: "a forwarded convolution, fusion-plan execute or batchnorm inference logs MIOpen's MIOpenDriver line from the wrapper; a forwarded miopenConvolutionBiasActivationForward logs none (MIOpen has no driver line for its plan, it logs an 'Unknown fusion plan' error)",
    },
    Audited {
        name: "MIOPEN_DISABLE_CACHE",
        applies: switched_on,
        treatment: Treatment::Warn,
        scope: EVERY,
        why: "applies to MIOpen's kernel cache only; hipDNN's on-disk caches follow HIPDNN_DISABLE_CACHE",
    },
    Audited {
        name: "MIOPEN_CUSTOM_CACHE_DIR",
        applies: any,
        treatment: Treatment::Warn,
        scope: EVERY,
        why: "applies to MIOpen's kernel cache only; hipDNN's caches follow HIPDNN_CACHE_DIR",
    },
];

/// The audited entry a variable falls under, if any.
pub fn audited(name: &str) -> Option<&'static Audited> {
    AUDITED.iter().find(|a| if a.name.ends_with('_') { name.starts_with(a.name) } else { name == a.name })
}

/// The set variables that change what forwarding does, in environment order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EnvPolicy {
    /// Each declining variable: its scope and `NAME=value (why)`; the first
    /// one of a family's scope is the routing-trace reason.
    pub declines: Vec<(Option<Group>, String)>,
    /// The one-time warnings (without the wrapper's prefix).
    pub warnings: Vec<String>,
    /// `MIOPEN_ENABLE_LOGGING_CMD` is on: a forwarded convolution or batchnorm call writes the
    /// MIOpenDriver line MIOpen would have (`crate::ops::conv::driver_line`, `crate::batchnorm::driver_cmd`).
    pub log_driver_cmd: bool,
}

impl EnvPolicy {
    /// From `(name, value)` pairs of the process environment (any order;
    /// variables not in the audit are ignored).
    pub fn from_vars<'a>(vars: impl IntoIterator<Item = (&'a str, &'a str)>) -> EnvPolicy {
        let mut policy = EnvPolicy::default();
        let mut set: Vec<(&str, &str)> = vars.into_iter().filter(|(n, _)| n.starts_with("MIOPEN_")).collect();
        set.sort();
        for (name, value) in set {
            if name == "MIOPEN_ENABLE_LOGGING_CMD" {
                policy.log_driver_cmd = switched_on(value);
            }
            let Some(a) = audited(name).filter(|a| (a.applies)(value)) else { continue };
            let text = format!("{name}={value} ({})", a.why);
            match a.treatment {
                Treatment::Decline => policy.declines.push((a.scope, text)),
                Treatment::Warn => policy.warnings.push(text),
            }
        }
        policy
    }

    /// The routing-trace reason of a declined call of the group, if any. A
    /// variable about an op applies to every API of it, through the group's
    /// umbrella: the convolution's to the fusion plans (MIOpen's fused
    /// solvers and their Find honour them) and to Find 2.0's convolutions
    /// (`MIOPEN_FIND_MODE` among them).
    pub fn decline_reason(&self, group: Group) -> Option<&str> {
        let applies = |g: Group| g == group || g == group.umbrella();
        self.declines.iter().find(|(scope, _)| scope.is_none_or(applies)).map(|(_, t)| t.as_str())
    }
}

/// MIOpen's Normal Find mode (`miopenConvolutionFindModeNormal`), as the
/// descriptor holds it: the exhaustive search.
pub const FIND_MODE_NORMAL: i32 = 1;

/// Why a legacy Find stays on MIOpen when its convolution descriptor's Find
/// mode is Normal. It is `MIOPEN_FIND_MODE=1`'s rule, asked through the API
/// (MIGraphX calls `miopenHiddenSetConvolutionFindMode(desc, 1)`); MIOpen
/// reads the descriptor's mode in its Find, so only Find checks it.
pub fn descriptor_find_mode_decline(mode: i32) -> Option<&'static str> {
    (mode == FIND_MODE_NORMAL).then_some("find mode Normal set on the descriptor (miopenHiddenSetConvolutionFindMode)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(vars: &[(&str, &str)]) -> EnvPolicy {
        EnvPolicy::from_vars(vars.iter().copied())
    }

    #[test]
    fn unset_changes_nothing() {
        assert_eq!(policy(&[]), EnvPolicy::default());
        assert_eq!(
            policy(&[("PATH", "/bin"), ("MIOPEN_LOG_LEVEL", "7"), ("MIOPEN_USER_DB_PATH", "/x")]),
            EnvPolicy::default()
        );
    }

    #[test]
    fn find_mode_declines_only_the_exhaustive_search() {
        for v in ["1", "normal", "NORMAL"] {
            let p = policy(&[("MIOPEN_FIND_MODE", v)]);
            assert_eq!(p.declines.len(), 1, "{v}");
            assert!(
                p.decline_reason(Group::Convolution).unwrap().starts_with(&format!("MIOPEN_FIND_MODE={v} (")),
                "{p:?}"
            );
        }
        for v in ["2", "FAST", "3", "HYBRID", "5", "DYNAMIC_HYBRID", ""] {
            assert_eq!(policy(&[("MIOPEN_FIND_MODE", v)]), EnvPolicy::default(), "{v}");
        }
    }

    #[test]
    fn descriptor_find_mode_declines_only_normal() {
        assert_eq!(
            descriptor_find_mode_decline(1),
            Some("find mode Normal set on the descriptor (miopenHiddenSetConvolutionFindMode)")
        );
        // Fast, Hybrid, the deprecated FastHybrid, DynamicHybrid (MIOpen's
        // default) and values MIOpen rejects ask for no exhaustive search.
        for mode in [0, 2, 3, 4, 5, 6, -1] {
            assert_eq!(descriptor_find_mode_decline(mode), None, "{mode}");
        }
    }

    #[test]
    fn find_enforce_and_solver_selection_decline() {
        for v in ["2", "3", "SEARCH", "4", "5"] {
            assert_eq!(policy(&[("MIOPEN_FIND_ENFORCE", v)]).declines.len(), 1, "{v}");
        }
        assert_eq!(policy(&[("MIOPEN_FIND_ENFORCE", "NONE")]), EnvPolicy::default());
        let p = policy(&[("MIOPEN_DEBUG_CONV_WINOGRAD", "0"), ("MIOPEN_DEBUG_CONV_GEMM", "0")]);
        assert_eq!(p.declines.len(), 2);
        assert_eq!(
            p.decline_reason(Group::Convolution),
            Some("MIOPEN_DEBUG_CONV_GEMM=0 (selects MIOpen convolution solvers; hipDNN engines cannot honour it)")
        );
        assert_eq!(policy(&[("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "ConvDirectNaiveConvFwd")]).declines.len(), 1);
        assert_eq!(policy(&[("MIOPEN_CHECK_NUMERICS", "1")]).declines.len(), 1);
        assert_eq!(policy(&[("MIOPEN_CHECK_NUMERICS", "0")]), EnvPolicy::default());
    }

    #[test]
    fn partly_kept_meanings_warn() {
        let p = policy(&[
            ("MIOPEN_ENABLE_LOGGING", "1"),
            ("MIOPEN_DISABLE_CACHE", "yes"),
            ("MIOPEN_CUSTOM_CACHE_DIR", "/c"),
        ]);
        assert!(p.declines.is_empty());
        assert_eq!(p.warnings.len(), 3);
        assert!(
            p.warnings[0].starts_with("MIOPEN_CUSTOM_CACHE_DIR=/c (") && p.warnings[0].contains("HIPDNN_CACHE_DIR")
        );
        assert_eq!(policy(&[("MIOPEN_ENABLE_LOGGING", "0")]), EnvPolicy::default());
        let cmd = policy(&[("MIOPEN_ENABLE_LOGGING_CMD", "on")]);
        assert!(cmd.log_driver_cmd && cmd.warnings.len() == 1, "{cmd:?}");
        assert!(!policy(&[("MIOPEN_ENABLE_LOGGING_CMD", "off")]).log_driver_cmd);
        assert!(!policy(&[]).log_driver_cmd);
    }
}
