//! Counters that many threads bump without sharing a cache line: each
//! thread holds a [`Lease`] on a row of counters of its own (aligned and
//! padded to 128 bytes, two 64-byte lines, as adjacent-line prefetch pairs
//! them), and a reader sums every row ([`Tally::sum`]).
//!
//! A bump is a plain load and store on the thread's own line (one writer per
//! row, so no locked instruction); the registry's lock is taken once per
//! thread, when it takes its lease. A row outlives its thread: when the
//! lease is dropped (the thread ends) the row keeps its counts and the next
//! thread to take a lease reuses it, adding to them, so a sum stays exact
//! and the registry holds as many rows as threads ever ran at once.

use crate::sync::{Mutex, MutexGuard};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Counters per 128 bytes.
const PER_LINE: usize = 16;

#[repr(align(128))]
struct Line([AtomicU64; PER_LINE]);

/// One thread's counters (the first line inline, so that a constant index
/// below [`PER_LINE`] costs no bounds check), and whether a thread holds
/// them now.
struct Row {
    first: Line,
    rest: Box<[Line]>,
    leased: AtomicBool,
}

impl Row {
    fn counter(&self, i: usize) -> Option<&AtomicU64> {
        if i < PER_LINE {
            return Some(&self.first.0[i]);
        }
        self.rest.get(i / PER_LINE - 1).map(|l| &l.0[i % PER_LINE])
    }
}

/// `width` counters per thread, summed when read.
pub struct Tally {
    width: usize,
    rows: Mutex<Vec<&'static Row>>,
}

impl Tally {
    pub const fn new(width: usize) -> Self {
        Tally { width, rows: Mutex::new(Vec::new()) }
    }

    /// The registry, recovered if a panic poisoned it (every step leaves it whole).
    fn rows(&self) -> MutexGuard<'_, Vec<&'static Row>> {
        self.rows.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A row for the calling thread (keep it in a `thread_local`): a row a
    /// finished thread left, or a new one.
    pub fn lease(&'static self) -> Lease {
        let mut rows = self.rows();
        // Acquire: the previous holder's last counts are seen before adding to them.
        let free =
            rows.iter().find(|r| r.leased.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_ok());
        let row = match free {
            Some(r) => *r,
            None => {
                let line = || Line(Default::default());
                let rest = (1..self.width.div_ceil(PER_LINE)).map(|_| line()).collect();
                let row: &'static Row = Box::leak(Box::new(Row { first: line(), rest, leased: AtomicBool::new(true) }));
                rows.push(row);
                row
            }
        };
        Lease { row }
    }

    /// Every counter summed over all rows (exact for each counter; a
    /// snapshot of all only while no thread bumps them).
    pub fn sum(&self) -> Vec<u64> {
        let mut out = vec![0u64; self.width];
        for row in self.rows().iter() {
            for (i, total) in out.iter_mut().enumerate() {
                *total += row.counter(i).map_or(0, |c| c.load(Ordering::Relaxed));
            }
        }
        out
    }

    /// Rows registered (as many as threads held leases at once).
    pub fn rows_held(&self) -> usize {
        self.rows().len()
    }
}

/// A thread's row of a [`Tally`]; dropping it hands the row back.
pub struct Lease {
    row: &'static Row,
}

impl Lease {
    /// Add `n` to counter `i` (an index past the tally's width is ignored).
    #[inline]
    pub fn add(&self, i: usize, n: u64) {
        if let Some(c) = self.row.counter(i) {
            // The only writer of this row: no read-modify-write needed.
            c.store(c.load(Ordering::Relaxed).wrapping_add(n), Ordering::Relaxed);
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // Release: the counts are seen by the row's next holder.
        self.row.leased.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;

    #[test]
    fn counts_from_many_threads_sum_exactly() {
        static T: Tally = Tally::new(20);
        const THREADS: usize = 8;
        let start = Barrier::new(THREADS);
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let start = &start;
                s.spawn(move || {
                    let lease = T.lease();
                    start.wait();
                    for _ in 0..10_000 {
                        lease.add(t, 1);
                        lease.add(19, 2);
                    }
                    lease.add(20, 5); // past the width: ignored
                });
            }
        });
        let sum = T.sum();
        assert_eq!(sum.len(), 20);
        for (t, total) in sum.iter().enumerate().take(THREADS) {
            assert_eq!(*total, 10_000, "counter {t}");
        }
        assert_eq!(sum[19], 2 * 10_000 * THREADS as u64);
        assert!(sum[THREADS..19].iter().all(|&n| n == 0));
        assert_eq!(T.rows_held(), THREADS, "all held at once: one row each");
    }

    #[test]
    fn a_finished_threads_row_is_reused_and_keeps_its_counts() {
        static T: Tally = Tally::new(1);
        for _ in 0..5 {
            std::thread::spawn(|| T.lease().add(0, 3)).join().unwrap();
        }
        assert_eq!(T.sum(), vec![15]);
        assert_eq!(T.rows_held(), 1, "one thread at a time: one row");
        let (a, b) = (T.lease(), T.lease());
        assert_eq!(T.rows_held(), 2, "two held at once: two rows");
        a.add(0, 1);
        b.add(0, 1);
        assert_eq!(T.sum(), vec![17]);
    }

    #[test]
    fn two_leases_never_share_a_line() {
        static T: Tally = Tally::new(3);
        let (a, b) = (T.lease(), T.lease());
        let (pa, pb) = (&a.row.first as *const Line as usize, &b.row.first as *const Line as usize);
        assert_eq!(pa % 128, 0);
        assert_eq!(pb % 128, 0);
        assert!(pa.abs_diff(pb) >= 128);
    }
}
