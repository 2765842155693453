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
use crate::row::switched_on;
pub use crate::row::{Silence, Treatment, Variable};

/// One audited variable and the families it concerns.
#[derive(Debug, Clone, Copy)]
pub struct Audited {
    pub variable: &'static Variable,
    /// One group (whose row lists it), or every family (`None`).
    pub scope: Option<Group>,
}

fn any(_: &str) -> bool {
    true
}

/// MIOpen's Find enforcement: anything but `1`/`NONE` asks for tuning or db work.
fn find_enforce_active(v: &str) -> bool {
    !matches!(v.trim().to_ascii_uppercase().as_str(), "" | "1" | "NONE")
}

/// The audited variables about every family (a group's own are in its row;
/// the others of the audit are honoured as before; see `docs/environment.md`).
pub const EVERY_FAMILY: &[Variable] = &[
    // MIOpen's generic solver machinery reads these for every primitive that
    // picks a solver (`SolverContainer`'s search and `FindSolution`, MIOpen
    // `src/include/miopen/find_solution.hpp`, `src/find_controls.cpp` @ 2d1fd997):
    // convolution, its fusion plans, batchnorm alike.
    Variable {
        name: "MIOPEN_FIND_ENFORCE",
        applies: find_enforce_active,
        treatment: Treatment::Decline,
        why: "MIOpen's tuning / find-db enforcement has no hipDNN equivalent",
    },
    Variable {
        name: "MIOPEN_DEBUG_FIND_ONLY_SOLVER",
        applies: any,
        treatment: Treatment::Decline,
        why: "selects one MIOpen solver; hipDNN engines cannot honour it",
    },
    Variable {
        name: "MIOPEN_CHECK_NUMERICS",
        applies: switched_on,
        treatment: Treatment::Decline,
        why: "MIOpen checks the outputs of its own kernels only",
    },
    Variable {
        name: "MIOPEN_ENABLE_LOGGING",
        applies: switched_on,
        treatment: Treatment::Warn(Silence {
            by: None,
            how: "unset it (MIOPEN_HIPDNN_LOG_ROUTING=1 lists the forwarded calls), or keep every call on MIOpen \
                  with MIOPEN_DISABLE_HIPDNN_FOR=*",
        }),
        why: "a forwarded call is not in MIOpen's API log",
    },
    Variable {
        name: LOGGING_CMD_VAR,
        applies: switched_on,
        treatment: Treatment::Kept,
        why: "a forwarded call writes the MIOpenDriver line MIOpen would; a call MIOpen writes none for gets none \
              (docs/environment.md)",
    },
    Variable {
        name: "MIOPEN_DISABLE_CACHE",
        applies: switched_on,
        treatment: Treatment::Warn(Silence {
            by: Some(HIPDNN_DISABLE_CACHE_VAR),
            how: "set HIPDNN_DISABLE_CACHE=1 as well, so that hipDNN keeps none either",
        }),
        why: "applies to MIOpen's kernel cache only; hipDNN still keeps its caches on disk",
    },
    Variable {
        name: "MIOPEN_CUSTOM_CACHE_DIR",
        applies: any,
        treatment: Treatment::Kept,
        why: "MIOpen's kernel cache goes there; hipDNN's caches follow HIPDNN_CACHE_DIR",
    },
];

/// hipDNN's switch for its on-disk caches (`projects/hipdnn/docs/Environment.md`).
pub const HIPDNN_DISABLE_CACHE_VAR: &str = "HIPDNN_DISABLE_CACHE";

/// MIOpen's switch for its `MIOpenDriver` command lines.
pub const LOGGING_CMD_VAR: &str = "MIOPEN_ENABLE_LOGGING_CMD";

/// Every audited variable: those about every family, then each group's.
pub fn all() -> impl Iterator<Item = Audited> {
    let every = EVERY_FAMILY.iter().map(|variable| Audited { variable, scope: None });
    every.chain(Group::all().flat_map(|g| {
        g.row().variables.iter().map(move |variable| {
            let scope = match variable.treatment {
                Treatment::DeclineGroup(other) => Group::named(other),
                _ => g,
            };
            Audited { variable, scope: Some(scope) }
        })
    }))
}

/// Every audited entry a variable falls under. One name can have two
/// entries, for values of its own each (a fused solver's switch: off
/// declines its group's plans of its kind, a value MIOpen refuses every
/// fusion plan).
pub fn audited_all(name: &str) -> impl Iterator<Item = Audited> + '_ {
    all().filter(move |a| {
        let v = a.variable.name;
        if v.ends_with('_') {
            name.starts_with(v)
        } else {
            name == v
        }
    })
}

/// The set variables that change what forwarding does, in environment order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EnvPolicy {
    /// Each declining variable: its scope and `NAME=value (why)`; the first
    /// one of a family's scope is the routing-trace reason.
    pub declines: Vec<(Option<Group>, String)>,
    /// The one-time warnings (without the wrapper's prefix): each variable
    /// that loses something under forwarding, and how to silence it.
    pub warnings: Vec<String>,
    /// Each variable that declines a kind of fusion plan: the kind and
    /// `NAME=value (why)`.
    pub plan_declines: Vec<(&'static str, String)>,
    /// `MIOPEN_ENABLE_LOGGING_CMD` is on: a forwarded call of a group that has
    /// a driver line writes the one MIOpen would have.
    pub log_driver_cmd: bool,
}

impl EnvPolicy {
    /// From `(name, value)` pairs of the process environment (any order;
    /// variables not in the audit are ignored, but for the hipDNN variables
    /// that silence a warning).
    pub fn from_vars<'a>(vars: impl IntoIterator<Item = (&'a str, &'a str)>) -> EnvPolicy {
        let mut policy = EnvPolicy::default();
        let all: Vec<(&str, &str)> = vars.into_iter().collect();
        let on = |name: &str| all.iter().any(|&(n, v)| n == name && switched_on(v));
        let mut set: Vec<(&str, &str)> = all.iter().copied().filter(|(n, _)| n.starts_with("MIOPEN_")).collect();
        set.sort();
        for (name, value) in set {
            if name == LOGGING_CMD_VAR {
                policy.log_driver_cmd = switched_on(value);
            }
            for a in audited_all(name).filter(|a| (a.variable.applies)(value)) {
                let text = format!("{name}={value} ({})", a.variable.why);
                match a.variable.treatment {
                    Treatment::Decline | Treatment::DeclineGroup(_) => policy.declines.push((a.scope, text)),
                    Treatment::DeclinePlan(kind) => policy.plan_declines.push((kind, text)),
                    Treatment::Warn(silence) if !silence.by.is_some_and(on) => {
                        policy.warnings.push(format!("{text}; forwarding goes on; to silence this, {}", silence.how))
                    }
                    Treatment::Warn(_) | Treatment::Kept => {}
                }
            }
        }
        policy
    }

    /// The routing-trace reason of a declined call of the group, if any. A
    /// variable about an op applies to every API of it, through the group's
    /// umbrella (a group of another API of the op is declined by the op's
    /// group's variables: MIOpen honours them on that API too).
    pub fn decline_reason(&self, group: Group) -> Option<&str> {
        let applies = |g: Group| g == group || g == group.umbrella();
        self.declines.iter().find(|(scope, _)| scope.is_none_or(applies)).map(|(_, t)| t.as_str())
    }

    /// The routing-trace reason of a declined fusion plan of `kind` (the
    /// name a group's fused graph gives its plans), if any.
    pub fn plan_decline_reason(&self, kind: &str) -> Option<&str> {
        self.plan_declines.iter().find(|(k, _)| *k == kind).map(|(_, t)| t.as_str())
    }
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

    /// A value of the variable that takes its treatment, and its full name.
    fn applying(v: &Variable) -> (String, &'static str) {
        let name = if v.name.ends_with('_') { format!("{}X", v.name) } else { v.name.to_string() };
        let value = ["1", "on", "NORMAL", "SEARCH", "/x"].into_iter().find(|x| (v.applies)(x));
        (name, value.unwrap_or_else(|| panic!("{}: none of the sample values applies", v.name)))
    }

    #[test]
    fn a_group_variable_declines_its_group_and_the_groups_under_its_umbrella() {
        let mut seen = 0;
        for a in all().filter(|a| matches!(a.variable.treatment, Treatment::Decline | Treatment::DeclineGroup(_))) {
            let (name, value) = applying(a.variable);
            assert!(audited_all(&name).any(|b| (b.variable.name, b.scope) == (a.variable.name, a.scope)));
            let p = policy(&[(&name, value)]);
            assert_eq!(p.declines.len(), 1, "{name}");
            for g in Group::all() {
                let concerned = a.scope.is_none_or(|s| s == g || s == g.umbrella());
                let reason = p.decline_reason(g);
                assert_eq!(reason.is_some(), concerned, "{name}: {}", g.name());
                if let Some(r) = reason {
                    assert_eq!(r, format!("{name}={value} ({})", a.variable.why));
                }
            }
            seen += 1;
        }
        assert!(seen > 0);
        assert_eq!(policy(&[("MIOPEN_CHECK_NUMERICS", "1")]).declines.len(), 1);
        assert_eq!(policy(&[("MIOPEN_CHECK_NUMERICS", "0")]), EnvPolicy::default());
    }

    #[test]
    fn a_plan_switch_declines_its_kind_of_plan_only() {
        let mut seen = 0;
        for a in all() {
            let Treatment::DeclinePlan(kind) = a.variable.treatment else { continue };
            // Off: a value MIOpen refuses declines every fusion plan too (a
            // second entry, `Treatment::DeclineGroup`), checked by its row's tests.
            let (name, value) = (a.variable.name, "0");
            assert!((a.variable.applies)(value), "{name}: off takes the plan's decline");
            let p = policy(&[(name, value)]);
            assert!(p.declines.is_empty(), "{name}: no family is declined");
            assert!(Group::all().all(|g| p.decline_reason(g).is_none()), "{name}");
            let want = format!("{name}={value} ({})", a.variable.why);
            assert_eq!(p.plan_decline_reason(kind), Some(want.as_str()), "{name}");
            assert_eq!(p.plan_decline_reason("some other plan"), None, "{name}");
            // On (MIOpen's default for its switches) changes nothing.
            assert_eq!(policy(&[(name, "1")]), EnvPolicy::default(), "{name}");
            seen += 1;
        }
        assert!(seen > 0, "some group audits a fused solver's switch");
    }

    #[test]
    fn the_first_declining_variable_in_name_order_is_the_reason() {
        let p = policy(&[("MIOPEN_CHECK_NUMERICS", "yes"), ("MIOPEN_CHECK_NUMERICS_X", "1")]);
        assert_eq!(p.declines.len(), 1, "not a prefix: only the exact name is audited");
        let g = Group::all().next().unwrap();
        assert_eq!(
            p.decline_reason(g),
            Some("MIOPEN_CHECK_NUMERICS=yes (MIOpen checks the outputs of its own kernels only)")
        );
    }

    #[test]
    fn find_enforce_and_the_one_solver_decline_every_family() {
        for v in ["2", "3", "SEARCH", "4", "5", "db_update"] {
            let p = policy(&[("MIOPEN_FIND_ENFORCE", v)]);
            assert_eq!(p.declines.len(), 1, "{v}");
            assert!(Group::all().all(|g| p.decline_reason(g).is_some()), "{v}");
        }
        for v in ["NONE", "none", "1", ""] {
            assert_eq!(policy(&[("MIOPEN_FIND_ENFORCE", v)]), EnvPolicy::default(), "{v}");
        }
        let p = policy(&[("MIOPEN_DEBUG_FIND_ONLY_SOLVER", "BnFwdTrainingSpatialSingle")]);
        assert!(Group::all().all(|g| p.decline_reason(g).is_some()));
    }

    #[test]
    fn every_audited_name_once_per_row() {
        // A name may be audited twice, for two scopes (a fused solver's
        // switch: off declines its group's plans, a refused value every
        // fusion plan), once each.
        let mut names: Vec<(&str, Option<&str>)> = all().map(|a| (a.variable.name, a.scope.map(Group::name))).collect();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    #[test]
    fn only_a_setting_that_loses_something_warns_and_says_how_to_silence_it() {
        let p = policy(&[
            ("MIOPEN_ENABLE_LOGGING", "1"),
            ("MIOPEN_DISABLE_CACHE", "yes"),
            ("MIOPEN_CUSTOM_CACHE_DIR", "/c"),
            ("MIOPEN_ENABLE_LOGGING_CMD", "on"),
        ]);
        assert!(p.declines.is_empty());
        // In name order; the cache directory and the driver lines lose nothing.
        assert_eq!(p.warnings.len(), 2, "{p:?}");
        assert!(p.warnings[0].starts_with("MIOPEN_DISABLE_CACHE=yes ("), "{}", p.warnings[0]);
        assert!(p.warnings[1].starts_with("MIOPEN_ENABLE_LOGGING=1 ("), "{}", p.warnings[1]);
        for w in &p.warnings {
            assert!(w.contains("; forwarding goes on; to silence this, "), "{w}");
        }
        assert!(policy(&[("MIOPEN_CUSTOM_CACHE_DIR", "/c")]).warnings.is_empty());
        // hipDNN's own switch gives back what was lost: no warning then (and only when on).
        let silenced = policy(&[("MIOPEN_DISABLE_CACHE", "1"), (HIPDNN_DISABLE_CACHE_VAR, "1")]);
        assert!(silenced.warnings.is_empty(), "{silenced:?}");
        let still = policy(&[("MIOPEN_DISABLE_CACHE", "1"), (HIPDNN_DISABLE_CACHE_VAR, "0")]);
        assert_eq!(still.warnings.len(), 1);
        assert!(still.warnings[0]
            .ends_with("to silence this, set HIPDNN_DISABLE_CACHE=1 as well, so that hipDNN keeps none either"));
        assert_eq!(policy(&[("MIOPEN_ENABLE_LOGGING", "0")]), EnvPolicy::default());
        let cmd = policy(&[("MIOPEN_ENABLE_LOGGING_CMD", "on")]);
        assert!(cmd.log_driver_cmd && cmd.warnings.is_empty(), "{cmd:?}");
        assert!(!policy(&[("MIOPEN_ENABLE_LOGGING_CMD", "off")]).log_driver_cmd);
        assert!(!policy(&[]).log_driver_cmd);
    }
}
