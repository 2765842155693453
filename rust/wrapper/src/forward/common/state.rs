//! Per-process forwarding state: the hipDNN handle of each MIOpen handle
//! (following its stream) and the plan cache, with per-thread slots for
//! the last plans a thread ran so that a steady stream of the same calls
//! (one problem, or a model's few layers in turn) takes neither lock.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ptr;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, Weak};

use miopen_forwarding_core::sync::Mutex;

use hipdnn_backend::abi::{status, Handle};
use hipdnn_backend::api::Api;
use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::per_thread::{Lease, Tally};
use miopen_forwarding_core::plan_cache::{Lookup, PlanCache, Stats};
use miopen_forwarding_core::Config;

use super::graph::{self, BuildError, Failure, Operations, Plan};
use crate::forward::miopen_sys as sys;

struct HipdnnHandle {
    handle: usize,
    /// The stream it was set to; `None` until the first set.
    stream: Option<usize>,
}

static HANDLES: Mutex<Option<HashMap<usize, HipdnnHandle>>> = Mutex::new(None);
static PLANS: OnceLock<PlanCache<PlanKey, Plan>> = OnceLock::new();
/// Problems hipDNN has no engine for, with the answer's text: the next
/// identical call is declined without building the graph again. Bounded
/// and released like the plans (it is keyed the same way).
static NO_ENGINE: OnceLock<PlanCache<PlanKey, String>> = OnceLock::new();

/// Advanced whenever a hipDNN handle is destroyed (`miopenDestroy`) or
/// moved to another stream: a per-thread slot filled in an older
/// generation is not used. A handle recreated at a destroyed one's address,
/// or a stream set away and back, therefore never reaches a stale hipDNN
/// handle through a slot.
static GENERATION: AtomicU64 = AtomicU64::new(0);

fn next_generation() {
    GENERATION.fetch_add(1, Ordering::AcqRel);
}

/// A plan a thread ran, valid while nothing it depends on changed. The
/// plan is held weakly: the slot never keeps a plan alive after the cache
/// dropped it (eviction, `miopenDestroy`, capacity 0), so plans are still
/// released where they were before.
struct Slot {
    generation: u64,
    /// The MIOpen handle's stream the hipDNN handle was set to.
    stream: usize,
    hd: usize,
    /// Held strongly, so its address identifies the key for as long as the
    /// slot compares with it (a repeat of the thread's last problem passes
    /// the same key; another key is compared by value).
    key: Rc<PlanKey>,
    plan: Weak<Plan>,
    /// The plan cache's clock before the lookup that filled the slot.
    stamp: u64,
}

/// Calls served by a thread's slots: plan-cache hits counted on the
/// thread's own line, so the steady state writes nothing another thread reads.
static SLOT_HITS: Tally = Tally::new(1);

/// Slots per thread, chosen by the key's address: a caller keeps the key of
/// a repeated problem (in its descriptor memo), so a thread that runs a few
/// problems in turn finds each in its own slot, and one that runs many
/// takes the locked path for those that displace each other.
const SLOTS: usize = 8;

/// A thread's slots and its row of [`SLOT_HITS`] (taken on its first hit).
struct Slots {
    ways: [Option<Slot>; SLOTS],
    hits: Option<Lease>,
}

thread_local! {
    static SLOT: RefCell<Slots> = const { RefCell::new(Slots { ways: [const { None }; SLOTS], hits: None }) };
}

fn way(key: &Rc<PlanKey>) -> usize {
    // Heap addresses: the low 4 bits are alignment.
    (Rc::as_ptr(key) as usize >> 4) % SLOTS
}

/// Why no plan is ready.
pub enum Unready {
    /// `h` is not a valid MIOpen handle (MIOpen decides).
    NotAHandle,
    /// Creating or placing the hipDNN handle failed.
    Handle(Failure),
    Build(BuildError),
}

/// The MIOpen handle's current stream, or `None` when `h` is not a handle.
fn stream_of(h: sys::miopenHandle_t) -> Option<usize> {
    let mut stream: sys::miopenAcceleratorQueue_t = ptr::null_mut();
    // SAFETY: MIOpen validates the handle; the out-pointer is a local.
    (unsafe { sys::miopenGetStream_impl(h, &mut stream) } == 0).then_some(stream as usize)
}

/// The hipDNN handle and plan of `key` (on MIOpen handle `key.handle`) from
/// the thread's slot of the key, when it holds that very key, nothing changed since it
/// was filled, and the plan is still cached and recent (so the cache's
/// least-recently-used order stays true: a plan the slot serves is looked
/// up again before it could become the least recent). A key equal to the
/// slot's but not the same becomes the slot's, so that a caller that keeps
/// its key (another than the one the plan was built with) is answered by
/// address from its next call on.
pub fn from_slot(key: &Rc<PlanKey>) -> Option<(Handle, Arc<Plan>)> {
    let stream = stream_of(key.handle as sys::miopenHandle_t)?;
    let cache = PLANS.get()?;
    SLOT.try_with(|slot| {
        let mut slots = slot.borrow_mut();
        let Slots { ways, hits } = &mut *slots;
        let s = ways[way(key)].as_mut()?;
        let now = Now { stream, generation: GENERATION.load(Ordering::Acquire), recent: cache.is_recent(s.stamp) };
        let plan = if s.serves(key, now) { s.plan.upgrade()? } else { return None };
        if !Rc::ptr_eq(&s.key, key) {
            s.key = Rc::clone(key);
        }
        hits.get_or_insert_with(|| SLOT_HITS.lease()).add(0, 1);
        Some((s.hd as Handle, plan))
    })
    .ok()
    .flatten()
}

/// What a slot is checked against: the MIOpen handle's stream now, the
/// handle generation now, and whether the slot's plan is still recent in
/// the cache.
#[derive(Clone, Copy)]
struct Now {
    stream: usize,
    generation: u64,
    recent: bool,
}

impl Slot {
    /// Whether the slot may serve `key` (the plan must still be alive too).
    fn serves(&self, key: &Rc<PlanKey>, now: Now) -> bool {
        (Rc::ptr_eq(&self.key, key) || self.key == *key)
            && self.stream == now.stream
            && self.generation == now.generation
            && now.recent
    }
}

/// What placing a hipDNN handle on the MIOpen handle's current stream takes.
#[derive(Debug, PartialEq, Eq)]
enum Placement {
    /// Already there.
    Stays,
    /// First placement: set the stream.
    First,
    /// Moved to another stream: set it, and invalidate every slot filled
    /// before (one may hold this handle on its old stream).
    Moved,
}

fn placement(current: Option<usize>, stream: usize) -> Placement {
    match current {
        Some(s) if s == stream => Placement::Stays,
        Some(_) => Placement::Moved,
        None => Placement::First,
    }
}

/// The hipDNN handle and plan of `key` through the handle map and the plan
/// cache (building the plan with the group's `ops` on a miss); fills the
/// thread's slot of the key.
pub fn ready(
    config: &Config,
    api: &'static Api,
    key: &Rc<PlanKey>,
    ops: Operations,
) -> Result<(Handle, Lookup<Plan>), Unready> {
    let generation = GENERATION.load(Ordering::Acquire);
    let (hd, stream) = match hipdnn_handle(api, key.handle as sys::miopenHandle_t) {
        Ok(v) => v,
        Err(None) => return Err(Unready::NotAHandle),
        Err(Some(f)) => return Err(Unready::Handle(f)),
    };
    let stamp = plans(config).clock();
    let lookup = plan(config, api, hd, key, ops).map_err(Unready::Build)?;
    let slot =
        Slot { generation, stream, hd: hd as usize, key: Rc::clone(key), plan: Arc::downgrade(lookup.value()), stamp };
    // The previous slot is dropped here: it holds nothing but a weak plan.
    let _ = SLOT.try_with(|s| s.borrow_mut().ways[way(key)] = Some(slot));
    Ok((hd, lookup))
}

/// The plan cache, created (with the configured bound) on first use.
fn plans(config: &Config) -> &'static PlanCache<PlanKey, Plan> {
    PLANS.get_or_init(|| PlanCache::new(config.plan_cache_capacity))
}

/// The plan cache's counters, its hits with those the threads' slots served.
pub fn cache_stats() -> Option<Stats> {
    let slot_hits = SLOT_HITS.sum()[0];
    PLANS.get().map(|c| Stats { hits: c.stats().hits + slot_hits, ..c.stats() })
}

/// The hipDNN handle of MIOpen handle `h`, created on first use and kept on
/// the MIOpen handle's current stream (so a plan never runs on a stale one).
/// Returns it with the stream it is on.
/// `Err(None)`: `h` is not a valid MIOpen handle (MIOpen decides).
fn hipdnn_handle(api: &Api, h: sys::miopenHandle_t) -> Result<(Handle, usize), Option<Failure>> {
    let stream = stream_of(h).ok_or(None)?;
    let mut guard = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    let map = guard.get_or_insert_with(HashMap::new);
    let entry = match map.get_mut(&(h as usize)) {
        Some(e) => e,
        None => {
            let mut created: Handle = ptr::null_mut();
            // SAFETY: out-pointer to a local.
            let s = unsafe { (api.create)(&mut created) };
            if s != status::SUCCESS {
                return Err(Some(Failure { step: "hipdnnCreate", status: s, message: graph::last_error(api) }));
            }
            map.entry(h as usize).or_insert(HipdnnHandle { handle: created as usize, stream: None })
        }
    };
    let place = placement(entry.stream, stream);
    if place != Placement::Stays {
        if place == Placement::Moved {
            next_generation();
        }
        // SAFETY: a handle this backend created; the stream is MIOpen's.
        let s = unsafe { (api.set_stream)(entry.handle as Handle, stream as sys::miopenAcceleratorQueue_t as _) };
        if s != status::SUCCESS {
            return Err(Some(Failure { step: "hipdnnSetStream", status: s, message: graph::last_error(api) }));
        }
        entry.stream = Some(stream);
    }
    Ok((entry.handle as Handle, stream))
}

/// The cached plan of `key` (a MIOpen handle and a graph), built on a miss
/// with the handle's hipDNN handle `hd`. A problem hipDNN has no engine for
/// is remembered, so it is built at most once while it stays cached.
fn plan(
    config: &Config,
    api: &'static Api,
    hd: Handle,
    key: &PlanKey,
    ops: Operations,
) -> Result<Lookup<Plan>, BuildError> {
    let known = no_engine(config);
    // The lock is taken only once some problem had no engine.
    if known.stats().entries > 0 {
        if let Some(why) = known.get(key) {
            return Err(BuildError::NoEngine(String::clone(&why)));
        }
    }
    let built = plans(config).get_or_build(key, || graph::build(api, hd, &*key.graph, key.knobs, ops));
    if let Err(BuildError::NoEngine(why)) = &built {
        let _ = known.get_or_build(key, || Ok::<_, ()>(why.clone()));
    }
    built
}

fn no_engine(config: &Config) -> &'static PlanCache<PlanKey, String> {
    NO_ENGINE.get_or_init(|| PlanCache::new(config.plan_cache_capacity))
}

/// How many problems were remembered as having no engine (its misses: it is
/// only built into after a failed build), and how many calls that answer
/// served (for the exit summary).
pub fn no_engine_stats() -> Option<(u64, u64)> {
    NO_ENGINE.get().map(|c| (c.stats().misses, c.stats().hits))
}

/// `miopenDestroy(h)`: drop the handle's plans, then its hipDNN handle.
/// Returns how many plans were released and whether a hipDNN handle was.
pub fn release(api: Option<&Api>, h: usize) -> (usize, bool) {
    let plans = PLANS.get().map_or(0, |cache| cache.remove_where(|k| k.handle == h));
    if let Some(known) = NO_ENGINE.get() {
        known.remove_where(|k| k.handle == h);
    }
    let gone = {
        let mut handles = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
        next_generation();
        handles.as_mut().and_then(|m| m.remove(&h))
    };
    match (api, gone) {
        (Some(api), Some(e)) => {
            // SAFETY: created by this backend; no plan of it remains cached.
            unsafe { (api.destroy)(e.handle as Handle) };
            (plans, true)
        }
        _ => (plans, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miopen_forwarding_core::graph_key::OwnedGraph;
    use miopen_forwarding_core::row::GroupRow;

    /// A graph spec of a test-only family.
    #[derive(Debug, PartialEq, Eq, Hash)]
    struct Spec(i64);

    impl OwnedGraph for Spec {
        const GROUP: &'static GroupRow = &GroupRow::new("test", "test");
    }

    fn key(handle: usize, k: i64) -> Rc<PlanKey> {
        Rc::new(PlanKey::new(handle, Spec(k)))
    }

    fn slot(k: &Rc<PlanKey>) -> Slot {
        Slot { generation: 7, stream: 0x5eed, hd: 1, key: Rc::clone(k), plan: Weak::new(), stamp: 0 }
    }

    const NOW: Now = Now { stream: 0x5eed, generation: 7, recent: true };

    #[test]
    fn a_slot_serves_its_key_while_nothing_changed() {
        let k = key(0x10, 2);
        let s = slot(&k);
        assert!(s.serves(&k, NOW), "the very key");
        assert!(s.serves(&key(0x10, 2), NOW), "an equal key built anew");
        assert!(!s.serves(&key(0x10, 3), NOW), "another problem");
        assert!(!s.serves(&key(0x20, 2), NOW), "the same problem on another MIOpen handle");
    }

    #[test]
    fn a_stream_move_a_destroy_or_an_old_plan_ends_the_slot() {
        let k = key(0x10, 2);
        let s = slot(&k);
        assert!(!s.serves(&k, Now { stream: 0xbeef, ..NOW }), "the handle's stream changed");
        assert!(!s.serves(&k, Now { generation: 8, ..NOW }), "a handle was destroyed or moved since");
        assert!(!s.serves(&k, Now { recent: false, ..NOW }), "the plan is no longer recent in the cache");
    }

    #[test]
    fn placing_a_handle_moves_the_generation_only_when_it_leaves_a_stream() {
        assert_eq!(placement(None, 1), Placement::First);
        assert_eq!(placement(Some(1), 1), Placement::Stays);
        assert_eq!(placement(Some(1), 2), Placement::Moved);
    }
}
