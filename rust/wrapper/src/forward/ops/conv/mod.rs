//! The convolution op layer's FFI half: a convolution's descriptors read
//! through MIOpen Private's getters, its hipDNN graph (plain or with the
//! fused epilogue) and plan, its run on the caller's buffers, and the
//! MIOpenDriver line MIOpen would log. The problem model, the translation
//! and the line's format are `miopen_forwarding_core::ops::conv`.
//!
//! - [`read`]: the convolution, tensor and activation descriptors;
//! - [`graph`]: the hipDNN operations, the plan key and the ready plan;
//! - [`execute`]: the data pointers and the run;
//! - [`driver_line`]: writing MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line.

pub mod driver_line;
pub mod execute;
pub mod graph;
pub mod read;
