//! Attribution of forwarded calls (RFC §6.1): per thread, what the most
//! recent call to an entry point of the forwarding set did, readable with
//! `miopenGetLastForwardedError` (`include/miopen/hipdnn_forwarding.h`), and
//! the `[hipDNN-forwarded] ` prefix of `miopenGetErrorString` for a status
//! that came from such a call.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::ptr;
use std::sync::OnceLock;

use miopen_forwarding_core::status::miopen;

/// `miopenForwardingOutcome_t`.
pub const OUTCOME_NONE: i32 = 0;
pub const OUTCOME_SUCCEEDED: i32 = 1;
pub const OUTCOME_FAILED: i32 = 2;

/// `hipdnnStatus` of a failure that is not a hipDNN call's (the backend
/// could not be loaded, or the forwarding layer itself failed).
pub const NO_HIPDNN_STATUS: i32 = -1;

/// `miopenForwardedError_t`, field for field.
#[repr(C)]
pub struct ForwardedError {
    pub outcome: i32,
    pub hipdnn_status: i32,
    pub status: u32,
    pub entry_point: *const c_char,
    pub message: *const c_char,
}

struct Last {
    outcome: i32,
    hipdnn_status: i32,
    status: u32,
    /// The entry point's index; its name is looked up when it is read, so
    /// recording a call costs no string scan.
    entry_point: usize,
    message: CString,
}

thread_local! {
    static LAST: RefCell<Last> = RefCell::new(Last {
        outcome: OUTCOME_NONE,
        hipdnn_status: 0,
        status: miopen::SUCCESS,
        entry_point: usize::MAX,
        message: CString::default(),
    });
}

/// The entry point's name as a C string (from the generated table).
fn c_name(index: usize) -> &'static CStr {
    crate::entry_points::get(index)
        .and_then(|e| CStr::from_bytes_with_nul(e.c_name.as_bytes()).ok())
        .unwrap_or(c"<unknown entry point>")
}

/// A forwarding-set call on this thread ran on MIOpen Private.
pub fn record_not_forwarded(index: usize) {
    record(index, OUTCOME_NONE, 0, miopen::SUCCESS, "");
}

/// Record what a forwarding-set call on this thread did.
pub fn record(index: usize, outcome: i32, hipdnn_status: i32, status: u32, message: &str) {
    let _ = LAST.try_with(|l| {
        let mut l = l.borrow_mut();
        // A successful call has no message: keep the empty one rather than
        // allocating a new one on every call of the steady state.
        if !(message.is_empty() && l.message.is_empty()) {
            l.message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        }
        (l.outcome, l.hipdnn_status, l.status, l.entry_point) = (outcome, hipdnn_status, status, index);
    });
}

/// Whether `status` was returned by the most recent forwarding-set call on
/// this thread and came from hipDNN (a failed forwarded call).
fn forwarded_failure(status: u32) -> bool {
    LAST.try_with(|l| {
        let l = l.borrow();
        l.outcome == OUTCOME_FAILED && l.status == status
    })
    .unwrap_or(false)
}

/// `miopenGetErrorString`'s text with the `[hipDNN-forwarded] ` prefix when
/// the status on this thread came from a forwarded call; MIOpen's own text
/// (the same pointer) otherwise. The prefixed strings live for the process.
///
/// # Safety
/// `text` is null or MIOpen's NUL-terminated text for `status`.
pub unsafe fn error_string(status: u32, text: *const c_char) -> *const c_char {
    const STATUSES: usize = 16;
    static PREFIXED: [OnceLock<CString>; STATUSES] = [const { OnceLock::new() }; STATUSES];
    if text.is_null() || status as usize >= STATUSES || !forwarded_failure(status) {
        return text;
    }
    // SAFETY: MIOpen returns a static NUL-terminated string.
    let original = unsafe { CStr::from_ptr(text) }.to_string_lossy();
    let s = PREFIXED[status as usize]
        .get_or_init(|| CString::new(format!("[hipDNN-forwarded] {original}")).unwrap_or_default());
    s.as_ptr()
}

/// The export behind `miopenGetLastForwardedError`.
///
/// # Safety
/// `error` is null or points to a writable `miopenForwardedError_t`.
#[no_mangle]
pub unsafe extern "C" fn miopenGetLastForwardedError(error: *mut ForwardedError) -> u32 {
    if error.is_null() {
        return miopen::BAD_PARM;
    }
    let filled = crate::diagnostics::boundary(
        || {
            LAST.try_with(|l| {
                let l = l.borrow();
                ForwardedError {
                    outcome: l.outcome,
                    hipdnn_status: l.hipdnn_status,
                    status: l.status,
                    entry_point: if l.outcome == OUTCOME_NONE { ptr::null() } else { c_name(l.entry_point).as_ptr() },
                    // Points into this thread's record: valid until the next
                    // forwarding-set call on this thread.
                    message: l.message.as_ptr(),
                }
            })
            .ok()
        },
        || None,
    );
    match filled {
        Some(e) => {
            // SAFETY: checked non-null; the caller's struct.
            unsafe { error.write(e) };
            miopen::SUCCESS
        }
        _ => miopen::INTERNAL_ERROR,
    }
}
