//! The environment variables the wrapper reads, as any bytes a process
//! environment can hold (NUL-free; split into the variables' values): the
//! configuration resolves, and its warnings and banner render, without a
//! panic; an unknown forwarding value is never `enabled`.

use miopen_forwarding_core::config::{Config, Mode, OptOut, RawEnv};
use miopen_forwarding_core::{handle_workspace, plan_cache};

pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut fields = text.split('\0');
    let mut next = || fields.next().filter(|v| !v.starts_with('~'));
    let (forwarding, log_level, disable_for) = (next(), next(), next());
    let (log_routing, exit_summary, plan_cache_size) = (next(), next(), next());
    let workspace_limit = next();
    let miopen_vars: Vec<(String, String)> = fields
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|kv| (kv[0].to_string(), kv.get(1).unwrap_or(&"").to_string()))
        .collect();
    let raw = RawEnv {
        forwarding,
        log_level,
        disable_for,
        log_routing,
        exit_summary,
        plan_cache_size,
        workspace_limit,
        miopen_vars: &miopen_vars,
    };
    let config = Config::resolve(raw);
    if config.mode == Mode::Enabled {
        assert_eq!(forwarding, Some("enabled"), "only the exact value enables forwarding");
    }
    let _ = config.warnings();
    let _ = config.banner();
    let _ = OptOut::parse(disable_for);
    let _ = plan_cache::capacity_from_env(plan_cache_size);
    let _ = handle_workspace::limit_from_env(workspace_limit);
}
