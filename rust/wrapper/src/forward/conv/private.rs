//! The side-effect-free MIOpen Private queries a forwarded problem reports
//! alongside its plan, per direction. The tensors come in the query order
//! of [`crate::forward::ops::conv::read::Tensors::query_order`].

use miopen_forwarding_core::ops::conv::Direction;

use crate::forward::miopen_sys as sys;

type Td = sys::miopenTensorDescriptor_t;
type Cd = sys::miopenConvolutionDescriptor_t;

/// `miopenConvolution*GetWorkSpaceSize`: the largest workspace any of
/// MIOpen's algorithms needs for the problem.
pub fn workspace_size(d: Direction, h: sys::miopenHandle_t, t: [Td; 3], c: Cd, out: &mut usize) -> u32 {
    // SAFETY: the caller's descriptors, validated by MIOpen; out is a local.
    unsafe {
        match d {
            Direction::Forward => sys::miopenConvolutionForwardGetWorkSpaceSize_impl(h, t[0], t[1], c, t[2], out),
            Direction::BackwardData => {
                sys::miopenConvolutionBackwardDataGetWorkSpaceSize_impl(h, t[0], t[1], c, t[2], out)
            }
            Direction::BackwardWeights => {
                sys::miopenConvolutionBackwardWeightsGetWorkSpaceSize_impl(h, t[0], t[1], c, t[2], out)
            }
        }
    }
}

pub fn solution_count(d: Direction, h: sys::miopenHandle_t, t: [Td; 3], c: Cd, out: *mut usize) -> u32 {
    // SAFETY: as above; `out` is the caller's pointer, checked by MIOpen.
    unsafe {
        match d {
            Direction::Forward => sys::miopenConvolutionForwardGetSolutionCount_impl(h, t[0], t[1], c, t[2], out),
            Direction::BackwardData => {
                sys::miopenConvolutionBackwardDataGetSolutionCount_impl(h, t[0], t[1], c, t[2], out)
            }
            Direction::BackwardWeights => {
                sys::miopenConvolutionBackwardWeightsGetSolutionCount_impl(h, t[0], t[1], c, t[2], out)
            }
        }
    }
}

pub fn solutions(
    d: Direction,
    h: sys::miopenHandle_t,
    t: [Td; 3],
    c: Cd,
    max: usize,
    count: *mut usize,
    out: *mut sys::miopenConvSolution_t,
) -> u32 {
    // SAFETY: the caller's pointers, checked by MIOpen.
    unsafe {
        match d {
            Direction::Forward => {
                sys::miopenConvolutionForwardGetSolution_impl(h, t[0], t[1], c, t[2], max, count, out)
            }
            Direction::BackwardData => {
                sys::miopenConvolutionBackwardDataGetSolution_impl(h, t[0], t[1], c, t[2], max, count, out)
            }
            Direction::BackwardWeights => {
                sys::miopenConvolutionBackwardWeightsGetSolution_impl(h, t[0], t[1], c, t[2], max, count, out)
            }
        }
    }
}

/// `miopenConvolution*GetSolutionWorkspaceSize`: also MIOpen's check that a
/// solution id is valid for the problem.
pub fn solution_workspace(d: Direction, h: sys::miopenHandle_t, t: [Td; 3], c: Cd, id: u64, out: &mut usize) -> u32 {
    // SAFETY: as above.
    unsafe {
        match d {
            Direction::Forward => {
                sys::miopenConvolutionForwardGetSolutionWorkspaceSize_impl(h, t[0], t[1], c, t[2], id, out)
            }
            Direction::BackwardData => {
                sys::miopenConvolutionBackwardDataGetSolutionWorkspaceSize_impl(h, t[0], t[1], c, t[2], id, out)
            }
            Direction::BackwardWeights => {
                sys::miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize_impl(h, t[0], t[1], c, t[2], id, out)
            }
        }
    }
}
