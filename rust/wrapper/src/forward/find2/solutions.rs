//! The wrapper's hipDNN solution objects. The `miopenSolution_t` handed
//! out for one is the address of a [`HipdnnSolution`] the wrapper
//! allocated; every call that takes a solution looks the address up here
//! first. A live MIOpen solution never has the address of a live hipDNN
//! one (both are live heap allocations), so the lookup tells them apart
//! exactly; a destroyed one is removed before it is freed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use miopen_forwarding_core::conv::GraphSpec;
use miopen_forwarding_core::find2::SolvedProblem;

/// A solution whose run goes to hipDNN.
pub struct HipdnnSolution {
    pub solved: SolvedProblem,
    /// The hipDNN graph of the problem (the plan key's graph).
    pub graph: GraphSpec,
}

/// What the object handed to the caller is: one byte the caller never
/// reads, at an address of its own (the registry holds the solution).
struct Token(#[allow(dead_code)] u8);

/// The live hipDNN solutions by address: the token whose address it is, and the solution.
type Registry = HashMap<usize, (Box<Token>, Arc<HipdnnSolution>)>;

static SOLUTIONS: Mutex<Option<Registry>> = Mutex::new(None);

fn with<R>(f: impl FnOnce(&mut Registry) -> R) -> R {
    f(SOLUTIONS.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new))
}

/// A new solution object's address.
pub fn create(s: HipdnnSolution) -> usize {
    let token = Box::new(Token(0));
    let address = &*token as *const Token as usize;
    with(|m| m.insert(address, (token, Arc::new(s))));
    address
}

/// The hipDNN solution at `address`, or `None` for MIOpen's.
pub fn get(address: usize) -> Option<Arc<HipdnnSolution>> {
    if address == 0 {
        return None;
    }
    with(|m| m.get(&address).map(|(_, s)| Arc::clone(s)))
}

/// Frees the hipDNN solution at `address`; false when it is not one.
pub fn destroy(address: usize) -> bool {
    with(|m| m.remove(&address)).is_some()
}
