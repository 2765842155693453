//! The state byte, first-call initialisation, routing and tracing.
//!
//! The stubs' fast path reads one process-wide byte: when it says
//! pass-through, the stub tail-jumps to `_impl` and nothing here runs.
//! Everything else (first-call init, the banner, the routing trace, and
//! forwarding) lives behind that branch in [`route`] and `crate::forward`.
//!
//! Initialisation is lock-free: racing first callers each resolve the
//! configuration (a pure function of the environment) and publish it with a
//! compare-exchange; only the winner prints. No lock is held at any time, so
//! a `fork()` in the middle of another thread's first call cannot leave the
//! child waiting on a lock that nobody will release.

use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

use miopen_forwarding_core::config::{
    RawEnv, DISABLE_FOR_VAR, EXIT_SUMMARY_VAR, FORWARDING_VAR, LOG_LEVEL_VAR, LOG_ROUTING_VAR,
};
use miopen_forwarding_core::handle_workspace::WORKSPACE_LIMIT_VAR;
use miopen_forwarding_core::plan_cache::PLAN_CACHE_SIZE_VAR;
use miopen_forwarding_core::{routing, Config, Route};

use crate::diagnostics;
use crate::entry_points;

const UNINITIALISED: u8 = 0;
/// The value the stubs compare the state byte against ([`fast_path`] takes it
/// as an operand, and a test reads it back from the machine code).
pub const PASS_THROUGH: u8 = 1;
const ROUTED: u8 = 2;

/// The process-wide state byte every stub reads.
pub static STATE: AtomicU8 = AtomicU8::new(UNINITIALISED);
static CONFIG: AtomicPtr<Config> = AtomicPtr::new(ptr::null_mut());

/// The body of every public stub (a naked function with the entry point's C
/// signature): compare the state byte with PASS_THROUGH and tail-jump either
/// to `_impl` in MIOpen Private or to the typed `__routed` slow path. No
/// argument register or stack slot is touched, so the same three
/// instructions serve every signature, including ones with stack arguments
/// (a compiled Rust body would copy those instead of tail-calling). The
/// machine code is `miopen_forwarding_core::stub_asm`'s, which the
/// generator's signature-free stubs use too.
#[cfg(target_arch = "x86_64")]
#[macro_export]
macro_rules! fast_path {
    ($impl_fn:path, $routed:path) => {
        core::arch::naked_asm!(
            miopen_forwarding_core::x86_64_fast_path!(),
            pass_through = const $crate::runtime::PASS_THROUGH,
            state = sym $crate::runtime::STATE,
            routed = sym $routed,
            impl_fn = sym $impl_fn,
            options(att_syntax)
        )
    };
}

#[cfg(target_arch = "aarch64")]
#[macro_export]
macro_rules! fast_path {
    ($impl_fn:path, $routed:path) => {
        core::arch::naked_asm!(
            miopen_forwarding_core::aarch64_fast_path!(),
            pass_through = const $crate::runtime::PASS_THROUGH,
            state = sym $crate::runtime::STATE,
            routed = sym $routed,
            impl_fn = sym $impl_fn,
        )
    };
}

/// Where a routed call goes.
#[derive(Clone, Copy)]
pub enum Routed {
    /// MIOpen Private.
    Private,
    /// The entry point's forwarding handler, with the configuration it
    /// runs under (it may still decline).
    Hipdnn(&'static Config),
}

/// Where the call to entry point `index` goes. Never unwinds. A call routed
/// to hipDNN is traced by its forwarding handler, which knows the outcome
/// (forwarded, declined with a cause, or failed); every other decision is
/// traced here.
pub fn route(index: usize) -> Routed {
    // A bug in the policy must not lose the call: Private always works.
    diagnostics::boundary(
        || {
            let config = config();
            let family = entry_points::get(index).and_then(|e| e.forward);
            let decision = routing::decide(config, family);
            if decision.route == Route::Hipdnn {
                return Routed::Hipdnn(config);
            }
            crate::summary::count_decision(index, decision.reason, family, config);
            if config.verbose {
                crate::trace::call(index, Route::Private.target(), &decision.reason.describe(config, family));
            }
            if family.is_some() {
                crate::forward::last_error::record_not_forwarded(index);
            }
            Routed::Private
        },
        || Routed::Private,
    )
}

/// The resolved configuration, initialising it on first use.
#[inline]
pub fn config() -> &'static Config {
    let current = CONFIG.load(Ordering::Acquire);
    if !current.is_null() {
        // SAFETY: published once by `resolve` from a leaked Box, never freed.
        return unsafe { &*current };
    }
    resolve()
}

/// The first call's work: read the environment, resolve and publish the
/// configuration (out of line, so that every later call of [`config`] is a
/// load and a test).
#[cold]
#[inline(never)]
fn resolve() -> &'static Config {
    let var = |name: &str| std::env::var(name).ok();
    let (forwarding, log_level) = (var(FORWARDING_VAR), var(LOG_LEVEL_VAR));
    let (disable_for, plan_cache_size) = (var(DISABLE_FOR_VAR), var(PLAN_CACHE_SIZE_VAR));
    let (log_routing, exit_summary) = (var(LOG_ROUTING_VAR), var(EXIT_SUMMARY_VAR));
    let workspace_limit = var(WORKSPACE_LIMIT_VAR);
    // Every MIOpen and hipDNN variable as set now, read once (never
    // modified: no setenv).
    let miopen_vars: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(n, v)| Some((n.into_string().ok()?, v.into_string().ok()?)))
        .filter(|(n, _)| n.starts_with("MIOPEN_") || n.starts_with("HIPDNN_"))
        .collect();
    let raw = RawEnv {
        forwarding: forwarding.as_deref(),
        log_level: log_level.as_deref(),
        disable_for: disable_for.as_deref(),
        plan_cache_size: plan_cache_size.as_deref(),
        workspace_limit: workspace_limit.as_deref(),
        log_routing: log_routing.as_deref(),
        exit_summary: exit_summary.as_deref(),
        miopen_vars: &miopen_vars,
    };
    // Every racer hands the groups over before any call it routes.
    crate::forward::common::install(&crate::forward::GROUPS);
    let fresh = Box::into_raw(Box::new(Config::resolve(raw)));
    match CONFIG.compare_exchange(ptr::null_mut(), fresh, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => {
            // SAFETY: we just published `fresh`; it lives for the process.
            let config = unsafe { &*fresh };
            for w in config.warnings() {
                diagnostics::write_stderr(&format!("{w}\n"));
            }
            if config.wants_banner() {
                diagnostics::write_stderr(&format!("{}\n", config.banner()));
            }
            if config.verbose {
                crate::trace::install();
            }
            crate::summary::install(config, crate::forward::summary_footer);
            let state = if config.pass_through_only() { PASS_THROUGH } else { ROUTED };
            STATE.store(state, Ordering::Release);
            config
        }
        Err(winner) => {
            // SAFETY: `fresh` was never shared; `winner` is the published one.
            drop(unsafe { Box::from_raw(fresh) });
            unsafe { &*winner }
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::PASS_THROUGH;

    unsafe extern "C" fn private_impl() {}
    unsafe extern "C" fn routed() {}

    /// A stub exactly as the generated ones are written.
    #[unsafe(naked)]
    unsafe extern "C" fn stub() {
        crate::fast_path!(private_impl, routed)
    }

    /// The stub's first instruction is `cmpb $imm8, disp32(%rip)`
    /// (`80 3d <disp32> <imm8>`); its immediate must be PASS_THROUGH, so the
    /// assembly and the constant cannot drift apart unnoticed.
    #[test]
    fn stub_compares_the_state_byte_with_pass_through() {
        let code = unsafe { std::slice::from_raw_parts(stub as *const u8, 7) };
        assert_eq!(&code[..2], &[0x80, 0x3d], "first instruction is not cmpb $imm8, disp32(%rip): {code:02x?}");
        assert_eq!(code[6], PASS_THROUGH, "the stub compares with {}, PASS_THROUGH is {PASS_THROUGH}", code[6]);
    }
}
