//! The solution objects the wrapper knows, by address.
//!
//! - A hipDNN solution: the `miopenSolution_t` handed out for one is the
//!   address of a token the wrapper allocated; every call that takes a
//!   solution looks the address up here first. A live MIOpen solution never
//!   has the address of a live token (both are live heap allocations), so
//!   the lookup tells them apart exactly; a destroyed one is removed before
//!   its token is freed. Its workspace is always its plan's: the search's
//!   plan for a solution the search made; for one loaded from a blob (which
//!   carries none), a plan built at the load on the wrapper's own hipDNN
//!   handle (`miopenLoadSolution` has no MIOpen handle to build it on), so
//!   a solution saved under other engines reports this process's plan.
//! - An observed MIOpen solution: one MIOpen's search returned for a
//!   problem hipDNN can run, when the search itself was left to MIOpen
//!   (an exhaustive search was asked for, or no buffers were given to time
//!   the plan on). MIOpen owns it; its run goes to hipDNN as a legacy call
//!   after a declined legacy Find does. `miopenDestroySolution` forgets it
//!   before MIOpen frees it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use miopen_forwarding_core::sync::Mutex;

use hipdnn_backend::abi::Handle;
use miopen_forwarding_core::find2::SolvedProblem;
use miopen_forwarding_core::graph_key::Knobs;
use miopen_forwarding_core::ops::conv::{GraphSpec, Problem};

use crate::forward::common::graph::{self as common_graph, BuildError, Failure};
use crate::forward::common::revised::{self, RevisedMemo, Revision};
use crate::forward::common::steps::{self, declined, failed, Step};
use crate::forward::ops::conv::graph;

/// A solution whose run goes to hipDNN.
pub struct HipdnnSolution {
    pub solved: SolvedProblem,
    /// The hipDNN graph of the problem (the plan key's graph).
    pub graph: GraphSpec,
    /// Unique in the process (an address is not: it is reused once freed).
    pub serial: u64,
    /// The plan's workspace, once known.
    workspace: OnceLock<usize>,
}

impl HipdnnSolution {
    /// The solution a search made, with its plan's workspace.
    pub fn searched(solved: SolvedProblem, graph: GraphSpec, workspace: usize) -> Self {
        HipdnnSolution { solved, graph, serial: serial(), workspace: OnceLock::from(workspace) }
    }

    /// A solution loaded from a blob: its workspace is not known until its
    /// plan is built ([`Self::workspace`]).
    pub fn loaded(solved: SolvedProblem, graph: GraphSpec) -> Self {
        HipdnnSolution { solved, graph, serial: serial(), workspace: OnceLock::new() }
    }

    /// The workspace of its plan if one was built.
    pub fn known_workspace(&self) -> Option<usize> {
        self.workspace.get().copied()
    }

    /// The workspace of its plan, built now on the wrapper's own hipDNN
    /// handle if no plan was built yet; a decline when hipDNN has no engine
    /// for it, the backend's failure otherwise.
    pub fn workspace(&self) -> Step<usize> {
        if let Some(w) = self.known_workspace() {
            return Ok(w);
        }
        let need = plan_workspace(&self.graph, self.solved.knobs)?;
        Ok(*self.workspace.get_or_init(|| need))
    }
}

/// The hipDNN handle workspace queries build their plans on (no MIOpen
/// handle, so no stream: the plan is never run), created on first use and
/// kept for the process; the lock serialises its use.
static QUERY_HANDLE: Mutex<Option<usize>> = Mutex::new(None);

fn plan_workspace(spec: &GraphSpec, knobs: Knobs) -> Step<usize> {
    // No MIOpen handle: the key's handle is never looked up (the plan is not cached).
    let key = graph::plan_key(0, spec.clone()).with_knobs(knobs);
    let api = steps::backend_for(key.graph.group())?;
    let mut handle = QUERY_HANDLE.lock().unwrap_or_else(|e| e.into_inner());
    let hd = match *handle {
        Some(h) => h as Handle,
        None => {
            let mut created: Handle = std::ptr::null_mut();
            // SAFETY: out-pointer to a local.
            let s = unsafe { (api.create)(&mut created) };
            if s != hipdnn_backend::abi::status::SUCCESS || created.is_null() {
                let message = common_graph::last_error(api);
                return Err(failed(Failure { step: "hipdnnCreate", status: s, message }));
            }
            *handle = Some(created as usize);
            created
        }
    };
    match common_graph::build(api, hd, &*key.graph, key.knobs, graph::operations) {
        Ok(plan) => Ok(plan.workspace),
        Err(BuildError::Failed(f)) => Err(failed(f)),
        Err(BuildError::NoEngine(why)) => declined(why),
    }
}

/// What the wrapper knows of a MIOpen solution whose problem hipDNN runs.
pub struct ObservedSolution {
    pub problem: Problem,
    pub graph: GraphSpec,
    /// What the plan needed on the search's handle.
    pub plan_workspace: usize,
    pub serial: u64,
}

static SERIAL: AtomicU64 = AtomicU64::new(1);

/// A serial for a new solution record.
pub fn serial() -> u64 {
    SERIAL.fetch_add(1, Ordering::Relaxed)
}

/// A known solution.
#[derive(Clone)]
pub enum Known {
    Hipdnn(Arc<HipdnnSolution>),
    Observed(Arc<ObservedSolution>),
}

/// What the object handed to the caller for a hipDNN solution is: one byte
/// the caller never reads, at an address of its own.
struct Token(#[allow(dead_code)] u8);

enum Entry {
    Hipdnn(#[allow(dead_code)] Box<Token>, Arc<HipdnnSolution>),
    Observed(Arc<ObservedSolution>),
}

static SOLUTIONS: Mutex<Option<HashMap<usize, Entry>>> = Mutex::new(None);
/// Advanced by every change to [`SOLUTIONS`]: a run of a solution a thread
/// already looked up takes neither the lock nor a reference count
/// ([`with_known`]).
static CHANGES: Revision = Revision::new();

thread_local! {
    static KNOWN: RefCell<RevisedMemo<1, Option<Known>>> = RefCell::new(RevisedMemo::default());
}

fn with<R>(f: impl FnOnce(&mut HashMap<usize, Entry>) -> R) -> R {
    f(SOLUTIONS.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new))
}

/// A change to the map: the revision moves under the lock.
fn change<R>(f: impl FnOnce(&mut HashMap<usize, Entry>) -> R) -> R {
    with(|m| {
        CHANGES.advance();
        f(m)
    })
}

/// A new hipDNN solution object's address.
pub fn create(s: HipdnnSolution) -> usize {
    let token = Box::new(Token(0));
    let address = &*token as *const Token as usize;
    change(|m| m.insert(address, Entry::Hipdnn(token, Arc::new(s))));
    address
}

/// A MIOpen solution MIOpen's search just returned.
pub fn observe(address: usize, s: ObservedSolution) {
    change(|m| m.insert(address, Entry::Observed(Arc::new(s))));
}

/// The known solution at `address`, or `None` for one the wrapper knows nothing of.
fn get(address: usize) -> Option<Known> {
    if address == 0 {
        return None;
    }
    with(|m| {
        m.get(&address).map(|e| match e {
            Entry::Hipdnn(_, s) => Known::Hipdnn(Arc::clone(s)),
            Entry::Observed(s) => Known::Observed(Arc::clone(s)),
        })
    })
}

/// Forgets the solution at `address` (freeing a hipDNN one's token).
pub fn forget(address: usize) {
    change(|m| m.remove(&address));
}

/// `f` of the known solution at `address` (`None`: one the wrapper knows
/// nothing of), remembered by the thread while no solution is created,
/// observed or forgotten.
pub fn with_known<R>(address: usize, f: impl FnOnce(Option<&Known>) -> R) -> R {
    revised::answer(&KNOWN, &CHANGES, [address], || get(address), |k| f(k.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use miopen_forwarding_core::conv::{self, ConvParams, Direction};
    use miopen_forwarding_core::tensor::Tensor;

    fn problem() -> Problem {
        let t = |dims: Vec<i64>, strides: Vec<i64>| Tensor { dtype: 1, dims, strides };
        let conv = ConvParams {
            mode: 0,
            pads: vec![0, 0],
            strides: vec![1, 1],
            dilations: vec![1, 1],
            groups: 1,
            deterministic: 0,
            fp16_alt_impl: 0,
        };
        Problem {
            direction: Direction::Forward,
            x: t(vec![1, 1, 2, 2], vec![4, 4, 2, 1]),
            w: t(vec![1, 1, 1, 1], vec![1, 1, 1, 1]),
            y: t(vec![1, 1, 2, 2], vec![4, 4, 2, 1]),
            conv,
        }
    }

    #[test]
    fn a_hipdnn_solution_is_known_by_its_address_until_forgotten() {
        let p = problem();
        let graph = conv::translate(&p).expect("translates");
        let solved = SolvedProblem { problem: p.clone(), time_ms: 0.5, knobs: Knobs::NONE };
        let a = create(HipdnnSolution::searched(solved, graph.clone(), 0));
        let b = create(HipdnnSolution::loaded(
            SolvedProblem { problem: p.clone(), time_ms: 1.0, knobs: Knobs::NONE },
            graph.clone(),
        ));
        assert_ne!(a, b);
        let (Some(Known::Hipdnn(sa)), Some(Known::Hipdnn(sb))) = (get(a), get(b)) else { panic!("not known") };
        assert_eq!(sa.solved.time_ms, 0.5);
        assert_eq!((sa.known_workspace(), sb.known_workspace()), (Some(0), None), "a loaded one's is its plan's");
        assert_ne!(sa.serial, sb.serial, "serials are unique where addresses may be reused");
        forget(a);
        assert!(get(a).is_none());
        assert!(get(b).is_some());
        // A MIOpen solution's address: observed, then forgotten by its destroy.
        let miopens = 0x7000_0000usize;
        assert!(get(miopens).is_none(), "an unknown solution is MIOpen's");
        observe(miopens, ObservedSolution { problem: p, graph, plan_workspace: 64, serial: serial() });
        assert!(matches!(get(miopens), Some(Known::Observed(o)) if o.plan_workspace == 64));
        forget(miopens);
        // Remembered by the thread, and forgotten with the solution.
        let serial_of = |k: Option<&Known>| match k {
            Some(Known::Hipdnn(s)) => Some(s.serial),
            _ => None,
        };
        assert_eq!(with_known(b, serial_of), Some(sb.serial));
        assert_eq!(with_known(b, serial_of), Some(sb.serial));
        forget(b);
        assert_eq!(with_known(b, serial_of), None, "a forgotten solution is not remembered");
        assert!(get(miopens).is_none() && get(b).is_none() && get(0).is_none());
    }
}
