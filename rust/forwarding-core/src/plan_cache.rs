//! The bounded, thread-safe plan cache (least recently used out first).
//!
//! Building a hipDNN execution plan is slow (heuristics, engine
//! finalization), so the wrapper keeps finalized plans keyed by handle and
//! problem. The cache is generic so its rules are testable here:
//!
//! - `build` runs outside the lock: it calls into hipDNN and may be slow, and
//!   a lock held across it would serialise every forwarded call. Two threads
//!   may therefore build the same key; the first to insert wins and the
//!   loser gets the winner's value (its own is dropped).
//! - Values are handed out as `Arc<V>`; evicting or removing an entry only
//!   drops the cache's reference, and that drop happens after the lock is
//!   released, because `V`'s `Drop` releases hipDNN descriptors (slow, and
//!   it may call back into code that uses the cache).
//! - The counters are atomics, so the trace can read them without the lock.
//!   They count lookups (each under the lock); a value a caller serves from
//!   its own copy (the forwarded steady state's per-thread slot) is counted
//!   by that caller, on a line of its own thread (`per_thread`).
//! - A poisoned lock is recovered: a panic elsewhere must not turn every
//!   later forwarded call into a panic.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::sync::{Mutex, MutexGuard};

/// The environment variable that bounds the cache (number of plans).
pub const PLAN_CACHE_SIZE_VAR: &str = "MIOPEN_HIPDNN_PLAN_CACHE_SIZE";
/// Plans kept when the variable is unset or unusable.
pub const DEFAULT_CAPACITY: usize = 256;

/// A multiply-rotate hasher (the Fx scheme) for plan keys: the keys are the
/// wrapper's own problem descriptions, not attacker-chosen, and SipHash over
/// a whole problem was a visible share of a forwarded call.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type KeyHasher = BuildHasherDefault<FxHasher>;

/// A snapshot of the cache's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Lookups that ran `build` (successfully or not).
    pub misses: u64,
    /// Entries pushed out by the capacity bound (not `remove_where`).
    pub evictions: u64,
    /// Entries held now.
    pub entries: usize,
    /// The bound; 0 means caching is disabled.
    pub capacity: usize,
}

/// A looked-up value and whether it came from the cache (for the trace).
#[derive(Debug)]
pub enum Lookup<V> {
    /// Found in the cache.
    Hit(Arc<V>),
    /// Not found: built by this call (or by a racing call that inserted first).
    Built(Arc<V>),
}

impl<V> Lookup<V> {
    pub fn is_hit(&self) -> bool {
        matches!(self, Lookup::Hit(_))
    }

    pub fn value(&self) -> &Arc<V> {
        match self {
            Lookup::Hit(v) | Lookup::Built(v) => v,
        }
    }

    pub fn into_value(self) -> Arc<V> {
        match self {
            Lookup::Hit(v) | Lookup::Built(v) => v,
        }
    }
}

struct Entry<V> {
    value: Arc<V>,
    /// Last use; larger is more recent.
    tick: u64,
}

/// Everything behind the lock. A hit only stamps its entry with a new tick
/// (the forwarded steady state is all hits); the least recent entry is
/// found by a scan only when an insertion exceeds the bound, which happens
/// after a plan build that costs far more.
struct Inner<K, V> {
    entries: HashMap<K, Entry<V>, KeyHasher>,
    next_tick: u64,
}

impl<K: Eq + Hash + Clone, V> Inner<K, V> {
    fn new() -> Self {
        Inner { entries: HashMap::default(), next_tick: 0 }
    }

    fn tick(&mut self) -> u64 {
        self.next_tick += 1;
        self.next_tick
    }

    /// The value of `key`, made most recent.
    fn touch(&mut self, key: &K) -> Option<Arc<V>> {
        let tick = self.tick();
        let entry = self.entries.get_mut(key)?;
        entry.tick = tick;
        Some(Arc::clone(&entry.value))
    }

    fn insert(&mut self, key: K, value: Arc<V>) {
        let tick = self.tick();
        self.entries.insert(key, Entry { value, tick });
    }

    /// Evict least-recent entries until at most `capacity` remain; the
    /// evicted values are returned so the caller drops them unlocked.
    fn evict_to(&mut self, capacity: usize) -> Vec<Arc<V>> {
        let mut evicted = Vec::new();
        while self.entries.len() > capacity {
            let oldest = self.entries.iter().min_by_key(|(_, e)| e.tick).map(|(k, _)| k.clone());
            match oldest.and_then(|k| self.entries.remove(&k)) {
                Some(e) => evicted.push(e.value),
                None => break,
            }
        }
        evicted
    }

    fn remove_where(&mut self, pred: impl Fn(&K) -> bool) -> Vec<Arc<V>> {
        let keys: Vec<K> = self.entries.keys().filter(|k| pred(k)).cloned().collect();
        let mut removed = Vec::with_capacity(keys.len());
        for k in keys {
            if let Some(e) = self.entries.remove(&k) {
                removed.push(e.value);
            }
        }
        removed
    }
}

/// A bounded map from `K` to shared `V`, least recently used out first.
pub struct PlanCache<K, V> {
    capacity: usize,
    inner: Mutex<Inner<K, V>>,
    hits: AtomicU64,
    misses: AtomicU64,
    evictions: AtomicU64,
    /// Mirror of the entry count, so [`PlanCache::stats`] needs no lock.
    len: AtomicUsize,
    /// Mirror of the last tick handed out, so a caller that keeps a value
    /// outside the cache can tell without the lock whether it is still safe
    /// from eviction ([`PlanCache::is_recent`]).
    clock: AtomicU64,
}

impl<K: Eq + Hash + Clone, V> PlanCache<K, V> {
    /// A cache of at most `capacity` values; 0 disables caching (every
    /// lookup builds and nothing is kept).
    pub fn new(capacity: usize) -> Self {
        PlanCache {
            capacity,
            inner: Mutex::new(Inner::new()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            evictions: AtomicU64::new(0),
            len: AtomicUsize::new(0),
            clock: AtomicU64::new(0),
        }
    }

    /// The recency clock, to read *before* a lookup: the entry that lookup
    /// returns is stamped at least this recent.
    pub fn clock(&self) -> u64 {
        self.clock.load(Ordering::Relaxed)
    }

    /// Whether an entry looked up after reading `stamp` from
    /// [`PlanCache::clock`] is still among the recent half of the cache. An
    /// eviction removes the least recent of `capacity + 1` distinct ticks,
    /// so it never takes an entry stamped within the last `capacity`: a
    /// caller that serves the value itself while this holds, and looks it up
    /// again (refreshing it) once it does not, keeps it from being evicted
    /// while it is in use.
    pub fn is_recent(&self, stamp: u64) -> bool {
        self.clock().wrapping_sub(stamp) < (self.capacity / 2) as u64
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The lock, recovered if a panic poisoned it. Only a panicking `K`
    /// (hash, eq, clone) or an allocation failure can poison it, and every
    /// step leaves the map consistent, so the data stays usable.
    fn lock(&self) -> MutexGuard<'_, Inner<K, V>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value of `key`, building (outside the lock) and caching it on a
    /// miss. A failed build stores nothing and counts as a miss.
    pub fn get_or_build<E>(&self, key: &K, build: impl FnOnce() -> Result<V, E>) -> Result<Lookup<V>, E> {
        if let Some(v) = self.get(key) {
            return Ok(Lookup::Hit(v));
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let built = Arc::new(build()?);
        if self.capacity == 0 {
            return Ok(Lookup::Built(built));
        }
        Ok(Lookup::Built(self.insert_or_join(key, built)))
    }

    /// Insert a freshly built value, or, if a racing builder inserted first,
    /// take theirs. Whatever leaves the cache (the loser's value, evicted
    /// entries) is dropped after the lock is released.
    fn insert_or_join(&self, key: &K, built: Arc<V>) -> Arc<V> {
        let (kept, dropped) = {
            let mut inner = self.lock();
            let kept = match inner.touch(key) {
                Some(winner) => (winner, vec![built]),
                None => {
                    inner.insert(key.clone(), Arc::clone(&built));
                    let evicted = inner.evict_to(self.capacity);
                    self.evictions.fetch_add(evicted.len() as u64, Ordering::Relaxed);
                    self.len.store(inner.entries.len(), Ordering::Relaxed);
                    (built, evicted)
                }
            };
            self.clock.store(inner.next_tick, Ordering::Relaxed);
            kept
        };
        drop(dropped);
        kept
    }

    /// The cached value of `key`, made most recent. Counts a hit when found
    /// and nothing otherwise, so it can be used to peek.
    pub fn get(&self, key: &K) -> Option<Arc<V>> {
        if self.capacity == 0 {
            return None;
        }
        let found = {
            let mut inner = self.lock();
            let found = inner.touch(key);
            self.clock.store(inner.next_tick, Ordering::Relaxed);
            found
        };
        if found.is_some() {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    /// Remove every entry whose key matches (e.g. all plans of a destroyed
    /// handle); returns how many. Not counted as evictions: nothing was
    /// pushed out by the bound.
    pub fn remove_where(&self, pred: impl Fn(&K) -> bool) -> usize {
        let removed = {
            let mut inner = self.lock();
            let removed = inner.remove_where(pred);
            self.len.store(inner.entries.len(), Ordering::Relaxed);
            removed
        };
        let n = removed.len();
        drop(removed);
        n
    }

    /// The counters, read without the lock (each is exact; together they
    /// are a snapshot only when no other thread is using the cache).
    pub fn stats(&self) -> Stats {
        Stats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            evictions: self.evictions.load(Ordering::Relaxed),
            entries: self.len.load(Ordering::Relaxed),
            capacity: self.capacity,
        }
    }
}

/// The capacity from the raw value of [`PLAN_CACHE_SIZE_VAR`]: unset or
/// empty is the default; a decimal number (0 disables caching) is taken as
/// is; anything else is an error message for the caller's one warning (it
/// then uses the default).
pub fn capacity_from_env(value: Option<&str>) -> Result<usize, String> {
    crate::env_number::decimal_from_env(
        PLAN_CACHE_SIZE_VAR,
        value,
        DEFAULT_CAPACITY,
        "a decimal number of plans (0 disables the cache)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;
    use std::sync::atomic::AtomicBool;
    use std::sync::{Barrier, Weak};

    fn ok<V>(v: V) -> impl FnOnce() -> Result<V, Infallible> {
        move || Ok(v)
    }

    fn build(cache: &PlanCache<u32, String>, key: u32) -> Lookup<String> {
        cache.get_or_build(&key, ok(format!("plan {key}"))).unwrap()
    }

    fn stats(hits: u64, misses: u64, evictions: u64, entries: usize, capacity: usize) -> Stats {
        Stats { hits, misses, evictions, entries, capacity }
    }

    #[test]
    fn miss_then_hits_on_repeat() {
        let cache = PlanCache::new(4);
        let first = build(&cache, 1);
        assert!(!first.is_hit());
        assert_eq!(cache.stats(), stats(0, 1, 0, 1, 4));
        for n in 1..=3 {
            let again = cache.get_or_build(&1, || -> Result<String, Infallible> { panic!("must not build") }).unwrap();
            assert!(again.is_hit());
            assert!(Arc::ptr_eq(first.value(), again.value()));
            assert_eq!(cache.stats(), stats(n, 1, 0, 1, 4));
        }
        assert_eq!(*build(&cache, 2).into_value(), "plan 2");
        assert_eq!(cache.stats(), stats(3, 2, 0, 2, 4));
    }

    /// A value served outside the cache and refreshed whenever `is_recent`
    /// says so is never evicted, however many others come and go; left
    /// alone, it is.
    #[test]
    fn a_value_refreshed_when_no_longer_recent_is_never_evicted() {
        for capacity in [2usize, 3, 4, 8] {
            let cache = PlanCache::new(capacity);
            let mut stamp = cache.clock();
            build(&cache, 0);
            for other in 1..100 {
                if !cache.is_recent(stamp) {
                    stamp = cache.clock();
                    assert!(cache.get(&0).is_some(), "capacity {capacity}: refreshed value gone after {other}");
                }
                build(&cache, other);
                assert!(cache.stats().entries <= capacity);
            }
            assert!(cache.get(&0).is_some(), "capacity {capacity}");
            let neglected = PlanCache::new(capacity);
            build(&neglected, 0);
            for other in 1..100 {
                build(&neglected, other);
            }
            assert!(neglected.get(&0).is_none(), "capacity {capacity}: never refreshed, still cached");
        }
    }

    #[test]
    fn is_recent_within_half_the_capacity() {
        // A miss ticks twice (the failed lookup, the insertion).
        let cache = PlanCache::new(8);
        let stamp = cache.clock();
        build(&cache, 1);
        assert!(cache.is_recent(stamp));
        build(&cache, 2);
        assert!(!cache.is_recent(stamp));
        assert!(!PlanCache::<u32, String>::new(1).is_recent(0), "capacity 1: nothing is served outside");
    }

    #[test]
    fn get_peeks_without_counting_a_miss() {
        let cache = PlanCache::new(2);
        assert!(cache.get(&1).is_none());
        assert_eq!(cache.stats(), stats(0, 0, 0, 0, 2));
        build(&cache, 1);
        assert_eq!(cache.get(&1).as_deref().map(String::as_str), Some("plan 1"));
        assert_eq!(cache.stats(), stats(1, 1, 0, 1, 2));
    }

    #[test]
    fn failed_build_stores_nothing() {
        let cache: PlanCache<u32, String> = PlanCache::new(2);
        assert_eq!(cache.get_or_build(&1, || Err("no engine")).unwrap_err(), "no engine");
        assert_eq!(cache.stats(), stats(0, 1, 0, 0, 2));
        assert!(!build(&cache, 1).is_hit());
    }

    #[test]
    fn evicts_the_least_recently_used_at_the_bound() {
        let cache = PlanCache::new(3);
        for k in 1..=3 {
            build(&cache, k);
        }
        // Touch 1 (lookup) and 2 (peek): 3 is now the least recent.
        assert!(build(&cache, 1).is_hit());
        assert!(cache.get(&2).is_some());
        build(&cache, 4);
        assert_eq!(cache.stats(), stats(2, 4, 1, 3, 3));
        assert!(cache.get(&3).is_none());
        for k in [1, 2, 4] {
            assert!(cache.get(&k).is_some(), "{k} survives");
        }
        // Recency now 1, 2, 4 (oldest first): two more inserts push out 1 and 2.
        build(&cache, 5);
        build(&cache, 6);
        assert!(cache.get(&1).is_none() && cache.get(&2).is_none());
        assert_eq!(cache.stats().evictions, 3);
        assert_eq!(cache.stats().entries, 3);
    }

    #[test]
    fn capacity_zero_builds_every_time_and_keeps_nothing() {
        let cache = PlanCache::new(0);
        let a = build(&cache, 1);
        let b = build(&cache, 1);
        assert!(!a.is_hit() && !b.is_hit());
        assert!(!Arc::ptr_eq(a.value(), b.value()));
        assert!(cache.get(&1).is_none());
        assert_eq!(cache.stats(), stats(0, 2, 0, 0, 0));
        assert_eq!(Arc::strong_count(a.value()), 1, "the cache holds no reference");
    }

    #[test]
    fn remove_where_is_not_an_eviction() {
        let cache: PlanCache<(usize, u32), String> = PlanCache::new(8);
        for handle in [10, 20] {
            for p in 0..3 {
                cache.get_or_build(&(handle, p), ok(format!("{handle}/{p}"))).unwrap();
            }
        }
        let held = cache.get(&(10, 0)).unwrap();
        assert_eq!(cache.remove_where(|k| k.0 == 10), 3);
        assert_eq!(cache.remove_where(|k| k.0 == 10), 0);
        assert_eq!(cache.stats(), stats(1, 6, 0, 3, 8));
        assert!(cache.get(&(10, 1)).is_none());
        assert!(cache.get(&(20, 1)).is_some());
        assert_eq!(*held, "10/0", "a caller's reference outlives removal");
        assert_eq!(Arc::strong_count(&held), 1);
        // The recency order was cleaned too: filling up evicts only handle 20's.
        for p in 0..5 {
            cache.get_or_build(&(30, p), ok(String::new())).unwrap();
        }
        assert_eq!(cache.stats().evictions, 0);
        cache.get_or_build(&(30, 5), ok(String::new())).unwrap();
        assert_eq!(cache.stats().evictions, 1);
        assert!(cache.get(&(20, 0)).is_none());
    }

    #[test]
    fn racing_builders_share_the_first_inserted_value() {
        const THREADS: usize = 8;
        let cache: PlanCache<u32, usize> = PlanCache::new(4);
        let start = Barrier::new(THREADS);
        // Every builder waits here, so all of them miss and build: none can
        // finish before the others have looked up.
        let building = Barrier::new(THREADS);
        let values: Vec<Arc<usize>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|i| {
                    let (cache, start, building) = (&cache, &start, &building);
                    s.spawn(move || {
                        start.wait();
                        let l = cache
                            .get_or_build(&7, || -> Result<usize, Infallible> {
                                building.wait();
                                Ok(i)
                            })
                            .unwrap();
                        assert!(!l.is_hit());
                        l.into_value()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(values.iter().all(|v| Arc::ptr_eq(v, &values[0])));
        assert_eq!(cache.stats(), stats(0, THREADS as u64, 0, 1, 4));
        assert!(Arc::ptr_eq(&cache.get(&7).unwrap(), &values[0]));
    }

    /// A value whose `Drop` uses the cache, as a plan's descriptor release
    /// may: it must find the lock free (a held lock would deadlock).
    struct Reentrant {
        cache: Weak<PlanCache<u32, Reentrant>>,
        dropped_while_locked: Arc<AtomicBool>,
        drops: Arc<AtomicUsize>,
    }

    impl Drop for Reentrant {
        fn drop(&mut self) {
            self.drops.fetch_add(1, Ordering::SeqCst);
            let Some(cache) = self.cache.upgrade() else {
                return;
            };
            // try_lock first so a bug fails the test instead of hanging it.
            let free = cache.inner.try_lock().is_some();
            if !free {
                self.dropped_while_locked.store(true, Ordering::SeqCst);
                return;
            }
            let _ = cache.get(&0);
            let _ = cache.stats();
        }
    }

    #[test]
    fn values_are_dropped_outside_the_lock() {
        let cache = Arc::new(PlanCache::new(1));
        let locked = Arc::new(AtomicBool::new(false));
        let drops = Arc::new(AtomicUsize::new(0));
        let make = || Reentrant {
            cache: Arc::downgrade(&cache),
            dropped_while_locked: Arc::clone(&locked),
            drops: Arc::clone(&drops),
        };
        let ok_make = || -> Result<Reentrant, Infallible> { Ok(make()) };
        cache.get_or_build(&1, ok_make).unwrap();
        cache.get_or_build(&2, ok_make).unwrap(); // evicts 1
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(cache.remove_where(|_| true), 1); // removes 2
        assert_eq!(drops.load(Ordering::SeqCst), 2);

        // A racing loser's value is dropped outside the lock too.
        let winner = cache.get_or_build(&3, ok_make).unwrap().into_value();
        let joined = cache.insert_or_join(&3, Arc::new(make()));
        assert!(Arc::ptr_eq(&winner, &joined));
        assert_eq!(drops.load(Ordering::SeqCst), 3);
        assert!(!locked.load(Ordering::SeqCst));
    }

    #[test]
    fn a_poisoned_lock_is_recovered() {
        let cache = PlanCache::new(2);
        build(&cache, 1);
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _guard = cache.inner.lock().unwrap();
            panic!("poison");
        }));
        assert!(cache.inner.is_poisoned());
        assert!(build(&cache, 1).is_hit());
        assert!(!build(&cache, 2).is_hit());
        assert_eq!(cache.remove_where(|_| true), 2);
    }

    #[test]
    fn capacity_from_the_environment() {
        assert_eq!(capacity_from_env(None), Ok(DEFAULT_CAPACITY));
        assert_eq!(capacity_from_env(Some("")), Ok(DEFAULT_CAPACITY));
        assert_eq!(capacity_from_env(Some("  ")), Ok(DEFAULT_CAPACITY));
        assert_eq!(capacity_from_env(Some("0")), Ok(0));
        assert_eq!(capacity_from_env(Some("1024")), Ok(1024));
        assert_eq!(capacity_from_env(Some(" 16 ")), Ok(16));
        for bad in ["-1", "+5", "1e3", "0x10", "many", "12 plans", "99999999999999999999999999"] {
            let e = capacity_from_env(Some(bad)).unwrap_err();
            assert!(e.contains(PLAN_CACHE_SIZE_VAR) && e.contains(bad) && e.contains("decimal"), "{e}");
        }
    }
}
