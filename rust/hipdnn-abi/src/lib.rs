//! hipDNN's backend ABI numbers, written once in a data file
//! (`rust/hipdnn-backend/abi.toml`) and turned into the two things that use
//! them: the Rust constants of `hipdnn_backend::abi` ([`rust_out`], run by
//! hipdnn-backend's build script) and the mini hipDNN's C headers
//! ([`c_out`], run by the `hipdnn-abi` tool from the test bed's CMake build).
//! One parser, one validation ([`model`]); neither output is committed.

pub mod c_out;
pub mod model;
pub mod rust_out;

pub use model::{Abi, Error};
