//! The call every convolution handler is given: its descriptors and the
//! configuration it runs under (its own module, so the handlers and the
//! argument parity they consult both use it without using each other).

use miopen_forwarding_core::ops::conv::Direction;
use miopen_forwarding_core::Config;

use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::read::Tensors;

/// The descriptors every handler of a convolution problem has, and the
/// configuration the call runs under.
pub struct Conv {
    pub config: &'static Config,
    pub dir: Direction,
    pub handle: sys::miopenHandle_t,
    pub t: Tensors,
    pub cd: sys::miopenConvolutionDescriptor_t,
}
