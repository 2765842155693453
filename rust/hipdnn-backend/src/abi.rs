//! hipDNN's backend ABI numbers: the types and enum values the wrapper uses.
//!
//! C enums are int-sized, so every enum-typed parameter is an `i32` here and
//! every value is a plain constant (no Rust enum: an unknown value coming back
//! from the backend must not be undefined behaviour). Each module also lists
//! its constants with their C names in `ALL`, which the unit tests compare
//! against the test bed's headers so the two cannot drift apart.

use std::ffi::c_void;

/// `hipdnnStatus_t`.
pub type Status = i32;
/// `hipdnnHandle_t`: an opaque pointer owned by the backend.
pub type Handle = *mut c_void;
/// `hipdnnBackendDescriptor_t`: an opaque pointer owned by the backend.
pub type Descriptor = *mut c_void;

/// Declares `pub const NAME: i32 = value;` for each entry plus
/// `ALL: &[(&str, i32)]`, pairing each value with its C spelling
/// (`prefix` + `NAME` + `suffix`).
macro_rules! c_enum {
    ($prefix:literal, $suffix:literal { $($name:ident = $value:expr),* $(,)? }) => {
        $(pub const $name: i32 = $value;)*
        /// Every constant of this module with its C name.
        pub const ALL: &[(&str, i32)] =
            &[$((concat!($prefix, stringify!($name), $suffix), $name)),*];
    };
}

/// `hipdnnStatus_t` values.
pub mod status {
    c_enum!("HIPDNN_STATUS_", "" {
        SUCCESS = 0,
        NOT_INITIALIZED = 1,
        BAD_PARAM = 2,
        BAD_PARAM_NULL_POINTER = 3,
        BAD_PARAM_NOT_FINALIZED = 4,
        BAD_PARAM_OUT_OF_BOUND = 5,
        BAD_PARAM_SIZE_INSUFFICIENT = 6,
        BAD_PARAM_STREAM_MISMATCH = 7,
        NOT_SUPPORTED = 8,
        INTERNAL_ERROR = 9,
        ALLOC_FAILED = 10,
        INTERNAL_ERROR_HOST_ALLOCATION_FAILED = 11,
        INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED = 12,
        EXECUTION_FAILED = 13,
        PLUGIN_ERROR = 14,
        VERSION_MISMATCH = 15,
    });

    /// The C name of a status, for diagnostics that do not depend on the
    /// backend being loaded (`hipdnnGetErrorString` needs it).
    pub fn name(s: i32) -> &'static str {
        ALL.iter().find(|(_, v)| *v == s).map_or("HIPDNN_STATUS_UNKNOWN", |(n, _)| n)
    }
}

/// `hipdnnBackendDescriptorType_t` values (the types the wrapper creates).
pub mod descriptor_type {
    c_enum!("HIPDNN_BACKEND_", "_DESCRIPTOR" {
        ENGINE = 1,
        ENGINECFG = 2,
        ENGINEHEUR = 3,
        EXECUTION_PLAN = 4,
        OPERATIONGRAPH = 10,
        VARIANT_PACK = 11,
        TENSOR = 14,
        OPERATION_CONVOLUTION_FORWARD = 15,
        OPERATION_CONVOLUTION_BACKWARD_FILTER = 16,
        OPERATION_POINTWISE = 18,
        OPERATION_CONVOLUTION_BACKWARD_DATA = 19,
    });
    // hipDNN's extension types end in `_DESCRIPTOR_EXT`.
    pub const OPERATION_BATCHNORM_BACKWARD_EXT: i32 = 20;
    pub const OPERATION_BATCHNORM_INFERENCE_VARIANCE_EXT: i32 = 21;
    pub const OPERATION_BATCHNORM_EXT: i32 = 27;
    pub const EXT: &[(&str, i32)] = &[
        ("HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT", OPERATION_BATCHNORM_BACKWARD_EXT),
        (
            "HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT",
            OPERATION_BATCHNORM_INFERENCE_VARIANCE_EXT,
        ),
        ("HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT", OPERATION_BATCHNORM_EXT),
    ];
}

/// `hipdnnBackendAttributeName_t` values, without the `HIPDNN_ATTR_` prefix.
pub mod attr {
    c_enum!("HIPDNN_ATTR_", "" {
        ENGINEHEUR_MODE = 100,
        ENGINEHEUR_OPERATION_GRAPH = 101,
        ENGINEHEUR_RESULTS = 102,
        ENGINECFG_ENGINE = 200,
        ENGINECFG_INTERMEDIATE_INFO = 201,
        ENGINECFG_KNOB_CHOICES = 202,
        ENGINECFG_WORKSPACE_SIZE = 203,
        EXECUTION_PLAN_HANDLE = 300,
        EXECUTION_PLAN_ENGINE_CONFIG = 301,
        EXECUTION_PLAN_WORKSPACE_SIZE = 302,
        OPERATIONGRAPH_HANDLE = 600,
        OPERATIONGRAPH_OPS = 601,
        VARIANT_PACK_UNIQUE_IDS = 700,
        VARIANT_PACK_DATA_POINTERS = 701,
        VARIANT_PACK_INTERMEDIATES = 702,
        VARIANT_PACK_WORKSPACE = 703,
        ENGINE_OPERATION_GRAPH = 1000,
        ENGINE_GLOBAL_INDEX = 1001,
        ENGINE_NAME_EXT = 1008,
        TENSOR_UNIQUE_ID = 1300,
        TENSOR_NAME_EXT = 1301,
        TENSOR_DATA_TYPE = 1302,
        TENSOR_DIMENSIONS = 1303,
        TENSOR_STRIDES = 1304,
        TENSOR_IS_VIRTUAL = 1305,
        TENSOR_VALUE_EXT = 1306,
        TENSOR_BYTE_ALIGNMENT = 1309,
        OPERATION_CONVOLUTION_FORWARD_W = 1400,
        OPERATION_CONVOLUTION_FORWARD_X = 1401,
        OPERATION_CONVOLUTION_FORWARD_Y = 1402,
        CONVOLUTION_COMP_TYPE = 1500,
        CONVOLUTION_CONV_MODE = 1501,
        CONVOLUTION_DILATIONS = 1502,
        CONVOLUTION_FILTER_STRIDES = 1503,
        CONVOLUTION_POST_PADDINGS = 1504,
        CONVOLUTION_PRE_PADDINGS = 1505,
        OPERATION_CONVOLUTION_BWD_FILTER_X = 1600,
        OPERATION_CONVOLUTION_BWD_FILTER_DY = 1601,
        OPERATION_CONVOLUTION_BWD_FILTER_DW = 1602,
        OPERATION_CONVOLUTION_BWD_DATA_DY = 1700,
        OPERATION_CONVOLUTION_BWD_DATA_W = 1701,
        OPERATION_CONVOLUTION_BWD_DATA_DX = 1702,
        OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT = 1900,
        OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT = 1901,
        OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT = 1902,
        OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT = 1903,
        OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT = 1904,
        OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT = 1905,
        OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT = 1906,
        BATCHNORM_INF_VAR_COMP_TYPE_EXT = 1907,
        OPERATION_BATCHNORM_BACKWARD_DY_EXT = 2000,
        OPERATION_BATCHNORM_BACKWARD_X_EXT = 2001,
        OPERATION_BATCHNORM_BACKWARD_SCALE_EXT = 2002,
        OPERATION_BATCHNORM_BACKWARD_DX_EXT = 2003,
        OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT = 2004,
        OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT = 2005,
        OPERATION_BATCHNORM_BACKWARD_MEAN_EXT = 2006,
        OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT = 2007,
        BATCHNORM_BACKWARD_COMP_TYPE_EXT = 2100,
        OPERATION_POINTWISE_IN_0_EXT = 2200,
        OPERATION_POINTWISE_OUT_0_EXT = 2201,
        OPERATION_POINTWISE_IN_1_EXT = 2202,
        POINTWISE_MODE = 2300,
        POINTWISE_RELU_LOWER_CLIP = 2301,
        POINTWISE_RELU_UPPER_CLIP = 2302,
        POINTWISE_MATH_PREC = 2307,
        OPERATION_BATCHNORM_X_EXT = 2900,
        OPERATION_BATCHNORM_SCALE_EXT = 2901,
        OPERATION_BATCHNORM_BIAS_EXT = 2902,
        OPERATION_BATCHNORM_EPSILON_EXT = 2903,
        OPERATION_BATCHNORM_Y_EXT = 2904,
        OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT = 2905,
        OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT = 2906,
        OPERATION_BATCHNORM_MOMENTUM_EXT = 2907,
        OPERATION_BATCHNORM_MEAN_EXT = 2908,
        OPERATION_BATCHNORM_INV_VARIANCE_EXT = 2909,
        OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT = 2910,
        OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT = 2911,
        BATCHNORM_COMP_TYPE_EXT = 2912,
        OPERATION_NAME_EXT = 60300,
    });
}

/// The byte alignment every tensor has unless `TENSOR_BYTE_ALIGNMENT` says
/// otherwise (hipDNN's frontend sends the attribute only for another value,
/// since backends before it lack it); the backend rejects a data pointer
/// that is not a multiple of its tensor's alignment at execute.
pub const DEFAULT_TENSOR_ALIGNMENT: i64 = 16;

/// `hipdnnBackendAttributeType_t` values: the element type of an attribute.
pub mod attr_type {
    c_enum!("HIPDNN_TYPE_", "" {
        HANDLE = 0,
        DATA_TYPE = 1,
        BOOLEAN = 2,
        INT64 = 3,
        FLOAT = 4,
        DOUBLE = 5,
        VOID_PTR = 6,
        HEUR_MODE = 7,
        BACKEND_DESCRIPTOR = 13,
        INT32 = 18,
        CHAR = 19,
        CONVOLUTION_MODE = 24,
        POINTWISE_MODE = 25,
    });
}

/// `hipdnnDataType_t` values.
pub mod data_type {
    c_enum!("HIPDNN_DATA_", "" {
        FLOAT = 0,
        DOUBLE = 1,
        HALF = 2,
        INT8 = 3,
        INT32 = 4,
        UINT8 = 5,
        BFLOAT16 = 6,
    });
}

/// `hipdnnConvolutionMode_t` values.
pub mod conv_mode {
    c_enum!("HIPDNN_", "" {
        CONVOLUTION = 0,
        CROSS_CORRELATION = 1,
    });
}

/// `hipdnnPointwiseMode_t` values (the modes the wrapper uses).
pub mod pointwise_mode {
    c_enum!("HIPDNN_POINTWISE_MODE_", "" {
        ADD = 2,
        IDENTITY = 23,
        MUL = 30,
        RELU_FWD = 34,
    });
}

/// `hipdnnBackendHeurMode_t` values.
pub mod heur_mode {
    c_enum!("HIPDNN_HEUR_MODE_", "" {
        FALLBACK = 0,
    });
}

#[cfg(test)]
pub(crate) mod tests;
