//! Fake backends for the integration tests: C sources compiled with `cc`
//! into a temporary directory. `cc` is required; without it the tests fail
//! rather than pass vacuously.

use std::path::{Path, PathBuf};
use std::process::Command;

use hipdnn_backend::loader::LIBRARY_NAME;

/// Compiles `src` into `dir/libhipdnn_backend.so` and returns its path.
pub fn compile_backend(dir: &Path, src: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let c_file = dir.join("fake_backend.c");
    std::fs::write(&c_file, src).unwrap();
    let lib = dir.join(LIBRARY_NAME);
    let out = Command::new("cc")
        .args(["-shared", "-fPIC", "-Wall", "-Werror", "-o"])
        .arg(&lib)
        .arg(&c_file)
        .output()
        .unwrap_or_else(|e| panic!("these tests need a C compiler `cc` on PATH: {e}"));
    assert!(out.status.success(), "cc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    lib
}
