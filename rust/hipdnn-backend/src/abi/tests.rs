//! Drift detection: every constant in `abi` must equal the value the test
//! bed's C headers declare (the headers carry hipDNN's numbers). This is a
//! line scan of `NAME = number` for testing only, not code generation.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::*;

/// The text of one test-bed header (`test/mini-hipdnn/include/<file>`).
pub(crate) fn header_text(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test/mini-hipdnn/include").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// `NAME = number` enumerators of a header, comments removed.
fn enumerators(file: &str) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for line in header_text(file).lines() {
        let code = line.split("/*").next().unwrap_or("").split("//").next().unwrap_or("");
        let Some((name, value)) = code.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let value = value.trim().trim_end_matches(',').trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if let Ok(v) = value.parse::<i64>() {
            assert!(out.insert(name.to_string(), v).is_none(), "{file}: {name} declared twice");
        }
    }
    assert!(!out.is_empty(), "{file}: no enumerators found");
    out
}

/// Checks `all` against `file`; with `complete`, the header may declare
/// nothing that `all` lacks.
fn check(file: &str, all: &[(&str, i32)], complete: bool) {
    let header = enumerators(file);
    for (name, value) in all {
        match header.get(*name) {
            Some(v) => assert_eq!(*v, i64::from(*value), "{name}: Rust {value}, {file} {v}"),
            None => panic!("{name} (= {value}) is not declared in {file}"),
        }
    }
    if complete {
        for name in header.keys() {
            assert!(all.iter().any(|(n, _)| n == name), "{file} declares {name}, which abi lacks");
        }
    }
}

#[test]
fn status_matches_header() {
    check("HipdnnStatus.h", status::ALL, true);
}

#[test]
fn descriptor_type_matches_header() {
    check("HipdnnBackendDescriptorType.h", descriptor_type::ALL, false);
    check("HipdnnBackendDescriptorType.h", descriptor_type::EXT, false);
}

#[test]
fn attr_matches_header() {
    check("HipdnnBackendAttributeName.h", attr::ALL, true);
}

#[test]
fn attr_type_matches_header() {
    check("HipdnnBackendAttributeType.h", attr_type::ALL, true);
}

#[test]
fn data_type_matches_header() {
    check("HipdnnDataType.h", data_type::ALL, true);
}

#[test]
fn conv_mode_matches_header() {
    check("HipdnnConvolutionMode.h", conv_mode::ALL, true);
}

#[test]
fn pointwise_mode_matches_header() {
    check("HipdnnPointwiseMode.h", pointwise_mode::ALL, true);
}

#[test]
fn heur_mode_matches_header() {
    check("HipdnnBackendHeuristicType.h", heur_mode::ALL, true);
}

#[test]
fn all_tables_name_their_constants() {
    // `ALL` is built by the same macro as the constants; spot-check the pairing.
    assert!(status::ALL.contains(&("HIPDNN_STATUS_BAD_PARAM", status::BAD_PARAM)));
    assert!(descriptor_type::ALL.contains(&("HIPDNN_BACKEND_TENSOR_DESCRIPTOR", 14)));
    assert!(attr::ALL.contains(&("HIPDNN_ATTR_TENSOR_UNIQUE_ID", attr::TENSOR_UNIQUE_ID)));
    assert_eq!(attr::TENSOR_UNIQUE_ID, 1300);
}

#[test]
fn status_names() {
    assert_eq!(status::name(status::SUCCESS), "HIPDNN_STATUS_SUCCESS");
    assert_eq!(status::name(2), "HIPDNN_STATUS_BAD_PARAM");
    assert_eq!(status::name(14), "HIPDNN_STATUS_PLUGIN_ERROR");
    assert_eq!(status::name(15), "HIPDNN_STATUS_VERSION_MISMATCH");
    assert_eq!(status::name(16), "HIPDNN_STATUS_UNKNOWN");
    assert_eq!(status::name(-1), "HIPDNN_STATUS_UNKNOWN");
}
