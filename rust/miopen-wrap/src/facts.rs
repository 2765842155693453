//! `miopen-wrap facts`: what the tests need to know about the code, as JSON,
//! read from the code itself (the families and groups, the forwarding table,
//! the hooks, the variables the wrapper reads, MIOpen's audited variables,
//! the routing-trace format, the hipDNN releases accepted, the release-gate
//! names). The build writes it into the build tree (`test/CMakeLists.txt`);
//! `test/lib/wrapper_test.py` reads it, and the tests' own expectations are
//! checked against it (`test/lib/check_facts.py`), so no list is retyped.
//! The schema is documented in `docs/testing.md`.

use std::path::PathBuf;

use clap::Args;
use serde_json::{json, Value};

use hipdnn_backend::{api::PINNED_SYMBOLS, loader, version};
use miopen_forwarding_core::config::{
    ACCEPTED_VALUES, ALL_FAMILIES, DISABLE_FOR_VAR, EXIT_SUMMARY_VAR, FORWARDING_VAR, LOG_LEVEL_VAR, LOG_ROUTING_VAR,
    PREFIX,
};
use miopen_forwarding_core::environment::{self, Treatment};
use miopen_forwarding_core::family::{Group, FAMILIES};
use miopen_forwarding_core::handle_workspace::WORKSPACE_LIMIT_VAR;
use miopen_forwarding_core::plan_cache::PLAN_CACHE_SIZE_VAR;
use miopen_forwarding_core::routing::{self, Route};
use miopen_forwarding_core::table::{self, FORWARDING_TABLE, WRAPPER_ADDITIONS};

use crate::check::Gate;
use crate::exit::Exit;

/// Bumped when a key changes meaning or goes away (readers check it).
pub const SCHEMA: u32 = 1;

#[derive(Args, Debug)]
pub struct FactsArgs {
    /// Write the JSON here instead of to stdout.
    #[arg(long)]
    pub output: Option<PathBuf>,
}

/// The environment variables the wrapper itself reads, with what each does.
fn wrapper_variables() -> [(&'static str, &'static str); 8] {
    [
        (FORWARDING_VAR, "the mode: disabled (default) or enabled"),
        (DISABLE_FOR_VAR, "op families that stay on MIOpen Private"),
        (PLAN_CACHE_SIZE_VAR, "hipDNN plans kept per handle (LRU)"),
        (WORKSPACE_LIMIT_VAR, "the most workspace (bytes) one handle holds for hipDNN plans MIOpen passes none to"),
        (loader::BACKEND_PATH_VAR, "where libhipdnn_backend.so is looked for first (hipDNN's own variable)"),
        (LOG_ROUTING_VAR, "the routing trace alone"),
        (EXIT_SUMMARY_VAR, "one table of calls by decision at exit"),
        (LOG_LEVEL_VAR, "MIOpen's log level: at info and above the banner and the routing trace"),
    ]
}

fn treatment_name(t: Treatment) -> &'static str {
    match t {
        Treatment::Decline | Treatment::DeclineGroup(_) => "decline",
        Treatment::Warn(_) => "warn",
        Treatment::Kept => "kept",
        Treatment::DeclinePlan(_) => "decline_plan",
    }
}

/// Every fact, as one JSON object.
pub fn facts() -> Value {
    let families: Vec<Value> = FAMILIES.iter().map(|r| json!({"name": r.name, "group": r.group.name()})).collect();
    let groups: Vec<Value> = Group::all()
        .map(|g| {
            let members: Vec<&str> = FAMILIES.iter().filter(|r| r.group == g).map(|r| r.name).collect();
            json!({"name": g.name(), "module": g.module(), "families": members})
        })
        .collect();
    let table: Vec<Value> =
        FORWARDING_TABLE.iter().map(|r| json!({"entry_point": r.entry_point, "family": r.family.name()})).collect();
    let hooks: Vec<Value> = table::hooks()
        .map(|h| json!({"entry_point": h.entry_point, "hook": h.hook.kind, "after_call": h.hook.after}))
        .collect();
    let audited: Vec<Value> = environment::all()
        .map(|a| {
            json!({
                "name": a.variable.name,
                "prefix": a.variable.name.ends_with('_'),
                "treatment": treatment_name(a.variable.treatment),
                "scope": a.scope.map(Group::name),
            })
        })
        .collect();
    let variables: Vec<Value> = wrapper_variables().iter().map(|(n, what)| json!({"name": n, "what": what})).collect();
    let verified: Vec<Value> = version::VERIFIED
        .iter()
        .map(|v| {
            let to = (*v.minors.end() != u32::MAX).then_some(*v.minors.end());
            json!({"major": v.major, "minor_from": v.minors.start(), "minor_to": to, "phrase": v.to_string()})
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "stderr_prefix": PREFIX,
        "trace_line": format!("{PREFIX}: {}", routing::trace_line("{entry}", "{family}", "{target}", "{reason}")),
        "route_targets": {"hipdnn": Route::Hipdnn.target(), "private": Route::Private.target()},
        "decline_prefix": routing::decline_text(""),
        "families": families,
        "groups": groups,
        "all_families": ALL_FAMILIES,
        "forwarding_table": table,
        "hooks": hooks,
        "wrapper_additions": WRAPPER_ADDITIONS,
        "private_calls": table::private_calls(),
        "forwarding_values": ACCEPTED_VALUES,
        "wrapper_variables": variables,
        "audited_variables": audited,
        "hipdnn": {
            "library": loader::LIBRARY_NAME,
            "accepted_versions": version::accepted(),
            "verified": verified,
            "pinned_symbols": PINNED_SYMBOLS,
        },
        "release_gates": Gate::ALL.map(Gate::name),
        "exit_status": {
            "pass": Exit::Pass.code(),
            "check_failed": Exit::CheckFailed.code(),
            "could_not_run": Exit::CouldNotRun.code(),
        },
    })
}

pub fn cli(args: &FactsArgs) -> Exit {
    let text = format!("{:#}\n", facts());
    let Some(path) = &args.output else {
        print!("{text}");
        return Exit::Pass;
    };
    match std::fs::write(path, text) {
        Ok(()) => Exit::Pass,
        Err(e) => {
            eprintln!("miopen-wrap facts: cannot write {}: {e}", path.display());
            Exit::CouldNotRun
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &Value) -> Vec<&str> {
        v.as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap()).collect()
    }

    #[test]
    fn every_table_row_and_family_and_variable_is_reported() {
        let f = facts();
        assert_eq!(f["schema"], SCHEMA);
        assert_eq!(f["forwarding_table"].as_array().unwrap().len(), FORWARDING_TABLE.len());
        assert_eq!(names(&f["families"]), FAMILIES.iter().map(|r| r.name).collect::<Vec<_>>());
        assert_eq!(names(&f["audited_variables"]), environment::all().map(|a| a.variable.name).collect::<Vec<_>>());
        assert_eq!(f["release_gates"].as_array().unwrap().len(), Gate::ALL.len());
        let vars = names(&f["wrapper_variables"]);
        for v in ["MIOPEN_HIPDNN_FORWARDING", "MIOPEN_HIPDNN_EXIT_SUMMARY", "HIPDNN_BACKEND_LIBRARY_PATH"] {
            assert!(vars.contains(&v), "{v} missing from {vars:?}");
        }
    }

    #[test]
    fn the_trace_template_is_the_documented_line() {
        let f = facts();
        assert_eq!(f["trace_line"], "MIOpen(hipDNN wrapper): {entry} [{family}] -> {target} ({reason})");
        assert_eq!(f["decline_prefix"], "declined: ");
        // Each audited variable's scope is the group whose row lists it.
        for (reported, a) in f["audited_variables"].as_array().unwrap().iter().zip(environment::all()) {
            assert_eq!(reported["scope"], json!(a.scope.map(Group::name)), "{}", a.variable.name);
            assert_eq!(reported["prefix"], json!(a.variable.name.ends_with('_')), "{}", a.variable.name);
        }
        let grouped: usize =
            f["groups"].as_array().unwrap().iter().map(|g| g["families"].as_array().unwrap().len()).sum();
        assert_eq!(grouped, FAMILIES.len(), "every family in exactly one group");
    }
}
