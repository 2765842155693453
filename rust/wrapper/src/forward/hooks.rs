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
    let released = std::panic::catch_unwind(|| {
        super::parity::release(handle);
        super::state::release(super::backend::loaded(), handle)
    });
    if let Ok((plans, true)) = released {
        crate::trace::info(format_args!("miopenDestroy: released {plans} cached plan(s) and the hipDNN handle"));
    }
}

/// `miopenGetErrorString`: MIOpen's text, with the `[hipDNN-forwarded] `
/// prefix when the status came from a failed forwarded call on this thread.
///
/// # Safety
/// `text` is what MIOpen Private's `miopenGetErrorString` returned.
#[allow(non_snake_case)]
pub unsafe fn miopenGetErrorString(
    error: sys::miopenStatus_t,
    text: *const std::ffi::c_char,
) -> *const std::ffi::c_char {
    // SAFETY: forwarded from the caller's contract.
    std::panic::catch_unwind(|| unsafe { super::last_error::error_string(error, text) }).unwrap_or(text)
}
