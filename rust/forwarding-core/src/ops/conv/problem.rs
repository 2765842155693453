//! A convolution problem as MIOpen's descriptors state it: the direction,
//! the three tensors in forward naming, the convolution descriptor.

use crate::tensor::Tensor;

/// Convolution direction, in MIOpen's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    BackwardData,
    BackwardWeights,
}

/// What differs between the directions, one row each (in [`Direction`]'s order).
struct DirectionRow {
    name: &'static str,
    /// MIOpen's names of the (x, w, y) data, as its API names the arguments
    /// (`dx`, `dw`, `dy` for the gradients); a descriptor is the name with `Desc`.
    data_names: [&'static str; 3],
    /// Which of (x, w, y) comes at each place of the direction's query
    /// calls' (a, b, c).
    query_order: [usize; 3],
    /// MIOpenDriver's `-F`.
    driver_flag: u32,
}

const DIRECTIONS: [DirectionRow; 3] = [
    DirectionRow { name: "forward", data_names: ["x", "w", "y"], query_order: [1, 0, 2], driver_flag: 1 },
    DirectionRow { name: "backward-data", data_names: ["dx", "w", "dy"], query_order: [2, 1, 0], driver_flag: 2 },
    DirectionRow { name: "backward-weights", data_names: ["x", "dw", "dy"], query_order: [2, 0, 1], driver_flag: 4 },
];

impl Direction {
    pub const ALL: [Direction; 3] = [Direction::Forward, Direction::BackwardData, Direction::BackwardWeights];

    fn row(self) -> &'static DirectionRow {
        &DIRECTIONS[self as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.row().name
    }

    /// MIOpen's names of the (x, w, y) data of the direction, as its API
    /// names the arguments (`dx`, `dw`, `dy` for the gradients); a
    /// descriptor is the name with `Desc`.
    pub fn data_names(self) -> [&'static str; 3] {
        self.row().data_names
    }

    /// MIOpenDriver's `-F` for the direction.
    pub fn driver_flag(self) -> u32 {
        self.row().driver_flag
    }

    /// (x, w, y) in the (a, b, c) order of the direction's query calls
    /// (`GetWorkSpaceSize`, `GetSolution*`, `Immediate`'s descriptors):
    /// forward (w, x, y), backward-data (dy, w, dx), backward-weights
    /// (dy, x, dw).
    pub fn query_order<T: Copy>(self, xwy: [T; 3]) -> [T; 3] {
        self.row().query_order.map(|i| xwy[i])
    }

    /// The inverse of [`Direction::query_order`]: (a, b, c) to (x, w, y).
    pub fn from_query_order<T: Copy>(self, abc: [T; 3]) -> [T; 3] {
        let mut xwy = abc;
        for (place, &i) in self.row().query_order.iter().enumerate() {
            xwy[i] = abc[place];
        }
        xwy
    }
}

/// MIOpen's `miopenConvolutionMode_t`.
pub mod miopen_mode {
    pub const CONVOLUTION: u32 = 0;
    pub const TRANSPOSE: u32 = 1;
    pub const GROUP_CONV: u32 = 2;
    pub const DEPTHWISE: u32 = 3;
}

/// A convolution descriptor as MIOpen reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvParams {
    pub mode: u32,
    pub pads: Vec<i64>,
    pub strides: Vec<i64>,
    pub dilations: Vec<i64>,
    pub groups: i64,
    /// `MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC`.
    pub deterministic: i32,
    /// `MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL`.
    pub fp16_alt_impl: i32,
}

impl ConvParams {
    /// The output's length along spatial dimension `i` for an input of
    /// length `x` and a filter of length `w` ([`output_len`]).
    pub fn output_length(&self, i: usize, x: i64, w: i64) -> Option<i64> {
        output_len(x, w, self.pads[i], self.strides[i], self.dilations[i])
    }
}

/// The output length of one spatial dimension: `None` when the arithmetic
/// overflows (descriptor values are untrusted) or the stride is not
/// positive; 0 when the dilated filter is larger than the padded input.
pub fn output_len(input: i64, filter: i64, pad: i64, stride: i64, dilation: i64) -> Option<i64> {
    let span = dilation.checked_mul(filter.checked_sub(1)?)?.checked_add(1)?;
    let padded = pad.checked_mul(2)?.checked_add(input)?;
    if stride <= 0 {
        return None;
    }
    if padded < span {
        return Some(0);
    }
    (padded.checked_sub(span)? / stride).checked_add(1)
}

/// One convolution problem in forward naming whatever the direction: `x`
/// is the input (dx for backward-data), `w` the weights (dw for
/// backward-weights), `y` the output (dy for both backward directions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub direction: Direction,
    pub x: Tensor,
    pub w: Tensor,
    pub y: Tensor,
    pub conv: ConvParams,
}
