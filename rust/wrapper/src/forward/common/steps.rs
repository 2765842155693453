//! The steps handlers are written in: each returns the value the handler
//! goes on with, or the [`Outcome`] that ends the call (a decline, or a
//! failure).

use std::borrow::Cow;
use std::ffi::c_void;
use std::rc::Rc;
use std::sync::Arc;

use hipdnn_backend::abi::{status as hstatus, Handle};
use hipdnn_backend::api::Api;
use miopen_forwarding_core::graph_key::PlanKey;
use miopen_forwarding_core::row::GroupRow;
use miopen_forwarding_core::status::{self, miopen};
use miopen_forwarding_core::Config;

use super::graph::{BuildError, Failure, Operations, Plan, DATA_ALIGNMENT};
use super::state::{self, Unready};
use super::{backend, Outcome};
use crate::forward::last_error;

/// A handler's step: its value, or the outcome that ends the call.
pub type Step<T> = Result<T, Outcome>;

/// Leave the call to MIOpen Private, which answers it (the cause goes to
/// the trace).
pub fn declined<T>(cause: impl Into<String>) -> Step<T> {
    Err(Outcome::Declined(cause.into()))
}

/// A hipDNN call failed: its status, translated, is the call's.
pub fn failed(f: Failure) -> Outcome {
    Outcome::Failed {
        status: status::to_miopen(f.status),
        hipdnn: f.status,
        why: format!("hipDNN {} failed: {}: {}", f.step, hstatus::name(f.status), f.message),
    }
}

/// The handler's outcome, whether it ran to the end or stopped at a step.
pub fn flatten(r: Step<Outcome>) -> Outcome {
    r.unwrap_or_else(|o| o)
}

/// Forwarded, `miopenStatusSuccess`.
pub fn success(note: impl Into<Cow<'static, str>>) -> Outcome {
    Outcome::Forwarded { status: miopen::SUCCESS, note: note.into() }
}

/// MIOpen Private's answer to a query, or a decline that lets it answer.
pub fn private_ok(s: u32) -> Step<()> {
    if s == miopen::SUCCESS {
        Ok(())
    } else {
        declined(format!("MIOpen rejects the problem ({}; MIOpen decides)", miopen::name(s)))
    }
}

/// The caller's workspace (or the handle's own, `handle_workspace`).
#[derive(Debug)]
pub struct Workspace {
    pub ptr: *mut c_void,
    pub size: usize,
}

impl Workspace {
    /// A decline when a plan that needs `need` bytes would be short of the
    /// caller's workspace (only an API that passes none gets the handle's,
    /// `handle_workspace`).
    pub fn covers(&self, need: usize) -> Step<()> {
        if need > 0 && (self.ptr.is_null() || self.size < need) {
            let have = if self.ptr.is_null() { 0 } else { self.size };
            return declined(format!("workspace of {have} bytes < the {need} the hipDNN plan needs"));
        }
        Ok(())
    }
}

/// The decline of a data pointer that is not a multiple of the alignment
/// hipDNN's tensors have, or `None`. MIOpen runs such a pointer (an fp16
/// view at an odd element offset); hipDNN's backend fails it at execute.
pub fn misaligned(p: *const c_void, name: &str) -> Option<String> {
    let offset = p as usize % DATA_ALIGNMENT;
    (offset != 0)
        .then(|| format!("{name} is not {DATA_ALIGNMENT}-byte aligned (offset {offset}; hipDNN's tensors require it)"))
}

/// A plan ready to run on the MIOpen handle's hipDNN handle.
pub struct Ready {
    pub hd: Handle,
    pub plan: Arc<Plan>,
    pub hit: bool,
}

impl Ready {
    pub fn note(&self) -> &'static str {
        if self.hit {
            "plan cache hit"
        } else {
            "plan cache miss"
        }
    }

    /// [`Workspace::covers`] for this plan.
    pub fn fits(&self, ws: &Workspace) -> Step<()> {
        ws.covers(self.plan.workspace)
    }
}

fn api() -> Step<&'static Api> {
    backend::api().map_err(unavailable)
}

/// The backend, loaded and probed for `group`'s operation types.
pub fn backend_for(group: &'static GroupRow) -> Step<&'static Api> {
    let api = api()?;
    backend::group_ready(api, group).map_err(unavailable)?;
    Ok(api)
}

fn unavailable(e: &str) -> Outcome {
    Outcome::Failed {
        status: status::UNAVAILABLE,
        hipdnn: last_error::NO_HIPDNN_STATUS,
        why: format!("hipDNN backend unavailable: {e}"),
    }
}

/// The plan of `key`: from this thread's slot, else the plan cache, else
/// built with the group's `ops`. hipDNN having no engine for the problem
/// (nothing ran) is a decline; any other failure is the call's.
/// Inlined into each group's own `ready`: with a second caller (a fused
/// batchnorm plan) LLVM called it out of line, which cost Find 2.0 and
/// fusion plans' steady path 12 to 90 instructions.
#[inline(always)]
pub fn ready(config: &Config, key: &Rc<PlanKey>, ops: Operations) -> Step<Ready> {
    if let Some((hd, plan)) = state::from_slot(key) {
        return Ok(Ready { hd, plan, hit: true });
    }
    ready_from_cache(config, key, ops)
}

/// [`ready`] past the thread's slot: the plan cache, or a build. Out of
/// line, so that a slot's hit stays short.
#[cold]
#[inline(never)]
fn ready_from_cache(config: &Config, key: &Rc<PlanKey>, ops: Operations) -> Step<Ready> {
    let api = backend_for(key.graph.group())?;
    match state::ready(config, api, key, ops) {
        Ok((hd, l)) => {
            let hit = l.is_hit();
            Ok(Ready { hd, plan: l.into_value(), hit })
        }
        Err(Unready::NotAHandle) => declined("the handle is not readable (MIOpen decides)"),
        Err(Unready::Handle(f) | Unready::Build(BuildError::Failed(f))) => Err(failed(f)),
        Err(Unready::Build(BuildError::NoEngine(why))) => declined(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declined_cause<T: std::fmt::Debug>(s: Step<T>) -> String {
        match s {
            Err(Outcome::Declined(c)) => c,
            Err(_) => panic!("not a decline"),
            Ok(v) => panic!("not a decline: {v:?}"),
        }
    }

    #[test]
    fn a_workspace_covers_a_need_or_says_by_how_much_not() {
        let mut buf = [0u8; 64];
        let ws = Workspace { ptr: buf.as_mut_ptr().cast(), size: 64 };
        assert!(ws.covers(0).is_ok() && ws.covers(64).is_ok());
        assert_eq!(declined_cause(ws.covers(65)), "workspace of 64 bytes < the 65 the hipDNN plan needs");
        let none = Workspace { ptr: std::ptr::null_mut(), size: 4096 };
        assert!(none.covers(0).is_ok(), "a plan that needs none runs without one");
        assert_eq!(declined_cause(none.covers(1)), "workspace of 0 bytes < the 1 the hipDNN plan needs");
    }

    #[test]
    fn a_pointer_off_the_tensor_alignment_is_named_with_its_offset() {
        #[repr(align(16))]
        struct Aligned([u8; 32]);
        let a = Aligned([0; 32]);
        let base = a.0.as_ptr();
        assert_eq!(misaligned(base.cast(), "x"), None);
        // SAFETY: within the 32-byte buffer.
        let odd = unsafe { base.add(2) };
        assert_eq!(
            misaligned(odd.cast(), "dy").as_deref(),
            Some("dy is not 16-byte aligned (offset 2; hipDNN's tensors require it)")
        );
        // A null pointer is aligned: its check is MIOpen's (a decline of its own).
        assert_eq!(misaligned(std::ptr::null(), "w"), None);
    }

    #[test]
    fn private_rejections_decline_and_failures_translate() {
        assert!(private_ok(miopen::SUCCESS).is_ok());
        assert_eq!(
            declined_cause(private_ok(miopen::BAD_PARM)),
            "MIOpen rejects the problem (miopenStatusBadParm; MIOpen decides)"
        );
        let f = Failure { step: "execute", status: hstatus::EXECUTION_FAILED, message: "engine said no".into() };
        match failed(f) {
            Outcome::Failed { status, hipdnn, why } => {
                assert_eq!((status, hipdnn), (miopen::UNKNOWN_ERROR, hstatus::EXECUTION_FAILED));
                assert_eq!(why, "hipDNN execute failed: HIPDNN_STATUS_EXECUTION_FAILED: engine said no");
            }
            _ => panic!("not a failure"),
        }
        assert!(matches!(flatten(Ok(success("n"))), Outcome::Forwarded { status: 0, .. }));
        assert!(matches!(flatten(declined("c")), Outcome::Declined(_)));
    }
}
