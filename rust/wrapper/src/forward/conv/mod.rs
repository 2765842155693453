//! The convolution group: `miopenConvolution{Forward,BackwardData,
//! BackwardWeights}*`, their Find, workspace and solution queries, and
//! `miopenConvolutionBiasActivationForward` (families `conv_fwd`,
//! `conv_bwd_data`, `conv_bwd_weights`, `conv_bias_activ`): the legacy
//! API's front end over the convolution op layer ([`crate::forward::ops::conv`]:
//! descriptor reads, graph, plan, run, driver line).
//!
//! - [`entry`]: one function per forwarded entry point (the generated
//!   routed body calls it);
//! - `call`: the descriptors and configuration every handler is given;
//! - `handlers`: the handler of each kind of call, for all three directions;
//! - `parity`: the arguments MIOpen checks against its solvers (algo,
//!   solution id, workspace);
//! - `private`: MIOpen Private's side-effect-free queries, per direction;
//! - `find_mode`: a Find's exhaustive search (its argument, or the Normal
//!   mode set on the descriptor) asks hipDNN for `global.benchmarking`;
//! - `logging`: MIOpen's driver line for a forwarded call;
//! - [`group`]: the group's runtime row (release, hipDNN probes).

mod call;
pub mod entry;
mod find_mode;
pub mod group;
mod handlers;
mod logging;
mod parity;
mod private;

// The entry points name the descriptor reads as this group's.
use crate::forward::ops::conv::read;
