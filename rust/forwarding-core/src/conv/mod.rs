//! The convolution group's front end (the legacy API:
//! `miopenConvolution{Forward,BackwardData,BackwardWeights}*`, their Find
//! and solution queries, `miopenConvolutionBiasActivationForward`): what
//! this API adds to the shared convolution op layer, [`crate::ops::conv`].
//!
//! The op layer's names that code outside the three front ends reaches
//! through this group's path (the plan key, the mirrored enumerators, the
//! entry points, the solution blob) are re-exported here.

pub use crate::ops::conv::driver_line as driver_cmd;
use crate::ops::conv::{decline, Activation, Decline};
pub use crate::ops::conv::{
    miopen_activation, miopen_mode, miopen_type, translate, ConvParams, Direction, GraphSpec, Problem, TensorSpec,
};
use crate::print::Int;

pub mod group;

/// MIOpen's `miopenConvolutionBiasActivationForward` takes RELU alone
/// (`miopenStatusNotImplemented` for any other mode, before the plan it
/// builds is compiled), although the fused graph, which fusion plans share,
/// has the clips of CLIPPEDRELU and CLAMP.
pub fn one_call_activation(a: &Activation) -> Result<(), Decline> {
    if a.mode != miopen_activation::RELU {
        return decline(format!(
            "activation mode {} (miopenConvolutionBiasActivationForward takes RELU only: MIOpen decides)",
            Int(a.mode)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
