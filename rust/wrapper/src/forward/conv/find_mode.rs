//! The Find mode set on a convolution descriptor through MIOpen's API
//! (`miopenHiddenSetConvolutionFindMode`; MIGraphX sets Normal). MIOpen's
//! legacy Find reads it, and Normal asks for the exhaustive search that
//! `MIOPEN_FIND_MODE=1` asks for: such a Find stays on MIOpen Private, as it
//! does under the variable. Only the Find handlers read the mode, so the
//! compute calls pay nothing for it.
//!
//! MIOpen exports the getter without declaring it in its public header: its
//! binding comes from `src_patches/survivor-calls.json`, whose prototype the
//! build checks against MIOpen's definition.

use std::ffi::c_int;

use miopen_forwarding_core::conv::group;

use crate::forward::common::Outcome;
use crate::forward::miopen_sys as sys;

/// The decline of a legacy Find whose descriptor asks for the exhaustive
/// search, or `None` (other modes, or a descriptor MIOpen cannot read: the
/// Find handler treats that as before).
pub fn declined_by_descriptor(cd: sys::miopenConvolutionDescriptor_t) -> Option<Outcome> {
    group::descriptor_find_mode_decline(mode(cd)?).map(|why| Outcome::Declined(why.to_owned()))
}

/// The descriptor's Find mode, or `None` for a descriptor MIOpen cannot read.
pub fn mode(cd: sys::miopenConvolutionDescriptor_t) -> Option<i32> {
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
