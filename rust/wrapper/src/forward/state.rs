//! Per-process forwarding state: the hipDNN handle of each MIOpen handle
//! (following its stream) and the plan cache.

use std::collections::HashMap;
use std::ptr;
use std::sync::{Mutex, OnceLock};

use hipdnn_backend::abi::{status, Handle};
use hipdnn_backend::api::Api;
use miopen_forwarding_core::conv::GraphSpec;
use miopen_forwarding_core::plan_cache::{Lookup, PlanCache};

use super::graph::{self, BuildError, Failure, Plan};
use super::miopen_sys as sys;

/// A plan belongs to the MIOpen handle (hence hipDNN handle) that built it.
pub type PlanKey = (usize, GraphSpec);

struct HipdnnHandle {
    handle: usize,
    stream: usize,
}

static HANDLES: Mutex<Option<HashMap<usize, HipdnnHandle>>> = Mutex::new(None);
static PLANS: OnceLock<PlanCache<PlanKey, Plan>> = OnceLock::new();

pub fn plans() -> &'static PlanCache<PlanKey, Plan> {
    PLANS.get_or_init(|| PlanCache::new(crate::runtime::config().plan_cache_capacity))
}

pub fn cache_stats() -> Option<miopen_forwarding_core::plan_cache::Stats> {
    PLANS.get().map(PlanCache::stats)
}

/// The hipDNN handle of MIOpen handle `h`, created on first use and kept on
/// the MIOpen handle's current stream (so a plan never runs on a stale one).
/// `Err(None)`: `h` is not a valid MIOpen handle (MIOpen decides).
pub fn hipdnn_handle(api: &Api, h: sys::miopenHandle_t) -> Result<Handle, Option<Failure>> {
    let mut stream: sys::miopenAcceleratorQueue_t = ptr::null_mut();
    // SAFETY: MIOpen validates the handle; the out-pointer is a local.
    if unsafe { sys::miopenGetStream_impl(h, &mut stream) } != 0 {
        return Err(None);
    }
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
            map.entry(h as usize).or_insert(HipdnnHandle { handle: created as usize, stream: 0 })
        }
    };
    if entry.stream != stream as usize || entry.stream == 0 {
        // SAFETY: a handle this backend created; the stream is MIOpen's.
        let s = unsafe { (api.set_stream)(entry.handle as Handle, stream.cast()) };
        if s != status::SUCCESS {
            return Err(Some(Failure { step: "hipdnnSetStream", status: s, message: graph::last_error(api) }));
        }
        entry.stream = stream as usize;
    }
    Ok(entry.handle as Handle)
}

/// The cached plan of `key` (a MIOpen handle and a graph), built on a miss
/// with the handle's hipDNN handle `hd`.
pub fn plan(api: &'static Api, hd: Handle, key: &PlanKey) -> Result<Lookup<Plan>, BuildError> {
    plans().get_or_build(key, || graph::build(api, hd, &key.1))
}

/// `miopenDestroy(h)`: drop the handle's plans, then its hipDNN handle.
/// Returns how many plans were released and whether a hipDNN handle was.
pub fn release(api: Option<&Api>, h: sys::miopenHandle_t) -> (usize, bool) {
    let plans = PLANS.get().map_or(0, |cache| cache.remove_where(|k| k.0 == h as usize));
    let gone = HANDLES.lock().unwrap_or_else(|e| e.into_inner()).as_mut().and_then(|m| m.remove(&(h as usize)));
    match (api, gone) {
        (Some(api), Some(e)) => {
            // SAFETY: created by this backend; no plan of it remains cached.
            unsafe { (api.destroy)(e.handle as Handle) };
            (plans, true)
        }
        _ => (plans, false),
    }
}
