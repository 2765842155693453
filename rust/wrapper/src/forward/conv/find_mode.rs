//! What a legacy Find asks of hipDNN: MIOpen's exhaustive search, asked with
//! the Find's `exhaustiveSearch` argument or with the Find mode set on the
//! convolution descriptor through MIOpen's API
//! (`miopenHiddenSetConvolutionFindMode`; MIGraphX sets Normal, the API's
//! spelling of `MIOPEN_FIND_MODE=1`), is hipDNN's `global.benchmarking`.
//! Only the Find handlers read the mode, so the compute calls pay nothing
//! for it.

use miopen_forwarding_core::conv::group;
use miopen_forwarding_core::graph_key::Knobs;

use crate::forward::miopen_sys as sys;
use crate::forward::ops::conv::read;

/// The knobs of a legacy Find (its workspace is applied as a limit where
/// the default plan needs more, `ops::conv::graph::ready_within`). A
/// descriptor MIOpen cannot read asks for nothing here (the Find's own
/// reads decide about it).
pub fn knobs(cd: sys::miopenConvolutionDescriptor_t, exhaustive: bool) -> Knobs {
    let normal = read::find_mode(cd).is_some_and(group::asks_exhaustive_search);
    Knobs { benchmarking: exhaustive || normal, workspace_limit: None }
}
