//! Reading MIOpen's tensor descriptors and scaling factors through MIOpen
//! Private's own getters (the `_impl` entry points), so the wrapper never
//! depends on MIOpen's internal layouts. A getter that fails means the
//! caller passed something invalid: the call is declined and MIOpen Private
//! reports it with its own status.

use std::ffi::c_void;

use miopen_forwarding_core::status::miopen;
use miopen_forwarding_core::tensor::Tensor;

use crate::forward::miopen_sys as sys;

pub fn checked(status: sys::miopenStatus_t, what: &str) -> Result<(), String> {
    if status == miopen::SUCCESS {
        Ok(())
    } else {
        Err(format!("{what}Desc is not readable ({}; MIOpen decides)", miopen::name(status)))
    }
}

/// The most dimensions a descriptor read here can have (MIOpen's limit is 5;
/// the getters' out-arrays live on the stack, so a read allocates only the
/// two vectors it returns).
pub const MAX_DIMS: usize = 8;

/// The first `n` values, widened, into `out` (its capacity reused).
pub fn widen_into(out: &mut Vec<i64>, v: &[i32; MAX_DIMS], n: usize) {
    out.clear();
    out.extend(v[..n].iter().map(|&x| i64::from(x)));
}

pub fn blank_tensor() -> Tensor {
    Tensor { dtype: 0, dims: Vec::new(), strides: Vec::new() }
}

pub fn tensor(desc: sys::miopenTensorDescriptor_t, what: &str) -> Result<Tensor, String> {
    let mut t = blank_tensor();
    tensor_into(desc, what, &mut t)?;
    Ok(t)
}

pub fn tensor_into(desc: sys::miopenTensorDescriptor_t, what: &str, out: &mut Tensor) -> Result<(), String> {
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

/// A scaling factor in MIOpen's convention for fp32/fp16/bf16 problems: a
/// pointer to a float.
pub fn scale(p: *const c_void, what: &str) -> Result<f32, String> {
    if p.is_null() {
        return Err(null_scale(what));
    }
    // SAFETY: MIOpen's API contract: a pointer to one float for these types.
    Ok(unsafe { *(p as *const f32) })
}

#[cold]
#[inline(never)]
fn null_scale(what: &str) -> String {
    format!("{what} is null (MIOpen decides)")
}
