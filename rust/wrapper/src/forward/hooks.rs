//! Entry points observed while forwarding is enabled (the forwarding
//! table's `HOOKS`); the call itself always runs on MIOpen Private.

use super::miopen_sys as sys;

/// `miopenDestroy`: release the handle's hipDNN handle and cached plans
/// before MIOpen Private destroys it (its address may be reused).
#[allow(non_snake_case)]
pub fn miopenDestroy(handle: sys::miopenHandle_t) {
    if crate::runtime::config().mode != miopen_forwarding_core::Mode::Enabled {
        return;
    }
    let released = std::panic::catch_unwind(|| super::state::release(super::backend::loaded(), handle));
    if let Ok((plans, true)) = released {
        if crate::runtime::config().verbose {
            crate::runtime::write_stderr(&format!(
                "MIOpen(hipDNN wrapper): miopenDestroy: released {plans} cached plan(s) and the hipDNN handle\n"
            ));
        }
    }
}
