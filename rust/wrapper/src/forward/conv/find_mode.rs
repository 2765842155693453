//! The Find mode set on a convolution descriptor through MIOpen's API
//! (`miopenHiddenSetConvolutionFindMode`; MIGraphX sets Normal). MIOpen's
//! legacy Find reads it, and Normal asks for the exhaustive search that
//! `MIOPEN_FIND_MODE=1` asks for: such a Find stays on MIOpen Private, as it
//! does under the variable. Only the Find handlers read the mode, so the
//! compute calls pay nothing for it.

use miopen_forwarding_core::conv::group;

use crate::forward::common::Outcome;
use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::read;

/// The decline of a legacy Find whose descriptor asks for the exhaustive
/// search, or `None` (other modes, or a descriptor MIOpen cannot read: the
/// Find handler treats that as before).
pub fn declined_by_descriptor(cd: sys::miopenConvolutionDescriptor_t) -> Option<Outcome> {
    group::descriptor_find_mode_decline(read::find_mode(cd)?).map(|why| Outcome::Declined(why.to_owned()))
}
