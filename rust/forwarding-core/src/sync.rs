//! The wrapper's `Mutex`: std's, plus what ThreadSanitizer needs to see it.
//!
//! Rust's standard library is the toolchain's prebuilt, uninstrumented copy
//! (rebuilding it instrumented takes `rust-src`, which this toolchain lacks;
//! docs/testing.md, "Sanitizers"). A contended `std::sync::Mutex` is taken
//! inside std's compiled futex code, so TSan never sees the lock's
//! happens-before and reports the data it guards as raced. In the TSan tree
//! (`--cfg miopen_wrap_tsan`, set by `cmake/MIOpenWrapSanitize.cmake`) this
//! lock tells TSan itself: acquire on the mutex's address once it is held,
//! release just before it is let go. Elsewhere the two calls are empty and
//! the type is std's mutex and nothing more.
//!
//! The API is std's (`lock()` gives `LockResult`, poisoning included), so a
//! call site changes its `use` line only.

// The one place std's lock is named: this type wraps it (clippy.toml
// disallows it everywhere else).
#![allow(clippy::disallowed_types)]

use std::ops::{Deref, DerefMut};
use std::sync::{LockResult, PoisonError};

/// `std::sync::Mutex`, visible to ThreadSanitizer.
#[derive(Default)]
pub struct Mutex<T: ?Sized> {
    inner: std::sync::Mutex<T>,
}

/// The held lock; releasing it tells TSan first.
pub struct MutexGuard<'a, T: ?Sized> {
    inner: std::sync::MutexGuard<'a, T>,
    mutex: usize,
}

impl<T> Mutex<T> {
    pub const fn new(value: T) -> Self {
        Mutex { inner: std::sync::Mutex::new(value) }
    }
}

impl<T: ?Sized> Mutex<T> {
    /// As `std::sync::Mutex::lock`: `Err` carries the guard of a poisoned lock.
    pub fn lock(&self) -> LockResult<MutexGuard<'_, T>> {
        match self.inner.lock() {
            Ok(inner) => Ok(self.held(inner)),
            Err(e) => Err(PoisonError::new(self.held(e.into_inner()))),
        }
    }

    /// As `std::sync::Mutex::try_lock`, `None` when another thread holds it
    /// (a poisoned lock is taken).
    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        match self.inner.try_lock() {
            Ok(inner) => Some(self.held(inner)),
            Err(std::sync::TryLockError::Poisoned(e)) => Some(self.held(e.into_inner())),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    pub fn is_poisoned(&self) -> bool {
        self.inner.is_poisoned()
    }

    fn held<'a>(&'a self, inner: std::sync::MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        let mutex = &self.inner as *const std::sync::Mutex<T> as *const () as usize;
        tsan::acquire(mutex);
        MutexGuard { inner, mutex }
    }
}

impl<T: ?Sized> Drop for MutexGuard<'_, T> {
    // Runs before the field `inner` unlocks: the release precedes the unlock.
    fn drop(&mut self) {
        tsan::release(self.mutex);
    }
}

impl<T: ?Sized> Deref for MutexGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T: ?Sized> DerefMut for MutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

#[cfg(miopen_wrap_tsan)]
mod tsan {
    // ThreadSanitizer's annotation interface (compiler-rt's tsan_interface.h);
    // the runtime linked into every executable of the TSan tree defines them.
    extern "C" {
        fn __tsan_acquire(addr: *mut std::ffi::c_void);
        fn __tsan_release(addr: *mut std::ffi::c_void);
    }
    pub fn acquire(addr: usize) {
        // SAFETY: the annotations only record a synchronisation on the address.
        unsafe { __tsan_acquire(addr as *mut _) }
    }
    pub fn release(addr: usize) {
        // SAFETY: as above.
        unsafe { __tsan_release(addr as *mut _) }
    }
}

#[cfg(not(miopen_wrap_tsan))]
mod tsan {
    #[inline(always)]
    pub fn acquire(_: usize) {}
    #[inline(always)]
    pub fn release(_: usize) {}
}

#[cfg(test)]
mod tests {
    use super::Mutex;
    use std::sync::Arc;

    #[test]
    fn guards_its_data_across_threads() {
        let m = Arc::new(Mutex::new(0u64));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let m = Arc::clone(&m);
                std::thread::spawn(move || (0..1000).for_each(|_| *m.lock().unwrap() += 1))
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(*m.lock().unwrap(), 4000);
    }

    #[test]
    fn a_poisoned_lock_is_an_error_that_still_holds_the_data() {
        let m = Arc::new(Mutex::new(vec![1]));
        let m2 = Arc::clone(&m);
        let _ = std::thread::spawn(move || {
            let mut g = m2.lock().unwrap();
            g.push(2);
            panic!("poison it");
        })
        .join();
        assert!(m.is_poisoned());
        let Err(poisoned) = m.lock() else { panic!("the panic while held poisons the lock") };
        assert_eq!(*poisoned.into_inner(), vec![1, 2]);
        assert!(m.try_lock().is_some(), "a poisoned lock is still taken by try_lock");
    }
}
