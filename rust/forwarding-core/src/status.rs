//! hipDNN status -> `miopenStatus_t`.
//!
//! A forwarded call must return what a MIOpen caller already knows how to
//! handle, so every hipDNN status maps onto the MIOpen status that names the
//! same kind of failure. The table is the single source for the code and the
//! documentation (its `why` column).

/// MIOpen's `miopenStatus_t` values (stable ABI numbers).
pub mod miopen {
    pub const SUCCESS: u32 = 0;
    pub const NOT_INITIALIZED: u32 = 1;
    pub const INVALID_VALUE: u32 = 2;
    pub const BAD_PARM: u32 = 3;
    pub const ALLOC_FAILED: u32 = 4;
    pub const INTERNAL_ERROR: u32 = 5;
    pub const NOT_IMPLEMENTED: u32 = 6;
    pub const UNKNOWN_ERROR: u32 = 7;
    pub const UNSUPPORTED_OP: u32 = 8;
    pub const GPU_OPERATIONS_SKIPPED: u32 = 9;
    pub const VERSION_MISMATCH: u32 = 10;

    /// Every status, indexed by its value.
    const NAMES: [&str; 11] = [
        "miopenStatusSuccess",
        "miopenStatusNotInitialized",
        "miopenStatusInvalidValue",
        "miopenStatusBadParm",
        "miopenStatusAllocFailed",
        "miopenStatusInternalError",
        "miopenStatusNotImplemented",
        "miopenStatusUnknownError",
        "miopenStatusUnsupportedOp",
        "miopenStatusGpuOperationsSkipped",
        "miopenStatusVersionMismatch",
    ];

    /// The enumerator's name in `miopen.h` (for traces and messages).
    pub fn name(s: u32) -> &'static str {
        usize::try_from(s).ok().and_then(|i| NAMES.get(i)).copied().unwrap_or("miopenStatus(unknown)")
    }
}

/// One hipDNN status and the MIOpen status a forwarded call returns for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Translation {
    pub hipdnn: i32,
    pub hipdnn_name: &'static str,
    pub miopen: u32,
    /// Why this mapping (a short phrase for the docs).
    pub why: &'static str,
}

const fn tr(hipdnn: i32, hipdnn_name: &'static str, miopen: u32, why: &'static str) -> Translation {
    Translation { hipdnn, hipdnn_name, miopen, why }
}

/// One row per hipDNN status, in hipDNN's numbering (row i has value i).
pub const TRANSLATION: [Translation; 16] = [
    tr(0, "HIPDNN_STATUS_SUCCESS", miopen::SUCCESS, "success"),
    tr(1, "HIPDNN_STATUS_NOT_INITIALIZED", miopen::NOT_INITIALIZED, "used before set up"),
    tr(2, "HIPDNN_STATUS_BAD_PARAM", miopen::BAD_PARM, "a caller argument is wrong"),
    tr(3, "HIPDNN_STATUS_BAD_PARAM_NULL_POINTER", miopen::BAD_PARM, "a caller pointer is null"),
    tr(
        4,
        "HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED",
        miopen::INTERNAL_ERROR,
        "the wrapper finalizes everything it builds: a wrapper or backend bug",
    ),
    tr(5, "HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND", miopen::BAD_PARM, "a caller value is out of range"),
    tr(
        6,
        "HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT",
        miopen::BAD_PARM,
        "a caller buffer (e.g. workspace) is too small",
    ),
    tr(7, "HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH", miopen::BAD_PARM, "the caller's stream does not match"),
    tr(8, "HIPDNN_STATUS_NOT_SUPPORTED", miopen::NOT_IMPLEMENTED, "no engine supports the problem"),
    tr(9, "HIPDNN_STATUS_INTERNAL_ERROR", miopen::INTERNAL_ERROR, "hipDNN failed internally"),
    tr(10, "HIPDNN_STATUS_ALLOC_FAILED", miopen::ALLOC_FAILED, "allocation failed"),
    tr(11, "HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED", miopen::ALLOC_FAILED, "host allocation failed"),
    tr(12, "HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", miopen::ALLOC_FAILED, "device allocation failed"),
    tr(13, "HIPDNN_STATUS_EXECUTION_FAILED", miopen::UNKNOWN_ERROR, "what MIOpen returns for a failed HIP launch"),
    tr(14, "HIPDNN_STATUS_PLUGIN_ERROR", miopen::INTERNAL_ERROR, "a hipDNN engine plugin failed"),
    tr(15, "HIPDNN_STATUS_VERSION_MISMATCH", miopen::VERSION_MISMATCH, "hipDNN's components disagree on a version"),
];

/// The MIOpen status for a hipDNN status; values this table does not know
/// (a newer hipDNN) become `miopenStatusUnknownError`.
pub fn to_miopen(hipdnn_status: i32) -> u32 {
    translation(hipdnn_status).map_or(miopen::UNKNOWN_ERROR, |t| t.miopen)
}

/// The table row of a hipDNN status, if it is known.
pub fn translation(hipdnn_status: i32) -> Option<&'static Translation> {
    usize::try_from(hipdnn_status).ok().and_then(|i| TRANSLATION.get(i))
}

/// The status every call that would forward returns while hipDNN is
/// unavailable with forwarding enabled: the caller asked for hipDNN and it
/// could not be set up, which is what `miopenStatusNotInitialized` means.
pub const UNAVAILABLE: u32 = miopen::NOT_INITIALIZED;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_hipdnn_order_with_unique_names() {
        for (i, t) in TRANSLATION.iter().enumerate() {
            assert_eq!(t.hipdnn, i as i32, "{}", t.hipdnn_name);
            assert!(t.hipdnn_name.starts_with("HIPDNN_STATUS_"), "{}", t.hipdnn_name);
            assert!(!t.why.is_empty());
            assert_ne!(miopen::name(t.miopen), "miopenStatus(unknown)");
        }
        let mut names: Vec<_> = TRANSLATION.iter().map(|t| t.hipdnn_name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TRANSLATION.len());
    }

    #[test]
    fn the_whole_mapping() {
        use miopen::*;
        let expected = [
            SUCCESS,
            NOT_INITIALIZED,
            BAD_PARM,
            BAD_PARM,
            INTERNAL_ERROR,
            BAD_PARM,
            BAD_PARM,
            BAD_PARM,
            NOT_IMPLEMENTED,
            INTERNAL_ERROR,
            ALLOC_FAILED,
            ALLOC_FAILED,
            ALLOC_FAILED,
            UNKNOWN_ERROR,
            INTERNAL_ERROR,
            VERSION_MISMATCH,
        ];
        for (i, want) in expected.into_iter().enumerate() {
            assert_eq!(to_miopen(i as i32), want, "{}", TRANSLATION[i].hipdnn_name);
            assert_eq!(TRANSLATION[i].miopen, want);
            assert_eq!(translation(i as i32), Some(&TRANSLATION[i]));
        }
        for unknown in [-1, 16, 1000, i32::MIN, i32::MAX] {
            assert_eq!(to_miopen(unknown), UNKNOWN_ERROR);
            assert_eq!(translation(unknown), None);
        }
        assert_eq!(UNAVAILABLE, NOT_INITIALIZED);
    }

    #[test]
    fn miopen_names() {
        assert_eq!(miopen::name(miopen::SUCCESS), "miopenStatusSuccess");
        assert_eq!(miopen::name(miopen::BAD_PARM), "miopenStatusBadParm");
        assert_eq!(miopen::name(miopen::UNKNOWN_ERROR), "miopenStatusUnknownError");
        assert_eq!(miopen::name(miopen::VERSION_MISMATCH), "miopenStatusVersionMismatch");
        assert_eq!(miopen::name(11), "miopenStatus(unknown)");
        assert_eq!(miopen::name(u32::MAX), "miopenStatus(unknown)");
        let all = [
            miopen::SUCCESS,
            miopen::NOT_INITIALIZED,
            miopen::INVALID_VALUE,
            miopen::BAD_PARM,
            miopen::ALLOC_FAILED,
            miopen::INTERNAL_ERROR,
            miopen::NOT_IMPLEMENTED,
            miopen::UNKNOWN_ERROR,
            miopen::UNSUPPORTED_OP,
            miopen::GPU_OPERATIONS_SKIPPED,
            miopen::VERSION_MISMATCH,
        ];
        for (i, s) in all.into_iter().enumerate() {
            assert_eq!(s, i as u32);
        }
    }
}

#[cfg(test)]
mod doc_tests {
    use super::*;

    /// docs/forwarding.md's translation table is this table: one row per
    /// hipDNN status, with the same MIOpen status and reason.
    #[test]
    fn the_documented_table_is_the_code() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/forwarding.md")).unwrap();
        for t in &TRANSLATION {
            let row = format!("| {} `{}` | `{}` | {} |", t.hipdnn, t.hipdnn_name, miopen::name(t.miopen), t.why);
            assert!(doc.contains(&row), "docs/forwarding.md lacks the row\n{row}");
        }
    }
}
