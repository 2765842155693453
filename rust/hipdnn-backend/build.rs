//! The constants of `abi` come from hipDNN's ABI data file (`abi.toml`, next
//! to this file), the same file the mini hipDNN's C headers are generated
//! from: `hipdnn_abi::rust_out` writes `OUT_DIR/abi_numbers.rs`, which
//! `src/abi.rs` includes.
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let data = dir.join("abi.toml");
    println!("cargo:rerun-if-changed={}", data.display());
    let abi = hipdnn_abi::Abi::load(&data).unwrap_or_else(|e| {
        eprintln!("hipdnn-backend: {e}");
        std::process::exit(1);
    });
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("abi_numbers.rs");
    if let Err(e) = std::fs::write(&out, hipdnn_abi::rust_out::render(&abi)) {
        eprintln!("hipdnn-backend: cannot write {}: {e}", out.display());
        std::process::exit(1);
    }
}
