//! The cap on the workspace a MIOpen handle owns for hipDNN plans that need
//! one where MIOpen's API passes none (`miopenExecuteFusionPlan`; the
//! wrapper's `forward::common::handle_workspace` obtains and holds it,
//! `docs/forwarding.md` "Workspace the wrapper allocates").

/// The environment variable that caps one handle's workspace (bytes).
pub const WORKSPACE_LIMIT_VAR: &str = "MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT";
/// The cap when the variable is unset or unusable: 1 GiB.
pub const DEFAULT_LIMIT: usize = 1 << 30;

/// The cap from the raw value of [`WORKSPACE_LIMIT_VAR`]: unset or empty is
/// the default; a decimal number of bytes is taken as is (0: the wrapper
/// allocates none, and every call that would need it stays on MIOpen);
/// anything else is an error message for the caller's one warning (it then
/// uses the default).
pub fn limit_from_env(value: Option<&str>) -> Result<usize, String> {
    crate::env_number::decimal_from_env(
        WORKSPACE_LIMIT_VAR,
        value,
        DEFAULT_LIMIT,
        "a decimal number of bytes (0: the wrapper allocates no workspace)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_empty_and_numbers() {
        assert_eq!(limit_from_env(None), Ok(DEFAULT_LIMIT));
        assert_eq!(limit_from_env(Some(" ")), Ok(DEFAULT_LIMIT));
        assert_eq!(limit_from_env(Some("0")), Ok(0));
        assert_eq!(limit_from_env(Some("4096")), Ok(4096));
    }

    #[test]
    fn anything_else_is_refused_with_the_variable_named() {
        for bad in ["1G", "-1", "0x10", "99999999999999999999999"] {
            let e = limit_from_env(Some(bad)).unwrap_err();
            assert!(e.contains(WORKSPACE_LIMIT_VAR) && e.contains(bad) && e.contains("bytes"), "{e}");
        }
    }
}
