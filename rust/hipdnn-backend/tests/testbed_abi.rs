//! The built mini hipDNN against the wrapper's numbers. The test bed's C
//! headers and `abi`'s constants are generated from one data file
//! (`abi.toml`); this is where the two meet in a binary, as the wrapper and
//! a hipDNN backend do. It needs the CMake-built test bed, so CTest runs it
//! (test/mini-hipdnn/CMakeLists.txt, `mini_hipdnn_abi_*`): once on the test
//! bed, which must pass, and once, as the negative control, on a test bed
//! built from a copy of the data with one descriptor type renumbered, which
//! the loader's probe must refuse.

use std::ffi::CStr;
use std::path::PathBuf;
use std::ptr;

use hipdnn_backend::abi::{attr, attr_type, descriptor_type, pointwise_mode, status, Descriptor};
use hipdnn_backend::loader::{self, Backend, Candidate, Plan, LIBRARY_NAME};
use hipdnn_backend::probe::Probe;

/// One of the probes the wrapper runs at load (the convolution group's
/// runtime row, rust/wrapper/src/forward/conv/group.rs, lists them): the
/// pointwise type's number, which the negative control renumbers.
const POINTWISE: Probe = Probe {
    descriptor: descriptor_type::OPERATION_POINTWISE,
    descriptor_name: "OPERATION_POINTWISE",
    attribute: attr::POINTWISE_MODE,
    attribute_name: "POINTWISE_MODE",
    attribute_type: attr_type::POINTWISE_MODE,
    attribute_type_name: "HIPDNN_TYPE_POINTWISE_MODE",
    value: pointwise_mode::RELU_FWD,
};

/// `$MINI_HIPDNN_LIB_DIR/libhipdnn_backend.so`, loaded as the wrapper loads
/// a backend (symbols, version gate, the probe at load).
fn test_bed() -> Backend {
    let dir = std::env::var_os("MINI_HIPDNN_LIB_DIR")
        .expect("MINI_HIPDNN_LIB_DIR: the directory of the CMake-built test bed's libhipdnn_backend.so");
    let path = PathBuf::from(dir).join(LIBRARY_NAME);
    let plan = Plan { candidates: vec![Candidate { source: "MINI_HIPDNN_LIB_DIR", path }], warnings: Vec::new() };
    loader::open(&plan, &[&POINTWISE]).unwrap_or_else(|e| panic!("the wrapper refuses the test bed: {e}"))
}

#[test]
#[ignore = "needs the CMake-built mini hipDNN (CTest mini_hipdnn_abi_matches_the_wrapper)"]
fn the_test_bed_speaks_the_wrappers_numbers() {
    let b = test_bed();
    // The test bed names a status by the C name of the number it returns.
    for (name, value) in status::ALL {
        // SAFETY: takes any status; returns a static C string.
        let text = unsafe { CStr::from_ptr((b.api.get_error_string)(*value)) };
        assert_eq!(text.to_str().unwrap(), *name, "status {value}");
    }
    // Every descriptor type the wrapper builds is one the test bed creates.
    for (name, value) in descriptor_type::ALL {
        let mut d: Descriptor = ptr::null_mut();
        // SAFETY: out-pointer to a local.
        let s = unsafe { (b.api.create_descriptor)(*value, &mut d) };
        assert_eq!(s, status::SUCCESS, "{name} ({value}): {}", status::name(s));
        // SAFETY: created above.
        assert_eq!(unsafe { (b.api.destroy_descriptor)(d) }, status::SUCCESS, "{name}");
    }
    println!(
        "the test bed takes the wrapper's numbers: {} statuses, {} descriptor types, the probe",
        status::ALL.len(),
        descriptor_type::ALL.len()
    );
}
