//! The state byte, first-call initialisation, routing and tracing.
//!
//! The stubs' fast path reads one process-wide byte: when it says
//! pass-through, the stub tail-jumps to `_impl` and nothing here runs.
//! Everything else (first-call init, the banner, the routing trace, and from
//! Phase 2 forwarding) lives behind that branch in [`route`].
//!
//! Initialisation is lock-free: racing first callers each resolve the
//! configuration (a pure function of the environment) and publish it with a
//! compare-exchange; only the winner prints. No lock is held at any time, so
//! a `fork()` in the middle of another thread's first call cannot leave the
//! child waiting on a lock that nobody will release.

use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering};

use miopen_forwarding_core::config::{FORWARDING_VAR, LOG_LEVEL_VAR};
use miopen_forwarding_core::{routing, Config};
pub use miopen_forwarding_core::Route;

/// One row of the generated entry-point table.
pub struct EntryPoint {
    pub name: &'static str,
    pub family: &'static str,
}

const UNINITIALISED: u8 = 0;
/// The value the stubs compare against (`cmpb $1, STATE`): keep in sync with
/// [`fast_path`].
const PASS_THROUGH: u8 = 1;
const ROUTED: u8 = 2;
// The stubs' assembly hard-codes the pass-through value.
const _: () = assert!(PASS_THROUGH == 1);

/// The process-wide state byte every stub reads.
pub static STATE: AtomicU8 = AtomicU8::new(UNINITIALISED);
static CONFIG: AtomicPtr<Config> = AtomicPtr::new(ptr::null_mut());

/// The body of every public stub (a naked function with the entry point's C
/// signature): compare the state byte with PASS_THROUGH and tail-jump either
/// to `_impl` in MIOpen Private or to the typed `__routed` slow path. No
/// argument register or stack slot is touched, so the same three
/// instructions serve every signature, including ones with stack arguments
/// (a compiled Rust body would copy those instead of tail-calling).
#[cfg(target_arch = "x86_64")]
#[macro_export]
macro_rules! fast_path {
    ($impl_fn:path, $routed:path) => {
        core::arch::naked_asm!(
            "cmpb $1, {state}(%rip)",
            "jne {routed}",
            "jmp *{impl_fn}@GOTPCREL(%rip)",
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
            "adrp x16, {state}",
            "ldrb w16, [x16, :lo12:{state}]",
            "cmp w16, #1",
            "b.ne {routed}",
            "adrp x16, :got:{impl_fn}",
            "ldr x16, [x16, :got_lo12:{impl_fn}]",
            "br x16",
            state = sym $crate::runtime::STATE,
            routed = sym $routed,
            impl_fn = sym $impl_fn,
        )
    };
}

/// Where the call to entry point `index` goes. Never unwinds.
pub fn route(index: usize) -> Route {
    std::panic::catch_unwind(|| {
        let config = config();
        let entry = crate::entry_points().get(index);
        let name = entry.map_or("<unknown entry point>", |e| e.name);
        let decision = routing::decide(config, name);
        if config.verbose {
            let family = entry.map_or("?", |e| e.family);
            let target = match decision.route {
                Route::Private => "MIOpen Private",
            };
            write_stderr(&format!(
                "MIOpen(hipDNN wrapper): {name} [{family}] -> {target} ({})\n",
                decision.reason.as_str()
            ));
        }
        decision.route
    })
    // A bug in the policy must not lose the call: Private always works.
    .unwrap_or(Route::Private)
}

/// The resolved configuration, initialising it on first use.
pub fn config() -> &'static Config {
    let current = CONFIG.load(Ordering::Acquire);
    if !current.is_null() {
        // SAFETY: published once below from a leaked Box, never freed.
        return unsafe { &*current };
    }
    let forwarding = std::env::var(FORWARDING_VAR).ok();
    let log_level = std::env::var(LOG_LEVEL_VAR).ok();
    let fresh = Box::into_raw(Box::new(Config::resolve(forwarding.as_deref(), log_level.as_deref())));
    match CONFIG.compare_exchange(ptr::null_mut(), fresh, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => {
            // SAFETY: we just published `fresh`; it lives for the process.
            let config = unsafe { &*fresh };
            if let Some(w) = config.warning() {
                write_stderr(&format!("{w}\n"));
            }
            if config.wants_banner() {
                write_stderr(&format!("{}\n", config.banner()));
            }
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

/// One unbuffered write(2) per line, without Rust's stderr lock, so a line is
/// never interleaved mid-way and a forked child never waits on that lock.
fn write_stderr(line: &str) {
    // SAFETY: fd 2 is borrowed for the duration of the write and not closed.
    let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(2) });
    let _ = f.write_all(line.as_bytes());
}
