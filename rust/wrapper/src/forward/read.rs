//! Reading MIOpen's descriptors through MIOpen Private's own getters (the
//! `_impl` entry points), so the wrapper never depends on MIOpen's internal
//! layouts. A getter that fails means the caller passed something invalid:
//! the call is declined and MIOpen Private reports it with its own status.

use std::ffi::c_void;

use miopen_forwarding_core::conv::{Activation, ConvParams, Problem, Tensor};
use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::Direction;

use super::miopen_sys as sys;

/// MIOpen's names of the (x, w, y) data of a direction, as its API names the
/// arguments (`dx`, `dw`, `dy` for the gradients); a descriptor is the name
/// with `Desc`.
pub fn data_names(d: Direction) -> [&'static str; 3] {
    match d {
        Direction::Forward => ["x", "w", "y"],
        Direction::BackwardData => ["dx", "w", "dy"],
        Direction::BackwardWeights => ["x", "dw", "dy"],
    }
}

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
        Err(format!("{what}Desc is not readable ({}; MIOpen decides)", miopen::name(status)))
    }
}

/// The most dimensions a descriptor read here can have (MIOpen's limit is 5;
/// the getters' out-arrays live on the stack, so a read allocates only the
/// two vectors it returns).
const MAX_DIMS: usize = 8;

/// The first `n` values, widened, into `out` (its capacity reused).
fn widen_into(out: &mut Vec<i64>, v: &[i32; MAX_DIMS], n: usize) {
    out.clear();
    out.extend(v[..n].iter().map(|&x| i64::from(x)));
}

fn blank_tensor() -> Tensor {
    Tensor { dtype: 0, dims: Vec::new(), strides: Vec::new() }
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

pub fn tensor(desc: sys::miopenTensorDescriptor_t, what: &str) -> Result<Tensor, String> {
    let mut t = blank_tensor();
    tensor_into(desc, what, &mut t)?;
    Ok(t)
}

fn tensor_into(desc: sys::miopenTensorDescriptor_t, what: &str, out: &mut Tensor) -> Result<(), String> {
    let mut size = 0i32;
    // SAFETY: MIOpen's getter validates the descriptor; out-pointers are locals.
    checked(unsafe { sys::miopenGetTensorDescriptorSize_impl(desc, &mut size) }, what)?;
    if !(1..=MAX_DIMS as i32).contains(&size) {
        return Err(format!("{what}Desc has {size} dimensions (MIOpen decides)"));
    }
    let mut dtype = 0;
    let (mut dims, mut strides) = ([0i32; MAX_DIMS], [0i32; MAX_DIMS]);
    checked(
        // SAFETY: arrays of at least miopenGetTensorDescriptorSize elements, as the API requires.
        unsafe { sys::miopenGetTensorDescriptor_impl(desc, &mut dtype, dims.as_mut_ptr(), strides.as_mut_ptr()) },
        what,
    )?;
    let n = size as usize;
    out.dtype = dtype;
    widen_into(&mut out.dims, &dims, n);
    widen_into(&mut out.strides, &strides, n);
    Ok(())
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
    let names = data_names(d);
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

/// A scaling factor in MIOpen's convention for fp32/fp16/bf16 problems: a
/// pointer to a float.
pub fn scale(p: *const c_void, what: &str) -> Result<f32, String> {
    if p.is_null() {
        return Err(format!("{what} is null (MIOpen decides)"));
    }
    // SAFETY: MIOpen's API contract: a pointer to one float for these types.
    Ok(unsafe { *(p as *const f32) })
}
