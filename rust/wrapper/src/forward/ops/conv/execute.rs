//! A convolution's run on the caller's buffers: the data pointers in
//! forward naming, the checks hipDNN's tensors need of them, and the
//! variant pack of the graph's tensors.

use std::ffi::c_void;

use miopen_forwarding_core::ops::conv::{uid, Direction};

use crate::forward::common::graph::{self as common_graph, DATA_ALIGNMENT};
use crate::forward::common::steps::{failed, misaligned, Ready, Step};

/// The data pointers in forward naming (x = dx, w = dw, y = dy).
pub struct Buffers {
    pub x: *mut c_void,
    pub w: *mut c_void,
    pub y: *mut c_void,
}

impl Buffers {
    pub fn any_null(&self) -> bool {
        self.x.is_null() || self.w.is_null() || self.y.is_null()
    }

    /// Why hipDNN would reject one of the pointers for its tensor's
    /// alignment, named as the direction names it.
    #[inline]
    pub fn misaligned(&self, d: Direction) -> Option<String> {
        // The common case in one test, inlined into the caller: every pointer aligned.
        if (self.x as usize | self.w as usize | self.y as usize).is_multiple_of(DATA_ALIGNMENT) {
            return None;
        }
        self.name_misaligned(d)
    }

    #[cold]
    fn name_misaligned(&self, d: Direction) -> Option<String> {
        [self.x, self.w, self.y].iter().zip(d.data_names()).find_map(|(&p, name)| misaligned(p, name))
    }
}

impl From<[*mut c_void; 3]> for Buffers {
    fn from([x, w, y]: [*mut c_void; 3]) -> Buffers {
        Buffers { x, w, y }
    }
}

/// The variant pack's ids: x, w, y, and the bias of a fused graph that has one.
static UIDS: [i64; 4] = [uid::X, uid::W, uid::Y, uid::BIAS];

/// Run a ready convolution plan: `bias` is the fused graph's bias buffer
/// (None for a graph without one), `workspace` the caller's.
pub fn execute(r: &Ready, b: &Buffers, bias: Option<*mut c_void>, workspace: *mut c_void) -> Step<()> {
    let ptrs = [b.x, b.w, b.y, bias.unwrap_or(std::ptr::null_mut())];
    let n = if bias.is_some() { 4 } else { 3 };
    common_graph::execute(&r.plan, r.hd, &UIDS[..n], &ptrs[..n], workspace).map_err(failed)
}
