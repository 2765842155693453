//! The generated modules as the wrapper uses them. That the numbers are
//! hipDNN's is the data file's business (its citations); that the test bed
//! uses the same ones is checked against the built test bed
//! (`tests/testbed_abi.rs`), and that its headers compile with them by
//! `hipdnn-abi`'s own tests.

use std::path::PathBuf;

use super::*;

/// The text of one hand-written test-bed header (`test/mini-hipdnn/include/<file>`).
pub(crate) fn header_text(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test/mini-hipdnn/include").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

#[test]
fn all_tables_name_their_constants() {
    assert!(status::ALL.contains(&("HIPDNN_STATUS_BAD_PARAM", status::BAD_PARAM)));
    assert!(descriptor_type::ALL.contains(&("HIPDNN_BACKEND_TENSOR_DESCRIPTOR", descriptor_type::TENSOR)));
    assert!(descriptor_type::ALL
        .contains(&("HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT", descriptor_type::OPERATION_BATCHNORM_EXT)));
    assert!(attr::ALL.contains(&("HIPDNN_ATTR_TENSOR_UNIQUE_ID", attr::TENSOR_UNIQUE_ID)));
    assert!(conv_mode::ALL.contains(&("HIPDNN_CROSS_CORRELATION", conv_mode::CROSS_CORRELATION)));
}

#[test]
fn only_the_wrapper_values_have_constants() {
    // The test bed's header also declares e.g. MATMUL (22); the wrapper builds none.
    assert!(descriptor_type::ALL.iter().all(|(n, _)| !n.contains("MATMUL")));
    assert!(descriptor_type::ALL.iter().all(|(_, v)| *v != 22 && *v != 0));
}

#[test]
fn status_names() {
    assert_eq!(status::name(status::SUCCESS), "HIPDNN_STATUS_SUCCESS");
    assert_eq!(status::name(status::BAD_PARAM), "HIPDNN_STATUS_BAD_PARAM");
    assert_eq!(status::name(status::PLUGIN_ERROR), "HIPDNN_STATUS_PLUGIN_ERROR");
    assert_eq!(status::name(status::VERSION_MISMATCH), "HIPDNN_STATUS_VERSION_MISMATCH");
    let past_the_end = status::ALL.iter().map(|(_, v)| v).max().unwrap() + 1;
    assert_eq!(status::name(past_the_end), "HIPDNN_STATUS_UNKNOWN");
    assert_eq!(status::name(-1), "HIPDNN_STATUS_UNKNOWN");
}
