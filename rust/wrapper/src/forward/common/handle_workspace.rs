//! Device memory a MIOpen handle owns for hipDNN plans that need workspace
//! where MIOpen's API passes none (`miopenExecuteFusionPlan`). Any group may
//! ask for it ([`at_least`]); `miopenDestroy` frees it ([`release`]).
//!
//! It is obtained as MIOpen obtains its own internal buffers (ROCm/MIOpen
//! @2d1fd99: `src/hip/handlehip.cpp` `Handle::SetAllocator` and
//! `Handle::Create`, `src/include/miopen/allocator.hpp`): with the allocator
//! a framework registered on the handle with `miopenSetAllocator` (seen as
//! the call passes through, [`set_allocator`]), each of the allocator and
//! the deallocator falling back to HIP's when null; a buffer is freed by the
//! deallocator it was obtained with.
//!
//! It grows on demand to the largest need seen, never past the cap
//! (`MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT`), and a call that finds it large
//! enough takes no lock and allocates nothing (a thread remembers the
//! buffer while the book is unchanged, [`revised`]). A buffer outgrown is
//! kept until `miopenDestroy`: another thread may be running a plan with it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use miopen_forwarding_core::sync::Mutex;

use super::hip_runtime::{self, Hip};
use super::revised::{self, RevisedMemo, Revision};
use super::steps::Workspace;

/// `miopenAllocatorFunction`: `void* (*)(void* context, size_t sizeBytes)`.
pub type Allocate = unsafe extern "C" fn(*mut c_void, usize) -> *mut c_void;
/// `miopenDeallocatorFunction`: `void (*)(void* context, void* memory)`.
pub type Deallocate = unsafe extern "C" fn(*mut c_void, *mut c_void);

/// What `miopenSetAllocator` registered (None: HIP's, as in MIOpen).
#[derive(Clone, Copy, Default)]
pub struct Allocator {
    pub allocate: Option<Allocate>,
    pub deallocate: Option<Deallocate>,
    pub context: usize,
}

/// How a buffer is freed: the deallocator it was obtained with.
#[derive(Clone, Copy)]
enum Freed {
    By(Deallocate, usize),
    Hip(Hip),
}

struct Buffer {
    ptr: usize,
    size: usize,
    freed: Freed,
}

impl Buffer {
    fn free(self) {
        match self.freed {
            // SAFETY: the framework's deallocator, with its context, on what its allocator returned.
            Freed::By(f, context) => unsafe { f(context as *mut c_void, self.ptr as *mut c_void) },
            Freed::Hip(hip) => hip.free(self.ptr as *mut c_void),
        }
    }
}

#[derive(Default)]
struct Owned {
    allocator: Allocator,
    live: Option<Buffer>,
    outgrown: Vec<Buffer>,
}

static BOOK: Mutex<Option<HashMap<usize, Owned>>> = Mutex::new(None);
/// Advanced by every change of a buffer: a thread's remembered one stands while this does.
static CHANGES: Revision = Revision::new();

thread_local! {
    /// Keyed by the handle: its live buffer (pointer, size).
    static LIVE: RefCell<RevisedMemo<1, Option<(usize, usize)>>> = RefCell::new(RevisedMemo::default());
}

fn with<R>(f: impl FnOnce(&mut HashMap<usize, Owned>) -> R) -> R {
    let mut guard = BOOK.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(HashMap::new))
}

/// `miopenSetAllocator(handle, ...)`, after MIOpen accepted it: the
/// allocator of the handle's next buffer.
pub fn set_allocator(handle: usize, allocator: Allocator) {
    with(|book| book.entry(handle).or_default().allocator = allocator);
}

/// The handle's workspace of at least `need` bytes (`limit`: the cap):
/// the buffer it holds, or a larger one obtained now. The reason, when
/// it cannot be had.
pub fn at_least(handle: usize, need: usize, limit: usize) -> Result<Workspace, String> {
    if need > limit {
        return Err(over_limit(need, limit));
    }
    let held = revised::answer(&LIVE, &CHANGES, [handle], || live(handle), |b| *b);
    match held {
        Some((ptr, size)) if size >= need => Ok(Workspace { ptr: ptr as *mut c_void, size }),
        _ => grow(handle, need),
    }
}

fn over_limit(need: usize, limit: usize) -> String {
    format!(
        "the hipDNN plan needs {need} bytes of workspace, over the {limit} a handle may hold \
         (MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT; MIOpen decides)"
    )
}

fn live(handle: usize) -> Option<(usize, usize)> {
    with(|book| book.get(&handle).and_then(|o| o.live.as_ref()).map(|b| (b.ptr, b.size)))
}

/// Obtains a buffer of `need` bytes under the lock (another thread may have
/// grown it meanwhile), keeping the one it replaces until `miopenDestroy`.
fn grow(handle: usize, need: usize) -> Result<Workspace, String> {
    with(|book| {
        let owned = book.entry(handle).or_default();
        if let Some(b) = owned.live.as_ref().filter(|b| b.size >= need) {
            return Ok(Workspace { ptr: b.ptr as *mut c_void, size: b.size });
        }
        let fresh = obtain(owned.allocator, need)?;
        let ws = Workspace { ptr: fresh.ptr as *mut c_void, size: fresh.size };
        STATS.obtained(need);
        if let Some(old) = owned.live.replace(fresh) {
            owned.outgrown.push(old);
        }
        CHANGES.advance();
        Ok(ws)
    })
}

/// `need` bytes from the registered allocator, else from HIP; each freed by
/// the registered deallocator, else by HIP (MIOpen's pairing). The way to
/// free it is settled first: nothing is obtained that could not be freed.
fn obtain(a: Allocator, need: usize) -> Result<Buffer, String> {
    let got = (|| {
        let freed = match a.deallocate {
            Some(f) => Freed::By(f, a.context),
            None => Freed::Hip(hip_runtime::hip()?),
        };
        let ptr = match a.allocate {
            // SAFETY: the framework's allocator, called as MIOpen calls it.
            Some(f) => unsafe { f(a.context as *mut c_void, need) },
            None => hip_runtime::hip()?.malloc(need)?,
        };
        if ptr.is_null() {
            return Err(format!(
                "the allocator registered with miopenSetAllocator returned no memory for {need} bytes"
            ));
        }
        Ok(Buffer { ptr: ptr as usize, size: need, freed })
    })();
    if got.is_err() {
        STATS.failures.fetch_add(1, Ordering::Relaxed);
    }
    got
}

/// `miopenDestroy(handle)`: frees its buffers with their deallocators and
/// forgets its allocator. Returns the bytes freed.
pub fn release(handle: usize) -> usize {
    let Some(owned) = with(|book| {
        let o = book.remove(&handle);
        CHANGES.advance();
        o
    }) else {
        return 0;
    };
    let buffers = owned.live.into_iter().chain(owned.outgrown);
    let mut freed = 0;
    for b in buffers {
        freed += b.size;
        STATS.held.fetch_sub(b.size, Ordering::Relaxed);
        b.free();
    }
    freed
}

/// What the exit summary says of the workspace.
pub struct Stats {
    allocations: AtomicU64,
    failures: AtomicU64,
    held: AtomicUsize,
    most_held: AtomicUsize,
}

static STATS: Stats = Stats {
    allocations: AtomicU64::new(0),
    failures: AtomicU64::new(0),
    held: AtomicUsize::new(0),
    most_held: AtomicUsize::new(0),
};

impl Stats {
    fn obtained(&self, size: usize) {
        self.allocations.fetch_add(1, Ordering::Relaxed);
        let now = self.held.fetch_add(size, Ordering::Relaxed) + size;
        self.most_held.fetch_max(now, Ordering::Relaxed);
    }
}

/// The exit summary's line, if any workspace was asked for.
pub fn summary_line() -> Option<String> {
    let (n, failed) = (STATS.allocations.load(Ordering::Relaxed), STATS.failures.load(Ordering::Relaxed));
    if n == 0 && failed == 0 {
        return None;
    }
    Some(format!(
        "  workspace the wrapper allocated for hipDNN plans: {n} allocation(s), {failed} failed; at most {} \
         bytes held, {} at exit (destroying a MIOpen handle frees its workspace)\n",
        STATS.most_held.load(Ordering::Relaxed),
        STATS.held.load(Ordering::Relaxed)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Counts per test context (each test its own, so tests may run in parallel).
    #[derive(Default)]
    struct Counts {
        allocated: AtomicUsize,
        freed: AtomicUsize,
        fail: bool,
    }

    unsafe extern "C" fn allocate(context: *mut c_void, size: usize) -> *mut c_void {
        // SAFETY: every test passes a `Counts` as the context.
        let c = unsafe { &*(context as *const Counts) };
        c.allocated.fetch_add(1, Ordering::SeqCst);
        if c.fail {
            return std::ptr::null_mut();
        }
        Box::into_raw(vec![0u8; size].into_boxed_slice()) as *mut c_void
    }

    unsafe extern "C" fn deallocate(context: *mut c_void, _p: *mut c_void) {
        // SAFETY: as above; the test's buffers are leaked on purpose (sizes are not kept).
        let c = unsafe { &*(context as *const Counts) };
        c.freed.fetch_add(1, Ordering::SeqCst);
    }

    fn registered(handle: usize, counts: &Counts) {
        let a = Allocator {
            allocate: Some(allocate),
            deallocate: Some(deallocate),
            context: counts as *const Counts as usize,
        };
        set_allocator(handle, a);
    }

    #[test]
    fn the_registered_allocator_is_called_once_and_the_buffer_reused_then_freed_at_release() {
        let (h, counts) = (0x7001, Counts::default());
        registered(h, &counts);
        let first = at_least(h, 4096, 1 << 20).unwrap();
        for _ in 0..10 {
            let again = at_least(h, 1000, 1 << 20).unwrap();
            assert_eq!((again.ptr, again.size), (first.ptr, 4096));
        }
        assert_eq!(counts.allocated.load(Ordering::SeqCst), 1);
        assert_eq!(release(h), 4096);
        assert_eq!(counts.freed.load(Ordering::SeqCst), 1);
        assert_eq!(release(h), 0, "released once");
    }

    #[test]
    fn a_larger_need_grows_it_and_both_buffers_are_freed_at_release() {
        let (h, counts) = (0x7002, Counts::default());
        registered(h, &counts);
        let small = at_least(h, 256, 1 << 20).unwrap();
        let large = at_least(h, 8192, 1 << 20).unwrap();
        assert_ne!(small.ptr, large.ptr);
        assert_eq!(at_least(h, 8192, 1 << 20).unwrap().ptr, large.ptr);
        assert_eq!(counts.allocated.load(Ordering::SeqCst), 2);
        assert_eq!(release(h), 256 + 8192);
        assert_eq!(counts.freed.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn over_the_cap_nothing_is_allocated() {
        let (h, counts) = (0x7003, Counts::default());
        registered(h, &counts);
        let e = at_least(h, 4097, 4096).unwrap_err();
        assert!(e.contains("4097") && e.contains("MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT"), "{e}");
        assert_eq!(counts.allocated.load(Ordering::SeqCst), 0);
        assert!(at_least(h, 4096, 4096).is_ok(), "at the cap is within it");
        release(h);
    }

    #[test]
    fn an_allocator_that_returns_no_memory_is_a_reason_and_nothing_is_held() {
        let h = 0x7004;
        let counts = Counts { fail: true, ..Counts::default() };
        registered(h, &counts);
        let e = at_least(h, 512, 1 << 20).unwrap_err();
        assert!(e.contains("returned no memory for 512 bytes"), "{e}");
        assert_eq!(release(h), 0);
        assert_eq!(counts.freed.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_buffer_is_freed_by_the_deallocator_it_was_obtained_with() {
        let (h, first, second) = (0x7005, Counts::default(), Counts::default());
        registered(h, &first);
        at_least(h, 64, 1 << 20).unwrap();
        registered(h, &second);
        at_least(h, 128, 1 << 20).unwrap();
        release(h);
        assert_eq!((first.freed.load(Ordering::SeqCst), second.freed.load(Ordering::SeqCst)), (1, 1));
    }
}
