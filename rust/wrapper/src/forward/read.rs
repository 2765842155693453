//! Reading MIOpen's descriptors through MIOpen Private's own getters (the
//! `_impl` entry points), so the wrapper never depends on MIOpen's internal
//! layouts. A getter that fails means the caller passed something invalid:
//! the call is declined and MIOpen Private reports it with its own status.

use std::ffi::c_void;

use miopen_forwarding_core::conv::{Activation, ConvParams, Problem, Tensor};
use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::Direction;

use super::miopen_sys as sys;

/// The three tensor descriptors of a problem in forward naming: `x` input
/// (dx), `w` weights (dw), `y` output (dy).
#[derive(Clone, Copy)]
pub struct Tensors {
    pub x: sys::miopenTensorDescriptor_t,
    pub w: sys::miopenTensorDescriptor_t,
    pub y: sys::miopenTensorDescriptor_t,
}

impl Tensors {
    /// The (a, b, c) order of the per-direction query calls
    /// (`GetWorkSpaceSize`, `GetSolution*`): forward (w, x, y), backward-data
    /// (dy, w, dx), backward-weights (dy, x, dw).
    pub fn query_order(&self, d: Direction) -> [sys::miopenTensorDescriptor_t; 3] {
        match d {
            Direction::Forward => [self.w, self.x, self.y],
            Direction::BackwardData => [self.y, self.w, self.x],
            Direction::BackwardWeights => [self.y, self.x, self.w],
        }
    }
}

fn checked(status: sys::miopenStatus_t, what: &str) -> Result<(), String> {
    if status == miopen::SUCCESS {
        Ok(())
    } else {
        Err(format!("{what} is not readable ({}; MIOpen decides)", miopen::name(status)))
    }
}

/// The most dimensions a descriptor read here can have (MIOpen's limit is 5;
/// the getters' out-arrays live on the stack, so a read allocates only the
/// two vectors it returns).
const MAX_DIMS: usize = 8;

/// The first `n` values, widened: the one allocation per array read.
fn widen(v: &[i32; MAX_DIMS], n: usize) -> Vec<i64> {
    v[..n].iter().map(|&x| i64::from(x)).collect()
}

pub fn tensor(desc: sys::miopenTensorDescriptor_t, what: &str) -> Result<Tensor, String> {
    let mut size = 0i32;
    // SAFETY: MIOpen's getter validates the descriptor; out-pointers are locals.
    checked(unsafe { sys::miopenGetTensorDescriptorSize_impl(desc, &mut size) }, what)?;
    if !(1..=MAX_DIMS as i32).contains(&size) {
        return Err(format!("{what} has {size} dimensions (MIOpen decides)"));
    }
    let mut dtype = 0;
    let (mut dims, mut strides) = ([0i32; MAX_DIMS], [0i32; MAX_DIMS]);
    checked(
        // SAFETY: arrays of at least miopenGetTensorDescriptorSize elements, as the API requires.
        unsafe { sys::miopenGetTensorDescriptor_impl(desc, &mut dtype, dims.as_mut_ptr(), strides.as_mut_ptr()) },
        what,
    )?;
    let n = size as usize;
    Ok(Tensor { dtype, dims: widen(&dims, n), strides: widen(&strides, n) })
}

pub fn conv(desc: sys::miopenConvolutionDescriptor_t) -> Result<ConvParams, String> {
    let what = "convDesc";
    let mut n = 0i32;
    // SAFETY: as in `tensor`.
    checked(unsafe { sys::miopenGetConvolutionSpatialDim_impl(desc, &mut n) }, what)?;
    if !(1..=MAX_DIMS as i32).contains(&n) {
        return Err(format!("convDesc has {n} spatial dimensions (MIOpen decides)"));
    }
    let len = n as usize;
    let (mut pads, mut strides, mut dils) = ([0i32; MAX_DIMS], [0i32; MAX_DIMS], [0i32; MAX_DIMS]);
    let (mut got, mut mode) = (0i32, 0);
    checked(
        // SAFETY: arrays of at least the descriptor's spatial rank.
        unsafe {
            sys::miopenGetConvolutionNdDescriptor_impl(
                desc,
                n,
                &mut got,
                pads.as_mut_ptr(),
                strides.as_mut_ptr(),
                dils.as_mut_ptr(),
                &mut mode,
            )
        },
        what,
    )?;
    let mut groups = 0i32;
    checked(unsafe { sys::miopenGetConvolutionGroupCount_impl(desc, &mut groups) }, what)?;
    let attribute = |a: sys::miopenConvolutionAttrib_t| -> Result<i32, String> {
        let mut v = 0i32;
        checked(unsafe { sys::miopenGetConvolutionAttribute_impl(desc, a, &mut v) }, what)?;
        Ok(v)
    };
    Ok(ConvParams {
        mode,
        pads: widen(&pads, len),
        strides: widen(&strides, len),
        dilations: widen(&dils, len),
        groups: i64::from(groups),
        deterministic: attribute(sys::MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC)?,
        fp16_alt_impl: attribute(sys::MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL)?,
    })
}

pub fn problem(d: Direction, t: &Tensors, cd: sys::miopenConvolutionDescriptor_t) -> Result<Problem, String> {
    let names = match d {
        Direction::Forward => ["xDesc", "wDesc", "yDesc"],
        Direction::BackwardData => ["dxDesc", "wDesc", "dyDesc"],
        Direction::BackwardWeights => ["xDesc", "dwDesc", "dyDesc"],
    };
    Ok(Problem {
        direction: d,
        x: tensor(t.x, names[0])?,
        w: tensor(t.w, names[1])?,
        y: tensor(t.y, names[2])?,
        conv: conv(cd)?,
    })
}

pub fn activation(desc: sys::miopenActivationDescriptor_t) -> Result<Activation, String> {
    let (mut mode, mut alpha, mut beta, mut gamma) = (0, 0f64, 0f64, 0f64);
    // SAFETY: as in `tensor`.
    let s = unsafe { sys::miopenGetActivationDescriptor_impl(desc, &mut mode, &mut alpha, &mut beta, &mut gamma) };
    checked(s, "activationDesc")?;
    Ok(Activation { mode, alpha, beta })
}

/// A scaling factor in MIOpen's convention for fp32/fp16/bf16 problems: a
/// pointer to a float.
pub fn scale(p: *const c_void, what: &str) -> Result<f32, String> {
    if p.is_null() {
        return Err(format!("{what} is null (MIOpen decides)"));
    }
    // SAFETY: MIOpen's API contract: a pointer to one float for these types.
    Ok(unsafe { *(p as *const f32) })
}
