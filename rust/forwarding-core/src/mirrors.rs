//! The MIOpen enumerators this FFI-free crate uses by number, with their
//! names in `miopen.h`: the shared ones (data types, statuses) here, each
//! group's in its row.
//!
//! The models compare plain integers read from MIOpen's getters with these
//! values. `miopen-wrap generate` turns [`all`] into compile-time
//! assertions against the header being built (in the generated bindings),
//! so a header that numbers one of them differently fails the wrapper's
//! build instead of mistranslating a problem at run time.

use crate::family::Group;
pub use crate::row::Mirrored;
use crate::status::miopen as st;
use crate::tensor::miopen_type as ty;

const fn req(name: &'static str, value: u32) -> Mirrored {
    Mirrored::required(name, value)
}

/// The enumerators every group reads: element types and statuses.
pub const SHARED: &[Mirrored] = &[
    req("miopenHalf", ty::HALF),
    req("miopenFloat", ty::FLOAT),
    req("miopenInt32", ty::INT32),
    req("miopenInt8", ty::INT8),
    req("miopenBFloat16", ty::BFLOAT16),
    req("miopenDouble", ty::DOUBLE),
    Mirrored::optional("miopenFloat8", ty::FLOAT8),
    Mirrored::optional("miopenBFloat8", ty::BFLOAT8),
    Mirrored::optional("miopenInt64", ty::INT64),
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

/// Every mirrored enumerator: the shared ones, then each group's.
pub fn all() -> impl Iterator<Item = &'static Mirrored> {
    SHARED.iter().chain(Group::all().flat_map(|g| g.row().mirrored))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_match_the_trace_names() {
        let mut names: Vec<_> = all().map(|m| m.name).collect();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count);
        for m in all() {
            if m.name.starts_with("miopenStatus") {
                assert_eq!(st::name(m.value), m.name);
            }
        }
        for t in
            [ty::HALF, ty::FLOAT, ty::INT32, ty::INT8, ty::BFLOAT16, ty::DOUBLE, ty::FLOAT8, ty::BFLOAT8, ty::INT64]
        {
            assert!(SHARED.iter().any(|m| m.name == ty::name(t) && m.value == t), "{}", ty::name(t));
        }
    }
}
