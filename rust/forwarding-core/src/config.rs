//! `MIOPEN_HIPDNN_FORWARDING` and the configuration banner.

use std::fmt;

/// The environment variable that selects the wrapper's mode.
pub const FORWARDING_VAR: &str = "MIOPEN_HIPDNN_FORWARDING";
/// MIOpen's own log level variable; at info level and above the banner and
/// routing trace are printed.
pub const LOG_LEVEL_VAR: &str = "MIOPEN_LOG_LEVEL";
/// MIOpen's numeric level for "info" (0 default, 1 quiet, 2 fatal, 3 error,
/// 4 warning, 5 info, 6 info2, 7 trace).
pub const LOG_LEVEL_INFO: u32 = 5;

/// The documented spellings, and nothing else.
pub const ACCEPTED_VALUES: [&str; 2] = ["disabled", "enabled"];

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub mode: Mode,
    pub source: ModeSource,
    /// MIOpen asks for info-level output: print the banner and routing trace.
    pub verbose: bool,
}

impl Config {
    /// Resolve from the raw values of `MIOPEN_HIPDNN_FORWARDING` and
    /// `MIOPEN_LOG_LEVEL` (None when unset).
    pub fn resolve(forwarding: Option<&str>, log_level: Option<&str>) -> Config {
        let (mode, source) = match forwarding {
            None | Some("") => (Mode::Disabled, ModeSource::Default),
            Some("disabled") => (Mode::Disabled, ModeSource::Explicit),
            Some("enabled") => (Mode::Enabled, ModeSource::Explicit),
            Some(other) => (Mode::Disabled, ModeSource::Unrecognised(other.to_string())),
        };
        let verbose = log_level
            .and_then(|v| v.trim().parse::<u32>().ok())
            .is_some_and(|l| l >= LOG_LEVEL_INFO);
        Config { mode, source, verbose }
    }

    /// The one-time complaint about an unrecognised value, if any.
    pub fn warning(&self) -> Option<String> {
        match &self.source {
            ModeSource::Unrecognised(v) => Some(format!(
                "MIOpen(hipDNN wrapper): warning: {FORWARDING_VAR}={v:?} is not recognised; \
                 accepted values are {}; using `disabled` (every call goes to MIOpen)",
                ACCEPTED_VALUES.map(|a| format!("`{a}`")).join(" and ")
            )),
            _ => None,
        }
    }

    /// Whether the configuration banner is printed: when forwarding is
    /// requested or MIOpen logging asks for info. Silent in the default so
    /// existing consumers see byte-identical stderr.
    pub fn wants_banner(&self) -> bool {
        self.mode == Mode::Enabled || self.verbose
    }

    pub fn banner(&self) -> String {
        let why = match &self.source {
            ModeSource::Default => format!("{FORWARDING_VAR} is unset (default)"),
            ModeSource::Explicit => format!("{FORWARDING_VAR}={}", self.mode),
            ModeSource::Unrecognised(v) => format!("{FORWARDING_VAR}={v:?} is not recognised"),
        };
        format!("MIOpen(hipDNN wrapper): forwarding {} ({why})", self.mode)
    }

    /// Every call can take the pass-through fast path: nothing to decide,
    /// nothing to trace.
    pub fn pass_through_only(&self) -> bool {
        self.mode == Mode::Disabled && !self.verbose
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_disabled_and_silent() {
        for v in [None, Some("")] {
            let c = Config::resolve(v, None);
            assert_eq!(c.mode, Mode::Disabled);
            assert!(!c.wants_banner());
            assert!(c.warning().is_none());
            assert!(c.pass_through_only());
        }
    }

    #[test]
    fn documented_spellings_only() {
        assert_eq!(Config::resolve(Some("enabled"), None).mode, Mode::Enabled);
        assert_eq!(Config::resolve(Some("disabled"), None).mode, Mode::Disabled);
        for bad in ["Enabled", "1", "on", "true", " enabled", "yes"] {
            let c = Config::resolve(Some(bad), None);
            assert_eq!(c.mode, Mode::Disabled, "{bad}");
            let w = c.warning().expect("warns");
            assert!(w.contains("`disabled` and `enabled`") && w.contains(bad), "{w}");
        }
    }

    #[test]
    fn banner_when_enabled_or_info_logging() {
        assert!(Config::resolve(Some("enabled"), None).wants_banner());
        assert!(Config::resolve(None, Some("5")).wants_banner());
        assert!(Config::resolve(None, Some("7")).wants_banner());
        assert!(!Config::resolve(None, Some("4")).wants_banner());
        assert!(!Config::resolve(None, Some("junk")).wants_banner());
        let b = Config::resolve(Some("enabled"), None).banner();
        assert_eq!(b, "MIOpen(hipDNN wrapper): forwarding enabled (MIOPEN_HIPDNN_FORWARDING=enabled)");
        let b = Config::resolve(None, Some("5")).banner();
        assert_eq!(b, "MIOpen(hipDNN wrapper): forwarding disabled (MIOPEN_HIPDNN_FORWARDING is unset (default))");
    }

    #[test]
    fn enabled_or_verbose_leaves_the_fast_path() {
        assert!(!Config::resolve(Some("enabled"), None).pass_through_only());
        assert!(!Config::resolve(None, Some("5")).pass_through_only());
    }
}
