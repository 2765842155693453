//! The family-neutral part of the problem model: tensors as MIOpen's
//! descriptors report them, the element types hipDNN computes, hipDNN graph
//! tensors, and the decline every translation returns.

/// MIOpen's `miopenDataType_t` values the model knows by name.
pub mod miopen_type {
    pub const HALF: u32 = 0;
    pub const FLOAT: u32 = 1;
    pub const INT32: u32 = 2;
    pub const INT8: u32 = 3;
    pub const BFLOAT16: u32 = 5;
    pub const DOUBLE: u32 = 6;
    pub const FLOAT8: u32 = 7;
    pub const BFLOAT8: u32 = 8;
    pub const INT64: u32 = 9;

    pub fn name(t: u32) -> &'static str {
        match t {
            HALF => "miopenHalf",
            FLOAT => "miopenFloat",
            INT32 => "miopenInt32",
            INT8 => "miopenInt8",
            BFLOAT16 => "miopenBFloat16",
            DOUBLE => "miopenDouble",
            FLOAT8 => "miopenFloat8",
            BFLOAT8 => "miopenBFloat8",
            INT64 => "miopenInt64",
            _ => "unknown type",
        }
    }
}

/// Element types hipDNN computes (the wrapper maps them to hipDNN's numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElemType {
    F32,
    F16,
    BF16,
}

impl ElemType {
    /// Each MIOpen data type hipDNN is given, and its element type.
    const FROM_MIOPEN: [(u32, ElemType); 3] = [
        (miopen_type::FLOAT, ElemType::F32),
        (miopen_type::HALF, ElemType::F16),
        (miopen_type::BFLOAT16, ElemType::BF16),
    ];

    pub fn from_miopen(t: u32) -> Option<ElemType> {
        Self::FROM_MIOPEN.iter().find(|(m, _)| *m == t).map(|(_, e)| *e)
    }

    /// The MIOpen data types hipDNN is given, as a decline names them.
    pub fn forwardable() -> String {
        Self::FROM_MIOPEN.map(|(m, _)| miopen_type::name(m)).join(", ")
    }
}

/// A tensor descriptor as MIOpen reports it (logical N, C, spatial order;
/// the layout is in the strides, counted in elements).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tensor {
    pub dtype: u32,
    pub dims: Vec<i64>,
    pub strides: Vec<i64>,
}

/// A tensor of the hipDNN graph.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TensorSpec {
    pub uid: i64,
    pub name: &'static str,
    pub dtype: ElemType,
    pub dims: Vec<i64>,
    pub strides: Vec<i64>,
    pub is_virtual: bool,
}

/// Why a problem stays on MIOpen Private. The text is the routing trace's
/// `declined: <cause>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decline(pub String);

impl std::fmt::Display for Decline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn decline<T>(cause: impl Into<String>) -> Result<T, Decline> {
    Err(Decline(cause.into()))
}

/// MIOpen's layout name of a tensor (`GetLayout_str` of a descriptor set
/// without a layout enum): the labels ordered by (stride, length), largest
/// first, ties kept in label order.
pub fn layout_by_strides(t: &Tensor, labels: &str) -> String {
    let mut order: Vec<usize> = (0..t.dims.len()).collect();
    order.sort_by(|&a, &b| (t.strides[b], t.dims[b]).cmp(&(t.strides[a], t.dims[a])));
    order.iter().map(|&i| labels.as_bytes()[i] as char).collect()
}
