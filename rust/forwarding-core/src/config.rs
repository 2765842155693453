//! The wrapper's configuration: `MIOPEN_HIPDNN_FORWARDING`,
//! `MIOPEN_DISABLE_HIPDNN_FOR`, the plan-cache size, and the banner.
//!
//! Resolution is a pure function of the raw environment values, so every
//! rule (and every warning) is testable without touching the environment.

use std::fmt;

use crate::environment::EnvPolicy;
pub use crate::family::FamilySet;
use crate::family::{Family, Group};
use crate::{handle_workspace, plan_cache};

/// The environment variable that selects the wrapper's mode.
pub const FORWARDING_VAR: &str = "MIOPEN_HIPDNN_FORWARDING";
/// The opt-out: op families that stay on MIOpen Private while forwarding is
/// enabled (`<family or group>[,<family or group>...]`, or `*`).
pub const DISABLE_FOR_VAR: &str = "MIOPEN_DISABLE_HIPDNN_FOR";
/// MIOpen's own log level variable; at info level and above the banner and
/// routing trace are printed.
pub const LOG_LEVEL_VAR: &str = "MIOPEN_LOG_LEVEL";
/// MIOpen's numeric level for "info" (0 default, 1 quiet, 2 fatal, 3 error,
/// 4 warning, 5 info, 6 info2, 7 trace).
pub const LOG_LEVEL_INFO: u32 = 5;
/// MIOpen's numeric level for "error".
pub const LOG_LEVEL_ERROR: u32 = 3;

/// The documented spellings, and nothing else.
pub const ACCEPTED_VALUES: [&str; 2] = ["disabled", "enabled"];

/// `MIOPEN_DISABLE_HIPDNN_FOR` name for every family.
pub const ALL_FAMILIES: &str = "*";

/// Prefix of every line the wrapper writes to stderr (`<PREFIX>: ...`).
pub const PREFIX: &str = "MIOpen(hipDNN wrapper)";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Every call lands on MIOpen Private (the default).
    Disabled,
    /// The routing policy is consulted for every call.
    Enabled,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Disabled => "disabled",
            Mode::Enabled => "enabled",
        })
    }
}

/// Why the mode is what it is (shown in the banner).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModeSource {
    Default,
    Explicit,
    /// The variable held something else; the value is kept for the message.
    Unrecognised(String),
}

/// The parsed `MIOPEN_DISABLE_HIPDNN_FOR`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OptOut {
    /// Families that stay on MIOpen Private.
    pub families: FamilySet,
    /// The value as set (for the banner and the routing trace); `None` when
    /// unset or blank.
    pub raw: Option<String>,
    /// Names that are not families, in order, each once (for one warning).
    pub unknown: Vec<String>,
}

impl OptOut {
    /// Parse the comma-separated list. Known names apply even when unknown
    /// ones sit beside them: an opt-out is a safety switch, so a typo in one
    /// name must not cancel the others.
    pub fn parse(value: Option<&str>) -> OptOut {
        let Some(raw) = value.filter(|v| !v.trim().is_empty()) else {
            return OptOut::default();
        };
        let mut out = OptOut { raw: Some(raw.to_string()), ..OptOut::default() };
        for name in raw.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match families_named(name) {
                Some(set) => out.families = out.families.union(set),
                None if !out.unknown.iter().any(|u| u == name) => out.unknown.push(name.to_string()),
                None => {}
            }
        }
        out
    }

    /// The one-time complaint about unknown names, if any.
    fn warning(&self) -> Option<String> {
        if self.unknown.is_empty() {
            return None;
        }
        let unknown = self.unknown.iter().map(|u| format!("{u:?}")).collect::<Vec<_>>().join(", ");
        Some(format!(
            "{PREFIX}: warning: {DISABLE_FOR_VAR}: unknown op family name(s) {unknown} ignored; \
             accepted names are {}",
            accepted_family_names()
        ))
    }
}

/// The families a `MIOPEN_DISABLE_HIPDNN_FOR` item names, if it is valid:
/// a family, a group (all its families) or `*`.
fn families_named(name: &str) -> Option<FamilySet> {
    if name == ALL_FAMILIES {
        return Some(FamilySet::all());
    }
    Group::from_name(name).map(FamilySet::named_by).or_else(|| Family::from_name(name).map(FamilySet::from))
}

/// "`<family>`, ..., `<group>` (<family>, ...), ... and `*` (every family)":
/// each family, then each group with the families its name switches off.
fn accepted_family_names() -> String {
    let mut names: Vec<String> = Family::all().map(|f| format!("`{}`", f.name())).collect();
    names.extend(Group::all().map(|g| {
        let named = FamilySet::named_by(g);
        let families: Vec<&str> = Family::all().filter(|f| named.contains(*f)).map(Family::name).collect();
        format!("`{}` ({})", g.name(), families.join(", "))
    }));
    format!("{} and `{ALL_FAMILIES}` (every family)", names.join(", "))
}

/// Prints the routing trace alone, without MIOpen's own info logging.
pub const LOG_ROUTING_VAR: &str = "MIOPEN_HIPDNN_LOG_ROUTING";
/// Prints one table of entry point x decision x calls, and the plan-cache
/// counters, when the process exits.
pub const EXIT_SUMMARY_VAR: &str = "MIOPEN_HIPDNN_EXIT_SUMMARY";

/// A boolean variable in MIOpen's spelling; unset or empty is off, an
/// unknown value is returned as the error.
fn parse_switch(value: Option<&str>) -> Result<bool, String> {
    let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(false);
    };
    match v.to_ascii_lowercase().as_str() {
        "1" | "yes" | "true" | "on" | "enable" | "enabled" => Ok(true),
        "0" | "no" | "false" | "off" | "disable" | "disabled" => Ok(false),
        _ => Err(v.to_string()),
    }
}

/// The raw values of the variables the configuration reads (`None` when
/// unset). The wrapper reads the environment once and passes them here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RawEnv<'a> {
    /// `MIOPEN_HIPDNN_FORWARDING`.
    pub forwarding: Option<&'a str>,
    /// `MIOPEN_LOG_LEVEL`.
    pub log_level: Option<&'a str>,
    /// `MIOPEN_DISABLE_HIPDNN_FOR`.
    pub disable_for: Option<&'a str>,
    /// `MIOPEN_HIPDNN_LOG_ROUTING`.
    pub log_routing: Option<&'a str>,
    /// `MIOPEN_HIPDNN_EXIT_SUMMARY`.
    pub exit_summary: Option<&'a str>,
    /// `MIOPEN_HIPDNN_PLAN_CACHE_SIZE`.
    pub plan_cache_size: Option<&'a str>,
    /// `MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT`.
    pub workspace_limit: Option<&'a str>,
    /// Every `MIOPEN_*` and `HIPDNN_*` variable set (name, value), for the
    /// audited ones and the hipDNN ones that silence a warning
    /// (`crate::environment`).
    pub miopen_vars: &'a [(String, String)],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub mode: Mode,
    pub source: ModeSource,
    /// Print the banner and routing trace: MIOpen asks for info-level output,
    /// or `MIOPEN_HIPDNN_LOG_ROUTING` asks for the trace alone.
    pub verbose: bool,
    /// `MIOPEN_HIPDNN_EXIT_SUMMARY`: count every call and print one table at exit.
    pub exit_summary: bool,
    /// MIOpen prints errors at this level (unset, 0 or >= 3, as an installed
    /// MIOpen does): a forwarded call that fails says so on stderr.
    pub errors: bool,
    /// `MIOPEN_DISABLE_HIPDNN_FOR`.
    pub opt_out: OptOut,
    /// Plans the cache keeps (0: caching disabled).
    pub plan_cache_capacity: usize,
    /// Why `MIOPEN_HIPDNN_PLAN_CACHE_SIZE` was not used, if it was not.
    plan_cache_error: Option<String>,
    /// The most workspace one handle holds for hipDNN plans (bytes).
    pub workspace_limit: usize,
    /// Why `MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT` was not used, if it was not.
    workspace_limit_error: Option<String>,
    /// Switch variables whose value was not understood (name, value).
    switch_errors: Vec<(&'static str, String)>,
    /// MIOpen's own variables that decline or warn under forwarding.
    pub env: EnvPolicy,
}

impl Config {
    /// Resolve from the raw environment values.
    pub fn resolve(raw: RawEnv<'_>) -> Config {
        let (mode, source) = resolve_mode(raw.forwarding);
        let level = raw.log_level.and_then(|v| v.trim().parse::<u32>().ok());
        let mut switch_errors = Vec::new();
        let mut switch = |name: &'static str, value: Option<&str>| match parse_switch(value) {
            Ok(on) => on,
            Err(v) => {
                switch_errors.push((name, v));
                false
            }
        };
        let log_routing = switch(LOG_ROUTING_VAR, raw.log_routing);
        let exit_summary = switch(EXIT_SUMMARY_VAR, raw.exit_summary);
        let verbose = level.is_some_and(|l| l >= LOG_LEVEL_INFO) || log_routing;
        let errors = level.is_none_or(|l| l == 0 || l >= LOG_LEVEL_ERROR);
        let (plan_cache_capacity, plan_cache_error) = match plan_cache::capacity_from_env(raw.plan_cache_size) {
            Ok(c) => (c, None),
            Err(e) => (plan_cache::DEFAULT_CAPACITY, Some(e)),
        };
        let (workspace_limit, workspace_limit_error) = match handle_workspace::limit_from_env(raw.workspace_limit) {
            Ok(l) => (l, None),
            Err(e) => (handle_workspace::DEFAULT_LIMIT, Some(e)),
        };
        let opt_out = OptOut::parse(raw.disable_for);
        let env = EnvPolicy::from_vars(raw.miopen_vars.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        Config {
            mode,
            source,
            verbose,
            exit_summary,
            errors,
            opt_out,
            plan_cache_capacity,
            plan_cache_error,
            workspace_limit,
            workspace_limit_error,
            switch_errors,
            env,
        }
    }

    /// Whether `family` is switched off by `MIOPEN_DISABLE_HIPDNN_FOR`.
    pub fn opted_out(&self, family: Family) -> bool {
        self.opt_out.families.contains(family)
    }

    /// The one-time complaints (one line each, printed at initialisation):
    /// an unrecognised mode, unknown family names, an unusable cache size.
    pub fn warnings(&self) -> Vec<String> {
        let mode = match &self.source {
            ModeSource::Unrecognised(v) => Some(format!(
                "{PREFIX}: warning: {FORWARDING_VAR}={v:?} is not recognised; \
                 accepted values are {}; using `disabled` (every call goes to MIOpen)",
                ACCEPTED_VALUES.map(|a| format!("`{a}`")).join(" and ")
            )),
            _ => None,
        };
        let cache = self
            .plan_cache_error
            .as_ref()
            .map(|e| format!("{PREFIX}: warning: {e}; using the default of {}", plan_cache::DEFAULT_CAPACITY));
        let workspace = self
            .workspace_limit_error
            .as_ref()
            .map(|e| format!("{PREFIX}: warning: {e}; using the default of {}", handle_workspace::DEFAULT_LIMIT));
        let switches = self.switch_errors.iter().map(|(name, v)| {
            format!("{PREFIX}: warning: {name}={v:?} is not recognised; accepted values are 1/0 (or yes/no, true/false, on/off, enable(d)/disable(d)); using 0")
        });
        // MIOpen's own variables only lose meaning while something forwards.
        let forwards = self.mode == Mode::Enabled && Family::all().any(|f| !self.opted_out(f));
        let env = self.env.warnings.iter().filter(|_| forwards).map(|w| format!("{PREFIX}: warning: {w}"));
        [mode, self.opt_out.warning(), cache, workspace].into_iter().flatten().chain(switches).chain(env).collect()
    }

    /// Whether the configuration banner is printed: when forwarding is
    /// requested or MIOpen logging asks for info. Silent in the default so
    /// existing consumers see byte-identical stderr.
    pub fn wants_banner(&self) -> bool {
        self.mode == Mode::Enabled || self.verbose
    }

    pub fn banner(&self) -> String {
        let mut why = match &self.source {
            ModeSource::Default => format!("{FORWARDING_VAR} is unset (default)"),
            ModeSource::Explicit => format!("{FORWARDING_VAR}={}", self.mode),
            ModeSource::Unrecognised(v) => format!("{FORWARDING_VAR}={v:?} is not recognised"),
        };
        // The opt-out only matters while forwarding: mention it only then.
        if let (Mode::Enabled, Some(raw)) = (self.mode, &self.opt_out.raw) {
            why.push_str(&format!("; {DISABLE_FOR_VAR}={raw}"));
        }
        if self.mode == Mode::Enabled {
            for g in Group::all() {
                if let Some(reason) = self.env.decline_reason(g) {
                    why.push_str(&format!("; the {} families stay on MIOpen while {reason}", g.name()));
                }
            }
        }
        format!("{PREFIX}: forwarding {} ({why})", self.mode)
    }

    /// Every call can take the pass-through fast path: nothing to decide,
    /// nothing to trace.
    pub fn pass_through_only(&self) -> bool {
        self.mode == Mode::Disabled && !self.verbose && !self.exit_summary
    }
}

fn resolve_mode(forwarding: Option<&str>) -> (Mode, ModeSource) {
    match forwarding {
        None | Some("") => (Mode::Disabled, ModeSource::Default),
        Some("disabled") => (Mode::Disabled, ModeSource::Explicit),
        Some("enabled") => (Mode::Enabled, ModeSource::Explicit),
        Some(other) => (Mode::Disabled, ModeSource::Unrecognised(other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two variables the original tests set.
    fn resolve(forwarding: Option<&str>, log_level: Option<&str>) -> Config {
        Config::resolve(RawEnv { forwarding, log_level, ..RawEnv::default() })
    }

    fn enabled_with(disable_for: &str) -> Config {
        Config::resolve(RawEnv { forwarding: Some("enabled"), disable_for: Some(disable_for), ..RawEnv::default() })
    }

    #[test]
    fn default_is_disabled_and_silent() {
        for v in [None, Some("")] {
            let c = resolve(v, None);
            assert_eq!(c.mode, Mode::Disabled);
            assert!(!c.wants_banner());
            assert!(c.warnings().is_empty());
            assert!(c.pass_through_only());
            assert!(c.opt_out.families.is_empty());
            assert_eq!(c.plan_cache_capacity, plan_cache::DEFAULT_CAPACITY);
        }
        assert_eq!(Config::resolve(RawEnv::default()), resolve(None, None));
    }

    #[test]
    fn documented_spellings_only() {
        assert_eq!(resolve(Some("enabled"), None).mode, Mode::Enabled);
        assert_eq!(resolve(Some("disabled"), None).mode, Mode::Disabled);
        for bad in ["Enabled", "1", "on", "true", " enabled", "yes"] {
            let c = resolve(Some(bad), None);
            assert_eq!(c.mode, Mode::Disabled, "{bad}");
            let w = c.warnings();
            assert_eq!(w.len(), 1, "{w:?}");
            assert!(w[0].contains("`disabled` and `enabled`") && w[0].contains(bad), "{}", w[0]);
            assert!(w[0].starts_with("MIOpen(hipDNN wrapper): warning: "), "{}", w[0]);
        }
    }

    #[test]
    fn banner_when_enabled_or_info_logging() {
        assert!(resolve(Some("enabled"), None).wants_banner());
        assert!(resolve(None, Some("5")).wants_banner());
        assert!(resolve(None, Some("7")).wants_banner());
        assert!(!resolve(None, Some("4")).wants_banner());
        assert!(!resolve(None, Some("junk")).wants_banner());
        let b = resolve(Some("enabled"), None).banner();
        assert_eq!(b, "MIOpen(hipDNN wrapper): forwarding enabled (MIOPEN_HIPDNN_FORWARDING=enabled)");
        let b = resolve(None, Some("5")).banner();
        assert_eq!(b, "MIOpen(hipDNN wrapper): forwarding disabled (MIOPEN_HIPDNN_FORWARDING is unset (default))");
    }

    #[test]
    fn routing_trace_alone_and_exit_summary_switches() {
        let c = Config::resolve(RawEnv { log_routing: Some("1"), ..RawEnv::default() });
        assert!(c.verbose && !c.pass_through_only() && c.warnings().is_empty());
        let c = Config::resolve(RawEnv { exit_summary: Some("Yes"), ..RawEnv::default() });
        assert!(c.exit_summary && !c.verbose && !c.pass_through_only());
        let c = Config::resolve(RawEnv { exit_summary: Some("0"), log_routing: Some(""), ..RawEnv::default() });
        assert!(c.pass_through_only() && c.warnings().is_empty());
        let c = Config::resolve(RawEnv { log_routing: Some("maybe"), ..RawEnv::default() });
        assert!(!c.verbose);
        let w = c.warnings();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("MIOPEN_HIPDNN_LOG_ROUTING=\"maybe\" is not recognised"), "{}", w[0]);
    }

    #[test]
    fn errors_are_printed_unless_miopen_is_quieter_than_error() {
        let at = |l: Option<&str>| Config::resolve(RawEnv { log_level: l, ..RawEnv::default() }).errors;
        assert!(at(None) && at(Some("0")) && at(Some("3")) && at(Some("7")) && at(Some("junk")));
        assert!(!at(Some("1")) && !at(Some("2")));
    }

    #[test]
    fn enabled_or_verbose_leaves_the_fast_path() {
        assert!(!resolve(Some("enabled"), None).pass_through_only());
        assert!(!resolve(None, Some("5")).pass_through_only());
    }

    #[test]
    fn banner_mentions_the_opt_out_only_while_enabled() {
        let f = Family::all().last().unwrap();
        assert_eq!(
            enabled_with(f.name()).banner(),
            format!(
                "MIOpen(hipDNN wrapper): forwarding enabled \
                 (MIOPEN_HIPDNN_FORWARDING=enabled; MIOPEN_DISABLE_HIPDNN_FOR={f})"
            )
        );
        // Blank is the same as unset.
        assert_eq!(enabled_with(" ").banner(), resolve(Some("enabled"), None).banner());
        let off = Config::resolve(RawEnv { log_level: Some("5"), disable_for: Some("*"), ..RawEnv::default() });
        assert_eq!(off.banner(), resolve(None, Some("5")).banner());
    }

    #[test]
    fn opt_out_names() {
        let only = |name: &str, f: Family| {
            let c = enabled_with(name);
            assert!(c.warnings().is_empty(), "{name}");
            for g in Family::all() {
                assert_eq!(c.opted_out(g), g == f, "{name}: {g}");
            }
        };
        for f in Family::all() {
            only(f.name(), f);
            only(&format!("  {}\t", f.name()), f);
        }
        let every_group = Group::all().map(Group::name).collect::<Vec<_>>().join(",");
        let first = Family::all().next().unwrap().name();
        for all in ["*".to_string(), every_group, format!("{first},*")] {
            let c = enabled_with(&all);
            assert!(Family::all().all(|f| c.opted_out(f)), "{all}");
            assert!(c.warnings().is_empty(), "{all}");
        }
        for group in Group::all() {
            let name = format!(" {} ,", group.name());
            let c = enabled_with(&name);
            assert!(Family::all().all(|f| c.opted_out(f) == FamilySet::named_by(group).contains(f)), "{name}");
            assert!(c.warnings().is_empty(), "{name}");
            // A group under another's umbrella switches off its own families only.
            if group.umbrella() != group {
                assert_eq!(c.opt_out.families, FamilySet::group(group), "{name}");
            }
        }
        let (a, b) = (Family::all().next().unwrap(), Family::all().last().unwrap());
        let raw = format!("{a}, ,{b},,");
        let two = enabled_with(&raw);
        assert_eq!(two.opt_out.families, [a, b].into_iter().collect());
        assert_eq!(two.opt_out.raw.as_deref(), Some(raw.as_str()));
        assert_eq!(enabled_with(",,").opt_out.families, FamilySet::EMPTY);
    }

    #[test]
    fn unknown_opt_out_names_warn_once_and_known_ones_still_apply() {
        let (known, other) = (Family::all().next().unwrap(), Family::all().nth(1).unwrap());
        let typo = format!("{known}d");
        let shouted = other.name().to_uppercase();
        let c = enabled_with(&format!("{known},{typo}, {shouted} ,{typo},all"));
        assert!(c.opted_out(known));
        assert!(!c.opted_out(other));
        assert_eq!(c.opt_out.unknown, [typo.as_str(), shouted.as_str(), "all"]);
        let w = c.warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        let head = format!(
            "MIOpen(hipDNN wrapper): warning: MIOPEN_DISABLE_HIPDNN_FOR: unknown op family name(s) \
             \"{typo}\", \"{shouted}\", \"all\" ignored; accepted names are "
        );
        assert_eq!(w[0], format!("{head}{}", accepted_family_names()));
        // Warned about even while disabled: the user set it for a reason.
        let off = Config::resolve(RawEnv { disable_for: Some("bogus"), ..RawEnv::default() });
        assert_eq!(off.warnings().len(), 1);
    }

    #[test]
    fn the_accepted_names_are_every_family_then_every_group_with_what_it_switches_off() {
        let text = accepted_family_names();
        let families: Vec<String> = Family::all().map(|f| format!("`{f}`")).collect();
        let groups: Vec<String> = Group::all()
            .map(|g| {
                let named: Vec<&str> =
                    Family::all().filter(|f| FamilySet::named_by(g).contains(*f)).map(Family::name).collect();
                format!("`{}` ({})", g.name(), named.join(", "))
            })
            .collect();
        assert_eq!(text, format!("{}, {} and `*` (every family)", families.join(", "), groups.join(", ")));
        // A group under an umbrella is listed inside the umbrella's parentheses too.
        for g in Group::all().filter(|g| g.umbrella() != *g) {
            let umbrella = groups[g.umbrella().index()].clone();
            assert!(g.row().families.iter().all(|f| umbrella.contains(f)), "{umbrella}");
        }
    }

    #[test]
    fn plan_cache_size() {
        let with = |v: &str| Config::resolve(RawEnv { plan_cache_size: Some(v), ..RawEnv::default() });
        assert_eq!(with("0").plan_cache_capacity, 0);
        assert_eq!(with("64").plan_cache_capacity, 64);
        assert!(with("64").warnings().is_empty());
        let bad = with("lots");
        assert_eq!(bad.plan_cache_capacity, plan_cache::DEFAULT_CAPACITY);
        let w = bad.warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("MIOpen(hipDNN wrapper): warning: MIOPEN_HIPDNN_PLAN_CACHE_SIZE=\"lots\""),
            "{}",
            w[0]
        );
        assert!(w[0].ends_with("using the default of 256"), "{}", w[0]);
    }

    #[test]
    fn handle_workspace_limit() {
        let with = |v: &str| Config::resolve(RawEnv { workspace_limit: Some(v), ..RawEnv::default() });
        assert_eq!(Config::resolve(RawEnv::default()).workspace_limit, handle_workspace::DEFAULT_LIMIT);
        assert_eq!(with("0").workspace_limit, 0);
        assert_eq!(with("8192").workspace_limit, 8192);
        assert!(with("8192").warnings().is_empty());
        let bad = with("1G");
        assert_eq!(bad.workspace_limit, handle_workspace::DEFAULT_LIMIT);
        let w = bad.warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT=\"1G\" is not recognised"), "{}", w[0]);
        assert!(w[0].ends_with("using the default of 1073741824"), "{}", w[0]);
    }

    #[test]
    fn miopen_variables_warn_and_decline_only_while_forwarding() {
        let vars =
            [("MIOPEN_ENABLE_LOGGING".to_string(), "1".to_string()), ("MIOPEN_CHECK_NUMERICS".into(), "1".into())];
        let with = |forwarding| Config::resolve(RawEnv { forwarding, miopen_vars: &vars, ..RawEnv::default() });
        let on = with(Some("enabled"));
        assert_eq!(on.warnings().len(), 1);
        assert!(on.warnings()[0].starts_with("MIOpen(hipDNN wrapper): warning: MIOPEN_ENABLE_LOGGING=1 ("));
        // Nothing forwards with every family opted out: nothing is lost, no warning.
        let all_out = Config::resolve(RawEnv {
            forwarding: Some("enabled"),
            disable_for: Some("*"),
            miopen_vars: &vars,
            ..RawEnv::default()
        });
        assert!(all_out.warnings().is_empty(), "{:?}", all_out.warnings());
        // A declining variable about every family is named once per group.
        let banner = on.banner();
        for g in Group::all() {
            let line = format!("; the {} families stay on MIOpen while MIOPEN_CHECK_NUMERICS=1 (", g.name());
            assert!(banner.contains(&line), "{banner}");
        }
        let off = with(None);
        assert!(off.warnings().is_empty() && !off.wants_banner() && off.pass_through_only());
    }

    #[test]
    fn warnings_come_in_variable_order() {
        let c = Config::resolve(RawEnv {
            forwarding: Some("on"),
            log_level: None,
            disable_for: Some("x"),
            plan_cache_size: Some("-1"),
            workspace_limit: Some("lots"),
            log_routing: None,
            exit_summary: Some("often"),
            miopen_vars: &[],
        });
        let w = c.warnings();
        assert_eq!(w.len(), 5);
        assert!(w[3].contains("HANDLE_WORKSPACE_LIMIT") && w[4].contains(EXIT_SUMMARY_VAR));
        assert!(w[0].contains(FORWARDING_VAR) && w[1].contains(DISABLE_FOR_VAR) && w[2].contains("PLAN_CACHE"));
    }
}
