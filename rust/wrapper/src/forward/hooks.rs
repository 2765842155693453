//! The wrapper's own hooks (`miopen_forwarding_core::table::SHARED_HOOKS`):
//! entry points observed while forwarding is enabled, for every group; the
//! call itself always runs on MIOpen Private. A group's own hooks are in its
//! folder (`forward::<group>::hooks`).

use miopen_forwarding_core::{Config, Mode};

use super::miopen_sys as sys;
use crate::diagnostics;

/// `miopenDestroy`: release the handle's hipDNN handle and cached plans,
/// every group's, before MIOpen Private destroys it (its address may be reused).
#[allow(non_snake_case)]
pub fn miopenDestroy(config: &Config, handle: sys::miopenHandle_t) {
    if config.mode != Mode::Enabled {
        return;
    }
    let h = handle as usize;
    let released = diagnostics::boundary(
        || {
            for group in &super::GROUPS {
                (group.release)(h);
            }
            Some(super::common::release(h))
        },
        || None,
    );
    if let Some((plans, true)) = released {
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
    _config: &Config,
    error: sys::miopenStatus_t,
    text: *const std::ffi::c_char,
) -> *const std::ffi::c_char {
    // SAFETY: forwarded from the caller's contract.
    diagnostics::boundary(|| unsafe { super::last_error::error_string(error, text) }, || text)
}
