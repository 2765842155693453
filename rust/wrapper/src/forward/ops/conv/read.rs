//! A convolution's descriptors through MIOpen Private's getters: the three
//! tensors of a problem, the convolution descriptor (with the Find mode set
//! on it), the fused call's activation.

use std::ffi::c_int;

use miopen_forwarding_core::ops::conv::{Activation, ConvParams, Direction, Problem};

use crate::forward::common::read::{blank_tensor, checked, tensor_into, widen_into, MAX_DIMS};
pub use crate::forward::common::read::{scale, tensor};
use crate::forward::miopen_sys as sys;

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
        d.query_order([self.x, self.w, self.y])
    }
}

fn blank_conv() -> ConvParams {
    ConvParams {
        mode: 0,
        pads: Vec::new(),
        strides: Vec::new(),
        dilations: Vec::new(),
        groups: 0,
        deterministic: 0,
        fp16_alt_impl: 0,
    }
}

/// A problem to read into (`problem_into`).
pub fn blank_problem(d: Direction) -> Problem {
    Problem { direction: d, x: blank_tensor(), w: blank_tensor(), y: blank_tensor(), conv: blank_conv() }
}

/// The convolution descriptor's parameters (a fusion plan's convolution
/// operator and a Find 2.0 problem copy them).
pub fn conv(desc: sys::miopenConvolutionDescriptor_t) -> Result<ConvParams, String> {
    let mut c = blank_conv();
    conv_into(desc, &mut c)?;
    Ok(c)
}

fn conv_into(desc: sys::miopenConvolutionDescriptor_t, out: &mut ConvParams) -> Result<(), String> {
    let what = "conv";
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
    out.deterministic = attribute(sys::MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC)?;
    out.fp16_alt_impl = attribute(sys::MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL)?;
    out.mode = mode;
    out.groups = i64::from(groups);
    widen_into(&mut out.pads, &pads, len);
    widen_into(&mut out.strides, &strides, len);
    widen_into(&mut out.dilations, &dils, len);
    Ok(())
}

pub fn problem(d: Direction, t: &Tensors, cd: sys::miopenConvolutionDescriptor_t) -> Result<Problem, String> {
    let mut p = blank_problem(d);
    problem_into(d, t, cd, &mut p)?;
    Ok(p)
}

/// `problem`, read into `out` (its vectors' capacity reused: a steady
/// stream of calls allocates nothing here).
pub fn problem_into(
    d: Direction,
    t: &Tensors,
    cd: sys::miopenConvolutionDescriptor_t,
    out: &mut Problem,
) -> Result<(), String> {
    let names = d.data_names();
    out.direction = d;
    tensor_into(t.x, names[0], &mut out.x)?;
    tensor_into(t.w, names[1], &mut out.w)?;
    tensor_into(t.y, names[2], &mut out.y)?;
    conv_into(cd, &mut out.conv)
}

pub fn activation(desc: sys::miopenActivationDescriptor_t) -> Result<Activation, String> {
    let (mut mode, mut alpha, mut beta, mut gamma) = (0, 0f64, 0f64, 0f64);
    // SAFETY: as in `tensor`.
    let s = unsafe { sys::miopenGetActivationDescriptor_impl(desc, &mut mode, &mut alpha, &mut beta, &mut gamma) };
    checked(s, "activation")?;
    Ok(Activation { mode, alpha, beta })
}

/// The Find mode set on a convolution descriptor through MIOpen's API
/// (`miopenHiddenSetConvolutionFindMode`; MIGraphX sets Normal), or `None`
/// for a descriptor MIOpen cannot read. MIOpen exports the getter without
/// declaring it in its public header: its binding comes from
/// `src_patches/survivor-calls.json`, whose prototype the build checks
/// against MIOpen's definition.
pub fn find_mode(cd: sys::miopenConvolutionDescriptor_t) -> Option<i32> {
    if cd.is_null() {
        return None;
    }
    let mut mode: c_int = 0;
    // SAFETY: the caller's descriptor (MIOpen checks it); `mode` is a local.
    if unsafe { sys::miopenHiddenGetConvolutionFindMode_impl(cd, &mut mode) } != sys::miopenStatusSuccess {
        return None;
    }
    Some(mode)
}
