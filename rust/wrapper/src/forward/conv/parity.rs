//! Argument parity: a forwarded call never succeeds where MIOpen Private
//! would fail.
//!
//! The descriptors are validated by Private's getters (`read`) and the
//! problem by the translation; what is left are the arguments MIOpen checks
//! against its own solvers: the legacy calls' `algo` (an algorithm MIOpen
//! has for the problem) and the workspace that algorithm or an immediate
//! call's solution needs. A call that fails these checks is declined, so
//! MIOpen Private answers it with its own status and leaves the outputs as
//! it does.
//!
//! What Private would accept is its solution list for the problem
//! (`miopenConvolution*GetSolution`: id, algorithm, workspace per solution).
//! It is asked once per MIOpen handle and problem and kept next to the plans
//! (same key, same bound, released by `miopenDestroy`); a thread's repeat of
//! its last problem reuses it without a lookup. Ids and needs do not change
//! for a problem, so a list cached before MIOpen's find-db changed is still
//! true about every solution in it; an id missing from it is asked of
//! Private directly.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::plan_cache::PlanCache;
use miopen_forwarding_core::status::miopen;

use super::call::Conv;
use super::private;
use crate::forward::common::Workspace;
use crate::forward::miopen_sys as sys;

/// One of MIOpen Private's solutions for a problem.
#[derive(Debug, Clone, Copy)]
struct Solution {
    id: u64,
    algorithm: u32,
    workspace: usize,
}

/// Algorithms below this are indexed: the index is as long as the largest
/// one listed, which MIOpen Private reports (MIOpen's are 0 to 5; a larger
/// value must not size an allocation). A call naming one past it is not
/// found, so declined: MIOpen decides.
const INDEXED: usize = 64;

/// MIOpen Private's solutions for one problem on one handle, and the most
/// workspace a solution of each algorithm needs (indexed by the algorithm,
/// up to the largest listed below [`INDEXED`]; `None`: none of it listed),
/// worked out once so that a legacy call's check is one index.
pub struct Solutions {
    list: Vec<Solution>,
    need_by_algorithm: Vec<Option<usize>>,
}

impl Solutions {
    fn query(c: &Conv) -> Result<Solutions, String> {
        let t = c.t.query_order(c.dir);
        let mut count = 0usize;
        let s = private::solution_count(c.dir, c.handle, t, c.cd, &mut count);
        rejected(s, "the problem's solution count")?;
        let mut list: Vec<sys::miopenConvSolution_t> = Vec::with_capacity(count);
        let mut got = 0usize;
        if count > 0 {
            let s = private::solutions(c.dir, c.handle, t, c.cd, count, &mut got, list.as_mut_ptr());
            rejected(s, "the problem's solutions")?;
            // SAFETY: MIOpen wrote `got` (<= count, the capacity) elements.
            unsafe { list.set_len(got.min(count)) };
        }
        let list =
            list.iter().map(|s| Solution { id: s.solution_id, algorithm: s.algorithm, workspace: s.workspace_size });
        Ok(Solutions::of(list.collect()))
    }

    fn of(list: Vec<Solution>) -> Solutions {
        let indexed = |s: &&Solution| (s.algorithm as usize) < INDEXED;
        let algorithms = list.iter().filter(indexed).map(|s| s.algorithm as usize + 1).max().unwrap_or(0);
        let mut need_by_algorithm = vec![None; algorithms];
        for s in list.iter().filter(indexed) {
            let need = &mut need_by_algorithm[s.algorithm as usize];
            *need = Some(need.map_or(s.workspace, |n: usize| n.max(s.workspace)));
        }
        Solutions { list, need_by_algorithm }
    }

    /// The most workspace a solution of `algorithm` needs, or `None` when
    /// MIOpen lists none for the problem.
    fn need_of_algorithm(&self, algorithm: u32) -> Option<usize> {
        self.need_by_algorithm.get(algorithm as usize).copied().flatten()
    }

    fn need_of_id(&self, id: u64) -> Option<usize> {
        self.list.iter().find(|s| s.id == id).map(|s| s.workspace)
    }
}

fn rejected(status: u32, what: &str) -> Result<(), String> {
    if status == miopen::SUCCESS {
        Ok(())
    } else {
        Err(format!("MIOpen rejects the query of {what} ({}; MIOpen decides)", miopen::name(status)))
    }
}

static CACHE: OnceLock<PlanCache<PlanKey, Solutions>> = OnceLock::new();

thread_local! {
    /// This thread's last problem (the very key `handlers::spec_of` hands out
    /// for a repeat) and its solutions. A handle destroyed on another thread
    /// and recreated at the same address may meet its predecessor's list
    /// here: the list of the same problem, which MIOpen answers alike on
    /// every handle of the device.
    static LAST: RefCell<Option<(Rc<PlanKey>, Arc<Solutions>)>> = const { RefCell::new(None) };
}

fn cache(c: &Conv) -> &'static PlanCache<PlanKey, Solutions> {
    CACHE.get_or_init(|| PlanCache::new(c.config.plan_cache_capacity))
}

/// `f` of the problem's solutions: from this thread's last problem without
/// a lookup (nor a reference count) when `key` is its very key, else from the
/// cache (asking MIOpen Private on a miss). Inlined into the handler, with
/// [`algorithm`]: its thread-local then shares the handler's `__tls_get_addr`.
#[inline(always)]
fn with_solutions<R>(c: &Conv, key: &Rc<PlanKey>, f: impl Fn(&Solutions) -> R) -> Result<R, String> {
    let last = LAST.with(|l| l.borrow().as_ref().filter(|(k, _)| Rc::ptr_eq(k, key)).map(|(_, s)| f(s)));
    match last {
        Some(r) => Ok(r),
        None => solutions_from_cache(c, key).map(|s| f(&s)),
    }
}

/// The problem's solutions from the cache (asking MIOpen Private on a
/// miss), remembered as this thread's last. Out of line, so that a repeat's
/// path stays short.
#[cold]
#[inline(never)]
fn solutions_from_cache(c: &Conv, key: &Rc<PlanKey>) -> Result<Arc<Solutions>, String> {
    let s = cache(c).get_or_build(key, || Solutions::query(c))?.into_value();
    LAST.with(|l| *l.borrow_mut() = Some((Rc::clone(key), Arc::clone(&s))));
    Ok(s)
}

fn workspace(need: usize, ws: &Workspace) -> Result<(), String> {
    if need > 0 && (ws.ptr.is_null() || ws.size < need) {
        let have = if ws.ptr.is_null() { 0 } else { ws.size };
        return Err(format!("workspace of {have} bytes < the {need} MIOpen requires (MIOpen decides)"));
    }
    Ok(())
}

/// A legacy call's `algo` and workspace (`miopenConvolution{Forward,
/// BackwardData,BackwardWeights}`, `miopenConvolutionBiasActivationForward`):
/// MIOpen runs the algorithm's solver, so the algorithm must be one it lists
/// for the problem and the workspace enough for it.
#[inline(always)]
pub fn algorithm(c: &Conv, key: &Rc<PlanKey>, algo: u32, ws: &Workspace) -> Result<(), String> {
    match with_solutions(c, key, |s| s.need_of_algorithm(algo))? {
        Some(need) => workspace(need, ws),
        None => Err(format!("algo {algo} is not an algorithm MIOpen lists for the problem (MIOpen decides)")),
    }
}

/// An immediate call's solution id and workspace: the id must be one MIOpen
/// accepts for the problem and the workspace enough for its solution.
pub fn solution(c: &Conv, key: &Rc<PlanKey>, id: u64, ws: &Workspace) -> Result<(), String> {
    let need = match with_solutions(c, key, |s| s.need_of_id(id))? {
        Some(need) => need,
        None => {
            let mut need = 0usize;
            let s = private::solution_workspace(c.dir, c.handle, c.t.query_order(c.dir), c.cd, id, &mut need);
            if s != miopen::SUCCESS {
                return Err(format!(
                    "solution id {id} is not one MIOpen accepts ({}; MIOpen decides)",
                    miopen::name(s)
                ));
            }
            need
        }
    };
    workspace(need, ws)
}

/// `miopenDestroy(h)`: the handle's solution lists go with its plans.
pub fn release(h: usize) {
    if let Some(cache) = CACHE.get() {
        cache.remove_where(|k| k.handle == h);
    }
    let _ = LAST.try_with(|l| {
        let mut l = l.borrow_mut();
        if l.as_ref().is_some_and(|(k, _)| k.handle == h) {
            *l = None;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_algorithm_needs_the_most_any_of_its_solutions_needs() {
        let s = |id, algorithm, workspace| Solution { id, algorithm, workspace };
        let solutions = Solutions::of(vec![s(1, 1, 64), s(2, 3, 0), s(3, 1, 256), s(4, 1, 128)]);
        assert_eq!(solutions.need_of_algorithm(1), Some(256));
        assert_eq!(solutions.need_of_algorithm(3), Some(0), "a solution needing none is listed");
        assert_eq!(solutions.need_of_algorithm(0), None, "below the largest, not listed");
        assert_eq!(solutions.need_of_algorithm(2), None);
        assert_eq!(solutions.need_of_algorithm(4), None, "past the largest");
        assert_eq!(solutions.need_of_algorithm(u32::MAX), None);
        assert_eq!(Solutions::of(Vec::new()).need_of_algorithm(0), None);
        assert_eq!(solutions.need_of_id(3), Some(256));
        // An algorithm past the index (a Private reporting nonsense) sizes
        // nothing and is not found (the call is declined: MIOpen decides).
        let far = Solutions::of(vec![s(1, u32::MAX, 32), s(2, 2, 8), s(3, u32::MAX, 48)]);
        assert_eq!(far.need_by_algorithm.len(), 3);
        assert_eq!(far.need_of_algorithm(u32::MAX), None);
        assert_eq!(far.need_of_algorithm(2), Some(8));
        assert_eq!(far.need_of_algorithm(63), None);
        assert_eq!(far.need_of_algorithm(64), None);
    }
}
