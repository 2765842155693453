//! The MIOpen enumerators this FFI-free crate uses by number, with their
//! names in `miopen.h`.
//!
//! `conv`, `status` and `driver_cmd` compare plain integers read from
//! MIOpen's getters with these values. `miopen-wrap generate` turns this
//! list into compile-time assertions against the header being built (in the
//! generated stubs and in the committed test-bed bindings), so a header that
//! numbers one of them differently fails the wrapper's build instead of
//! mistranslating a problem at run time.

use crate::batchnorm::miopen_bn_mode as bn;
use crate::conv::{miopen_activation as act, miopen_mode as mode, miopen_type as ty};
use crate::status::miopen as st;

/// One enumerator: its name in `miopen.h` and the value this crate assumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mirrored {
    pub name: &'static str,
    pub value: u32,
    /// Present in every MIOpen this wrapper supports. An optional one may be
    /// absent from an older header; the value then means nothing to that
    /// MIOpen, which rejects it before a getter could report it.
    pub required: bool,
}

const fn req(name: &'static str, value: u32) -> Mirrored {
    Mirrored { name, value, required: true }
}

const fn opt(name: &'static str, value: u32) -> Mirrored {
    Mirrored { name, value, required: false }
}

pub const MIRRORED: &[Mirrored] = &[
    req("miopenHalf", ty::HALF),
    req("miopenFloat", ty::FLOAT),
    req("miopenInt32", ty::INT32),
    req("miopenInt8", ty::INT8),
    req("miopenBFloat16", ty::BFLOAT16),
    req("miopenDouble", ty::DOUBLE),
    opt("miopenFloat8", ty::FLOAT8),
    opt("miopenBFloat8", ty::BFLOAT8),
    opt("miopenInt64", ty::INT64),
    req("miopenConvolution", mode::CONVOLUTION),
    req("miopenTranspose", mode::TRANSPOSE),
    req("miopenGroupConv", mode::GROUP_CONV),
    req("miopenDepthwise", mode::DEPTHWISE),
    req("miopenVerticalFusion", crate::fusion::miopen_direction::VERTICAL),
    req("miopenBNPerActivation", bn::PER_ACTIVATION),
    req("miopenBNSpatial", bn::SPATIAL),
    req("miopenActivationPASTHRU", act::PASTHRU),
    req("miopenActivationRELU", act::RELU),
    req("miopenActivationCLIPPEDRELU", act::CLIPPEDRELU),
    // MIOpen 3.3.0 (ROCm/MIOpen 2d1fd99) has no CLAMP; later ones do.
    opt("miopenActivationCLAMP", act::CLAMP),
    req("miopenStatusSuccess", st::SUCCESS),
    req("miopenStatusNotInitialized", st::NOT_INITIALIZED),
    req("miopenStatusInvalidValue", st::INVALID_VALUE),
    req("miopenStatusBadParm", st::BAD_PARM),
    req("miopenStatusAllocFailed", st::ALLOC_FAILED),
    req("miopenStatusInternalError", st::INTERNAL_ERROR),
    req("miopenStatusNotImplemented", st::NOT_IMPLEMENTED),
    req("miopenStatusUnknownError", st::UNKNOWN_ERROR),
    req("miopenStatusUnsupportedOp", st::UNSUPPORTED_OP),
    req("miopenStatusGpuOperationsSkipped", st::GPU_OPERATIONS_SKIPPED),
    req("miopenStatusVersionMismatch", st::VERSION_MISMATCH),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_match_the_trace_names() {
        let mut names: Vec<_> = MIRRORED.iter().map(|m| m.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), MIRRORED.len());
        for m in MIRRORED {
            if m.name.starts_with("miopenStatus") {
                assert_eq!(st::name(m.value), m.name);
            }
        }
        for t in
            [ty::HALF, ty::FLOAT, ty::INT32, ty::INT8, ty::BFLOAT16, ty::DOUBLE, ty::FLOAT8, ty::BFLOAT8, ty::INT64]
        {
            assert!(MIRRORED.iter().any(|m| m.name == ty::name(t) && m.value == t), "{}", ty::name(t));
        }
    }
}
