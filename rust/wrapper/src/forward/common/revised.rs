//! A thread's memory of answers taken from a book shared by all threads
//! behind a lock (Find 2.0's solutions, the fusion plans' records), valid
//! while the book's [`Revision`] is the one read before the answer was
//! taken. Every change to the book advances the revision, so a repeat call
//! with an unchanged book is answered from the thread's own memory: it
//! takes no lock and writes no shared line (it reads the revision's line,
//! which nothing writes while the book is unchanged).
//!
//! Direct-mapped by the key: an entry displaced by another key only costs
//! the next call a locked look-up, as before there was a memory.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::LocalKey;

/// How many times a book changed.
pub struct Revision(AtomicU64);

impl Revision {
    pub const fn new() -> Self {
        Revision(AtomicU64::new(0))
    }

    fn now(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    /// Called by every change to the book, under its lock.
    pub fn advance(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }
}

const WAYS: usize = 16;

/// Answers keyed by `N` addresses, all taken at one revision.
pub struct RevisedMemo<const N: usize, V> {
    revision: u64,
    entries: Vec<Option<([usize; N], V)>>,
}

impl<const N: usize, V> Default for RevisedMemo<N, V> {
    fn default() -> Self {
        RevisedMemo { revision: 0, entries: (0..WAYS).map(|_| None).collect() }
    }
}

fn way<const N: usize>(key: &[usize; N]) -> usize {
    let mut h = 0usize;
    for &a in key {
        h = (h ^ (a >> 4)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    (h >> 32) % WAYS
}

impl<const N: usize, V> RevisedMemo<N, V> {
    fn get(&self, key: &[usize; N], now: u64) -> Option<&V> {
        if self.revision != now {
            return None;
        }
        match &self.entries[way(key)] {
            Some((k, v)) if k == key => Some(v),
            _ => None,
        }
    }

    /// Remember an answer taken after the revision read `now`; answers of
    /// an older revision are dropped first.
    fn put(&mut self, key: [usize; N], now: u64, v: V) {
        if self.revision != now {
            self.entries.iter_mut().for_each(|e| *e = None);
            self.revision = now;
        }
        self.entries[way(&key)] = Some((key, v));
    }
}

/// `f` of the answer for `key`: from this thread's `memo` while the book's
/// `revision` has not moved since it was taken, else from `look_up` (the
/// locked look-up), then remembered. A remembered answer's `f` runs while
/// the memory is borrowed: a call it makes that needs the memory again is
/// answered by `look_up` and not remembered.
pub fn answer<const N: usize, V: Clone, R>(
    memo: &'static LocalKey<RefCell<RevisedMemo<N, V>>>,
    revision: &Revision,
    key: [usize; N],
    look_up: impl FnOnce() -> V,
    f: impl FnOnce(&V) -> R,
) -> R {
    let now = revision.now();
    memo.with(|cell| {
        if let Ok(m) = cell.try_borrow() {
            if let Some(v) = m.get(&key, now) {
                return f(v);
            }
        }
        let v = look_up();
        if let Ok(mut m) = cell.try_borrow_mut() {
            m.put(key, now, v.clone());
        }
        f(&v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        static MEMO: RefCell<RevisedMemo<2, u32>> = RefCell::new(RevisedMemo::default());
    }

    /// The answer and how many locked look-ups it took.
    fn ask(revision: &Revision, key: [usize; 2], value: u32) -> (u32, usize) {
        let looked = Cell::new(0);
        let v = answer(
            &MEMO,
            revision,
            key,
            || {
                looked.set(looked.get() + 1);
                value
            },
            |v| *v,
        );
        (v, looked.get())
    }

    #[test]
    fn a_repeat_is_answered_until_the_book_changes() {
        let book = Revision::new();
        let k = [0x1000, 0x2000];
        assert_eq!(ask(&book, k, 7), (7, 1), "first: looked up");
        assert_eq!(ask(&book, k, 8), (7, 0), "repeat: remembered");
        assert_eq!(ask(&book, [0x1000, 0x2010], 9), (9, 1), "another key: looked up");
        book.advance();
        assert_eq!(ask(&book, k, 8), (8, 1), "the book changed: looked up again");
        assert_eq!(ask(&book, k, 0), (8, 0));
    }

    #[test]
    fn a_nested_call_is_looked_up_and_not_remembered() {
        let book = Revision::new();
        let k = [0x5000, 0x6000];
        assert_eq!(ask(&book, k, 1), (1, 1));
        let nested = answer(&MEMO, &book, k, || unreachable!("remembered"), |_| ask(&book, [0x7000, 0x8000], 2));
        assert_eq!(nested, (2, 1));
        assert_eq!(ask(&book, [0x7000, 0x8000], 3), (3, 1), "not remembered while the memory was borrowed");
    }
}
