//! The routing policy: per entry point and call, MIOpen Private or hipDNN.
//!
//! The decision here needs only the configuration and the entry point's
//! name; a call routed to hipDNN may still be declined by its handler once
//! the arguments are translated (see [`decline_text`]).

use crate::config::{Config, Mode, DISABLE_FOR_VAR};
use crate::family::Family;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// MIOpen Private (`miopenFoo_impl`).
    Private,
    /// The entry point's forwarding handler (which may still decline).
    Hipdnn,
}

impl Route {
    /// The target a routing-trace line names (`-> <target> (<reason>)`).
    pub const fn target(self) -> &'static str {
        match self {
            Route::Private => "MIOpen Private",
            Route::Hipdnn => "hipDNN",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// MIOPEN_HIPDNN_FORWARDING is not `enabled`.
    ForwardingDisabled,
    /// The entry point is not in the forwarding table.
    NotInForwardingSet,
    /// The entry point's family is named in MIOPEN_DISABLE_HIPDNN_FOR.
    OptedOut,
    /// A MIOpen variable whose meaning hipDNN cannot keep is set
    /// (`crate::environment`): the call stays with MIOpen, which honours it.
    MiopenVariable,
    /// Routed to the forwarding handler.
    Forwardable,
}

impl Reason {
    /// The fixed text of the reason; [`Reason::describe`] adds what only
    /// the configuration knows.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::ForwardingDisabled => "forwarding disabled",
            Reason::NotInForwardingSet => "not in the forwarding set",
            Reason::OptedOut => "opted out",
            Reason::MiopenVariable => "declined: a MIOpen variable is set",
            Reason::Forwardable => "forwarded",
        }
    }

    /// The routing-trace text of a call of `family`: [`Reason::as_str`],
    /// except that an opt-out names the variable and its value, and a MIOpen
    /// variable names itself, so the user sees what to change.
    pub fn describe(self, config: &Config, family: Option<Family>) -> String {
        let variable = family.and_then(|f| config.env.decline_reason(f.group()));
        match (self, &config.opt_out.raw, variable) {
            (Reason::OptedOut, Some(raw), _) => format!("opted out: {DISABLE_FOR_VAR}={raw}"),
            (Reason::MiopenVariable, _, Some(reason)) => decline_text(reason),
            _ => self.as_str().to_string(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub route: Route,
    pub reason: Reason,
}

impl Decision {
    const fn private(reason: Reason) -> Decision {
        Decision { route: Route::Private, reason }
    }
}

/// Where a call goes, given its entry point's family in the forwarding table
/// (`None`: not in the table; the generated entry-point table carries it, so
/// a call needs no name lookup). The rules, in order: forwarding must be
/// enabled; the entry point must be in the forwarding table; its family must
/// not be opted out; no MIOpen variable about its family may be set.
pub fn decide(config: &Config, family: Option<Family>) -> Decision {
    if config.mode != Mode::Enabled {
        return Decision::private(Reason::ForwardingDisabled);
    }
    let Some(family) = family else {
        return Decision::private(Reason::NotInForwardingSet);
    };
    if config.opted_out(family) {
        return Decision::private(Reason::OptedOut);
    }
    // No declining variable is the common case: then the family's group is
    // not even looked up (a routed call's cost).
    if !config.env.declines.is_empty() && config.env.decline_reason(family.group()).is_some() {
        return Decision::private(Reason::MiopenVariable);
    }
    Decision { route: Route::Hipdnn, reason: Reason::Forwardable }
}

/// The routing-trace text of a call its handler left to MIOpen Private
/// (`cause` says why: an unsupported layout, data type, ...). One format
/// for every handler.
pub fn decline_text(cause: &str) -> String {
    format!("declined: {cause}")
}

/// One routing-trace line after the wrapper's prefix:
/// `<entry point> [<family>] -> <target> (<reason>)`. The one format of the
/// trace; `miopen-wrap facts` reports it for the tests' parser.
pub fn trace_line(entry: &str, family: &str, target: &str, reason: &str) -> String {
    format!("{entry} [{family}] -> {target} ({reason})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RawEnv;
    use crate::table::{self, FORWARDING_TABLE};

    /// The decision for a call of the entry point, as the generated table routes it.
    fn decide_for(config: &Config, entry_point: &str) -> Decision {
        decide(config, table::lookup(entry_point).map(|row| row.family))
    }

    fn config(forwarding: Option<&str>, disable_for: Option<&str>) -> Config {
        Config::resolve(RawEnv { forwarding, disable_for, ..RawEnv::default() })
    }

    fn private(reason: Reason) -> Decision {
        Decision { route: Route::Private, reason }
    }

    const FORWARDED: Decision = Decision { route: Route::Hipdnn, reason: Reason::Forwardable };

    #[test]
    fn disabled_routes_everything_to_private() {
        for c in [config(None, None), config(Some("disabled"), None), config(Some("on"), None)] {
            for ep in [FORWARDING_TABLE[0].entry_point, "miopenCreate", "miopenDestroy"] {
                assert_eq!(decide_for(&c, ep), private(Reason::ForwardingDisabled), "{ep}");
            }
        }
    }

    #[test]
    fn enabled_forwards_exactly_the_table() {
        let on = config(Some("enabled"), None);
        for row in FORWARDING_TABLE {
            assert_eq!(decide_for(&on, row.entry_point), FORWARDED, "{}", row.entry_point);
        }
        for ep in ["miopenCreate", "miopenDestroy", "miopenGetVersion", ""] {
            assert_eq!(decide_for(&on, ep), private(Reason::NotInForwardingSet), "{ep}");
        }
    }

    #[test]
    fn an_opted_out_family_stays_private() {
        for f in Family::all() {
            let c = config(Some("enabled"), Some(f.name()));
            for row in FORWARDING_TABLE {
                let want = if row.family == f { private(Reason::OptedOut) } else { FORWARDED };
                assert_eq!(decide_for(&c, row.entry_point), want, "{f}: {}", row.entry_point);
            }
            // Not in the set still wins over the opt-out.
            assert_eq!(decide_for(&c, "miopenCreate"), private(Reason::NotInForwardingSet));
        }
    }

    #[test]
    fn star_opts_out_every_family_and_a_group_name_its_own() {
        let names = std::iter::once("*").chain(crate::Group::all().map(crate::Group::name));
        for all in names {
            let c = config(Some("enabled"), Some(all));
            for row in FORWARDING_TABLE {
                // A group name switches off the groups it is the umbrella of too.
                let g = row.family.group();
                let named = all == "*" || g.name() == all || g.umbrella().name() == all;
                let want = if named { private(Reason::OptedOut) } else { FORWARDED };
                assert_eq!(decide_for(&c, row.entry_point), want, "{all}: {}", row.entry_point);
            }
            // Disabled still reports the mode first.
            let off = config(None, Some(all));
            assert_eq!(decide_for(&off, FORWARDING_TABLE[0].entry_point), private(Reason::ForwardingDisabled));
        }
    }

    #[test]
    fn unknown_names_are_warned_once_and_known_ones_apply() {
        let first = &FORWARDING_TABLE[0];
        let other = FORWARDING_TABLE.iter().find(|r| r.family != first.family).unwrap();
        let c = config(Some("enabled"), Some(&format!("bogus,{},bogus", first.family)));
        assert_eq!(c.warnings().len(), 1);
        assert_eq!(decide_for(&c, first.entry_point), private(Reason::OptedOut));
        assert_eq!(decide_for(&c, other.entry_point), FORWARDED);
        let only_bad = config(Some("enabled"), Some("bogus"));
        assert_eq!(only_bad.warnings().len(), 1);
        for row in FORWARDING_TABLE {
            assert_eq!(decide_for(&only_bad, row.entry_point), FORWARDED);
        }
    }

    #[test]
    fn a_declining_miopen_variable_keeps_the_table_on_miopen_and_is_named() {
        // A group's own declining variable (the first group's that has one).
        let audited = crate::environment::all()
            .find(|a| a.scope.is_some() && a.variable.treatment == crate::environment::Treatment::Decline)
            .expect("some group has a declining variable");
        let scope = audited.scope.unwrap();
        let v = audited.variable.name;
        let name = if v.ends_with('_') { format!("{v}X") } else { v.to_string() };
        let value = ["1", "NORMAL", "on"].into_iter().find(|v| (audited.variable.applies)(v)).unwrap();
        let vars = [(name.clone(), value.to_string())];
        let c = Config::resolve(RawEnv { forwarding: Some("enabled"), miopen_vars: &vars, ..RawEnv::default() });
        // It applies to its group, through every API of its op (the groups
        // under its umbrella): other groups still forward.
        for row in FORWARDING_TABLE {
            let g = row.family.group();
            let concerned = g == scope || g.umbrella() == scope;
            let want = if concerned { private(Reason::MiopenVariable) } else { FORWARDED };
            assert_eq!(decide_for(&c, row.entry_point), want, "{}", row.entry_point);
        }
        assert_eq!(decide_for(&c, "miopenCreate"), private(Reason::NotInForwardingSet));
        let family = Family::all().find(|f| f.group() == scope).unwrap();
        assert_eq!(
            Reason::MiopenVariable.describe(&c, Some(family)),
            format!("declined: {name}={value} ({})", audited.variable.why)
        );
        let entry = FORWARDING_TABLE.iter().find(|r| r.family == family).unwrap().entry_point;
        // The opt-out is reported first; disabled stays disabled.
        let both = Config::resolve(RawEnv {
            forwarding: Some("enabled"),
            disable_for: Some(family.name()),
            miopen_vars: &vars,
            ..RawEnv::default()
        });
        assert_eq!(decide_for(&both, entry), private(Reason::OptedOut));
        let off = Config::resolve(RawEnv { miopen_vars: &vars, ..RawEnv::default() });
        assert_eq!(decide_for(&off, entry), private(Reason::ForwardingDisabled));
    }

    #[test]
    fn reason_texts() {
        let c = config(Some("enabled"), Some("fam_a, fam_b"));
        assert_eq!(Reason::ForwardingDisabled.describe(&c, None), "forwarding disabled");
        assert_eq!(Reason::NotInForwardingSet.describe(&c, None), "not in the forwarding set");
        assert_eq!(Reason::Forwardable.describe(&c, None), "forwarded");
        assert_eq!(Reason::OptedOut.describe(&c, None), "opted out: MIOPEN_DISABLE_HIPDNN_FOR=fam_a, fam_b");
        assert_eq!(Reason::OptedOut.as_str(), "opted out");
        assert_eq!(decline_text("NHWC layout"), "declined: NHWC layout");
    }

    #[test]
    fn trace_lines_name_the_documented_targets() {
        assert_eq!(
            trace_line("miopenFoo", "foo_family", Route::Hipdnn.target(), "forwarded; plan cache hit"),
            "miopenFoo [foo_family] -> hipDNN (forwarded; plan cache hit)"
        );
        assert_eq!(Route::Private.target(), "MIOpen Private");
    }
}
