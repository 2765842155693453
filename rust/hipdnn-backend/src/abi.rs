//! hipDNN's backend ABI numbers: the types and enum values the wrapper uses.
//!
//! The numbers are written once, in hipDNN's ABI data file
//! (`rust/hipdnn-backend/abi.toml`, each with its source); the build script
//! generates from it one module per enum the wrapper uses (`status`,
//! `attr`, ...: the data file's `rust` keys), and the mini hipDNN's C
//! headers are generated from the same file (`rust/hipdnn-abi`). C enums are int-sized, so every enum-typed
//! parameter is an `i32` here and every value a plain constant (no Rust
//! enum: an unknown value coming back from the backend must not be
//! undefined behaviour); each module's `ALL` pairs its constants with their
//! C names.

use std::ffi::c_void;

/// `hipdnnStatus_t`.
pub type Status = i32;
/// `hipdnnHandle_t`: an opaque pointer owned by the backend.
pub type Handle = *mut c_void;
/// `hipdnnBackendDescriptor_t`: an opaque pointer owned by the backend.
pub type Descriptor = *mut c_void;

include!(concat!(env!("OUT_DIR"), "/abi_numbers.rs"));

/// The byte alignment every tensor has unless `TENSOR_BYTE_ALIGNMENT` says
/// otherwise (hipDNN's frontend sends the attribute only for another value,
/// since backends before it lack it); the backend rejects a data pointer
/// that is not a multiple of its tensor's alignment at execute.
pub const DEFAULT_TENSOR_ALIGNMENT: i64 = 16;

#[cfg(test)]
pub(crate) mod tests;
