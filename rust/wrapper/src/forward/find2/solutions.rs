//! The solution objects the wrapper knows, by address.
//!
//! - A hipDNN solution: the `miopenSolution_t` handed out for one is the
//!   address of a token the wrapper allocated; every call that takes a
//!   solution looks the address up here first. A live MIOpen solution never
//!   has the address of a live token (both are live heap allocations), so
//!   the lookup tells them apart exactly; a destroyed one is removed before
//!   its token is freed.
//! - An observed MIOpen solution: one MIOpen's search returned for a
//!   problem hipDNN can run, when the search itself was left to MIOpen
//!   (an exhaustive search was asked for, or no buffers were given to time
//!   the plan on). MIOpen owns it; its run goes to hipDNN as a legacy call
//!   after a declined legacy Find does. `miopenDestroySolution` forgets it
//!   before MIOpen frees it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use miopen_forwarding_core::conv::{GraphSpec, Problem};
use miopen_forwarding_core::find2::SolvedProblem;

/// A solution whose run goes to hipDNN.
pub struct HipdnnSolution {
    pub solved: SolvedProblem,
    /// The hipDNN graph of the problem (the plan key's graph).
    pub graph: GraphSpec,
    /// Unique in the process (an address is not: it is reused once freed).
    pub serial: u64,
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

fn with<R>(f: impl FnOnce(&mut HashMap<usize, Entry>) -> R) -> R {
    f(SOLUTIONS.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new))
}

/// A new hipDNN solution object's address.
pub fn create(s: HipdnnSolution) -> usize {
    let token = Box::new(Token(0));
    let address = &*token as *const Token as usize;
    with(|m| m.insert(address, Entry::Hipdnn(token, Arc::new(s))));
    address
}

/// A MIOpen solution MIOpen's search just returned.
pub fn observe(address: usize, s: ObservedSolution) {
    with(|m| m.insert(address, Entry::Observed(Arc::new(s))));
}

/// The known solution at `address`, or `None` for one the wrapper knows nothing of.
pub fn get(address: usize) -> Option<Known> {
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
    with(|m| m.remove(&address));
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
        let solved = SolvedProblem { problem: p.clone(), time_ms: 0.5, workspace: 0 };
        let a = create(HipdnnSolution { solved, graph: graph.clone(), serial: serial() });
        let b = create(HipdnnSolution {
            solved: SolvedProblem { problem: p.clone(), time_ms: 1.0, workspace: 0 },
            graph: graph.clone(),
            serial: serial(),
        });
        assert_ne!(a, b);
        let (Some(Known::Hipdnn(sa)), Some(Known::Hipdnn(sb))) = (get(a), get(b)) else { panic!("not known") };
        assert_eq!(sa.solved.time_ms, 0.5);
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
        forget(b);
        assert!(get(miopens).is_none() && get(b).is_none() && get(0).is_none());
    }
}
