//! What a convolution's hipDNN graph is built from: equal specs build
//! equal plans, so the spec (with the MIOpen handle) is the plan-cache key.

use super::problem::Direction;
use crate::tensor::TensorSpec;

/// Unique ids of the graph's tensors (also the variant-pack keys).
pub mod uid {
    pub const X: i64 = 1;
    pub const W: i64 = 2;
    pub const Y: i64 = 3;
    pub const BIAS: i64 = 4;
    pub const CONV_OUT: i64 = 5;
    pub const ADD_OUT: i64 = 6;
}

/// The fused tail of a conv -> [bias add] -> ReLU graph. Clips are stored as
/// f32 bit patterns so the spec can be a cache key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FusedSpec {
    /// The virtual conv output (fp32).
    pub conv_out: TensorSpec,
    /// The bias tensor and the virtual output of the add.
    pub bias: Option<(TensorSpec, TensorSpec)>,
    pub lower_clip: Option<u32>,
    pub upper_clip: Option<u32>,
}

/// Everything needed to build the hipDNN graph of one convolution, fused
/// or not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GraphSpec {
    pub direction: Direction,
    pub x: TensorSpec,
    pub w: TensorSpec,
    pub y: TensorSpec,
    pub pre_padding: Vec<i64>,
    pub post_padding: Vec<i64>,
    pub filter_strides: Vec<i64>,
    pub dilations: Vec<i64>,
    pub fused: Option<FusedSpec>,
}
