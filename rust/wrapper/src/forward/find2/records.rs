//! What the wrapper records of Find 2.0 problems and find options, keyed by
//! the object's address, from the calls that create, fill and destroy them
//! (each runs on MIOpen Private first; only a call MIOpen accepted is
//! recorded). A problem's descriptors are read when they are registered,
//! as MIOpen copies them then.

use miopen_forwarding_core::sync::{Mutex, MutexGuard};
use std::collections::HashMap;

use miopen_forwarding_core::find2::{argument, FindOptions};
use miopen_forwarding_core::ops::conv::{ConvParams, Direction, Problem, Tensor};

use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::read;
use miopen_forwarding_core::print::Int;

// The argument ids the pure model compares by number are the header's.
const _: () = assert!(
    sys::miopenTensorConvolutionX == argument::X
        && sys::miopenTensorConvolutionW == argument::W
        && sys::miopenTensorConvolutionY == argument::Y
);

/// A problem as MIOpen copied it when it was created and filled.
pub struct ProblemRecord {
    /// The convolution direction, or MIOpen's number for another one.
    direction: Result<Direction, u32>,
    conv: Result<ConvParams, String>,
    find_mode: i32,
    tensors: Vec<(u32, Result<Tensor, String>)>,
}

impl ProblemRecord {
    pub fn find_mode(&self) -> i32 {
        self.find_mode
    }

    /// The convolution problem, or why it is not one hipDNN is given
    /// (MIOpen's search then answers for it, with its own status if invalid).
    pub fn problem(&self) -> Result<Problem, String> {
        let direction = self.direction.map_err(|d| format!("problem direction {} (MIOpen decides)", Int(d)))?;
        let conv = self.conv.clone()?;
        if self.tensors.len() != 3 {
            return Err(format!("problem has {} tensor descriptors (MIOpen decides)", self.tensors.len()));
        }
        let tensor = |id: u32| -> Result<Tensor, String> {
            match self.tensors.iter().find(|(i, _)| *i == id) {
                Some((_, t)) => t.clone(),
                None => Err(format!("problem has no tensor descriptor of argument {} (MIOpen decides)", Int(id))),
            }
        };
        let [x, w, y] = argument::ALL.map(tensor);
        Ok(Problem { direction, x: x?, w: w?, y: y?, conv })
    }
}

fn direction(d: sys::miopenProblemDirection_t) -> Result<Direction, u32> {
    match d {
        sys::miopenProblemDirectionForward => Ok(Direction::Forward),
        sys::miopenProblemDirectionBackward => Ok(Direction::BackwardData),
        sys::miopenProblemDirectionBackwardWeights => Ok(Direction::BackwardWeights),
        other => Err(other),
    }
}

static PROBLEMS: Mutex<Option<HashMap<usize, ProblemRecord>>> = Mutex::new(None);
static OPTIONS: Mutex<Option<HashMap<usize, FindOptions>>> = Mutex::new(None);

fn lock<T>(m: &'static Mutex<Option<HashMap<usize, T>>>) -> MutexGuard<'static, Option<HashMap<usize, T>>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn with<T, R>(m: &'static Mutex<Option<HashMap<usize, T>>>, f: impl FnOnce(&mut HashMap<usize, T>) -> R) -> R {
    f(lock(m).get_or_insert_with(HashMap::new))
}

/// `miopenCreateConvProblem` succeeded: the descriptor as MIOpen copied it.
pub fn problem_created(problem: usize, cd: sys::miopenConvolutionDescriptor_t, d: sys::miopenProblemDirection_t) {
    let record = ProblemRecord {
        direction: direction(d),
        conv: read::conv(cd),
        find_mode: read::find_mode(cd).unwrap_or(0),
        tensors: Vec::new(),
    };
    with(&PROBLEMS, |m| m.insert(problem, record));
}

pub fn problem_destroyed(problem: usize) {
    with(&PROBLEMS, |m| m.remove(&problem));
}

/// `miopenSetProblemTensorDescriptor` succeeded (MIOpen takes one per id).
pub fn tensor_set(problem: usize, id: u32, desc: sys::miopenTensorDescriptor_t) {
    let name = match id {
        argument::X => "x",
        argument::W => "w",
        argument::Y => "y",
        _ => "tensor",
    };
    let t = read::tensor(desc, name);
    with(&PROBLEMS, |m| {
        if let Some(p) = m.get_mut(&problem) {
            p.tensors.push((id, t));
        }
    });
}

/// The problem's convolution and its Find mode, or why not.
pub fn problem(problem: usize) -> Result<(Problem, i32), String> {
    if problem == 0 {
        return Err("problem is null (MIOpen decides)".into());
    }
    with(&PROBLEMS, |m| match m.get(&problem) {
        Some(r) => r.problem().map(|p| (p, r.find_mode())),
        None => Err("problem not created through this libMIOpen.so (MIOpen decides)".into()),
    })
}

pub fn options_created(options: usize) {
    with(&OPTIONS, |m| m.insert(options, FindOptions::default()));
}

pub fn options_destroyed(options: usize) {
    with(&OPTIONS, |m| m.remove(&options));
}

/// A setter MIOpen accepted.
pub fn options_set(options: usize, f: impl FnOnce(&mut FindOptions)) {
    with(&OPTIONS, |m| m.get_mut(&options).map(f));
}

/// The options of a search (null: the defaults), or why not.
pub fn options(options: usize) -> Result<FindOptions, String> {
    if options == 0 {
        return Ok(FindOptions::default());
    }
    with(&OPTIONS, |m| m.get(&options).cloned())
        .ok_or_else(|| "find options not created through this libMIOpen.so (MIOpen decides)".into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_null_problem_is_named_as_null_and_an_unknown_one_as_not_created_here() {
        assert_eq!(super::problem(0).err().as_deref(), Some("problem is null (MIOpen decides)"));
        let unknown = super::problem(8).err().unwrap();
        assert!(unknown.starts_with("problem not created through this libMIOpen.so"), "{unknown}");
    }
}
