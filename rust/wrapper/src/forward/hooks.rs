//! The wrapper's own hooks (`miopen_forwarding_core::table::SHARED_HOOKS`):
//! entry points observed while forwarding is enabled, for every group; the
//! call itself always runs on MIOpen Private. A group's own hooks are in its
//! folder (`forward::<group>::hooks`).

use miopen_forwarding_core::{Config, Mode};

use super::common::handle_workspace::{self, Allocator};
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
    match released {
        Some((plans, true, 0)) => {
            crate::trace::info(format_args!("miopenDestroy: released {plans} cached plan(s) and the hipDNN handle"))
        }
        Some((plans, true, bytes)) => crate::trace::info(format_args!(
            "miopenDestroy: released {plans} cached plan(s), the hipDNN handle and {bytes} bytes of workspace"
        )),
        Some((_, false, bytes)) if bytes > 0 => {
            crate::trace::info(format_args!("miopenDestroy: released {bytes} bytes of workspace"))
        }
        _ => {}
    }
}

/// `miopenSetAllocator`, after MIOpen Private accepted it: the handle's
/// allocator for the workspace the wrapper obtains for hipDNN plans
/// (`common::handle_workspace`), as MIOpen's for its own buffers.
#[allow(non_snake_case)]
pub fn miopenSetAllocator(
    config: &Config,
    handle: sys::miopenHandle_t,
    allocator: sys::miopenAllocatorFunction,
    deallocator: sys::miopenDeallocatorFunction,
    allocatorContext: *mut std::ffi::c_void,
    result: sys::miopenStatus_t,
) -> sys::miopenStatus_t {
    if config.mode == Mode::Enabled && result == miopen_forwarding_core::status::miopen::SUCCESS {
        let a = Allocator { allocate: allocator, deallocate: deallocator, context: allocatorContext as usize };
        diagnostics::boundary(|| handle_workspace::set_allocator(handle as usize, a), || ());
    }
    result
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
