//! The convolution op layer: one model of a convolution for every MIOpen
//! API that runs one. MIOpen's descriptor fields come in (the wrapper reads
//! them through MIOpen Private's getters), a hipDNN graph spec or a decline
//! reason goes out, and the MIOpenDriver line MIOpen would log is written
//! from the same problem. The front ends are the groups' folders: the
//! legacy API (`crate::conv`), fusion plans (`crate::fusion`: recorded
//! operators to a problem and an epilogue) and Find 2.0 (`crate::find2`:
//! recorded problems and solutions).
//!
//! - `problem`: the problem (direction, tensors, convolution descriptor);
//! - `spec`: the graph spec, the plan-cache key's convolution part;
//! - `translate`: problem -> spec, or the decline;
//! - `epilogue`: the fused bias / activation after the convolution;
//! - [`driver_line`]: MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` lines, a table.

pub mod driver_line;
mod epilogue;
mod problem;
mod spec;
mod translate;

pub use epilogue::{activation_clips, miopen_activation, translate_fused, Activation, Epilogue};
pub use problem::{miopen_mode, output_len, ConvParams, Direction, Problem};
pub use spec::{uid, FusedSpec, GraphSpec};
pub use translate::{translate, MAX_SPATIAL};

pub use crate::tensor::{decline, miopen_type, Decline, ElemType, Tensor, TensorSpec};

#[cfg(test)]
mod tests;
