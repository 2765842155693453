//! Save, load, destroy and the getters of a hipDNN solution. Each answers
//! as MIOpen answers for its own solutions: the bytes of `blob`, the plan's
//! workspace, the time the search measured, and solver id 0 (MIOpen's
//! invalid id: no MIOpen solver stands behind a hipDNN solution, and
//! `miopenGetSolverIdConvAlgorithm(0)` gets MIOpen's own rejection).

use std::ffi::c_char;

use miopen_forwarding_core::find2::blob::{self, Decoded};
use miopen_forwarding_core::ops::conv::translate;
use miopen_forwarding_core::status::miopen;

use super::refusal::{self, rejected, Miopen};
use super::solutions::{self, HipdnnSolution};
use crate::forward::common::steps::success;
use crate::forward::common::Outcome;
use crate::forward::miopen_sys as sys;

/// The value a getter writes, through the caller's pointer (MIOpen's
/// BadParm for a null one, with what MIOpen `says` of it).
pub fn write<T>(out: *mut T, value: T, what: &'static str, says: Miopen) -> Outcome {
    if out.is_null() {
        return rejected(miopen::BAD_PARM, format_args!("{what} is null"), says);
    }
    // SAFETY: checked non-null; the caller's out-parameter.
    unsafe { out.write(value) };
    success(what)
}

pub fn destroy(address: usize) -> Outcome {
    solutions::forget(address);
    success("hipDNN solution freed")
}

/// The plan's workspace (a hipDNN solution is never declined: MIOpen
/// Private does not know it; hipDNN having no engine is MIOpen's BadParm).
pub fn workspace(s: &HipdnnSolution, out: *mut usize) -> Outcome {
    if out.is_null() {
        return rejected(miopen::BAD_PARM, "workspaceSize is null", Miopen::Rejects);
    }
    match s.workspace() {
        Ok(need) => write(out, need, "workspaceSize", Miopen::Rejects),
        Err(Outcome::Declined(why)) => rejected(miopen::BAD_PARM, why, Miopen::Runs),
        Err(other) => other,
    }
}

/// A loaded solution whose plan this process's hipDNN builds: its
/// workspace is then this process's plan's, not the saving process's (the
/// blob carries none; engines differ between installs). Otherwise the load
/// says why, as MIOpen's load of a blob it cannot use does: hipDNN having no
/// engine for the problem is MIOpen's BadParm (as the workspace query of a
/// solution says it), an absent or failing backend its own failure.
fn runnable(s: HipdnnSolution) -> Result<HipdnnSolution, Outcome> {
    match s.workspace() {
        Ok(_) => Ok(s),
        Err(Outcome::Declined(why)) => Err(rejected(
            miopen::BAD_PARM,
            format_args!("this process's hipDNN cannot run the saved problem: {why}"),
            Miopen::Runs,
        )),
        Err(other) => Err(other),
    }
}

pub fn size(s: &HipdnnSolution, out: *mut usize) -> Outcome {
    write(out, blob::encode(&s.solved).len(), "size", Miopen::Says(refusal::NULL_SIZE.into()))
}

pub fn save(s: &HipdnnSolution, data: *mut c_char) -> Outcome {
    if data.is_null() {
        return rejected(miopen::BAD_PARM, "data is null", Miopen::Says(refusal::NULL_DATA.into()));
    }
    let bytes = blob::encode(&s.solved);
    // SAFETY: the caller's buffer of miopenGetSolutionSize bytes (MIOpen's contract).
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data.cast::<u8>(), bytes.len()) };
    success("hipDNN solution saved")
}

/// `miopenLoadSolution`: a hipDNN solution's bytes make a hipDNN solution;
/// any other bytes are MIOpen's to load (`None`).
/// `data` is not null (the caller's check).
pub fn load(out: *mut sys::miopenSolution_t, data: *const c_char, size: usize) -> Option<Outcome> {
    // SAFETY: the caller's buffer of `size` bytes, not null.
    let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size) };
    match blob::decode(bytes) {
        Decoded::NotOurs => None,
        Decoded::Rejected { status, why } => Some(rejected(status, why, Miopen::HasNone)),
        Decoded::Solution(solved) => Some(match translate(&solved.problem) {
            Err(d) => rejected(
                miopen::INVALID_VALUE,
                format_args!("the saved problem is not one hipDNN runs: {}", d.0),
                Miopen::HasNone,
            ),
            Ok(_) if out.is_null() => {
                rejected(miopen::BAD_PARM, "solution is null", Miopen::Says(refusal::NULL_OBJECT.into()))
            }
            Ok(graph) => runnable(HipdnnSolution::loaded(*solved, graph)).map_or_else(
                |refused| refused,
                |s| {
                    let need = s.known_workspace().unwrap_or_default();
                    let address = solutions::create(s);
                    // SAFETY: checked non-null.
                    unsafe { *out = address as sys::miopenSolution_t };
                    success(format!("hipDNN solution loaded; its plan in this process needs {need} bytes of workspace"))
                },
            ),
        }),
    }
}
