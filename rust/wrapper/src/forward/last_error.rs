//! Attribution of forwarded calls (RFC §6.1): per thread, what the most
//! recent call to an entry point of the forwarding set did, readable with
//! `miopenGetLastForwardedError` (`include/miopen/hipdnn_forwarding.h`), and
//! the `[hipDNN-forwarded] ` prefix of `miopenGetErrorString` for a status
//! that came from such a call.

use std::cell::{Cell, RefCell};
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

/// The record's numbers: `Copy`, so that recording a successful call (the
/// steady state) is one store into a constant-initialised thread-local, with
/// no lazy initialisation, borrow flag or destructor registration.
#[derive(Clone, Copy)]
struct Codes {
    outcome: i32,
    hipdnn_status: i32,
    status: u32,
    /// The entry point's index; its name is looked up when it is read, so
    /// recording a call costs no string scan.
    entry_point: usize,
    /// Whether [`MESSAGE`] holds a non-empty message (of this record).
    has_message: bool,
}

thread_local! {
    static LAST: Cell<Codes> = const {
        Cell::new(Codes {
            outcome: OUTCOME_NONE,
            hipdnn_status: 0,
            status: miopen::SUCCESS,
            entry_point: usize::MAX,
            has_message: false,
        })
    };
    /// The message of the last record, touched only when a record has one or
    /// replaces one.
    static MESSAGE: RefCell<CString> = RefCell::new(CString::default());
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
#[inline]
pub fn record(index: usize, outcome: i32, hipdnn_status: i32, status: u32, message: &str) {
    let has_message = !message.is_empty();
    let _ = LAST.try_with(|last| {
        // A successful call has no message: the empty one kept is its
        // message, so the steady state allocates nothing.
        if has_message || last.get().has_message {
            replace_message(message);
        }
        last.set(Codes { outcome, hipdnn_status, status, entry_point: index, has_message });
    });
}

#[cold]
#[inline(never)]
fn replace_message(message: &str) {
    let _ = MESSAGE.try_with(|m| *m.borrow_mut() = CString::new(message.replace('\0', " ")).unwrap_or_default());
}

/// Whether `status` was returned by the most recent forwarding-set call on
/// this thread and came from hipDNN (a failed forwarded call).
fn forwarded_failure(status: u32) -> bool {
    LAST.try_with(|l| {
        let l = l.get();
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
            let l = LAST.try_with(Cell::get).ok()?;
            // Points into this thread's record: valid until the next
            // forwarding-set call on this thread that replaces the message.
            let message = MESSAGE.try_with(|m| m.borrow().as_ptr()).ok()?;
            Some(ForwardedError {
                outcome: l.outcome,
                hipdnn_status: l.hipdnn_status,
                status: l.status,
                entry_point: if l.outcome == OUTCOME_NONE { ptr::null() } else { c_name(l.entry_point).as_ptr() },
                message,
            })
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
