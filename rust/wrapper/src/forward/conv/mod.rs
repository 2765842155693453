//! The convolution group: `miopenConvolution{Forward,BackwardData,
//! BackwardWeights}*`, their Find, workspace and solution queries, and
//! `miopenConvolutionBiasActivationForward` (families `conv_fwd`,
//! `conv_bwd_data`, `conv_bwd_weights`, `conv_bias_activ`).
//!
//! - [`entry`]: one function per forwarded entry point (the generated
//!   routed body calls it);
//! - `call`: the descriptors and configuration every handler is given;
//! - `handlers`: the handler of each kind of call, for all three directions;
//! - `read`: the convolution descriptors through Private's getters;
//! - `graph`: the convolution's operations in a hipDNN graph;
//! - `parity`: the arguments MIOpen checks against its solvers (algo,
//!   solution id, workspace);
//! - `private`: MIOpen Private's side-effect-free queries, per direction;
//! - `find_mode`: the Find mode set on a descriptor (declines a Normal Find);
//! - `logging`: MIOpen's driver line for a forwarded call;
//! - [`group`]: the group's runtime row (release, hipDNN probes).

mod call;
pub mod entry;
pub(crate) mod find_mode;
pub(crate) mod graph;
pub mod group;
mod handlers;
mod logging;
mod parity;
mod private;
pub(crate) mod read;
